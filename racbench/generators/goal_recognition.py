"""Goal recognition: is the observed sequence a a prefix of some optimal plan for g?

Every candidate goal is false in s, reachable (it holds at the end of a random walk of
N to N + 2 moves) and at least N actions away, so the length of the observation never
rules a goal out by itself. Negatives come in two kinds, half
each: observations that move towards the goal but not optimally ('suboptimal'), and
observations that make no progress ('no_progress').
"""

from __future__ import annotations

import random

from racbench.worlds.strips.search import SearchBudgetExceeded, shortest_plan_length
from racbench.splits.strata import Stratum
from racbench.generators.base import Item, TaskConfig, TaskModule
from racbench.generators.checking import condition_of, execute, replay
from racbench.generators.queries import form_cells, form_names, pick_goal
from racbench.generators.world import World

NEGATIVE_KINDS = ("suboptimal", "no_progress")
WALK_TRIES = 12
GOAL_SLACK = 2  # goals lie up to N + GOAL_SLACK moves away
GOAL_TRIES = 6


def cells(world: World, cfg: TaskConfig) -> list[list[tuple]]:
    return [[(n, kind, forms) for forms in form_cells(world, kind)]
            for n in cfg.lengths for kind in cfg.query_kinds]


def _negative(world: World, rng: random.Random, state: int, goal, total: int, length: int,
              kind: str) -> list[int] | None:
    for _ in range(WALK_TRIES):
        walked = world.walk(rng, state, length)
        if walked is None:
            return None
        rest = world.distance(walked[1][-1], goal)
        if rest is None or rest + length == total:
            continue
        if (rest < total) == (kind == "suboptimal"):
            return walked[0]
    return None


def _far_goal(world: World, rng: random.Random, state: int, length: int, forms):
    """A goal of these forms, false in `state` and at least `length` actions away.

    Goals come from states a few moves past N away, so they are always achievable;
    a few draws share one state before the caller redraws it."""
    for _ in range(GOAL_TRIES):
        walked = world.walk(rng, state, length + rng.randrange(GOAL_SLACK + 1))
        if walked is None:
            return None
        goal = pick_goal(world, rng, state, walked[1][-1], forms)
        if goal is None:
            continue
        total = world.distance(state, goal)
        if total is not None and total >= length:
            return goal, total
    return None


def sample(world: World, rng: random.Random, cfg: TaskConfig, stratum: Stratum) -> Item | None:
    length, kind, forms = stratum.cell
    negative_kind = NEGATIVE_KINDS[stratum.variant]
    state = world.sample_state(rng)
    meta = {"goal_forms": form_names(forms)}
    try:
        found = _far_goal(world, rng, state, length, forms)
        if found is None:
            return None
        goal, total = found
        if stratum.label:
            plan = world.optimal_plan(rng, state, goal)
            actions = plan[:length] if plan else None
        else:
            meta["negative_kind"] = negative_kind
            actions = _negative(world, rng, state, goal, total, length, negative_kind)
    except SearchBudgetExceeded:
        return None
    if actions is None:
        return None
    return Item(init=state, actions=actions, label=stratum.label, query=goal, query_kind=kind,
                optimal_plan_length=total, meta=meta)


def texts(parts: dict[str, str]) -> tuple[str, str]:
    return f"{parts['state']} {parts['actions']}", parts["goal_sentence"]


def answer(problem: dict) -> bool:
    task, state, actions = replay(problem)
    end, failed = execute(task, state, actions)
    goal = condition_of(task, problem["goal"])
    if failed is not None or goal is None:
        return False
    total = shortest_plan_length(task, state, goal)
    rest = shortest_plan_length(task, end, goal)
    return total is not None and rest is not None and rest + len(actions) == total


MODULE = TaskModule("goal_recognition", "goal", cells, sample, texts, answer, NEGATIVE_KINDS)
