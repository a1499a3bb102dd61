"""Questions whose wording says nothing of their answer.

A question's text must not give its answer away; only the context (the state, the
plan) may. Families describe a sampled situation as a `Pool`: the subjects (facts,
actions, steps, sequences, goals) that would be right there and those that would be
wrong.

bool rows: if some subjects were mostly true and others mostly false, a reader of the
question alone could guess the label (a key at a locked place, the step that goes to
the countertop). So each problem is surveyed for the cells it offers, a cell being a
sequence length and a kind of subject (what the question shows of it besides object
names: the predicate and polarity of a fact, the schemas of a sequence...) seen with
both answers (`survey_cells`). A row's position then fixes its label, cell and kind of
negative (racbench/splits/strata.py), so labels are exactly 50/50 within every cell,
and situations are redrawn until one offers a subject of that cell with that label.

mc rows: every option is the right answer of some situation. `survey_options`
samples a problem's situations once; a row then takes four of them whose right
subjects are each wrong in the other three (`option_set`), shows those four
subjects as the options and one of the four situations, chosen uniformly *after*
the options, as the context. Whatever the options are, each is then the right one
with probability exactly 1/4, so the options alone tell nothing, however they are
worded or whichever objects they name.

Some families' subjects rarely allow such sets (a justification option must be a
step of every one of the four plans; a blocksworld landmark is seldom a non-landmark
elsewhere). Configs whose splits lack them fall back to `pick_weighted`: options are
subjects seen both right and wrong, drawn from a fresh situation and kept with a
probability fitted on the survey (`_fit`) so that each subject is the right
option in about a quarter of the rows showing it. That balance holds on average
only, and `racbench audit` measures it. Where a fit cannot reach it (rows simulated
from the survey's draws, kept at the fitted rate, still let a reader who knows only
which option is which pick the answer more than OPTIONS_ALONE_MAX of the time:
subjects right in nearly every row showing them, or too few usable draws to tell),
the subject right most often is no longer offered and the fit is made again
(`_balance`); a problem left with fewer than SURVEY_MIN usable draws gives no
weighted rows. Without this, justification on swap p14 and logistics00 6-0 and
landmarks on acp's rovers gave rows the options probe reads at 37%, 60% and 8%.
"""

from __future__ import annotations

import math
import random
from bisect import bisect
from collections import Counter, defaultdict
from itertools import accumulate
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Sequence

import numpy as np

from racbench.splits.draws import pick, shuffle
from racbench.splits.seeding import derive_seed
from racbench.worlds.strips.budget import note_dropped
from racbench.worlds.strips.search import SearchBudgetExceeded
from racbench.tasks.question import N_OPTIONS, Question, Target, json_key
from racbench.worlds.strips.world import StripsWorld

SURVEY_DRAWS = 200
SURVEY_MIN = 3  # bool: both answers seen in at least this many of the draws
SURVEY_DRAWS_MAX = 2_000  # mc: draws of a problem whose first ones are not yet decisive
CONFIRM_TRIES = 60  # bool, targeted pools: draws straight for each answer of a seen kind
OPTION_TRIALS = 20  # mc: option sets tried while surveying a problem
OPTION_MIN = 2  # mc: a problem gives rows if at least this many trials found a set
OPTIONS_ALONE_MAX = 0.35  # mc, weighted: the options probe's bound (checks/audit.py)
FIT_PICKS = 4  # mc, weighted: rows simulated per survey draw to fit the acceptance
FIT_ROUNDS = 40  # mc, weighted: rounds of iterative scaling
FACTOR_RANGE = 3.0  # mc, weighted: bound on a subject's log factor
CAP_QUANTILE = 0.75  # mc, weighted: rows above this quantile of weight are all kept
SEARCH_BUDGET = 400  # mc: draws looked at while searching one option set
ANY_SET_BUDGET = 20_000  # mc: subjects looked at while asking whether any set exists


@dataclass
class Pool:
    """The subjects of one situation that make true and false rows. `subject(item)`
    is an item's JSON form, `kind(item)` what the question shows of it (by default
    the subject itself), `text(item)` what an mc option shows (by default the
    subject), `key(item)` a hashable form of that (computed if not given), and
    `judge(key)` whether a subject of another situation (by its key) would be
    right here (True), wrong (False) or cannot be asked (None), for families whose
    lists name only some of the subjects (given its key); `judge_many(keys, forms,
    skip, start)`, if given, the indices s >= start of `keys` not in `skip` that `judge`
    calls wrong, all at once (a survey judges every subject in every draw: one call
    a subject each cost a tenth of an mc probe), `forms` a list beside `keys` that it
    fills with each key's form as it reads it, kept by the caller. bool rows only:
    `variant(item)` is a negative's kind (an index into the family's negative
    kinds, 0 by default) and `question_for(item)` the question a candidate makes,
    for families whose candidates differ in more than their subject (the sequence
    of a planning question, the observations of a goal-recognition one); by
    default every candidate shares `question`."""

    question: Question
    positives: Sequence
    negatives: Sequence
    subject: Callable = lambda item: item
    kind: Callable | None = None
    text: Callable | None = None
    key: Callable | None = None
    judge: Callable | None = None
    judge_many: Callable | None = None
    variant: Callable | None = None
    question_for: Callable | None = None

    def kind_of(self, item):
        return self.kind(item) if self.kind is not None else json_key(self.subject(item))

    def key_of(self, item):
        """An option's identity: what it shows."""
        if self.key is not None:
            return self.key(item)
        return json_key(self.text(item) if self.text is not None else self.subject(item))

    def keys_of(self, items) -> list:
        """`key_of` of each item (a survey's tally asks it of every subject of every
        draw: one call for them all)."""
        if self.key is not None:
            return list(map(self.key, items))
        shown = self.text if self.text is not None else self.subject
        return [json_key(shown(x)) for x in items]

    def variant_of(self, item) -> int:
        return self.variant(item) if self.variant is not None else 0

    def kinds_of(self, items) -> list:
        """`kind_of` of each item (a bool survey asks it of every subject of every draw:
        one call for them all)."""
        if self.kind is not None:
            return list(map(self.kind, items))
        subject = self.subject
        return [json_key(subject(x)) for x in items]

    def kinds(self, label: bool) -> set:
        return set(self.kinds_of(self.positives if label else self.negatives))

    def variants(self) -> set:
        """(kind, variant) of every negative."""
        kinds = self.kinds_of(self.negatives)
        if self.variant is None:
            return {(kind, 0) for kind in kinds}
        return set(zip(kinds, map(self.variant, self.negatives)))

    def pick(self, rng: random.Random, label: bool, kind, variant: int | None = None):
        if label:
            pool = [x for x, k in zip(self.positives, self.kinds_of(self.positives))
                    if k == kind]
        else:
            pool = [x for x, k in zip(self.negatives, self.kinds_of(self.negatives))
                    if k == kind and (variant is None or self.variant_of(x) == variant)]
        return pick(rng, pool) if pool else None  # rng.choice(pool), inlined

    def row(self, item, label: bool) -> Question:
        """The question `item` makes, with its subject and answer set."""
        q = self.question_for(item) if self.question_for is not None else self.question
        q.subject, q.answer = self.subject(item), label
        return q


