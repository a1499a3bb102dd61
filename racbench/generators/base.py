"""What every TRAC task generator shares: its config, the item it samples, the row.

A task module (projection.py, ...) supplies `cells(world, cfg)` (the surface forms a
row can take, grouped so groups weigh equally), `sample(world, rng, cfg, stratum)`
returning an Item or None (None = redraw), `texts(item, world, verbalizer, rng)`, and
`answer(problem)` which re-derives the label from a row's symbolic problem alone.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Callable

from racbench.errors import InputError
from racbench import __version__
from racbench.splits.names import POOLS, name_pool
from racbench.splits.strata import Stratum
from racbench.generators.world import GoalLiteral, World, blocksworld

TASKS = ("projection", "executability", "planning", "goal_recognition")
QUERY_KINDS = ("literal", "conjunction")
DOMAINS = ("blocksworld",)
MAX_LENGTH = 8


class ConfigError(InputError):
    """A config value outside what is accepted; the message names field and values."""


@dataclass(frozen=True)
class TaskConfig:
    task: str
    n_objects: int = 5
    lengths: tuple[int, ...] = (1,)
    query_kinds: tuple[str, ...] = QUERY_KINDS
    names: str = "seen"
    domain: str = "blocksworld"

    def validate(self) -> "TaskConfig":
        if self.task not in TASKS:
            raise ConfigError(f"unknown task '{self.task}'; accepted: {', '.join(TASKS)}")
        if self.domain not in DOMAINS:
            raise ConfigError(f"unknown domain '{self.domain}'; accepted: {', '.join(DOMAINS)}")
        if self.names not in POOLS:
            raise ConfigError(f"unknown name pool '{self.names}'; accepted: {', '.join(POOLS)}")
        pool = len(name_pool(self.names))
        if not 2 <= self.n_objects <= pool:
            raise ConfigError(f"objects must be between 2 and {pool} (the size of the "
                              f"'{self.names}' name pool), got {self.n_objects}")
        if not self.lengths or any(not 1 <= n <= MAX_LENGTH for n in self.lengths):
            raise ConfigError(f"length must be between 1 and {MAX_LENGTH}, got "
                              f"{list(self.lengths)}")
        bad = [k for k in self.query_kinds if k not in QUERY_KINDS]
        if bad or not self.query_kinds:
            raise ConfigError(f"unknown query kind {bad or '(none)'}; accepted: "
                              f"{', '.join(QUERY_KINDS)}")
        return self

    @property
    def world(self) -> World:
        return blocksworld(self.n_objects)


@dataclass
class Item:
    """One sampled problem over world slots, before names and text."""

    init: int
    actions: list[int]
    label: bool
    query: tuple[GoalLiteral, ...] = ()
    query_kind: str = "sequence"
    optimal_plan_length: int | None = None
    meta: dict = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)


def assign_names(item: Item, world: World, rng: random.Random, pool: str) -> None:
    chosen = rng.sample(name_pool(pool), world.n_objects)
    item.names = dict(zip(world.slots, chosen))


def literal_json(world: World, lit: GoalLiteral, names: dict[str, str]) -> dict:
    return {"atom": list(world.named(world.atom_term(lit.atom), names)),
            "positive": lit.positive}


def symbolic_problem(task: str, world: World, item: Item, query_role: str) -> dict:
    """The problem as JSON-ready data with surface names: enough to re-derive the label."""
    names = item.names
    problem = {
        "task": task,
        "domain": world.domain.name,
        "objects": sorted(names.values()),
        "init": sorted(list(world.named(a, names)) for a in world.task.atoms_of(item.init)),
        "actions": [list(world.named(world.action_term(k), names)) for k in item.actions],
    }
    if query_role:
        problem[query_role] = [literal_json(world, lit, names) for lit in item.query]
    return problem


def row_columns(*, row_id: str, task: str, context: str, query: str, item: Item,
                problem: dict, world: World, seed: int) -> dict:
    symbolic = dict(problem, answer=item.label)
    return {
        "id": row_id,
        "task": task,
        "context": context,
        "query": query,
        "label": int(item.label),
        "n_objects": world.n_objects,
        "n_actions": len(item.actions),
        "query_kind": item.query_kind,
        "optimal_plan_length": item.optimal_plan_length,
        "symbolic": json.dumps(symbolic, sort_keys=True, separators=(",", ":")),
        "metadata": json.dumps(item.meta, sort_keys=True, separators=(",", ":")),
        "generator_version": __version__,
        "seed": seed,
    }


@dataclass(frozen=True)
class TaskModule:
    name: str
    query_role: str  # key of the query/goal literals in the symbolic form ('' for none)
    cells: Callable
    sample: Callable[[World, random.Random, TaskConfig, Stratum], Item | None]
    texts: Callable
    answer: Callable[[dict], bool]
    negative_kinds: tuple[str, ...] = ()  # variants of negatives, balanced exactly
