"""Questions whose wording says nothing of their answer.

A question's text must not give its answer away; only the context (the state, the
plan) may. Families describe a sampled situation as a `Pool`: the subjects (facts,
actions, steps, sequences) that would be right there and those that would be wrong.

bool rows: if some subjects were mostly true and others mostly false, a reader of the
question alone could guess the label (a key at a locked place, the step that goes to
the countertop). So rows fix the subject's kind (by default the subject itself; what
the question shows of it) *before* the label is looked at: the kind is drawn
uniformly among the kinds that `survey_kinds` saw with both answers in the problem,
and situations are redrawn until one offers that kind with the wanted label.

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
subjects seen both right and wrong, weighted so that each is about as often right as
wrong; that balance is statistical, and `racbench audit` measures it.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from itertools import chain
from typing import Callable, Sequence

from ..splits.seeding import derive_seed
from .common import N_OPTIONS, Question, Target, json_key
from .world import ProblemWorld

SURVEY_DRAWS = 200
SURVEY_MIN = 3  # bool: both answers seen in at least this many of the draws
OPTION_TRIALS = 20  # mc: option sets tried while surveying a problem
OPTION_MIN = 2  # mc: a problem gives rows if at least this many trials found a set
SEARCH_BUDGET = 400  # mc: draws looked at while searching one option set


@dataclass
class Pool:
    """The subjects of one situation that make true and false rows. `subject(item)`
    is an item's JSON form, `kind(item)` what the question shows of it (by default
    the subject itself), `text(item)` what an mc option shows (by default the
    subject), `key(item)` a hashable form of that (computed if not given), and
    `judge(key)` whether a subject of another situation (by its key) would be
    right here (True), wrong (False) or cannot be asked (None), for families whose
    lists name only some of the subjects (given its key)."""

    question: Question
    positives: Sequence
    negatives: Sequence
    subject: Callable = lambda item: item
    kind: Callable | None = None
    text: Callable | None = None
    key: Callable | None = None
    judge: Callable | None = None

    def kind_of(self, item):
        return self.kind(item) if self.kind is not None else json_key(self.subject(item))

    def key_of(self, item):
        """An option's identity: what it shows."""
        if self.key is not None:
            return self.key(item)
        return json_key(self.text(item) if self.text is not None else self.subject(item))

    def kinds(self, label: bool) -> set:
        return {self.kind_of(x) for x in (self.positives if label else self.negatives)}

    def pick(self, rng: random.Random, label: bool, kind):
        pool = [x for x in (self.positives if label else self.negatives)
                if self.kind_of(x) == kind]
        return rng.choice(pool) if pool else None


@dataclass
class Survey:
    """What sampling a problem's situations showed.

    bool: `kinds`, the kinds of subject seen with both answers, as (kind, times
    right, times wrong). mc: draw `d` is the situation `make_pool` gives with
    `draw_rng(seed, d)`; `right[d]` lists the subjects (indices into `keys`) right
    there, `wrong[s]` is the bitset of draws where subject `s` is wrong, `subjects[s]`
    its JSON form, `kind[s]` its predicate or schema; `found` counts how many of
    OPTION_TRIALS trials found an option set."""

    kinds: tuple = ()
    seed: int | None = None
    keys: tuple = ()
    subjects: tuple = ()
    kind: tuple = ()
    right: tuple = ()
    wrong: tuple = ()
    found: int = 0
    usable: int = 0  # mc: draws with a subject right and three wrong, all seen both ways
    exact: bool = True  # mc: rows use option sets (else pick_weighted); set per config
    _seen: dict | None = field(default=None, repr=False, compare=False)

    @property
    def has_sets(self) -> bool:
        return self.found >= OPTION_MIN

    @property
    def ok(self) -> bool:
        if self.seed is None:
            return bool(self.kinds)
        return self.has_sets if self.exact else self.usable >= SURVEY_MIN

    def seen_both(self) -> dict:
        """Subjects seen both right and wrong, by key: (times right, times wrong)."""
        if self._seen is None:
            times_right, times_wrong = self.counts()
            self._seen = {k: (times_right[s], times_wrong[s]) for s, k in enumerate(self.keys)
                          if times_right[s] and times_wrong[s]}
        return self._seen

    def counts(self) -> tuple[list[int], list[int]]:
        """Per subject, the draws where it is right and where wrong."""
        times_right = [0] * len(self.keys)
        for here in self.right:
            for s in here:
                times_right[s] += 1
        return times_right, [bin(w).count("1") for w in self.wrong]