@dataclass
class Survey:
    """What sampling a problem's situations showed for mc rows.

    Draw `d` is the situation `make_pool` gives with
    `draw_rng(seed, d)`; `right[d]` lists the subjects (indices into `keys`) right
    there, `wrong[s]` is the bitset of draws where subject `s` is wrong, `subjects[s]`
    its JSON form, `kind[s]` its predicate or schema; `found`: OPTION_MIN where option
    sets are common (`has_sets`: a first pair drawn as `option_set` draws it is in
    some set with a chance of OPTION_MIN / OPTION_TRIALS or more; where sets are too
    many to list, the count of OPTION_TRIALS trials that found one, up to
    OPTION_MIN), else what trials found; `some_sets`: some set exists."""

    seed: int | None = None
    keys: tuple = ()
    subjects: tuple = ()
    kind: tuple = ()
    right: tuple = ()
    wrong: tuple = ()
    found: int = 0
    some_sets: bool = False
    usable: int = 0  # mc: draws with a subject right and three wrong, all seen both ways
    exact: bool = True  # mc: rows use option sets (else pick_weighted); set per config
    _seen: dict | None = field(default=None, repr=False, compare=False)
    _times: list | None = field(default=None, repr=False, compare=False)
    _balance: tuple | None = field(default=None, repr=False, compare=False)
    _starts: list | None = field(default=None, repr=False, compare=False)
    _likeness: dict | None = field(default=None, repr=False, compare=False)
    _inverse: tuple | None = field(default=None, repr=False, compare=False)
    _members: tuple | None = field(default=None, repr=False, compare=False)
    # an mc probe's first survey: the keys its draws listed wrong before any was right
    # (`Tally`), for a weighted survey to go on from its draws (`Tally.resumed`)
    _resume: dict | None = field(default=None, repr=False, compare=False)

    @property
    def has_sets(self) -> bool:
        """Option sets are common here: what makes a config exact (`ConfigRows._exact`)
        and a survey stop drawing. Where they are rare, a config of few problems kept to
        their few sets would offer too few distinct questions (acp's
        satellite_progression_mc: 284 for its 400 train rows)."""
        return self.found >= OPTION_MIN

    @property
    def ok(self) -> bool:
        """This problem can give rows: in an exact config, any problem holding a set
        (its rows draw from the pairs sets hold), so rows spread over every such one."""
        return (self.has_sets or self.some_sets) if self.exact else self.weighted_ok

    @property
    def weighted_ok(self) -> bool:
        """mc, weighted: enough usable draws among the subjects the fit can balance."""
        return self.usable >= SURVEY_MIN and self.balance()[3] >= SURVEY_MIN

    def seen_both(self) -> dict:
        """Subjects seen both right and wrong: key -> subject index."""
        if self._seen is None:
            self._seen = {k: s for s, k in enumerate(self.keys) if all(self.times()[s])}
        return self._seen

    def times(self) -> list[tuple[int, int]]:
        """Per subject, how many draws it is right in and how many wrong."""
        if self._times is None:
            times_right = [0] * len(self.keys)
            for here in self.right:
                for s in here:
                    times_right[s] += 1
            self._times = [(r, bin(w).count("1")) for r, w in zip(times_right, self.wrong)]
        return self._times

    def balance(self) -> tuple[dict, dict, float, int]:
        """What weighted rows may offer (key -> subject index), the fitted log factors
        and cap of `pick_weighted`, and the usable draws among those subjects
        (`_balance`)."""
        if self._balance is None:
            self._balance = _balance(self)
        return self._balance

    def starts(self) -> list[int]:
        """The draws with a right subject (where an option set may start)."""
        if self._starts is None:
            self._starts = [d for d, here in enumerate(self.right) if here]
        return self._starts

    def start_holds(self, first: int, subject: int) -> bool | None:
        """Whether some option set holds `subject` as the right one of draw `first`
        (True for every pair where sets are too many to list, `_set_members`); None
        where no set exists."""
        members, none = self._listed()
        if none:
            return None
        return members is None or bool(members[subject] >> first & 1)

    def held_share(self) -> float | None:
        """The chance that a first pair drawn as `option_set` draws it (a start, then
        one of its right subjects) is in some option set; None where sets are too many
        to list (`_set_members`)."""
        members, none = self._listed()
        if members is None:
            return None
        starts = self.starts()
        if none or not starts:
            return 0.0
        right = self.right
        return sum(sum(members[s] >> d & 1 for s in right[d]) / len(right[d])
                   for d in starts) / len(starts)

    def _listed(self) -> tuple[list[int] | None, bool]:
        """`_set_members`, and whether it lists no set, worked out once."""
        if self._members is None:
            members = _set_members(self)
            self._members = (members, members is not None and not any(members))
        return self._members

    def likeness(self, kind) -> tuple[list[int], list[int]]:
        """How unlike a subject of `kind` each subject is (0: same predicate or schema
        and argument types; 1: same predicate or schema; 2: other), and each draw's
        likest right subject (2 for none), for `option_set`; kept per kind, as every
        row of a problem searches the same survey."""
        if self._likeness is None:
            self._likeness = {}
        found = self._likeness.get(kind)
        if found is None:
            head = _head(kind)
            unlike = [0 if other == kind else 1 if _head(other) == head else 2
                      for other in self.kind]
            of = unlike.__getitem__
            rank = [min(map(of, here), default=2) for here in self.right]
            found = self._likeness[kind] = (unlike, rank)
        return found

    def __getstate__(self) -> dict:
        """Pickled (to the build's driver, a probe cache) without what `option_set`
        keeps and is cheap to remake where rows are; with the option sets' members
        (`_listed`), which the probe worked out and which every process making rows
        worked out again (a fifteenth of an acp build's CPU)."""
        return dict(self.__dict__, _starts=None, _likeness=None, _inverse=None)

    def inverse_times(self) -> tuple[list[float], list[float]]:
        """1 / (times seen right) and 1 / (times seen wrong) per subject seen so (0.0
        otherwise): `weighted_options`' weights, kept, as every simulated row of a fit
        draws with them."""
        if self._inverse is None:
            times = self.times()
            self._inverse = tuple([1.0 / t[side] if t[side] else 0.0 for t in times]
                                  for side in (0, 1))
        return self._inverse

    def acceptance(self) -> tuple[dict, float]:
        """Log factors per subject and the cap of `pick_weighted` (`_balance`)."""
        return self.balance()[1:3]


