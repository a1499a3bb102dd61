"""Executability: can the sequence a be executed, in order, from s?

Negatives are sequences that some nearby state can execute (a random walk from a state
one or two moves away from s): each is internally consistent, so only s tells it
apart from a positive. Every sequence of action kinds is balanced between labels.
"""

from __future__ import annotations

import random
from itertools import product

from ..splits.strata import Stratum
from .base import Item, TaskConfig, TaskModule
from .checking import execute, replay
from .world import World


def cells(world: World, cfg: TaskConfig) -> list[list[tuple]]:
    return [[(n, "sequence", kinds) for kinds in product(world.schemas, repeat=n)]
            for n in cfg.lengths]


def non_executable(world: World, rng: random.Random, state: int,
                   kinds: tuple[str, ...]) -> tuple[list[int], int] | None:
    """A sequence with these kinds executable from a state near `state` but not from
    `state`; returns (actions, index of the first failing step)."""
    nearby = world.walk(rng, state, rng.choice((1, 2)))
    if nearby is None:
        return None
    walked = world.walk(rng, nearby[1][-1], len(kinds), kinds)
    if walked is None:
        return None
    actions = walked[0]
    _, failed = world.task.execute(state, actions)
    if failed is None:
        return None
    return actions, failed


def sample(world: World, rng: random.Random, cfg: TaskConfig, stratum: Stratum) -> Item | None:
    length, _, kinds = stratum.cell
    state = world.sample_state(rng)
    meta = {"action_kinds": list(kinds)}
    if stratum.label:
        walked = world.walk(rng, state, length, kinds)
        if walked is None:
            return None
        return Item(init=state, actions=walked[0], label=True, meta=meta)
    found = non_executable(world, rng, state, kinds)
    if found is None:
        return None
    actions, failed = found
    meta["failure_step"] = failed + 1
    return Item(init=state, actions=actions, label=False, meta=meta)


def texts(parts: dict[str, str]) -> tuple[str, str]:
    return parts["state"], parts["actions"]


def answer(problem: dict) -> bool:
    task, state, actions = replay(problem)
    return execute(task, state, actions)[1] is None


MODULE = TaskModule("executability", "", cells, sample, texts, answer)
