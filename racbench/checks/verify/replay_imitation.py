"""Verifying gold rows by replay: trajectory rows (one per gold trajectory) and the
step rows of behaviour cloning and return-conditioned configs
(racbench/tasks/gold_trajectories.py), of the science lab and of rule worlds.

A fresh environment of the row's task, variation and simplifications plays the task's
oracle: the row's commands (a step row's `symbolic.actions`, a trajectory's steps) must
be the oracle's, its target action the oracle's next one, and what the environment
shows after those commands (observation, score or return-to-go, look, inventory, valid
actions; the history of a step row) must be what the row stores. The lab has no second
engine, so this checks that a row is what the world gives, not the world itself. A
rule world's row is replayed in a fresh episode rebuilt from the rule set and layout of
its `symbolic`, the oracle's search run there anew; its split must be the one every
assignment of its rules belongs to (worlds/rules/grammar.py).

Rows of one trajectory come one after another in a shard, so the last replay is kept
for the next row: a config is replayed in about the time it took to build.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable

import numpy as np

from racbench.checks.verify.report import Claims, RowCheck
from racbench.checks.verify.words import say, unusable
from racbench.splits.dedup import canonical_json
from racbench.tasks.gold_trajectories import STEP_KINDS, reward, sw_points
from racbench.worlds.science.env import ScienceEnv

TRAJECTORY_COLUMNS = frozenset({"task", "variation", "simplifications", "steps"})
SEVERAL_SPLITS = "several splits"  # a rule episode's split when its pairs span several
_SITUATION = ("observation", "score", "look", "inventory", "valid_actions")


def replays(columns) -> bool:
    """Whether rows with these columns are the science lab's gold rows (a trajectory
    row has no `symbolic`: its steps are its commands)."""
    return TRAJECTORY_COLUMNS <= set(columns) or {"symbolic", "history", "step"} <= set(columns)


@dataclass
class Replay:
    """One play of the oracle in a fresh environment: what it showed before each of
    its commands, and after the last one."""

    key: tuple
    task_description: str
    split: str
    actions: list
    seen: list  # len(actions) + 1 situations
    points: Callable = sw_points  # a score as returns count it

    @property
    def final(self) -> int:
        return self.points(self.seen[-1]["score"])


_LAST: Replay | None = None


def replay(task: str, variation: int, simplifications: str) -> Replay:
    global _LAST
    key = (task, variation, simplifications)
    if _LAST is not None and _LAST.key == key:
        return _LAST
    env = ScienceEnv(task, variation, simplifications)
    observation, info = env.reset()
    description = info["task_description"]
    seen = [_situation(observation, info)]
    actions = []
    for action in env.task_spec.oracle(env):
        observation, _, terminated, truncated, info = env.step(action)
        actions.append(action)
        seen.append(_situation(observation, info))
        if terminated or truncated:
            break
    _LAST = Replay(key, description, env.task_spec.split_of(variation), actions, seen)
    return _LAST


def replay_rules(sym: dict) -> Replay:
    """The oracle's play of the episode `sym` names, in a fresh episode rebuilt from its
    rule set and layout, the oracle's search run anew."""
    from racbench.worlds.rules.grammar import pair_split
    from racbench.worlds.rules.oracle import solve
    from racbench.worlds.rules.trajectory import oracle_play
    from racbench.worlds.rules.world import fresh_world

    global _LAST
    key = ("rules", canonical_json([sym["rules"], sym["layout"]]))
    if _LAST is not None and _LAST.key == key:
        return _LAST
    world, state = fresh_world(sym)
    plan = solve(world.episodes[0].episode) or []
    start, steps = oracle_play(world, 0, plan, True)
    splits = {pair_split(*pair) for pair in world.episodes[0].rules.pairs()}
    _LAST = Replay(key, world.task_description(state, world.text()),
                   splits.pop() if len(splits) == 1 else SEVERAL_SPLITS, plan,
                   [start] + steps, reward)
    return _LAST


def _situation(observation: str, info: dict) -> dict:
    return {"observation": observation, "score": info["score"], "look": info["look"],
            "inventory": info["inventory"], "valid_actions": list(info["valid_actions"])}


def _f32(x) -> float:
    return float(np.float32(x))


