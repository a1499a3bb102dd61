"""From a config and a row position to a finished row: stratum, sample, names, text.

`ConfigRows` is built once per config (it finds which strata are feasible) and then
makes any row independently of the others, so rows can be made in any order, by any
number of workers, with identical results.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from racbench.errors import InputError
from racbench.splits.dedup import problem_key
from racbench.splits.seeding import derive_seed
from racbench.splits.strata import Stratum, stratum_for
from racbench.generators import TASK_MODULES
from racbench.generators.base import Item, TaskConfig, assign_names, row_columns, symbolic_problem
from racbench.text.trac import Verbalizer

SAMPLE_TRIES = 2000  # redraws of one row before the stratum is declared exhausted
# A stratum is kept only if each label succeeds `needed` times within `tries` draws, so
# that a kept stratum is common enough never to exhaust SAMPLE_TRIES (fewer draws where
# the oracle has to search instead of looking up).
PROBE = {"enumerated": (300, 3), "searched": (30, 2)}


class GenerationError(InputError):
    """A request the generator cannot meet (e.g. more distinct rows than exist)."""


@dataclass(frozen=True)
class Row:
    columns: dict
    key: str  # canonical problem hash, for duplicate and leakage checks


def probe_jobs(cfg: TaskConfig) -> list[tuple]:
    """Every (cell, label, variant) whose feasibility decides a config's strata."""
    module = TASK_MODULES[cfg.task]
    variants = max(1, len(module.negative_kinds))
    return [(cell, label, v) for group in module.cells(cfg.world, cfg) for cell in group
            for label, v in [(True, 0)] + [(False, v) for v in range(variants)]]


def probe(cfg: TaskConfig, cell: tuple, label: bool, variant: int) -> bool:
    """Can this stratum be sampled often enough? Deterministic for given arguments."""
    module, world = TASK_MODULES[cfg.task], cfg.world
    rng = random.Random(derive_seed("probe", cfg, cell, label, variant))
    stratum = Stratum(label, cell, variant)
    tries, needed = PROBE["enumerated" if world.space is not None else "searched"]
    found = 0
    for _ in range(tries):
        found += module.sample(world, rng, cfg, stratum) is not None
        if found == needed:
            return True
    return False


class ConfigRows:
    def __init__(self, name: str, cfg: TaskConfig, seed: int,
                 feasible: dict[tuple, bool] | None = None):
        """`feasible` maps probe_jobs(cfg) to probe results; computed here if absent."""
        self.name = name
        self.cfg = cfg.validate()
        self.seed = seed
        self.module = TASK_MODULES[cfg.task]
        self.world = cfg.world
        self.verbalizer = Verbalizer(cfg.domain)
        self.variants = max(1, len(self.module.negative_kinds))
        if feasible is None:
            feasible = {job: probe(cfg, *job) for job in probe_jobs(cfg)}
        self.groups, self.excluded = self._feasible_groups(feasible)
        if not self.groups:
            raise GenerationError(f"config '{name}': no query form can be generated for "
                                  f"{cfg.task} with {cfg.n_objects} objects and length "
                                  f"{list(cfg.lengths)}")

    def _feasible_groups(self, feasible: dict[tuple, bool]) -> tuple[list[list[tuple]], list[tuple]]:
        """Keep the cells where a positive and at least one kind of negative can be
        sampled; remember which negative kinds each allows."""
        groups, excluded = [], []
        self.cell_variants: dict[tuple, list[int]] = {}
        for group in self.module.cells(self.world, self.cfg):
            kept = []
            for cell in group:
                variants = [v for v in range(self.variants) if feasible[(cell, False, v)]]
                if variants and feasible[(cell, True, 0)]:
                    kept.append(cell)
                    self.cell_variants[cell] = variants
                else:
                    excluded.append(cell)
            if kept:
                groups.append(kept)
        return groups, excluded

    def row(self, split: str, index: int, code: int, attempt: int = 0) -> Row:
        seed = derive_seed(self.seed, self.name, split, index, attempt)
        rng = random.Random(seed)
        stratum = stratum_for(code, self.groups, self.variants)
        allowed = self.cell_variants[stratum.cell]
        if stratum.variant not in allowed:  # e.g. no suboptimal one-step observation exists
            stratum = Stratum(stratum.label, stratum.cell, allowed[stratum.variant % len(allowed)])
        for _ in range(SAMPLE_TRIES):
            item = self.module.sample(self.world, rng, self.cfg, stratum)
            if item is not None:
                break
        else:
            raise GenerationError(f"config '{self.name}': could not sample a row for "
                                  f"stratum {stratum} in {SAMPLE_TRIES} tries")
        assign_names(item, self.world, rng, self.cfg.names)
        problem = symbolic_problem(self.module.name, self.world, item, self.module.query_role)
        context, query = self.module.texts(self._parts(item, rng))
        columns = row_columns(row_id=f"{self.name}-{split}-{index:06d}", task=self.module.name,
                              context=context, query=query, item=item, problem=problem,
                              world=self.world, seed=seed)
        return Row(columns, problem_key(problem))

    def _parts(self, item: Item, rng: random.Random) -> dict[str, str]:
        """The text pieces a task may place in its context or query."""
        world, verbal, names = self.world, self.verbalizer, item.names
        facts = [verbal.fact_sentence(world.named(a, names))
                 for a in world.task.atoms_of(item.init)]
        rng.shuffle(facts)
        parts = {
            "state": " ".join(facts),
            "actions": " ".join(verbal.action_sentence(world.named(world.action_term(k), names))
                                for k in item.actions),
        }
        if item.query:
            literals = [(world.named(world.atom_term(l.atom), names), l.positive)
                        for l in item.query]
            parts["query_sentences"] = " ".join(verbal.fact_sentence(a, p) for a, p in literals)
            parts["goal_statement"] = verbal.goal_statement(literals)
            parts["goal_sentence"] = verbal.sentence(verbal.conjunction(literals))
        return parts
