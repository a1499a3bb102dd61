"""Re-deriving labels from a row's symbolic problem alone, through the STRIPS engine.

Used by each task's `answer` (the verifier beside its generator) and by tests; it
grounds the domain over the row's own object names, so nothing from generation-time
state (slots, caches, seeds) is trusted.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from racbench.worlds.strips.grounding import ground
from racbench.worlds.strips.model import Literal, Problem
from racbench.worlds.strips.pddl_reader import parse_domain
from racbench.worlds.strips.task import Condition, GroundTask

DOMAIN_FILES = {"blocksworld": "blocksworld_trac/domain.pddl"}


@lru_cache(maxsize=None)
def _domain(name: str):
    path = DOMAIN_FILES[name]
    return parse_domain(resources.files("racbench.data").joinpath("domains", path).read_text(),
                        path)


@lru_cache(maxsize=64)
def _task(domain_name: str, objects: tuple[str, ...]) -> GroundTask:
    domain = _domain(domain_name)
    block = next(iter(domain.supertypes), "object")
    # every fluent atom is reachable from 'all blocks on the table'
    init = frozenset([("ontable", o) for o in objects] + [("clear", o) for o in objects])
    problem = Problem("check", domain.name, {o: block for o in objects}, init, ())
    return ground(domain, problem)


def replay(problem: dict) -> tuple[GroundTask, int, list[int]]:
    """(ground task, initial state, action indices) of a symbolic problem.

    An action term the grounding does not know is never applicable; it maps to -1."""
    task = _task(problem["domain"], tuple(problem["objects"]))
    state = task.state_of(tuple(a) for a in problem["init"])
    actions = [task.action_index.get(tuple(a), -1) for a in problem["actions"]]
    return task, state, actions


def execute(task: GroundTask, state: int, actions: list[int]) -> tuple[int, int | None]:
    """Like GroundTask.execute, with unknown actions (-1) failing where they stand."""
    for step, k in enumerate(actions):
        if k < 0 or not task.actions[k].applicable(state):
            return state, step
        state = task.actions[k].apply(state)
    return state, None


def condition_of(task: GroundTask, literals: list[dict]) -> Condition | None:
    return task.condition(Literal(tuple(l["atom"]), l["positive"]) for l in literals)
