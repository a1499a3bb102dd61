"""From a config and a row position to a finished row, for every family and suite.

`ConfigRows` loads the worlds of every split (problem files, or the world a config
generates, shared by all splits), finds what each can give (bool: the cells, see
balance.survey_cells; mc: option sets; open: a question at all; problems that cannot
are left out and listed in `excluded`), and then makes any row independently of the
others from (seed, config, split, index, attempt), so rows can be made in any order by
any number of workers with identical bytes.

Balance: a row's position code fixes its target (racbench/splits/strata.py). bool:
label, kind of negative and cell (length and kind of subject), so labels are exactly
50/50 within every cell and groups of cells (lengths, one- or two-literal queries)
weigh equally; mc: the correct option's index = code % 4; open: nothing.
"""

from __future__ import annotations

import gc
import json
import math
import random
from bisect import bisect
from collections import Counter
from itertools import accumulate
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from racbench.version import __version__
from racbench.errors import GenerationError, ProbeRefusal
from racbench.splits.dedup import (canonical_json, json_str, member_json, object_json,
                                   symbolic_and_key)
from racbench.splits.draws import sample, shuffle
from racbench.splits.names import POOLS, name_pool
from racbench.splits.seeding import SeedsAfter, derive_seed, seeded_random
from racbench.splits.strata import Stratum, stratum_digits, stratum_for
from racbench.tasks import FAMILIES
from racbench.tasks.balance import (SURVEY_DRAWS, Cells, Survey, survey_cells, survey_limit,
                                    survey_options)
from racbench.tasks.base import goal_json
from racbench.text import sayer
from racbench.worlds.strips import limits
from racbench.worlds.strips.budget import take_dropped
from racbench.worlds.strips.search import SearchBudgetExceeded
from racbench.tasks.question import LETTERS, N_OPTIONS, Question, Target
from racbench.tasks.options import QUERY_KINDS, SPLITS, TRAC_DOMAIN
from racbench.tasks.schema import task_features
from racbench.tasks.symbolic_text import strips_symbolic, strips_symbolic_keyed
from racbench.text.phrasing import Names, TaskText
from racbench.worlds.rules.splits import check_splits, rule_world_summary
from racbench.worlds.rules.world import episode_worlds, split_world
from racbench.worlds.science.lab import lab
from racbench.worlds.strips.world import (ImplicitWorld, StripsWorld, forget_worlds,
                                          trac_world, wider_pools, world_for)

if TYPE_CHECKING:
    from racbench.tasks.config import TaskConfig

SAMPLE_TRIES = 2000
# mc rows without option sets (balance.pick_weighted) keep a fresh draw only if it offers
# options the survey saw both ways and passes the acceptance: on large problems that is
# 1 draw in 300 or so (justification on logistics00 6-0), each cheap, so 2,000 tries
# left about one row in a thousand unmade; a row that succeeds sooner is unchanged
WEIGHTED_TRIES = 20 * SAMPLE_TRIES
KIND_TRIES = 400  # situations tried in one problem for a bool cell before another problem
PROBE_TRIES = 40
CROWDED_AFTER = 8  # repeats in a row before a bool row is asked in another cell
WIDEN_AFTER = 32  # ... and before a row draws states near the goal from the wider pool
RARE_CELL_SWITCHES = 8  # other cells tried for a bool row whose cell draws cannot reach
_say = sayer("cli", ("generation.j2",))
TRAC_TEMPLATES = "blocksworld"  # TRAC's phrasing of its blocksworld (templates/blocksworld/)
_STR_KEYS = frozenset((str,))
PROBLEM_GOAL = "problem goal"  # a row's optimal_plan_length_to: what its plan length reaches


@dataclass(frozen=True)
class Row:
    columns: dict
    key: str  # canonical problem hash, for duplicate and leakage checks
    dropped: int = 0  # questions dropped for budget while drawing it (strips/budget.py)


def load_worlds(cfg: TaskConfig, splits, config_name: str = "", warm: bool = False
                ) -> dict[str, list[StripsWorld]]:
    """The worlds of each split: enumerated up to the limit of states in force, and
    implicit beyond it (see worlds/strips/world.py). With `warm`, their shared caches
    too."""
    worlds = {}
    for split in splits:
        if cfg.generated:
            worlds[split] = [trac_world(cfg.objects)]
            continue
        if cfg.rules:
            episodes = (cfg.rule_world_options(), split, 0, cfg.rule_episodes)
            worlds[split] = (list(episode_worlds(*episodes)) if cfg.form == "mc" and
                             cfg.family == "projection" else [split_world(*episodes)])
            continue
        if cfg.science:
            worlds[split] = [lab(cfg.science, int(v), cfg.simplifications)
                             for v in cfg.split_problems(split)]
            continue
        domain_file, problem_files = cfg.files(split)
        worlds[split] = []
        for path in problem_files:
            # beyond the enumeration limit, an implicit world answers by search
            world = world_for(domain_file, path, implicit=True)
            if cfg.names in POOLS and len(world.objects) > len(name_pool(cfg.names)):
                raise GenerationError(_say("too_many_objects", config=config_name,
                                           problem=world.label, objects=len(world.objects),
                                           names=len(name_pool(cfg.names)), pool=cfg.names))
            worlds[split].append(world)
    if cfg.rules:
        check_splits(worlds)
    if warm:
        for world in {id(w): w for ws in worlds.values() for w in ws}.values():
            if world.explicit:
                world.warm()
    return worlds


