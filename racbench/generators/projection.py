"""Projection: does query q hold after executing the applicable sequence a from s?"""

from __future__ import annotations

import random

from racbench.worlds.strips.task import Condition
from racbench.splits.strata import Stratum
from racbench.generators.base import Item, TaskConfig, TaskModule
from racbench.generators.checking import condition_of, execute, replay
from racbench.generators.queries import form_cells, form_names, pick_query
from racbench.generators.world import World


def cells(world: World, cfg: TaskConfig) -> list[list[tuple]]:
    return [[(n, kind, forms) for forms in form_cells(world, kind)]
            for n in cfg.lengths for kind in cfg.query_kinds]


def sample(world: World, rng: random.Random, cfg: TaskConfig, stratum: Stratum) -> Item | None:
    length, kind, forms = stratum.cell
    walked = world.walk(rng, world.sample_state(rng), length)
    if walked is None:
        return None
    actions, states = walked
    query = pick_query(world, rng, states[-1], forms, stratum.label)
    if query is None:
        return None
    return Item(init=states[0], actions=actions, label=stratum.label, query=query,
                query_kind=kind, meta={"query_forms": form_names(forms)})


def texts(parts: dict[str, str]) -> tuple[str, str]:
    return f"{parts['state']} {parts['actions']}", parts["query_sentences"]


def answer(problem: dict) -> bool:
    task, state, actions = replay(problem)
    end, failed = execute(task, state, actions)
    if failed is not None:
        raise ValueError("projection sequence is not executable")
    cond: Condition | None = condition_of(task, problem["query"])
    return cond is not None and cond.holds(end)


MODULE = TaskModule("projection", "query", cells, sample, texts, answer)
