"""Executability: can the sequence a be executed, in order, from s?

Negatives are sequences that some other state can execute (a random walk from a state
one or two moves away from s, or from any state): each is internally consistent, so
only s tells it apart from a positive. Every sequence of action kinds is balanced between labels.
"""

from __future__ import annotations

import random
from itertools import product

from racbench.splits.strata import Stratum
from racbench.generators.base import Item, TaskConfig, TaskModule
from racbench.generators.checking import execute, replay
from racbench.generators.world import World


def cells(world: World, cfg: TaskConfig) -> list[list[tuple]]:
    return [[(n, "sequence", kinds) for kinds in product(world.schemas, repeat=n)]
            for n in cfg.lengths]


# Half the negatives start one or two moves away from s (hard: they fail late and
# subtly), half anywhere (their sequences are then distributed like the positives'),
# which keeps a query-only classifier at chance.
NEARBY_SHARE = 0.5


def non_executable(world: World, rng: random.Random, state: int,
                   kinds: tuple[str, ...]) -> tuple[list[int], int, list[int]] | None:
    """A sequence with these kinds executable from a state near `state` but not from
    `state`; returns (actions, index of the first failing step, the states it visits
    from that nearby state)."""
    if rng.random() < NEARBY_SHARE:
        nearby = world.walk(rng, state, rng.choice((1, 2)))
        if nearby is None:
            return None
        start = nearby[1][-1]
    else:
        start = world.sample_state(rng)
    walked = world.walk(rng, start, len(kinds), kinds)
    if walked is None:
        return None
    actions = walked[0]
    _, failed = world.task.execute(state, actions)
    if failed is None:
        return None
    return actions, failed, walked[1]


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
    actions, failed, _ = found
    meta["failure_step"] = failed + 1
    return Item(init=state, actions=actions, label=False, meta=meta)


def texts(parts: dict[str, str]) -> tuple[str, str]:
    return parts["state"], parts["actions"]


def answer(problem: dict) -> bool:
    task, state, actions = replay(problem)
    return execute(task, state, actions)[1] is None


MODULE = TaskModule("executability", "", cells, sample, texts, answer)