def draw_rng(seed: int, draw: int) -> random.Random:
    return random.Random(derive_seed(seed, "draw", draw))


# -- bool ---------------------------------------------------------------------------------

def survey_kinds(make_pool: Callable, world: ProblemWorld, cfg, rng: random.Random) -> Survey:
    """Sample SURVEY_DRAWS situations; keep the kinds of subject seen with both
    answers, each in at least SURVEY_MIN situations."""
    true_count, false_count = Counter(), Counter()
    for _ in range(SURVEY_DRAWS):
        pool = make_pool(world, rng, cfg)
        if pool is not None:
            true_count.update(pool.kinds(True))
            false_count.update(pool.kinds(False))
    kinds = sorted((k for k in true_count if true_count[k] >= SURVEY_MIN
                    and false_count[k] >= SURVEY_MIN), key=repr)
    return Survey(kinds=tuple((k, true_count[k], false_count[k]) for k in kinds))


def pick_bool(make_pool: Callable, world: ProblemWorld, rng: random.Random, cfg,
              target: Target) -> Question | None:
    """A bool question from `make_pool(world, rng, cfg)` whose subject has the kind
    `target.kind` (from `survey_kinds`) and the wanted label. Without a surveyed kind,
    the kind is drawn among those this one situation offers with both answers."""
    pool = make_pool(world, rng, cfg)
    if pool is None:
        return None
    wanted = target.kind
    if wanted is None:
        both = sorted(pool.kinds(True) & pool.kinds(False), key=repr)
        if not both:
            return None
        wanted = rng.choice(both)
    item = pool.pick(rng, target.label, wanted)
    if item is None:
        return None
    q = pool.question
    q.subject, q.answer = pool.subject(item), target.label
    return q


# -- mc -----------------------------------------------------------------------------------

def survey_options(make_pool: Callable, world: ProblemWorld, cfg, seed: int) -> Survey:
    """Sample SURVEY_DRAWS situations and record, for every subject right in one of
    them, where it is right and where wrong (from the pools' lists, and from their
    `judge` for subjects a pool does not list)."""
    pools = [make_pool(world, draw_rng(seed, d), cfg) for d in range(SURVEY_DRAWS)]
    index: dict = {}
    keys, subjects, kinds, right = [], [], [], []
    for pool in pools:
        here = set()
        for x in (pool.positives if pool is not None else ()):
            key = pool.key_of(x)
            s = index.get(key)
            if s is None:
                s = index[key] = len(keys)
                keys.append(key)
                subjects.append(pool.subject(x))
                shown = pool.text(x) if pool.text is not None else pool.subject(x)
                kinds.append(_subject_kind(world, shown))
            here.add(s)
        right.append(tuple(sorted(here)))
    wrong = [0] * len(keys)
    for d, pool in enumerate(pools):
        if pool is None:
            continue
        listed = set()
        for x in chain(pool.positives, pool.negatives):
            listed.add(pool.key_of(x))
        for x in pool.negatives:
            s = index.get(pool.key_of(x))
            if s is not None:
                wrong[s] |= 1 << d
        if pool.judge is not None:
            for s, key in enumerate(keys):
                if key not in listed and pool.judge(key) is False:
                    wrong[s] |= 1 << d
    survey = Survey(seed=seed, keys=tuple(keys), subjects=tuple(subjects),
                    kind=tuple(kinds), right=tuple(right), wrong=tuple(wrong))
    trials = random.Random(derive_seed(seed, "trials"))
    survey.found = sum(option_set(survey, trials) is not None for _ in range(OPTION_TRIALS))
    times_right, times_wrong = survey.counts()
    both = {s for s in range(len(keys)) if times_right[s] and times_wrong[s]}
    wrong_here = Counter(d for s in both for d in _bits(wrong[s]))
    survey.usable = sum(1 for d, here in enumerate(right)
                        if any(s in both for s in here) and wrong_here[d] >= N_OPTIONS - 1)
    return survey