def draw_rng(seed: int, draw: int) -> random.Random:
    return random.Random(derive_seed(seed, "draw", draw))


# -- bool ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Cells:
    """The bool cells one problem offers: per (length, kind) of subject seen with both
    answers, the kinds of negative seen for it; and the cells seen with one answer
    only (left out, for the card)."""

    offered: dict  # (length, kind) -> tuple of negative variants
    one_sided: tuple = ()


def survey_size(world: StripsWorld, rows: float | None = None) -> int:
    """Situations a bool survey draws per length. A world whose draws are dear (the
    science lab) sizes its survey by the `rows` a config asks of it (over its splits;
    None: not known, the full survey): `survey_draws_per_row` situations a row, at
    least `survey_draws_min`, at most SURVEY_DRAWS; a survey so sized confirms with at
    most `survey_confirms_per_draw` draws for each situation drawn."""
    per_row = getattr(world, "survey_draws_per_row", None)
    if rows is None or per_row is None:
        return SURVEY_DRAWS
    return min(SURVEY_DRAWS, max(world.survey_draws_min, math.ceil(per_row * rows)))


def survey_cells(make_pool: Callable, world: StripsWorld, cfg, seed: int,
                 variants: int, targeted: bool = False, rows: float | None = None) -> Cells:
    """Sample SURVEY_DRAWS situations per sequence length; keep the (length, kind)
    cells seen with both answers in at least SURVEY_MIN situations each, with the
    negative kinds seen at least SURVEY_MIN times for them (a family with several
    kinds of negative needs one of them). Pools that can draw straight for a cell
    (`targeted`) get up to CONFIRM_TRIES more draws for each answer of every kind the
    sample saw at all, so that rare kinds (a long sequence of rare schemas, a goal of
    two uncommon facts) are kept when they exist. That costs draws per kind seen: a
    world whose draws are dear caps them per length (`confirm_budget`, shared by the
    answers of every kind seen), so the survey does not grow with the number of kinds,
    and sizes it by the rows asked of it (`survey_size`, confirming draws cut the more:
    rare kinds matter to many rows only; a survey that finds no cell is made again twice as large,
    up to the full one: the first draws of a larger survey are those of a smaller one,
    so rows asked of a world that offers cells only rarely still find them). Confirming
    draws are not spent on what is settled: a draw made for one answer of a kind counts
    every answer of that kind its pool shows (a planning walk shows the goal it reaches
    and the one it misses; a goal-recognition draw for one kind of negative, those of
    the other kind walked on the way), so the kind's later answers need fewer draws
    (positives are confirmed first), and the negatives of a kind
    whose positives did not reach SURVEY_MIN get none (the cell is one-sided whatever
    they show). A family whose draw for a negative finds a positive on the way and whose
    draw for a positive shows no negative (goal recognition: a far goal, then walks
    from the state) says so (`make_pool.negatives_first`): its negatives are confirmed
    first, the positives they show counted, and the positives of a kind none of whose
    negatives reached SURVEY_MIN get no draws. A dear world also stops an answer once
    the tries left cannot bring it to SURVEY_MIN, and counts only the answer each draw
    was made for, positives first (its surveys keep their cells)."""
    draws = survey_size(world, rows)
    # a dear world's sampling of each length, grown in place (its draws are not made again)
    samples: dict | None = {} if getattr(world, "survey_settled", None) else None
    while True:
        cells = _survey_cells(make_pool, world, cfg, seed, variants, targeted, draws, samples)
        if cells.offered or draws >= SURVEY_DRAWS:
            return cells
        draws = min(SURVEY_DRAWS, 2 * draws)