def _refuse_unreachable_goals(config: str, split: str, worlds: list) -> None:
    """If no problem of the split can reach its goal from its initial state, say so (a
    GenerationError naming the problem files): it is why such a split gives no rows,
    and no other reason should be blamed."""
    files = []
    for world in worlds:
        problem = getattr(world, "problem", None)
        if problem is None or world.goal_condition is not None and _goal_reached(world):
            return
        files.append(problem.source if problem.source != "<string>" else world.label)
    if files:
        raise GenerationError(_say("goal_unreachable", config=config, split=split,
                                   problems=files))


def _goal_reached(world) -> bool:
    """Can the goal be reached from the initial state (by any plan: `reaches_goal`)?
    True where a search cannot tell within its budget (the other message is then the
    better guess)."""
    try:
        return world.reaches_goal(world.initial)
    except SearchBudgetExceeded:
        return True


def release_worlds(dropped: bool = False) -> None:
    """Let go of the worlds loaded so far, once no config left to build needs them (the
    science labs too: each keeps its recent states' saved episodes, and a build of
    thirty tasks' variations kept them all, in every worker forked afterwards).
    `dropped`: the caller let go of other worlds of its own."""
    labs = lab.cache_info().currsize
    lab.cache_clear()
    # worlds hold reference cycles (caches of bound methods), so a full collection frees
    # them; none is made when nothing was let go: a build releases after each of its
    # configs, and a collection of a large heap per config (trac's 34 configs share one
    # world, never forgotten) took a tenth of the build's CPU for nothing
    if forget_worlds() or dropped or labs:
        gc.collect()


class _Unprobed(Exception):
    """A lazy config's rows found no world with option sets (ConfigRows._lazy_choice)."""


WEIGHTED = "weighted"  # a probe part of the second round: a weighted survey (ConfigRows.further_parts)


@dataclass(frozen=True, eq=False)
class FirstSurvey:
    """The first round's survey of a world, carried by its second-round part (which a
    build keys results by: hashed by identity), for the weighted survey to go on from."""
    survey: Survey