def check(row: dict) -> RowCheck | None:
    """The replay check of a gold row, or None if `row` is not one."""
    if "steps" in row and "symbolic" not in row:
        return _checked(_check_trajectory, row, None)
    sym = row.get("symbolic")
    try:
        sym = json.loads(sym) if isinstance(sym, str) else sym
    except ValueError:
        return None
    if isinstance(sym, dict) and sym.get("kind") == "trajectory" and "steps" in row:
        return _checked(_check_trajectory, row, sym)
    if not isinstance(sym, dict) or sym.get("kind") not in STEP_KINDS:
        return None
    return _checked(_check_step, row, sym)


def _replay_of(row: dict, sym: dict | None, claims: Claims) -> Replay:
    """The replay of the trajectory a row names (science: by its task, variation and
    simplifications; a rule world: by its symbolic record), its names checked."""
    if sym is not None and sym.get("world") == "rules":
        episode = sym["episode"]
        claims.expect("row", [row["task"], row["id"].split("/")[0], row["variation"],
                              row["simplifications"]],
                      [f"rules/{sym['game']}", episode, int(episode.rsplit("-", 1)[1]), ""])
        return replay_rules(sym)
    if sym is None:
        sym = row
    else:
        claims.expect("row", [row["task"], row["variation"], row["simplifications"]],
                      [sym["task"], int(sym["variation"]), sym["simplifications"]])
    return replay(sym["task"], int(sym["variation"]), sym["simplifications"])


def _checked(check_fn, row: dict, sym) -> RowCheck:
    claims = Claims()
    try:
        check_fn(row, sym, claims)
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        claims.fail("symbolic", unusable(exc, replayed=True))
    return claims.result()


def _check_where(row: dict, run: Replay, claims: Claims) -> None:
    claims.expect("split", row["split"], run.split)
    claims.expect("task_description", row["task_description"], run.task_description)


def _check_seen(stored: dict, derived: dict, full: bool, claims: Claims, where: str,
                score: bool = True) -> None:
    """A stored situation against the replay's (look, inventory and valid actions
    only if the row was built with them, else they must be empty)."""
    claims.expect("observation", stored["observation"], derived["observation"], where)
    if score:
        claims.expect("score", _f32(stored["score"]), _f32(derived["score"]), where)
    for key in ("look", "inventory", "valid_actions"):
        expected = derived[key] if full else type(derived[key])()
        claims.expect(key, list(stored[key]) if key == "valid_actions" else stored[key],
                      expected, where)


def _check_trajectory(row: dict, sym: dict | None, claims: Claims) -> None:
    run = _replay_of(row, sym, claims)
    _check_where(row, run, claims)
    steps = row["steps"]
    claims.expect("n_steps", row["n_steps"], len(run.actions))
    claims.expect("commands", [s["action"] for s in steps], run.actions)
    full = bool(sym["valid_actions"]) if sym else bool(steps and steps[0]["look"])
    for i, step in enumerate(steps[:len(run.actions)]):
        _check_seen(step, run.seen[i + 1], full, claims, say("after_step", step=i + 1))
    claims.expect("final_score", _f32(row["final_score"]), _f32(run.seen[-1]["score"]))


def _check_step(row: dict, sym: dict, claims: Claims) -> None:
    run = _replay_of(row, sym, claims)
    _check_where(row, run, claims)
    t = len(sym["actions"])
    claims.expect("commands", sym["actions"], run.actions[:t], say("oracles"))
    if t >= len(run.actions):
        claims.fail("action", say("oracle_stops", commands=len(run.actions)))
        return
    claims.expect("step", row["step"], t)
    claims.expect("n_steps", row["n_steps"], len(run.actions))
    claims.expect("action", [row["action"], sym["answer"]], [run.actions[t]] * 2,
                  say("oracles_next"))
    rtg = sym["kind"] == "return_conditioned"
    _check_seen(row, run.seen[t], bool(sym["valid_actions"]), claims, say("at_step", step=t),
                not rtg)
    history = []
    for i in range(max(0, t - int(sym["history"])), t):
        past = {"observation": run.seen[i]["observation"]}
        if rtg:
            past["return_to_go"] = run.final - run.points(run.seen[i]["score"])
        past["action"] = run.actions[i]
        history.append(past)
    claims.expect("history", row["history"], history)
    if rtg:
        claims.expect("return_to_go", row["return_to_go"],
                      run.final - run.points(run.seen[t]["score"]))