def _survey_cells(make_pool: Callable, world: StripsWorld, cfg, seed: int, variants: int,
                  targeted: bool, draws: int, samples: dict | None = None) -> Cells:
    """`survey_cells` of `draws` situations per length. With `samples` (a dear world's,
    see _Sample), each length's sampling is grown from what it drew before, may stop
    short of `draws` once settled, and confirms from a stream of its own."""
    offered, one_sided = {}, []
    budget = getattr(world, "confirm_budget", None)
    dear = budget is not None
    wanted = [(True, 0)] + [(False, v) for v in range(variants)]
    shown = not dear  # a confirming draw counts every answer of its kind it shows
    # positives first, but where a draw for a negative shows a positive on the way
    # (the family's pool maker says so) and a draw for a positive shows no negative
    negatives_first = shown and getattr(make_pool, "negatives_first", False)
    order = wanted[1:] + wanted[:1] if negatives_first else wanted
    for length in cfg.lengths:
        view = cfg.at_length(length)
        if samples is None:
            rng = random.Random(derive_seed(seed, "cells", length))
            true_count, variant_count = Counter(), Counter()
            for _ in range(draws):
                pool = _drawn(make_pool, world, rng, view)
                if pool is not None:
                    true_count.update(pool.kinds(True))
                    variant_count.update(pool.variants())
            drawn = draws
        else:
            sample = samples.get(length)
            if sample is None:
                sample = samples[length] = _Sample(world, seed, length, variants)
            sample.grow(make_pool, view, draws, targeted and len(wanted))
            drawn = sample.drawn
            true_count, variant_count = Counter(sample.true_count), Counter(sample.variant_count)
            rng = random.Random(derive_seed(seed, "confirm", length, drawn))
        # sized by the survey asked for, though settled sampling drew fewer: confirming
        # draws complete the rare kinds the sample saw (a state two commands from done)
        length_budget = budget if not dear or draws >= SURVEY_DRAWS else \
            min(budget, world.survey_confirms_per_draw * draws)
        seen = set(true_count) | {kind for kind, _ in variant_count}
        tries = CONFIRM_TRIES if length_budget is None else \
            min(CONFIRM_TRIES, length_budget // max(1, len(seen) * len(wanted)))
        for kind in sorted(seen, key=repr):
            for label, v in order if targeted else ():
                counts, key = (true_count, kind) if label else (variant_count, (kind, v))
                if not label and not negatives_first and true_count[kind] < SURVEY_MIN:
                    break  # one-sided whatever its negatives: none is looked for
                if label and negatives_first and not any(
                        variant_count[(kind, n)] >= SURVEY_MIN for n in range(variants)):
                    break  # one-sided whatever its positives: none is looked for
                target = Target("bool", label, variant=v, cell=(length, kind))
                for i in range(tries):
                    if counts[key] >= SURVEY_MIN or dear and counts[key] + tries - i < SURVEY_MIN:
                        break
                    pool = _drawn(make_pool, world, rng, view, target)
                    if pool is None:
                        continue
                    if pool.pick(rng, label, kind, v) is not None:
                        counts[key] += 1
                    if shown:  # the kind's other answers this draw shows count too
                        _count_others(pool, kind, key, true_count, variant_count)
            kept = tuple(v for v in range(variants)
                         if variant_count[(kind, v)] >= SURVEY_MIN)
            if true_count[kind] >= SURVEY_MIN and kept:
                offered[(length, kind)] = kept
            else:
                one_sided.append((length, kind))
    return Cells(offered, tuple(one_sided))


def _count_others(pool: Pool, kind, key, true_count: Counter, variant_count: Counter) -> None:
    """Count, for the kind a confirming draw was made for, the answers other than the
    wanted one (`key`) that its pool shows: a draw made for one answer often shows the
    others (a walk that reaches a goal of the kind and one that misses it)."""
    if key != kind and kind in pool.kinds(True):
        true_count[kind] += 1
    for seen in pool.variants():
        if seen[0] == kind and seen != key:
            variant_count[seen] += 1


class _Sample:
    """The situations a survey of a dear world (the science lab) has sampled at one
    length, tallied: kinds seen true, (kind, negative variant) seen false. A larger
    survey grows it (`grow`) rather than drawing its first situations again, and
    sampling stops once its estimate of the cells is settled: `world.survey_settled`
    draws in a row have offered no new cell (both answers seen SURVEY_MIN times), and
    either one is offered or the draws confirming rare kinds could not make one (the
    kinds seen already outnumber the confirming draws the survey may make: at length 2
    an executability survey meets a hundred verb pairs, and its last draws were spent
    on none), unless it is the full survey (SURVEY_DRAWS), which a world offering no
    cell at any length comes to and samples whole, as before. The rule reads nothing but the draws made, so it stops at the same draw
    whoever runs it; confirming draws take a stream of their own, fixed by the draws
    sampled."""

    def __init__(self, world: StripsWorld, seed: int, length: int, variants: int):
        self.world, self.variants = world, variants
        self.rng = random.Random(derive_seed(seed, "cells", length))
        self.true_count, self.variant_count = Counter(), Counter()
        self.drawn = self.quiet = 0
        self.offered: set = set()

    def grow(self, make_pool: Callable, view, draws: int, confirming: int) -> None:
        """Sample on up to `draws` situations, or until settled; `confirming`: the
        answers a confirming draw is made for (0: the family confirms none)."""
        settle, world = self.world.survey_settled, self.world
        self.quiet = 0  # a larger survey is asked for: its new draws may offer cells
        budget = world.confirm_budget  # None: confirming draws are not capped
        if budget is not None and draws < SURVEY_DRAWS:
            budget = min(budget, world.survey_confirms_per_draw * draws)
        while self.drawn < draws:
            pool = _drawn(make_pool, world, self.rng, view)
            self.drawn += 1
            grew = False
            if pool is not None:
                kinds, variants = pool.kinds(True), pool.variants()
                self.true_count.update(kinds)
                self.variant_count.update(variants)
                for kind in kinds | {kind for kind, _ in variants}:
                    if kind not in self.offered and self._offers(kind):
                        self.offered.add(kind)
                        grew = True
            self.quiet = 0 if grew else self.quiet + 1
            if self.quiet >= settle and (self.offered or draws < SURVEY_DRAWS and (
                    not confirming or budget is not None and budget < confirming * len(
                        set(self.true_count) | {k for k, _ in self.variant_count}))):
                return

    def _offers(self, kind) -> bool:
        return self.true_count[kind] >= SURVEY_MIN and any(
            self.variant_count[(kind, v)] >= SURVEY_MIN for v in range(self.variants))


def _drawn(make_pool: Callable, *args) -> Pool | None:
    """A situation's pool, or None if an answer in it could not be proven within its
    search budget (the situation is dropped, never guessed)."""
    try:
        return make_pool(*args)
    except SearchBudgetExceeded:
        note_dropped()
        return None


def pick_bool(make_pool: Callable, world: StripsWorld, rng: random.Random, cfg,
              target: Target) -> Question | None:
    """A bool question for `target`: a fresh situation of the cell's length, and in it
    a subject of the cell's kind with the wanted label (and kind of negative). Pools
    get the target too: those that can draw straight for it do (a goal of the cell's
    kind...); surveys call them without one."""
    length, kind = target.cell
    pool = make_pool(world, rng, cfg.at_length(length), target)
    if pool is None:
        return None
    item = pool.pick(rng, target.label, kind, None if target.label else target.variant)
    return None if item is None else pool.row(item, target.label)


# -- mc -----------------------------------------------------------------------------------

def survey_options(make_pool: Callable, world: StripsWorld, cfg, seed: int,
                   weighted: bool = False, first: int = SURVEY_DRAWS,
                   start: Survey | None = None) -> Survey:
    """Sample SURVEY_DRAWS situations and record, for every subject right in one of
    them, where it is right and where wrong (from the pools' lists, and from their
    `judge` for subjects a pool does not list). A problem that shows neither option
    sets nor SURVEY_MIN usable draws but some subject seen both ways is sampled
    further, SURVEY_DRAWS more at a time up to SURVEY_DRAWS_MAX, until it shows one
    or the other: a problem where about one draw in a hundred is usable (justification
    on logistics00 6-0) gave rows under some config names (the seed) and not others
    from 200 draws. `weighted` (a config without option sets, known only once all its
    problems are surveyed): `first` draws, then twice as many at a time, until
    SURVEY_MIN usable draws remain among the subjects the fit can balance
    (`Survey.weighted_ok`, a fit per look: doubling keeps the looks few), without
    option-set trials. Draw d is the same whatever follows. A world whose draws are
    dear caps them (`survey_draws_max`: the science lab, whose draws play the
    simulator, surveys SURVEY_DRAWS). A weighted survey given the unweighted survey
    of the same world and seed (`start`) goes on from its draws instead of drawing
    them again (the same draws: the same survey); an unweighted one keeps what that
    needs (`Survey._resume`)."""
    limit = survey_limit(world)
    resumable = weighted and start is not None and start._resume is not None
    tally = (Tally.resumed(world, start) if resumable and start.seed == seed
             else Tally(world, seed, trials=not weighted))
    size = first
    while True:
        tally.add(_drawn(make_pool, world, draw_rng(seed, d), cfg)
                  for d in range(tally.draws, min(size, limit)))
        survey = tally.survey()
        enough = (survey.weighted_ok if weighted else
                  survey.has_sets or survey.usable >= SURVEY_MIN)
        if enough or not survey.seen_both() or tally.draws >= limit:
            if not weighted and not tally._judges:  # judges hold pools: drawn again
                survey._resume = tally._wrong_before
            return survey
        size = 2 * tally.draws if weighted else tally.draws + SURVEY_DRAWS


def survey_limit(world: StripsWorld) -> int:
    """The most draws `survey_options` makes of this world."""
    return getattr(world, "survey_draws_max", SURVEY_DRAWS_MAX)


class Tally:
    """A survey's running tallies: draws are added as they come, and `survey()` is the
    survey of every draw added so far, the same as tallying them all again (a
    survey that draws on tallied its first draws once per look, up to ten times).

    Subjects are numbered in order of first appearance as a right subject. A draw's
    wrong subjects are its negatives and, with a `judge`, the subjects it does not list
    that its judge calls wrong: a subject first seen right in a later draw is looked
    up in the negatives kept for it (`_wrong_before`) and judged by the earlier draws
    that have a judge (kept for that, with what they list)."""

    def __init__(self, world: StripsWorld, seed: int, trials: bool = True):
        self.world, self.seed, self.trials = world, seed, trials
        self.index: dict = {}
        self.keys, self.subjects, self.kinds, self.right, self.wrong = [], [], [], [], []
        self._wrong_before: dict = {}  # key not yet a subject -> draws listing it wrong
        self._judges: list = []  # (draw, pool, keys it lists) of draws with a judge
        self._forms: list = []  # beside `keys`: each as its judges read it (Pool.judge_many)
        self._survey: Survey | None = None

    @classmethod
    def resumed(cls, world: StripsWorld, survey: Survey) -> "Tally":
        """The tally, without option-set trials, of the draws an unweighted survey
        made (one with `_resume`: its draws had no judge), to add further draws to."""
        tally = cls(world, survey.seed, trials=False)
        tally.keys, tally.subjects = list(survey.keys), list(survey.subjects)
        tally.kinds, tally.right = list(survey.kind), list(survey.right)
        tally.wrong = list(survey.wrong)
        tally.index = {key: s for s, key in enumerate(tally.keys)}
        tally._wrong_before = dict(survey._resume)
        return tally

    @property
    def draws(self) -> int:
        return len(self.right)

    def add(self, pools) -> None:
        """Tally these draws' pools (None: a dropped draw), the next draws in order."""
        pools = list(pools)
        keys, index, wrong, before = self.keys, self.index, self.wrong, self._wrong_before
        first_new_key, first_draw = len(keys), len(self.right)
        for pool in pools:  # subjects first, in draw order: their numbering
            here = set()
            positives = pool.positives if pool is not None else ()
            for x, key in zip(positives, pool.keys_of(positives) if pool is not None else ()):
                s = index.get(key)
                if s is None:
                    s = index[key] = len(keys)
                    keys.append(key)
                    self.subjects.append(pool.subject(x))
                    shown = pool.text(x) if pool.text is not None else pool.subject(x)
                    self.kinds.append(_subject_kind(self.world, shown))
                    wrong.append(before.pop(key, 0))
                here.add(s)
            self.right.append(tuple(sorted(here)))
        if len(keys) > first_new_key:  # earlier draws judge the new subjects
            for judged_draw, pool, listed in self._judges:
                bit = 1 << judged_draw
                for s in self._judged_wrong(pool, listed, first_new_key):
                    wrong[s] |= bit
        for d, pool in enumerate(pools, first_draw):
            if pool is None:
                continue
            bit = 1 << d
            negatives = pool.keys_of(pool.negatives)
            for key in negatives:
                s = index.get(key)
                if s is not None:
                    wrong[s] |= bit
                else:
                    before[key] = before.get(key, 0) | bit
            if pool.judge is not None:  # the subjects this pool does not list
                listed = set(negatives).union(pool.keys_of(pool.positives))
                for s in self._judged_wrong(pool, listed, 0):
                    wrong[s] |= bit
                self._judges.append((d, pool, listed))
        self._survey = None

    def _judged_wrong(self, pool: Pool, listed: set, start: int):
        """The subjects from `start` on, not `listed` by `pool`, that its judge calls
        wrong (`Pool.judge_many` where the pool has it)."""
        keys = self.keys
        if pool.judge_many is not None:
            skip = {self.index[k] for k in listed if k in self.index}
            return pool.judge_many(keys, self._forms, skip, start)
        judge = pool.judge
        return [s for s in range(start, len(keys))
                if keys[s] not in listed and judge(keys[s]) is False]

    def survey(self) -> Survey:
        """The survey of the draws added so far; `trials`: with `found`, whether
        OPTION_TRIALS tries find at least OPTION_MIN option sets (counted up to
        OPTION_MIN: that is all `has_sets` asks; else `found` is 0)."""
        if self._survey is not None:
            return self._survey
        survey = Survey(seed=self.seed, keys=tuple(self.keys), subjects=tuple(self.subjects),
                        kind=tuple(self.kinds), right=tuple(self.right),
                        wrong=tuple(self.wrong))
        if self.trials and any_option_set(survey):  # else every trial fails: spared
            share = survey.held_share()
            if share is not None:  # sets listed: how common they are, exactly
                survey.found = OPTION_MIN if share * OPTION_TRIALS >= OPTION_MIN else 0
            else:
                rng = random.Random(derive_seed(self.seed, "trials"))
                for _ in range(OPTION_TRIALS):
                    survey.found += option_set(survey, rng) is not None
                    if survey.found >= OPTION_MIN:
                        break
            survey.some_sets = survey.has_sets or share is not None and share > 0
        survey.usable = _usable(survey)
        self._survey = survey
        return survey


def _usable(survey: Survey) -> int:
    """The draws with a subject seen both ways right and N_OPTIONS - 1 such subjects
    wrong. The draws where at least k of them are wrong are counted as bitsets, one
    per k, a subject at a time (a counter per draw of every wrong subject's bits cost
    a tenth of a survey's tally)."""
    both = set(survey.seen_both().values())
    wrong = survey.wrong
    at_least = [0] * (N_OPTIONS - 1)  # at_least[k]: draws where k + 1 or more are wrong
    for s in both:
        w = wrong[s]
        for k in range(N_OPTIONS - 2, 0, -1):
            at_least[k] |= at_least[k - 1] & w
        at_least[0] |= w
    right = survey.right
    return sum(1 for d in _bits(at_least[-1]) if d < len(right)
               and any(s in both for s in right[d]))


def any_option_set(survey: Survey) -> bool:
    """Might `option_set` find a set in this survey? False only where none exists: no
    four subjects s_i each right in a draw where the other three are wrong (a draw of
    R(s_i) & W(s_j) for every j != i, R and W the draws where a subject is right and
    wrong). Searched by subjects, not draws, without option_set's budget (True also once
    ANY_SET_BUDGET is spent: the trials then tell): a rule world's episode that offers
    no set spent a third of its survey failing OPTION_TRIALS trials."""
    return _each_set(survey, lambda chosen, draws, fourths: True) is not False


def _set_members(survey: Survey) -> list[int] | None:
    """Per subject, the draws in which it is the right one of some option set (a bitset;
    0 for a subject in none), from every set `_each_set` lists; None once ANY_SET_BUDGET
    is spent (where sets abound, as in most planning problems: every start is then
    searched)."""
    members = [0] * len(survey.keys)

    def note(chosen: list[int], draws: list[int], fourths: list[tuple]) -> bool:
        # a chosen subject's draws in the sets of all these fourths: its open draws
        # where some fourth is wrong
        either = 0
        for s, here, wrong in fourths:
            members[s] |= here
            either |= wrong
        for s, here in zip(chosen, draws):
            members[s] |= here & either
        return False  # on to the next sets

    return None if _each_set(survey, note) is None else members


def _each_set(survey: Survey, visit: Callable[[list[int], list[int], list[tuple]], bool]
              ) -> bool | None:
    """Every option set by its four subjects (each seen both right and wrong), given to
    `visit` a first three at a time: the three subjects, per subject the draws where
    it is right and the other two wrong, and every fourth that makes a set with them as
    (subject, the draws where it is right and the three wrong, the draws where it is
    wrong); True once `visit` returns True, False when all are listed, None once
    ANY_SET_BUDGET subjects have been looked at (the fourths given are then those
    looked at before)."""
    subjects = sorted(survey.seen_both().values())
    right_in = dict.fromkeys(subjects, 0)
    for d, here in enumerate(survey.right):
        for s in here:
            if s in right_in:
                right_in[s] |= 1 << d
    n = len(subjects)
    right_at = [right_in[s] for s in subjects]
    wrong_at = [survey.wrong[s] for s in subjects]
    budget = ANY_SET_BUDGET

    def fits(start: int, end: int, open_draws: list[int], wrong_in_all: int) -> list[int]:
        """The subjects from `start` to `end` (by position) that can join the chosen
        ones: right in a draw where they are all wrong, and wrong in one of each one's
        `open_draws`."""
        ks = range(start, end)
        if not open_draws:
            return [k for k in ks if right_at[k] & wrong_in_all]
        if len(open_draws) == 1:
            a, = open_draws
            return [k for k in ks if right_at[k] & wrong_in_all and wrong_at[k] & a]
        if len(open_draws) == 2:
            a, b = open_draws
            return [k for k in ks if right_at[k] & wrong_in_all and wrong_at[k] & a
                    and wrong_at[k] & b]
        a, b, c = open_draws  # N_OPTIONS - 1 chosen
        return [k for k in ks if right_at[k] & wrong_in_all and wrong_at[k] & a
                and wrong_at[k] & b and wrong_at[k] & c]

    def extend(start: int, chosen: list[int], open_draws: list[int],
               wrong_in_all: int) -> bool | None:
        """`open_draws`: per chosen subject, its right draws where the others are all
        wrong; `wrong_in_all`: the draws where every chosen subject is wrong. Every
        subject from `start` on is one looked at (the budget's unit), whether it fits
        or not: those that do not are charged in one go, up to the next that does."""
        nonlocal budget
        if len(chosen) == N_OPTIONS - 1:  # the fourths, all at once
            ks = fits(start, min(n, start + budget), open_draws, wrong_in_all)
            if ks and visit(chosen, open_draws, [
                    (subjects[k], right_at[k] & wrong_in_all, wrong_at[k]) for k in ks]):
                return True
            budget -= n - start
            return None if budget < 0 else False
        at = start
        for k in fits(start, n, open_draws, wrong_in_all):
            budget -= k + 1 - at
            at = k + 1
            if budget < 0:
                return None
            wrong = wrong_at[k]
            found = extend(k + 1, chosen + [subjects[k]],
                           [a & wrong for a in open_draws] + [right_at[k] & wrong_in_all],
                           wrong_in_all & wrong)
            if found is not False:
                return found
        budget -= n - at
        return None if budget < 0 else False

    return extend(0, [], [], -1)  # -1: every draw, as a bitset


def option_set(survey: Survey, rng: random.Random) -> list[tuple[int, int]] | None:
    """Four (draw, subject) pairs, each subject right in its draw and wrong in the
    other three, distinct; subjects of the first one's predicate or schema first.
    Any way of choosing them would do: which of the four is the row's is drawn
    afterwards. The first pair is drawn again while no set holds it (in a rule
    world's survey most pairs are in none, and each such start used to spend the
    whole search's budget before the row drew another world)."""
    starts = survey.starts()
    if not starts:
        return None
    wrong, right = survey.wrong, survey.right
    while True:
        first = rng.choice(starts)
        subject = rng.choice(right[first])
        holds = survey.start_holds(first, subject)
        if holds:
            break
        if holds is None:
            return None
    unlike, rank = survey.likeness(survey.kind[subject])

    def extend(chosen: list, open_draws: int, used: int, most: int) -> list | None:
        """Depth first: `open_draws` is the bitset of draws where every chosen
        subject is wrong, `used` that of the chosen draws; subjects at most `most`
        unlike the first one."""
        if len(chosen) == N_OPTIONS:
            return chosen
        draws = _bits(open_draws)
        shuffle(rng, draws)
        # draws offering a subject like the first one first
        draws.sort(key=rank.__getitem__)
        taken = {c for _, c in chosen}
        nonlocal budget
        for d in draws:
            budget -= 1
            if budget < 0:
                return None
            fits = [s for s in right[d] if wrong[s] & used == used
                    and unlike[s] <= most and s not in taken]
            if len(fits) > 1:  # (a shuffle of fewer draws nothing from rng)
                shuffle(rng, fits)
                fits.sort(key=unlike.__getitem__)
            for s in fits[:2]:
                found = extend(chosen + [(d, s)], open_draws & wrong[s] & ~(1 << d),
                               used | 1 << d, most)
                if found is not None:
                    return found
        return None

    # options of the first one's predicate or schema if such a set is found in half
    # the budget, else any
    for most, share in ((1, SEARCH_BUDGET // 2), (2, SEARCH_BUDGET)):
        budget = share
        found = extend([(first, subject)], wrong[subject] & ~(1 << first), 1 << first, most)
        if found is not None:
            return found
    return None


def _head(kind):
    """The predicate or schema of a kind (with its polarity, for literals)."""
    if kind is None:
        return None
    return kind[:2] if isinstance(kind[0], bool) else kind[:1]


def _bits(x: int) -> list[int]:
    """The set bits of `x`, lowest first (a byte at a time, from a table per byte)."""
    out: list[int] = []
    for at, byte in enumerate(x.to_bytes((x.bit_length() + 7) // 8, "little")):
        if byte:
            out += _byte_bits(at)[byte]
    return out


@lru_cache(maxsize=None)
def _byte_bits(at: int) -> tuple[tuple[int, ...], ...]:
    """The bits set in each value of byte `at` of an int, as bit positions."""
    return tuple(tuple(8 * at + i for i in range(8) if b >> i & 1) for b in range(256))


def pick_mc(make_pool: Callable, world: StripsWorld, rng: random.Random, cfg,
            target: Target) -> Question | None:
    """A 4-option question: an option set from the problem's survey, and the
    situation of one of its four subjects, drawn uniformly (see the module's text),
    with that subject at `target.index`; or, if the config has no option sets,
    `pick_weighted`."""
    survey = target.survey
    if survey is None:
        survey = survey_options(make_pool, world, cfg, rng.getrandbits(63))
        survey.exact = survey.has_sets
    if not survey.exact:
        return pick_weighted(make_pool, world, rng, cfg, target.index, survey)
    found = option_set(survey, rng)
    if found is None:
        return None
    right = rng.randrange(N_OPTIONS)
    draw = found[right][0]
    pool = _drawn(make_pool, world, draw_rng(survey.seed, draw), cfg)
    here = {pool.key_of(x): pool.subject(x) for x in pool.negatives}
    here.update((pool.key_of(x), pool.subject(x)) for x in pool.positives)
    if survey.keys[found[right][1]] not in here:
        raise RuntimeError(f"{world.label}: survey draw {draw} did not repeat itself")
    options = [here.get(survey.keys[s], survey.subjects[s]) for _, s in found]
    correct = options.pop(right)
    rng.shuffle(options)
    options.insert(target.index, correct)
    q = pool.question
    q.options, q.answer = options, target.index
    return q


def pick_weighted(make_pool: Callable, world: StripsWorld, rng: random.Random, cfg,
                  index: int, survey: Survey) -> Question | None:
    """A 4-option question from a fresh situation whose options are subjects the
    survey saw both right and wrong and its fit can balance (`Survey.balance`,
    `weighted_options`), kept with a probability
    that evens out how often each subject is right (`Survey.acceptance`)."""
    pool = _drawn(make_pool, world, rng, cfg)
    if pool is None:
        return None
    seen = survey.balance()[0]

    def candidates(items) -> dict:
        out = {}
        for x in items:
            s = seen.get(pool.key_of(x))
            if s is not None:
                out.setdefault(s, pool.subject(x))
        return out

    right, wrong = candidates(pool.positives), candidates(pool.negatives)
    if not right or len(wrong) < N_OPTIONS - 1:
        return None
    correct, chosen = weighted_options(survey, rng, sorted(right), sorted(wrong))
    factors, cap = survey.acceptance()
    weight = factors[correct][0] + sum(factors[s][1] for s in chosen)
    if rng.random() >= math.exp(min(0.0, weight - cap)):
        return None
    options = [wrong[s] for s in chosen]
    rng.shuffle(options)
    options.insert(index, right[correct])
    q = pool.question
    q.options, q.answer = options, index
    return q


def weighted_options(survey: Survey, rng: random.Random, right: list[int],
                     wrong: list[int], split: dict | None = None) -> tuple[int, list[int]]:
    """The right subject, drawn with weight 1 / (times the survey saw it right), and
    three wrong ones, of its kind first, each with weight 1 / (times seen wrong).
    `split`, given by a caller that draws options of the same `right` and `wrong`
    again (`_simulated_rows`: FIT_PICKS rows a draw), keeps what does not change from
    one to the next: the wrong subjects parted by kind, and the running sums of the
    weights of each list drawn from."""
    inverse = survey.inverse_times()
    uniform = rng.random
    if split is None:
        split = {}
    sums = split.get("right")
    if sums is None:
        sums = split["right"] = _running_sums(right, inverse[0])
    # one of `right` as `_draw_weighted` draws it
    correct = right[bisect(sums, uniform() * (sums[-1] + 0.0), 0, len(right) - 1)]
    kind = survey.kind[correct]
    parted = split.get(kind)
    if parted is None:
        kinds, weight = survey.kind, inverse[1]
        same = [s for s in wrong if kinds[s] == kind]
        other = [s for s in wrong if kinds[s] != kind]
        parted = split[kind] = (same, _running_sums(same, weight),
                                other, _running_sums(other, weight))
    same, same_sums, other, other_sums = parted
    chosen = _draw_weighted(same, inverse[1], N_OPTIONS - 1, uniform, same_sums) \
        if same else []
    if len(chosen) < N_OPTIONS - 1:
        chosen += _draw_weighted(other, inverse[1], N_OPTIONS - 1 - len(chosen), uniform,
                                 other_sums)
    return correct, chosen


def _running_sums(found: list[int], weight: list[float]) -> list[float]:
    return list(accumulate([weight[s] for s in found]))


def _draw_weighted(found: list[int], weight: list[float], n: int, uniform,
                   cum: list[float]) -> list[int]:
    """`rng.choices(found, weights)[0]` n times without replacement, as random.Random
    draws it (the same numbers, the same picks), without its per-call checks; `cum`:
    the running sums of `found`'s weights. Once an item is taken out, the sums before
    it stand and those after it are summed again from there, in the same order: the
    same floats as summing the shorter list anew."""
    found, out = list(found), []
    for i in range(min(n, len(found))):
        if i:  # the sums of the list less the item taken last, at `at`
            cum = cum[:at] + list(accumulate([weight[s] for s in found[at:]],
                                             initial=cum[at - 1]))[1:] if at else \
                _running_sums(found, weight)
        at = bisect(cum, uniform() * (cum[-1] + 0.0), 0, len(found) - 1)
        out.append(found.pop(at))
    return out


def _balance(survey: Survey) -> tuple[dict, dict, float, int]:
    """The subjects seen both ways that weighted rows may offer, with the fit that
    keeps them balanced (`_fit`) and the usable draws among them: all of them where
    the fit leaves a reader of the options alone at most OPTIONS_ALONE_MAX right in
    the simulated rows (then the rows are those of a plain fit); else the subject
    right most often there is left out and the rest fitted again."""
    seen = survey.seen_both()
    kept = sorted(seen.values())
    wrong_in = _wrong_in(survey, kept)  # of them all: each round keeps those still kept
    while True:
        rows = _simulated_rows(survey, kept, wrong_in)
        arrays = _row_arrays(rows, kept) if rows else None
        factors, cap = _fit(rows, kept, arrays)
        told, share = _options_alone(rows, factors, cap, arrays)
        if told <= OPTIONS_ALONE_MAX or not rows:
            break
        kept.remove(max(share, key=lambda s: (share[s], -s)))
    kept_set = set(kept)
    offered = {k: s for k, s in seen.items() if s in kept_set} if rows else {}
    return offered, factors, cap, len(rows) // FIT_PICKS


def _simulated_rows(survey: Survey, subjects: list[int],
                    wrong_in: dict | None = None) -> list[tuple[int, list[int]]]:
    """(right subject, wrong ones) of FIT_PICKS rows per draw that offers one of
    `subjects` (sorted) right and three wrong, as `weighted_options` picks them;
    `wrong_in`: `_wrong_in` of these subjects or more (those not among them are left
    out), which `_balance` works out once for its every round."""
    both = set(subjects)
    if wrong_in is None:
        wrong_in, more = _wrong_in(survey, subjects), False
    else:
        more = True
    rng = random.Random(derive_seed(survey.seed, "acceptance"))
    rows = []
    for d, here in enumerate(survey.right):
        right = [s for s in here if s in both]
        if not right:
            continue
        wrong = wrong_in.get(d, [])
        if more:
            wrong = [s for s in wrong if s in both]
        if len(wrong) >= N_OPTIONS - 1:
            split: dict = {}  # the draw's lists, parted and summed once for its rows
            rows += [weighted_options(survey, rng, right, wrong, split)
                     for _ in range(FIT_PICKS)]
    return rows


def _wrong_in(survey: Survey, subjects: list[int]) -> dict[int, list[int]]:
    """Per draw, which of `subjects` are wrong there, in their order."""
    wrong_in: dict[int, list[int]] = defaultdict(list)
    for s in subjects:
        for d in _bits(survey.wrong[s]):
            wrong_in[d].append(s)
    return wrong_in


def _options_alone(rows: list, factors: dict, cap: float,
                   arrays: tuple | None = None) -> tuple[float, dict]:
    """Rows kept at the fitted rate: the share of them a reader who knows only which
    subject each option is gets right, picking the option right in the largest share
    of the kept rows showing it (the lower subject on a tie; 1.0 without rows), and
    those shares."""
    if not rows:
        return 1.0, {}
    subjects = sorted(factors)
    right, wrong = arrays if arrays is not None else _row_arrays(rows, subjects)
    up = np.array([factors[s][0] for s in subjects])
    down = np.array([factors[s][1] for s in subjects])
    kept = np.exp(np.minimum(0.0, up[right] + down[wrong].sum(axis=1) - cap))
    shown_in = np.column_stack([right, wrong])  # each row's options, the right one first
    shown = np.bincount(shown_in.ravel(), np.repeat(kept, N_OPTIONS), len(subjects))
    as_right = np.bincount(right, kept, len(subjects))
    rate = np.divide(as_right, shown, out=np.zeros(len(subjects)), where=shown > 0)
    option_rate = rate[shown_in]
    best = option_rate == option_rate.max(axis=1, keepdims=True)
    picked = np.where(best, shown_in, len(subjects)).min(axis=1)  # positions follow subjects
    told = float(kept[picked == right].sum() / kept.sum())
    return told, {s: float(rate[i]) for i, s in enumerate(subjects) if shown[i] > 0}


def _row_arrays(rows: list, subjects: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Simulated rows as positions in the sorted `subjects`: the right option's, and
    the wrong ones' (one line of N_OPTIONS - 1 per row)."""
    position = {s: i for i, s in enumerate(subjects)}
    right = np.array([position[r] for r, _ in rows], dtype=np.intp)
    wrong = np.array([[position[s] for s in ws] for _, ws in rows], dtype=np.intp)
    return right, wrong.reshape(len(rows), N_OPTIONS - 1)


def _fit(rows: list, subjects: list[int], arrays: tuple | None = None
         ) -> tuple[dict, float]:
    """Per subject, log factors for being the right option and for being a wrong
    one, fitted by iterative scaling on simulated `rows` so that, rows kept with
    probability exp(sum of factors - cap), each subject is the right option in a
    quarter of the rows showing it; and the cap (a high percentile of the rows'
    sums, so that most rows are kept at a rate in proportion)."""
    n = len(subjects)
    up, down = np.zeros(n), np.zeros(n)
    if rows:
        right, wrong = arrays if arrays is not None else _row_arrays(rows, subjects)
        for _ in range(FIT_ROUNDS):
            weights = np.exp(up[right] + down[wrong].sum(axis=1))
            as_right = np.bincount(right, weights, n)
            as_wrong = np.bincount(wrong.ravel(), np.repeat(weights, N_OPTIONS - 1), n)
            both = (as_right > 0) & (as_wrong > 0)
            step = 0.5 * np.log(as_wrong[both] / ((N_OPTIONS - 1) * as_right[both]))
            up[both] = np.clip(up[both] + step, -FACTOR_RANGE, FACTOR_RANGE)
            down[both] = np.clip(down[both] - step, -FACTOR_RANGE, FACTOR_RANGE)
            up[(as_right > 0) & (as_wrong == 0)] = -FACTOR_RANGE  # never a wrong option
            down[(as_right == 0) & (as_wrong > 0)] = -FACTOR_RANGE
        sums = np.sort(up[right] + down[wrong].sum(axis=1))
        cap = float(sums[int(CAP_QUANTILE * (len(sums) - 1))])
    else:
        cap = 0.0
    factors = {s: (float(up[i]), float(down[i])) for i, s in enumerate(subjects)}
    return factors, cap


def _subject_kind(world: StripsWorld, subject):
    """Predicate or schema and argument types of a subject (an atom, an action, a
    literal, a list of actions: its first); None for steps, which have no kind."""
    if isinstance(subject, int):
        return None
    if isinstance(subject, dict):
        return (subject.get("positive"),) + world.kind_of(subject["atom"])
    if subject and isinstance(subject[0], list):
        subject = subject[0]
    return world.kind_of(subject)


def sequence_pool(world: StripsWorld, question: Question, plan: list[int],
                  right_here: Callable[[list[int]], bool]) -> Pool:
    """A pool whose one right subject is the sequence of actions `plan`; sequences
    from other situations are judged by `right_here(actions)` (executable, valid...),
    those whose first action is not applicable in the question's state at once."""
    actions, index = world.task.actions, world.task.action_index
    first = set(world.applicable(question.sid))
    known = world.__dict__.setdefault("_acp_sequences", {})  # key -> action indices

    def judge(key) -> bool | None:
        seq = known.get(key)
        if seq is None:
            seq = known[key] = [index.get(t) for t in key]
        if None in seq:
            return None
        return seq[0] in first and right_here(seq) if seq else right_here(seq)

    def judge_many(keys: list, forms: list, skip: set, start: int) -> list[int]:
        """`judge` of keys[start:] but those in `skip`, the ones wrong: most sequences
        start with an action not applicable here, wrong without a call."""
        for key in keys[len(forms):]:
            seq = [index.get(t) for t in key]
            forms.append(None if None in seq else seq)
        wrong = []
        for s in range(start, len(keys)):
            seq = forms[s]
            if seq is None or s in skip:
                continue
            if seq and seq[0] not in first or right_here(seq) is False:
                wrong.append(s)
        return wrong

    return Pool(question, [plan], [], subject=lambda p: [list(actions[k].term) for k in p],
                key=lambda p: tuple(actions[k].term for k in p), judge=judge,
                judge_many=judge_many)