class ConfigRows:
    features = task_features()

    def __init__(self, name: str, cfg: TaskConfig, seed: int, splits=SPLITS,
                 probed: tuple | None = None, lazy: bool = False):
        """`probed` is a previous `probe_result()` of the same config (e.g. computed
        in a worker process); without it the problems are probed here, or, `lazy` (a
        stream's), as rows draw them where that can be (`_lazy_choice`): mc option
        surveys of one split, whose rows are exact (option sets in every split) as soon
        as one of its worlds has sets."""
        self._load(name, cfg, seed, splits)
        self._lazy = (probed is None and lazy and self._option_surveys()
                      and len(self.worlds) == 1)
        if self._lazy:  # every world, each surveyed when a row first draws it
            self.feasible = {split: list(ws) for split, ws in self.worlds.items()}
            self._world_survey, self._distinct = {}, len(self.probe_parts())
            return
        self._probed(probed)

    def _probed(self, probed: tuple | None) -> None:
        """Set up rows from the probe's result (made here if None)."""
        cfg = self.cfg
        if probed is None:
            probed = self.probe_result()
        feasible, excluded, surveys = probed
        self.excluded += excluded
        if cfg.form == "bool":
            self._bool_strata(surveys)
        else:
            self._feasible_problems(feasible, surveys)

    @property
    def cheap_rows(self) -> bool:
        """Are its rows cheap to make and small (a STRIPS or rule world's, not the science
        lab's, whose rows cost up to seconds)? A local build's worker then makes and
        writes larger shards whole (export/local_shards.py)."""
        return not self.cfg.science

    @classmethod
    def loaded(cls, name: str, cfg: TaskConfig, seed: int, splits) -> "ConfigRows":
        """Its worlds loaded and nothing probed: what a probe job (in a worker) works on,
        with `probe_parts`, `probe_part` and `probe_result`."""
        rows = cls.__new__(cls)
        rows._load(name, cfg, seed, splits)
        return rows

    def _load(self, name: str, cfg: TaskConfig, seed: int, splits) -> None:
        self.name = name
        self._lazy, self._refusal = False, None  # see __init__, _settle
        self.cfg = cfg.validate()
        self.seed = seed
        self.family = FAMILIES[cfg.family]
        self.n_variants = max(1, len(self.family.negative_kinds))
        self._texts: dict = {}  # id(domain) or a domainless world -> its TaskText
        self._targets: dict = {}  # (split, stratum digits) -> its bool Target (target_for)
        self._row_seeds: dict = {}  # split -> its rows' seeds by index and attempt (_row)
        self.worlds, self.excluded = load_worlds(cfg, splits, config_name=name), []
        # rows asked of each split, if `splits` says (split -> rows): surveys are sized by them
        self.asked = dict(splits) if isinstance(splits, dict) else {}

    # -- what each problem can give ---------------------------------------------------------
    def probe_parts(self) -> list[tuple[str, int]]:
        """The worlds a probe looks at, as (split, index) of each distinct world (a
        world of several splits, TRAC's generated blocks, is probed once: its probe
        depends on the config and the world only). Each is an independent job, so a
        config whose worlds are slow to survey (the lab's) is spread over workers."""
        seen, parts = set(), []
        for split, worlds in self.worlds.items():
            for i, world in enumerate(worlds):
                if id(world) not in seen:
                    seen.add(id(world))
                    parts.append((split, i))
        return parts

    def probe_part(self, part: tuple):
        """What one world can give: bool: its cells; mc with pools: its option survey;
        otherwise whether it gives a question of the first target at all. A part of
        `further_parts` ("weighted", split, index, first draws, FirstSurvey): its
        weighted survey, going on from the first round's draws."""
        if part[0] == WEIGHTED:
            _, split, i, first, *given = part
            return self._survey(self.worlds[split][i], weighted=True, first=first,
                                start=given[0].survey if given else None)
        split, i = part
        world = self.worlds[split][i]
        if self.cfg.form == "bool":
            return survey_cells(self.family.bool_pool, world, self.cfg, self._cells_seed(world),
                                self.n_variants, self.family.targeted, self._rows_of(world))
        if self.cfg.form == "mc" and self.family.pool_for("mc") is not None:
            return self._survey(world)
        return self._probe(world, self.targets()[0])

    def _cells_seed(self, world: StripsWorld) -> int:
        """A bool survey's seed. A world that says what its surveys are about
        (`survey_about`: the science lab's task, variation and simplifications) is
        surveyed alike by every config asking the same family the same kinds of
        question of it, whatever the config is called: the same draws, the same cells."""
        about = getattr(world, "survey_about", None)
        if about is None:
            return derive_seed("cells", self.name, world.label)
        return derive_seed("cells", self.cfg.family, *about, *self.cfg.query_kinds)

    def _rows_of(self, world: StripsWorld) -> float | None:
        """The rows the config asks of `world`: each split's rows shared evenly by its
        problems (None if the rows asked are not known)."""
        if not self.asked:
            return None
        return sum(self.asked[split] / len(worlds) for split, worlds in self.worlds.items()
                   for w in worlds if w is world)

    def _survey(self, world: StripsWorld, weighted: bool = False,
                first: int = SURVEY_DRAWS, start: Survey | None = None) -> Survey:
        return survey_options(self.family.pool_for("mc"), world, self.cfg,
                              derive_seed("acp-options", self.name, world.label), weighted,
                              first, start)

    def probe_result(self, parts: dict | None = None) -> tuple[dict, list, dict]:
        """(feasible, excluded, surveys): bool: the cells of each problem (surveys by
        (split, problem index)); mc: the option survey of each problem; open: which
        problems can give a question at all. `parts`: each `probe_parts` world's
        `probe_part`, if made elsewhere; else they are made here."""
        if parts is None:
            parts = {part: self.probe_part(part) for part in self.probe_parts()}
        found = self._by_problem(parts)
        feasible, excluded = {}, []
        surveys = found if self.cfg.form == "bool" or self._option_surveys() else {}
        if self.cfg.form == "mc" and surveys:
            exact = self._exact(surveys)
            if not exact:
                surveys = self._weighted_surveys(surveys, {
                    id(self.worlds[part[1]][part[2]]): survey for part, survey in parts.items()
                    if part[0] == WEIGHTED})
            for survey in surveys.values():
                survey.exact = exact
        for survey in found.values() if self._option_surveys() else ():
            survey._resume = None  # of no more use: not kept, nor sent to row makers
        for split, worlds in self.worlds.items():
            if self.cfg.form == "bool":
                excluded += [_say("excluded", where=f"{split}/{w.label}",
                                  why=_say("no_varying_subject"))
                             for i, w in enumerate(worlds) if not surveys[(split, i)].offered]
                continue
            if surveys:
                ok = [i for i in range(len(worlds)) if surveys[(split, i)].ok]
                why = _say("no_four_options" if next(iter(surveys.values())).exact else
                           "too_few_situations")
            else:
                ok = [i for i in range(len(worlds)) if found[(split, i)]]
                why = _say("no_target", target=_target_text(self.targets()[0]))
            excluded += [_say("excluded", where=f"{split}/{w.label}", why=why)
                         for i, w in enumerate(worlds) if i not in ok]
            feasible[split] = ok
        return feasible, excluded, surveys

    def further_parts(self, parts: dict) -> list[tuple]:
        """The probe's second round, given the first's results (`parts`, as for
        `probe_result`): for a config of option surveys without option sets, each world
        its join would survey further (`_weighted_surveys`), as a part
        ("weighted", split, index, first draws) an engine runs as a job like the first
        round's; none for any other config. Their results, given to `probe_result` with
        the first round's, spare its join (a build's driver, one config after another)
        those surveys."""
        if self.cfg.form != "mc" or not self._option_surveys():
            return []
        surveys = self._by_problem(parts)
        if self._exact(surveys):
            return []
        return [(WEIGHTED, split, i, first, FirstSurvey(surveys[(split, i)]))
                for (split, i), first in self._short(surveys)]

    def _option_surveys(self) -> bool:
        """Are this config's probes option surveys (mc rows from pools)?"""
        return self.cfg.form == "mc" and self.family.pool_for("mc") is not None

    def _by_problem(self, parts: dict) -> dict:
        """The first round's results (`probe_parts` world -> result) by (split, index)
        of every problem."""
        by_world = {id(self.worlds[part[0]][part[1]]): found for part, found in parts.items()
                    if part[0] != WEIGHTED}
        return {(split, i): by_world[id(w)] for split, worlds in self.worlds.items()
                for i, w in enumerate(worlds)}

    def _exact(self, surveys: dict) -> bool:
        """Option sets (exact balance) if every split has a problem with them."""
        return all(any(surveys[(split, i)].has_sets for i in range(len(worlds)))
                   for split, worlds in self.worlds.items())

    def _short(self, surveys: dict) -> list[tuple[tuple[str, int], int]]:
        """The worlds of a weighted config short of usable draws among subjects the fit
        can balance, once each (its first problem's (split, index)), with the draws
        their further survey starts from."""
        short, seen = [], set()
        for key, survey in surveys.items():
            world = self.worlds[key[0]][key[1]]
            if (not survey.weighted_ok and survey.seen_both()
                    and len(survey.right) < survey_limit(world) and id(world) not in seen):
                seen.add(id(world))  # its first draws are known short
                short.append((key, 2 * len(survey.right)))
        return short

    def _weighted_surveys(self, surveys: dict, further: dict) -> dict:
        """A weighted config's surveys, those short of usable draws among subjects the
        fit can balance surveyed further (`survey_options`' `weighted`; `further`:
        id(world) -> those made already, in the probe's second round). Done only
        once the config is known to lack option sets: fitting while surveying every
        problem of every mc config took the rule worlds' projection configs, whose
        hundreds of episodes are each a problem, from 45 s to over 15 minutes."""
        further = dict(further)
        for (split, i), first in self._short(surveys):
            world = self.worlds[split][i]
            if id(world) not in further:
                further[id(world)] = self._survey(world, weighted=True, first=first,
                                                  start=surveys[(split, i)])
        return {key: further.get(id(self.worlds[key[0]][key[1]]), survey)
                for key, survey in surveys.items()}

    def _probe(self, world: StripsWorld, target: Target) -> bool:
        rng = random.Random(derive_seed("acp-probe", self.name, world.label, target))
        return any(self.family.draw(world, rng, self.cfg, target) is not None
                   for _ in range(PROBE_TRIES))

    def _cell_order(self, split: str, cells: set) -> list[tuple]:
        """A group's cells in the order consecutive stratum codes take them (a run of
        rows takes a run of cells: a stream's block of 64 rows, 32; a split of n rows,
        the first n/2): an order seeded by the config and split, so any run is a uniform
        draw of the group. By name, runs clustered by the cells' first names: the lab's
        hard executability's first 32 cells on lifespan-shortest-lived were 27 "connect"
        of 173 verb triples; TRAC's expert executability's first block began all 64
        rows with "move" (69 of 197 cells); acp's 100-row splits of blocksworld
        projection asked 35 of its 103 cells, those named first (benchmarks/cell_runs.py)."""
        ordered = sorted(cells, key=repr)
        shuffle(random.Random(derive_seed(self.seed, self.name, split, "cell-order")), ordered)
        return ordered

    def _bool_strata(self, surveys: dict[tuple[str, int], Cells]) -> None:
        """Per split: the cells any of its problems offers, grouped by (length, arity of
        the subject); which problems offer each (cell, kind of negative)."""
        self.groups: dict[str, list[list[tuple]]] = {}
        self.offers: dict[tuple[str, tuple, int], list[StripsWorld]] = {}
        self.cell_variants: dict[tuple[str, tuple], list[int]] = {}
        for split, worlds in self.worlds.items():
            by_group: dict[tuple, set] = {}
            for i, world in enumerate(worlds):
                for cell, variants in surveys[(split, i)].offered.items():
                    by_group.setdefault((cell[0], self.family.arity(cell[1])), set()).add(cell)
                    for v in variants:
                        self.offers.setdefault((split, cell, v), []).append(world)
            if not by_group:
                _refuse_unreachable_goals(self.name, split, worlds)
                raise GenerationError(_say(
                    "no_bool_subject", config=self.name, split=split,
                    problems=[w.label for w in worlds], family=self.cfg.family,
                    domain=self.cfg.domain_label, budget_hint=_budget_hint(worlds)))
            self.groups[split] = [self._cell_order(split, by_group[g]) for g in sorted(by_group)]
            for cells in self.groups[split]:
                for cell in cells:
                    self.cell_variants[(split, cell)] = [
                        v for v in range(self.n_variants) if (split, cell, v) in self.offers]
            self.excluded += [_say("excluded", where=split, why=_say(
                                  "one_answer_only", family=self.cfg.family, cell=_cell_text(c)))
                              for c in sorted({c for i in range(len(worlds))
                                               for c in surveys[(split, i)].one_sided}
                                              - {c for g in self.groups[split] for c in g},
                                              key=repr)]

    def _feasible_problems(self, feasible: dict[str, list[int]], surveys: dict) -> None:
        self.feasible: dict[str, list[StripsWorld]] = {}
        self._world_survey: dict[int, Survey] = {}
        for split, indices in feasible.items():
            ok = [self.worlds[split][i] for i in indices]
            if not ok:
                what = _say("rows_with", target=_target_text(self.targets()[0]))
                weighted = surveys and not next(iter(surveys.values())).exact and any(
                    surveys[(split, i)].seen_both() for i in range(len(self.worlds[split])))
                if surveys and not weighted:
                    what = _say("options_never_vary")
                elif weighted:  # subjects seen both ways, but too few to balance
                    what = _say("options_unbalanced")
                _refuse_unreachable_goals(self.name, split, self.worlds[split])
                raise GenerationError(_say(
                    "no_problem_gives", config=self.name, split=split,
                    problems=[w.label for w in self.worlds[split]], family=self.cfg.family,
                    what=what, domain=self.cfg.domain_label,
                    budget_hint=_budget_hint(self.worlds[split])))
            self.feasible[split] = ok
            for i, w in zip(indices, ok):
                if surveys:
                    self._world_survey[id(w)] = surveys[(split, i)]

    # -- targets ------------------------------------------------------------------------
    def targets(self) -> list[Target]:
        return [Target("mc", index=0)] if self.cfg.form == "mc" else [Target("open")]

    def target_for(self, split: str, code: int) -> Target:
        form = self.cfg.form
        if form == "bool":
            # rows share a few strata: each one's target is made once (Targets are equal
            # whenever their strata are, and never changed), kept by the stratum's digits
            key = (split, *stratum_digits(code, self.groups[split], self.n_variants))
            found = self._targets.get(key)
            if found is not None:
                return found
            stratum = stratum_for(code, self.groups[split], self.n_variants)
            allowed = self.cell_variants[(split, stratum.cell)]
            if stratum.variant not in allowed:  # e.g. no suboptimal one-step observation
                stratum = Stratum(stratum.label, stratum.cell,
                                  allowed[stratum.variant % len(allowed)])
            found = Target("bool", stratum.label, variant=stratum.variant, cell=stratum.cell)
            self._targets[key] = found
            return found
        if form == "mc":
            return Target("mc", index=code % N_OPTIONS)
        return Target("open")

    def capacity(self, split: str) -> float:
        """An upper bound on distinct rows of a split: states times subjects, times the
        ways of naming the objects when names come from a pool."""
        total = 0.0
        for w in self.worlds[split]:
            if not w.explicit:
                return math.inf
            states = w.n_states
            names = (math.comb(len(name_pool(self.cfg.names)), len(w.objects))
                     if self.cfg.names in POOLS else 1)
            total += (states * names * max(len(w.task.actions), len(w.task.atoms), 1) *
                      (2 ** max(self.cfg.lengths)) * (len(w.task.atoms) + 1))
        return total

    # -- rows ---------------------------------------------------------------------------
    def row(self, split: str, index: int, code: int, attempt: int = 0) -> Row:
        """The row at `index` of `split`; `attempt` counts the draws in a row that
        repeated earlier rows (export/build.py). From WIDEN_AFTER on, the pool of states
        near the goal has run short: implicit worlds draw from their wider pool
        (`wider_pools`), which only such rows build."""
        if self._refusal is not None:
            raise self._refusal
        with wider_pools(attempt >= WIDEN_AFTER):
            try:
                return self._row(split, index, code, attempt)
            except _Unprobed:
                self._settle()
                return self._row(split, index, code, attempt)

    def row_batch(self, split: str, start: int, codes) -> list[Row]:
        """`[self.row(split, start + i, code) for i, code in enumerate(codes)]`, the same
        rows made stage by stage: every row's question drawn, then every row's names,
        texts, symbolic forms and keys, then columns. Each row keeps its own random
        stream and its stages run in the same order on it, and what the stages share
        (the world's and the phrasing's caches) answers alike whatever was asked before,
        so the rows are the same; a stage run over many rows keeps its code and data in
        the processor's caches, where a row going through every stage evicted them
        (docs/benchmarks.md: trac's rows). A lazy row maker's rows are made one by one."""
        if self._refusal is not None or self._lazy:
            return [self.row(split, start + i, code) for i, code in enumerate(codes)]
        with wider_pools(False):
            return self._finished(split, [self._drawn(split, start + i, code, 0)
                                          for i, code in enumerate(codes)])

    def _row(self, split: str, index: int, code: int, attempt: int) -> Row:
        return self._finished(split, [self._drawn(split, index, code, attempt)])[0]

    def _drawn(self, split: str, index: int, code: int, attempt: int) -> tuple:
        """A row's first stage: (index, seed, its random stream, target, world,
        question, questions dropped for budget while drawing it)."""
        seeds = self._row_seeds.get(split)
        if seeds is None:
            seeds = self._row_seeds[split] = SeedsAfter(self.seed, self.name, split)
        seed = seeds(index, attempt)  # derive_seed(self.seed, self.name, split, index, attempt)
        rng = seeded_random(seed)
        take_dropped()  # what earlier work in this process dropped is not this row's
        target = self.target_for(split, code)
        if target.form == "bool" and attempt >= CROWDED_AFTER:
            target = self._roomier_cell(split, target, rng)
        found = self._draw(split, target, rng)
        for _ in range(RARE_CELL_SWITCHES if target.form == "bool" and found is None else 0):
            # a cell the survey saw but draws hardly reach: the label in another cell
            target = self._roomier_cell(split, target, rng)
            found = self._draw(split, target, rng)
            if found is not None:
                break
        if found is None:
            raise GenerationError(_say("could_not_sample", config=self.name,
                                       target=_target_text(target), tries=self._tries(target)))
        world, q = found
        if target.form == "bool" and not target.label and self.family.negative_kinds:
            q.meta["negative_kind"] = self.family.negative_kinds[target.variant]
        if target.form == "bool" and self.family.literal_queries:
            q.meta["query_kind"] = QUERY_KINDS[self.family.arity(target.cell[1]) - 1]
        return index, seed, rng, target, world, q, take_dropped()

    def _finished(self, split: str, drawn: list[tuple]) -> list[Row]:
        """The rows of `_drawn`'s questions, each stage over all of them in turn (see
        `row_batch`); what they drop for budget is counted with the last row."""
        names = [self._names(world, rng) for _, _, rng, _, world, _, _ in drawn]
        for (_, _, _, target, _, q, _), named in zip(drawn, names):
            if named is not None and target.form == "open":
                q.answer_text = named.answer_text(q.answer_text)
        render, text = self.family.render, self._text
        said = [render(q, world, text(world).renamed(named), rng, target.form)
                for (_, _, rng, target, world, q, _), named in zip(drawn, names)]
        keyed = [self._symbolic_and_key(world, q, target, named)
                 for (_, _, _, target, world, q, _), named in zip(drawn, names)]
        rows = [Row(self._columns(split, index, seed, world, q, target, context, question,
                                  choices, symbolic), key, dropped)
                for (index, seed, _, target, world, q, dropped),
                (context, question, choices), (symbolic, key) in zip(drawn, said, keyed)]
        late = take_dropped()
        if late:
            rows[-1] = replace(rows[-1], dropped=rows[-1].dropped + late)
        return rows

    def _draw(self, split: str, target: Target, rng: random.Random):
        """(world, question) for the target from the split's problems that offer it, or
        None after `_tries(target)` draws."""
        if target.form == "bool":
            worlds = self.offers[(split, target.cell, target.variant)]
        else:
            worlds = self.feasible[split]
        choose = self._chooser(worlds)
        world, asked = None, target
        for tries in range(self._tries(target)):
            if target.form == "bool":
                if tries % KIND_TRIES == 0:
                    world = choose(rng)
            elif target.form == "mc" and self.family.pool_for("mc") is not None:
                # options from the survey
                world = self._lazy_choice(split, choose, rng) if self._lazy else choose(rng)
                asked = replace(target, survey=self._world_survey[id(world)])
            else:
                world = choose(rng)
            q = self.family.draw(world, rng, self.cfg, asked)
            if q is not None:
                return world, q
        return None

    def _lazy_choice(self, split: str, choose, rng: random.Random) -> StripsWorld:
        """A world drawn by `choose`, drawn again until its survey (made on its first
        draw) has option sets: `choose`'s law over the worlds a probe keeps, without
        surveying every world first (a rule world's 200 episodes cost a stream 4 to 8
        CPU-s before its first row). Once every world is surveyed and none has sets,
        the config goes on as probed (`_Unprobed`, `_settle`: weighted options).
        A stream asks no number of distinct rows, so a world whose sets are rare
        (`Survey.some_sets`) gives rows here, where a build's probe asks sets to be
        common in some world of each split (`_exact`)."""
        surveys = self._world_survey
        while True:
            world = choose(rng)
            survey = surveys.get(id(world))
            if survey is None:
                survey = surveys[id(world)] = self._survey(world)
            if survey.some_sets:
                return world
            if len(surveys) == self._distinct and not any(
                    s.some_sets for s in surveys.values()):
                raise _Unprobed

    def _settle(self) -> None:
        """A lazy config none of whose worlds has option sets: its probe, from the
        surveys its rows made, and rows as any probed config's from then on."""
        parts = {(split, i): self._world_survey[id(self.worlds[split][i])]
                 for split, i in self.probe_parts()}
        try:
            self._probed(self.probe_result(parts))
        except GenerationError as exc:  # raised again at every row (`row`)
            self._refusal = ProbeRefusal(str(exc))
            raise self._refusal from None
        self._lazy = False

    def _chooser(self, worlds: list):
        """`lambda rng: rng.choices(worlds, weights)[0]`, the same draw (one
        `rng.random()`, bisected into the cumulative weights, kept per list of worlds):
        bigger problems hold more distinct questions, so problems are drawn in
        proportion to the square root of their number of states."""
        kept = self.__dict__.setdefault("_choosers", {})
        found = kept.get(id(worlds))
        if found is None or found[0] is not worlds:
            cum = list(accumulate((w.n_states if w.explicit else 1) ** 0.5 for w in worlds))
            total, hi = (cum[-1] if cum else 0) + 0.0, len(worlds) - 1
            if total <= 0.0 or not math.isfinite(total):  # rng.choices refuses them
                def choose(rng):
                    return rng.choices(worlds, cum_weights=cum)[0]
            elif hi == 0:
                def choose(rng):
                    rng.random()
                    return worlds[0]
            else:
                def choose(rng):
                    return worlds[bisect(cum, rng.random() * total, 0, hi)]
            found = kept[id(worlds)] = (worlds, choose)
        return found[1]

    def _tries(self, target: Target) -> int:
        weighted = (target.form == "mc" and self.family.pool_for("mc") is not None
                    and any(not s.exact for s in self._world_survey.values()))
        return WEIGHTED_TRIES if weighted else SAMPLE_TRIES

    def _roomier_cell(self, split: str, target: Target, rng: random.Random) -> Target:
        """A row whose draws keep repeating earlier rows: its cell holds fewer distinct
        problems than its share of the split (a late step of a long plan, say), so the
        same label is asked in a cell of its group drawn at random; labels stay exactly
        balanced, the cell's own balance only nearly."""
        group = next(g for g in self.groups[split] if target.cell in g)
        cells = [c for c in group if target.variant in self.cell_variants[(split, c)]]
        return replace(target, cell=rng.choice(cells))

    def _names(self, world: StripsWorld, rng: random.Random) -> Names | None:
        if self.cfg.names not in POOLS:
            return None
        chosen = sample(rng, name_pool(self.cfg.names), len(world.objects))
        return Names(dict(zip(world.objects, chosen)), world.domain)

    def _phrasing_json(self) -> str:
        """The user's phrasing file as rows store it ("" without one), read once."""
        if not hasattr(self, "_phrasing"):
            read = getattr(self.cfg, "user_phrasing", None)
            phrasing = read() if read is not None else None
            self._phrasing = phrasing.to_json() if phrasing is not None else ""
        return self._phrasing

    def _text(self, world: StripsWorld) -> TaskText:
        """The world's phrasing under this config's options: one per STRIPS domain (its
        problems share it), one per world elsewhere (a lab variation's phrasing holds its
        own doors: keyed by the class, a process's first variation named every later
        one's doors, so a row's question could name another door than its subject)."""
        domain = getattr(world, "domain", None)
        key = id(domain) if domain is not None else world
        text = self._texts.get(key)
        if text is None:
            cfg = self.cfg
            phrasing = cfg.user_phrasing() if domain is not None else None
            if phrasing is None and domain is not None:
                text = shared_text(world, cfg.obfuscation, cfg.paraphrase, self.seed,
                                   cfg.style, TRAC_TEMPLATES if cfg.domain == TRAC_DOMAIN
                                   else None)
            elif phrasing is None:
                text = world.text(cfg.obfuscation, cfg.paraphrase, self.seed, cfg.style,
                                  TRAC_TEMPLATES if cfg.domain == TRAC_DOMAIN else None)
            else:
                text = TaskText(domain, cfg.obfuscation, cfg.paraphrase, self.seed, cfg.style,
                                phrasing=phrasing)
            self._texts[key] = text
        return text

    def _symbolic(self, world: StripsWorld, q: Question, target: Target,
                  names: Names | None = None) -> dict:
        """The row's symbolic form; with `names`, its state and actions already renamed
        and encoded where the world allows (tasks/symbolic_text.py), the rest renamed
        when encoded (symbolic_and_key)."""
        uses_actions = bool(q.actions) or self.family.uses_actions
        known = None if names is None else strips_symbolic(
            world, q.sid, q.actions if uses_actions else None, names)
        sym = {"family": self.cfg.family, "form": target.form,
               **(world.symbolic(q.sid) if known is None else known)}
        if q.goal is not None:
            sym["goal"] = goal_json(q.goal)
        if uses_actions and known is None:
            sym["actions"] = [list(world.action_term(k)) for k in q.actions]
        sym["subject"] = q.subject
        if target.form == "mc":
            sym["options"] = q.options
        sym["answer"] = q.answer
        return sym

    def _symbolic_and_key(self, world: StripsWorld, q: Question, target: Target,
                          names: Names | None) -> tuple[str, str]:
        """`symbolic_and_key(self._symbolic(world, q, target, names), names=names)`: a
        renamed STRIPS row's written straight (symbolic_text.strips_symbolic_keyed),
        the same two texts."""
        if names is not None:
            found = strips_symbolic_keyed(world, q, self.cfg.family, target.form,
                                          bool(q.actions) or self.family.uses_actions, names)
            if found is not None:
                return found
        return symbolic_and_key(self._symbolic(world, q, target, names), names=names)

    def _render_json(self) -> str:
        """Member `render` of a row's metadata (the config's rendering options), as its
        canonical JSON, made once."""
        if not hasattr(self, "_render"):
            render = {"obfuscation": self.cfg.obfuscation, "paraphrase": self.cfg.paraphrase,
                      "seed": self.seed}
            if self.cfg.domain == TRAC_DOMAIN:
                render.update(style=self.cfg.style, templates=TRAC_TEMPLATES)
            if self._phrasing_json():
                render["phrasing"] = self._phrasing_json()
            self._render = canonical_json(render)
        return self._render

    def _metadata(self, world: StripsWorld, q: Question, plan_to_goal: bool) -> str:
        """A row's `metadata` column, as object_json writes it: `q.meta`, the rendering
        options, the problem file, the state and the number of states of an enumerated
        world, and what a plan length reaches (`plan_to_goal`); the members a world's
        rows share written once per world."""
        kept = self.__dict__.get("_meta_kept")
        if kept is None:
            kept = self._meta_kept = {}
        found = kept.get(id(world))
        if found is None or found[0] is not world:
            shared = {"render": json_str("render") + ":" + self._render_json(),
                      "problem_file": member_json("problem_file", world.label),
                      "optimal_plan_length_to": member_json("optimal_plan_length_to",
                                                            PROBLEM_GOAL)}
            if world.explicit:
                shared["n_states"] = member_json("n_states", world.n_states)
            found = kept[id(world)] = (world, shared, frozenset(shared) | {"state_id"})
        _, shared, taken = found
        meta = q.meta
        if not taken.isdisjoint(meta) or not _STR_KEYS.issuperset(map(type, meta)):
            # q.meta's own overwritten, or keys that are not strings: the general way
            meta = dict(meta, render=None, problem_file=world.label)
            if world.explicit:
                meta.update(state_id=q.sid, n_states=world.n_states)
            if plan_to_goal:
                meta["optimal_plan_length_to"] = PROBLEM_GOAL
            return object_json(meta, {"render": self._render_json()})
        members = [(k, member_json(k, v)) for k, v in meta.items()]
        members += (("render", shared["render"]), ("problem_file", shared["problem_file"]))
        if world.explicit:
            members += (("state_id", member_json("state_id", q.sid)),
                        ("n_states", shared["n_states"]))
        if plan_to_goal:
            members.append(("optimal_plan_length_to", shared["optimal_plan_length_to"]))
        members.sort()
        return "{" + ",".join([m for _, m in members]) + "}"

    def _columns(self, split, index, seed, world, q, target, context, question, choices,
                 symbolic) -> dict:
        form = target.form
        if form == "bool":
            answer, label, answer_index = ("true" if q.answer else "false"), int(q.answer), -1
        elif form == "mc":
            answer, label, answer_index = LETTERS[q.answer], -1, q.answer
        else:
            answer, label, answer_index = q.answer_text, -1, -1
        opt = q.optimal_plan_length
        if opt is None and q.goal is None and world.goal and world.explicit:
            d = world.goal_distance[q.sid]
            opt = int(d) if d >= 0 else None
        metadata = self._metadata(world, q, opt is not None and q.goal is None)
        n_objects, n_ground_actions = world.sizes()
        return {
            "id": f"{self.name}-{split}-{index:06d}",
            "family": self.cfg.family,
            "domain": self.cfg.domain_label,
            "problem": world.label,
            "form": form,
            "context": context,
            "question": question,
            "choices": list(choices),
            "answer": answer,
            "answer_index": answer_index,
            "label": label,
            "n_objects": n_objects,
            "n_ground_actions": n_ground_actions,
            "optimal_plan_length": opt,
            "sequence_length": len(q.actions),
            "branching_factor": len(world.applicable(q.sid)),
            "symbolic": symbolic,
            "metadata": metadata,
            "generator_version": __version__,
            "seed": seed,
        }

    # -- what the card says of the config -------------------------------------------------
    def summary(self) -> dict:
        """What the card's table shows of this config."""
        sizes = sorted(len(w.objects) for ws in self.worlds.values() for w in ws)
        objects = sizes[0] if sizes[0] == sizes[-1] else f"{sizes[0]}-{sizes[-1]}"
        return {"task": self.cfg.family, "row_kind": self.cfg.form, "objects": objects,
                "lengths": list(self.cfg.lengths),
                "query_kinds": list(self.cfg.query_kinds) if self.family.literal_queries else [],
                "world": self.cfg.domain_label, "names": self.cfg.names,
                "excluded_forms": list(self.excluded),
                **({"world_summary": rule_world_summary(self.worlds)} if self.cfg.rules else {})}

    @staticmethod
    def split_counts(rows: list[dict]) -> tuple[Counter, Counter, Counter]:
        """Labels (answers of bool and mc rows, 'open' otherwise), kinds (forms) and
        sequence lengths of a split's rows, for the card."""
        return (Counter(r["answer"] if r["form"] != "open" else "open" for r in rows),
                Counter(r["form"] for r in rows),
                Counter(r["sequence_length"] for r in rows))


