"""Planning (verification): does the sequence a, executed from s, achieve goal g?

Goals are achievable within N actions and not already true in s. Negatives come in
two kinds, half each and recorded in the row metadata: sequences that are not
executable, and executable ones that miss the goal (the goal then comes from a walk
that shares a prefix with the sequence, so it is about the same blocks).
"""

from __future__ import annotations

import random

from racbench.worlds.strips.search import SearchBudgetExceeded
from racbench.splits.strata import Stratum
from racbench.generators.base import Item, TaskConfig, TaskModule
from racbench.generators.checking import condition_of, execute, replay
from racbench.generators.executability import non_executable
from racbench.generators.queries import form_cells, form_names, goal_exists, pick_goal
from racbench.generators.world import World

NEGATIVE_KINDS = ("not_executable", "misses_goal")
OTHER_WALKS = 4  # walks tried for a goal the sequence misses before redrawing the state


def cells(world: World, cfg: TaskConfig) -> list[list[tuple]]:
    return [[(n, kind, forms) for forms in form_cells(world, kind)]
            for n in cfg.lengths for kind in cfg.query_kinds]


def sample(world: World, rng: random.Random, cfg: TaskConfig, stratum: Stratum) -> Item | None:
    length, kind, forms = stratum.cell
    negative_kind = NEGATIVE_KINDS[stratum.variant]
    state = world.sample_state(rng)
    walked = world.walk(rng, state, length)
    if walked is None:
        return None
    actions, states = walked
    meta = {"goal_forms": form_names(forms)}
    # Both conditions are required whatever the label, so that positives and negatives
    # share one distribution of sequences: the sequence achieves some goal of these
    # forms, and a walk sharing a prefix with it achieves one that it misses.
    if not goal_exists(world, state, states[-1], forms):
        return None
    missed = None
    for _ in range(OTHER_WALKS):
        split = rng.randrange(length)
        other = world.walk(rng, states[split], length - split)
        if other is not None:
            missed = pick_goal(world, rng, state, other[1][-1], forms,
                               must_fail_in=(states[-1],))
            if missed is not None:
                break
    if missed is None:
        return None
    if stratum.label:
        goal = pick_goal(world, rng, state, states[-1], forms)
    else:
        meta["negative_kind"] = negative_kind
        goal = missed
        if negative_kind == "not_executable":
            found = non_executable(world, rng, state,
                                   tuple(world.task.actions[k].name for k in actions))
            if found is None:
                return None
            actions, failed, visited = found
            if not goal_exists(world, visited[0], visited[-1], forms):
                return None
            meta["failure_step"] = failed + 1
    if goal is None:
        return None
    try:
        optimal = world.distance(state, goal)
    except SearchBudgetExceeded:  # redraw rather than guess
        return None
    return Item(init=state, actions=actions, label=stratum.label, query=goal, query_kind=kind,
                optimal_plan_length=optimal, meta=meta)


def texts(parts: dict[str, str]) -> tuple[str, str]:
    return f"{parts['state']} {parts['goal_statement']}", parts["actions"]


def answer(problem: dict) -> bool:
    task, state, actions = replay(problem)
    end, failed = execute(task, state, actions)
    goal = condition_of(task, problem["goal"])
    return failed is None and goal is not None and goal.holds(end)


MODULE = TaskModule("planning", "goal", cells, sample, texts, answer, NEGATIVE_KINDS)