def option_set(survey: Survey, rng: random.Random) -> list[tuple[int, int]] | None:
    """Four (draw, subject) pairs, each subject right in its draw and wrong in the
    other three, distinct; subjects of the first one's predicate or schema first.
    Any way of choosing them would do: which of the four is the row's is drawn
    afterwards."""
    starts = [d for d, here in enumerate(survey.right) if here]
    if not starts:
        return None
    first = rng.choice(starts)
    subject = rng.choice(survey.right[first])
    wrong, kind = survey.wrong, survey.kind[subject]

    def unlike(s: int) -> int:
        """0: same predicate or schema and argument types as the first subject; 1:
        same predicate or schema; 2: other."""
        other = survey.kind[s]
        return 0 if other == kind else 1 if _head(other) == _head(kind) else 2

    def extend(chosen: list, open_draws: int, used: int, most: int) -> list | None:
        """Depth first: `open_draws` is the bitset of draws where every chosen
        subject is wrong, `used` that of the chosen draws; subjects at most `most`
        unlike the first one."""
        if len(chosen) == N_OPTIONS:
            return chosen
        draws = _bits(open_draws)
        rng.shuffle(draws)
        # draws offering a subject like the first one first
        draws.sort(key=rank)
        for d in draws:
            budget[0] -= 1
            if budget[0] < 0:
                return None
            fits = [s for s in survey.right[d] if wrong[s] & used == used
                    and unlike(s) <= most and all(s != c for _, c in chosen)]
            rng.shuffle(fits)
            fits.sort(key=unlike)
            for s in fits[:2]:
                found = extend(chosen + [(d, s)], open_draws & wrong[s] & ~(1 << d),
                               used | 1 << d, most)
                if found is not None:
                    return found
        return None

    ranks: dict[int, int] = {}

    def rank(d: int) -> int:
        """How unlike the first subject a draw's likest subject is."""
        if d not in ranks:
            ranks[d] = min((unlike(s) for s in survey.right[d]), default=2)
        return ranks[d]

    # options of the first one's predicate or schema if such a set is found in half
    # the budget, else any
    for most, share in ((1, SEARCH_BUDGET // 2), (2, SEARCH_BUDGET)):
        budget = [share]
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
    out, i = [], 0
    while x:
        if x & 1:
            out.append(i)
        x >>= 1
        i += 1
    return out


def pick_mc(make_pool: Callable, world: ProblemWorld, rng: random.Random, cfg,
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
    pool = make_pool(world, draw_rng(survey.seed, draw), cfg)
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


def pick_weighted(make_pool: Callable, world: ProblemWorld, rng: random.Random, cfg,
                  index: int, survey: Survey) -> Question | None:
    """A 4-option question from a fresh situation whose options are subjects the
    survey saw both right and wrong. The right one is drawn with weight 1 / (times
    the survey saw it right); the wrong ones are distinct subjects wrong here, of the
    right one's predicate or schema first, each drawn with weight 1 / (times seen
    wrong). So every subject is about as often the right option as a wrong one."""
    pool = make_pool(world, rng, cfg)
    if pool is None:
        return None
    seen = survey.seen_both()

    def candidates(items) -> dict:
        out = {}
        for x in items:
            key = pool.key_of(x)
            if key in seen:
                out.setdefault(key, pool.subject(x))
        return out

    def draw(found: dict, side: int, n: int) -> list:
        keys, out = sorted(found, key=repr), []
        for _ in range(min(n, len(keys))):
            key = rng.choices(keys, [1.0 / seen[k][side] for k in keys])[0]
            keys.remove(key)
            out.append(found[key])
        return out

    right, wrong = candidates(pool.positives), candidates(pool.negatives)
    if not right or len(wrong) < N_OPTIONS - 1:
        return None
    correct = draw(right, 0, 1)[0]
    kind = _subject_kind(world, correct)
    alike = {k: v for k, v in wrong.items() if _subject_kind(world, v) == kind}
    chosen = draw(alike, 1, N_OPTIONS - 1)
    rest = {k: v for k, v in wrong.items() if k not in alike}
    chosen += draw(rest, 1, N_OPTIONS - 1 - len(chosen))
    rng.shuffle(chosen)
    chosen.insert(index, correct)
    q = pool.question
    q.options, q.answer = chosen, index
    return q


def _subject_kind(world: ProblemWorld, subject):
    """Predicate or schema and argument types of a subject (an atom, an action, a
    literal, a list of actions: its first); None for steps, which have no kind."""
    if isinstance(subject, int):
        return None
    if isinstance(subject, dict):
        return (subject.get("positive"),) + world.kind_of(subject["atom"])
    if subject and isinstance(subject[0], list):
        subject = subject[0]
    return world.kind_of(subject)


def sequence_pool(world: ProblemWorld, question: Question, plan: list[int],
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

    return Pool(question, [plan], [], subject=lambda p: [list(actions[k].term) for k in p],
                key=lambda p: tuple(actions[k].term for k in p), judge=judge)