_SHARED_TEXTS: dict = {}  # (id(domain), rendering options) -> (domain, its TaskText)
SHARED_TEXTS = 64


def shared_text(world: StripsWorld, *options) -> TaskText:
    """`world.text(*options)`, one per STRIPS domain and rendering options in a process,
    shared by the configs that phrase it alike (TRAC's 34 configs, one blocksworld): a
    phrasing keeps every sentence it has said, and each config said its few thousand
    facts and actions again (a template call each). Its sentences depend on the domain
    and the options only, so the rows are the same. An obfuscated phrasing is not shared:
    it gives an object name's parts their words in the order it meets them, so a shared
    one would name a config's objects by what configs before it in the process met (the
    worker count would change bytes where two parts seek one word)."""
    if options[0]:
        return world.text(*options)
    key = (id(world.domain), *options)
    found = _SHARED_TEXTS.get(key)
    if found is None or found[0] is not world.domain:
        if len(_SHARED_TEXTS) >= SHARED_TEXTS:
            _SHARED_TEXTS.clear()
        found = _SHARED_TEXTS[key] = (world.domain, world.text(*options))
    return found[1]


def _cell_text(cell: tuple) -> str:
    length, kind = cell
    return _say("cell", length=length, kind=json.dumps(kind, default=str))


def _budget_hint(worlds) -> str:
    """For a refusal on problems answered by search: what a search could not prove
    within its budget was never asked, so a larger budget may find questions."""
    searched = [w.label for w in worlds if isinstance(w, ImplicitWorld)]
    if not searched:
        return ""
    return _say("budget_hint", searched=searched,
                budget=f"{limits.current().search_budget:,}")


def _target_text(target: Target) -> str:
    return _say("target", form=target.form, label=target.label, variant=target.variant)
