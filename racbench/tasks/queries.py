"""Queries and goals of one or two literals, and their kinds.

A literal's kind is what a sentence about it shows besides object names: its polarity,
predicate and argument types (`literal_kind`). A query or goal of two literals has the
pair of their kinds, in order. Projection asks queries (`QueryPool`), planning and goal
recognition pursue goals (`goals_between`); both take their sizes from the config's
query kinds (literal: one literal, conjunction: two).
"""

from __future__ import annotations

import random
from typing import Sequence

import numpy as np

from racbench.tasks.balance import Pool
from racbench.tasks.base import Question
from racbench.tasks.options import QUERY_KINDS
from racbench.splits.draws import pick, shuffle
from racbench.worlds.strips.task import iter_bits
from racbench.worlds.strips.world import StripsWorld

Literal = tuple[int, bool]  # (atom index, polarity): goals, in STRIPS worlds
Query = tuple[tuple, bool]  # (fact term, polarity): queries, in any world
FALSE_PATTERNS = ((True, False), (False, True), (False, False))  # truths of a false pair
GOAL_TRIES = 8


def sizes(cfg) -> tuple[int, ...]:
    """The numbers of literals the config's query kinds allow."""
    return tuple(QUERY_KINDS.index(k) + 1 for k in cfg.query_kinds)


def literal_kind(world, literal: Query) -> tuple:
    fact, positive = literal
    return (positive,) + world.fact_kind(fact)


def literals_json(literals: Sequence[Query]) -> list[dict]:
    return [{"atom": list(fact), "positive": p} for fact, p in literals]


class QueryPool(Pool):
    """The queries one situation offers: single literals, and ordered pairs of literals
    over two different facts, true or false in the situation's end state. Pairs are not
    listed (a few thousand per state); their kinds and picks are worked out from the
    single literals. A false pair has one or both literals false, the pattern drawn
    uniformly among those available, so which conjunct fails tells nothing."""

    def __init__(self, question: Question, world, true: list[Query], false: list[Query],
                 allowed: tuple[int, ...], groups: dict | None = None):
        super().__init__(question, true, false, subject=literals_json)
        self.allowed = allowed
        self._world = world
        # (truth, kind) -> its literals, grouped when first asked; pools over the same
        # lists may share one (`groups`)
        self._groups: dict = {} if groups is None else groups
        self._by_kind_all: tuple[dict, dict] | None = None  # truth -> kind -> literals
        # a literal's kind, kept per STRIPS world (whose kinds never change): every draw
        # groups the same few dozen facts
        self._kinds = (world.__dict__.setdefault("_literal_kinds", {})
                       if isinstance(world, StripsWorld) else {})

    def _kind(self, lit: Query) -> tuple:
        kind = self._kinds.get(lit)
        if kind is None:
            kind = self._kinds[lit] = literal_kind(self._world, lit)
        return kind

    def _of(self, truth: bool, kind) -> list[Query]:
        """The literals of `kind` with that truth, in the pool's order: a row's draw
        picks among one or two kinds of a pool's few dozen, so only those are grouped
        (grouping them all was a tenth of a projection row)."""
        key = (truth, kind)
        found = self._groups.get(key)
        if found is None:
            get, of = self._kinds.get, self._kind
            found = self._groups[key] = [
                lit for lit in (self.positives if truth else self.negatives)
                if (get(lit) or of(lit)) == kind]
        return found

    @property
    def _by_kind(self) -> tuple[dict, dict]:
        """truth -> kind -> literals, every kind (what a survey lists)."""
        if self._by_kind_all is None:
            self._by_kind_all = ({}, {})
            for truth, literals in ((False, self.negatives), (True, self.positives)):
                groups = self._by_kind_all[truth]
                for lit in literals:
                    kind = self._kind(lit)
                    if kind in groups:
                        groups[kind].append(lit)
                    else:
                        groups[kind] = [lit]
        return self._by_kind_all

    def kinds(self, label: bool) -> set:
        out = set()
        if 1 in self.allowed:
            out.update((k,) for k in self._by_kind[label])
        if 2 in self.allowed:
            patterns = [(True, True)] if label else FALSE_PATTERNS
            for first, second in patterns:
                for ka, xs in self._by_kind[first].items():
                    for kb, ys in self._by_kind[second].items():
                        if _distinct_pair(xs, ys):
                            out.add((ka, kb))
        return out

    def variants(self) -> set:
        return {(k, 0) for k in self.kinds(False)}

    def pick(self, rng: random.Random, label: bool, kind, variant: int | None = None):
        if len(kind) == 1:
            found = self._of(label, kind[0])
            return (pick(rng, found),) if found else None
        patterns = [(True, True)] if label else list(FALSE_PATTERNS)
        shuffle(rng, patterns)
        for first, second in patterns:
            xs = self._of(first, kind[0])
            ys = self._of(second, kind[1])
            if xs and ys and _distinct_pair(xs, ys):
                a = pick(rng, [x for x in xs if any(y[0] != x[0] for y in ys)])
                return a, pick(rng, [y for y in ys if y[0] != a[0]])
        return None


def _distinct_pair(xs: list[Query], ys: list[Query]) -> bool:
    """Can a literal of xs and one of ys be about two different facts? (The literals
    of one list are about distinct facts: a fact has one truth in a situation.)"""
    return len(xs) > 1 or len(ys) > 1 or xs[0][0] != ys[0][0]


def goals_between(world, rng: random.Random, start_bits: int, end_bits: int, size: int,
                  kind=None, avoid: "Avoided | Sequence[int]" = (), exact: bool = False,
                  certain: bool = False) -> tuple[Literal, ...] | None:
    """A goal of `size` literals (of the given kind, if any) that holds in `end_bits`
    but not in `start_bits` (no goal is achieved already) nor in any state of `avoid`.
    Without a kind, one literal is one that changed, the other any that holds at the end.

    Every literal drawn holds at the end, so it holds in another state exactly when its
    atom is the same there: a goal holds in none of those states if, for each, one of
    its atoms differs between that state and the end. With `exact` (TRAC's configs),
    literals are drawn among those that can still make such a goal (bit masks of the
    avoided states, `Avoided`), so a goal is drawn at once where one exists (one far
    from its start avoids every state near it, hundreds); without it, a few goals are
    drawn and refused (other suites' rows keep their bytes). `certain` (exact, with a
    kind): the caller knows a goal exists, and one of two literals is then found even
    where GOAL_TRIES first literals made none."""
    if kind is not None and exact:
        return _exact_goal_of_kind(world, rng, start_bits, end_bits, size, kind, avoid,
                                   certain)
    if kind is None:
        true = _Holding(end_bits, len(world.task.atoms))
        changed = [true[i] for i in iter_bits((start_bits ^ end_bits) & world.task.atom_mask)]
        choices = [changed] + [true] * (size - 1)
    else:  # literals of each wanted kind (polarity, then the atom's kind) true at the end
        # (never `exact` here), first as the bits of their atoms
        masks = literal_masks(world)
        holding = [masks.get(k, 0) & (end_bits if k[0] else ~end_bits) for k in kind]
        if not all(holding) or _refused_outright(rng, start_bits, end_bits, size, kind,
                                                 avoid, holding):
            return None
        # as `world.true_literals` lists them (in atom order), kept by mask
        choices = [literal_list(mask, k[0]) for mask, k in zip(holding, kind)]
    if not all(choices):
        return None
    if not exact:
        return _goal_drawn_and_refused(rng, start_bits, end_bits, size, kind, avoid, choices)
    if not isinstance(avoid, Avoided):
        avoid = Avoided(avoid)
    changed_bits = start_bits ^ end_bits
    if size == 1:
        far = changed_bits & avoid.differing(end_bits)
        found = [x for x in choices[0] if far >> x[0] & 1]
        return (pick(rng, found),) if found else None
    for _ in range(GOAL_TRIES):
        first = pick(rng, choices[0])
        atom, truth = first
        # a second literal must differ wherever `first` does not: at the start, and in
        # the avoided states where `first`'s atom has its truth
        need = avoid.differing(end_bits, first)
        if not changed_bits >> atom & 1:
            need &= changed_bits
        rest = _needed(_without(choices[1], first), need)
        if rest:
            goal = [first, pick(rng, rest)]
            if kind is None:
                shuffle(rng, goal)
            return tuple(goal)
    return None


def _needed(literals, need: int) -> list[Literal]:
    """`[y for y in literals if need >> y[0] & 1]`: for a `_Holding` (every atom as it
    is at a walk's end, a hundred and more on ten blocks), read off the bits of the
    atoms it holds that `need` names, in atom order, rather than item by item."""
    if type(literals) is not _Holding:
        return [y for y in literals if need >> y[0] & 1]
    bits, mask = literals.bits, need & ((1 << literals.n) - 1)
    if literals.skip is not None:
        mask &= ~(1 << literals.skip)
    return [(atom, bool(bits >> atom & 1)) for atom in iter_bits(mask)]


def _exact_goal_of_kind(world, rng: random.Random, start_bits: int, end_bits: int,
                        size: int, kind, avoid, certain: bool = False
                        ) -> tuple[Literal, ...] | None:
    """`goals_between` with a kind and `exact`, on bit masks: the literals of a kind
    true at the end are the set bits of its atoms' mask and the end's (or the end's
    complement, for negative literals), in atom order as `world.true_literals` lists
    them; only the few a draw picks among are listed (the same picks from the same
    random numbers as from the lists)."""
    masks = kind_masks(world)
    holding = []
    for k in kind:
        mask = masks.get(k[1:], 0) & (end_bits if k[0] else ~end_bits)
        if not mask:
            return None
        holding.append(mask)
    if not isinstance(avoid, Avoided):
        avoid = Avoided(avoid)
    changed_bits = start_bits ^ end_bits
    if size == 1:
        found = holding[0] & changed_bits & avoid.differing(end_bits)
        return ((pick(rng, bit_list(found)), kind[0][0]),) if found else None
    firsts, truth, second = bit_list(holding[0]), kind[0][0], kind[1][0]
    for _ in range(GOAL_TRIES):
        atom = pick(rng, firsts)
        rest = _seconds(avoid, holding[1], end_bits, changed_bits, atom, truth)
        if rest:
            return (atom, truth), (pick(rng, bit_list(rest)), second)
    if not certain:
        return None
    # a caller that knows a goal exists (planning's tested walks, walk_ends.py): after
    # GOAL_TRIES first literals that made none, one drawn among those that can (as
    # drawing on until one does would), so it is found
    good = [(a, rest) for a in firsts
            if (rest := _seconds(avoid, holding[1], end_bits, changed_bits, a, truth))]
    if not good:
        return None
    atom, rest = pick(rng, good)
    return (atom, truth), (pick(rng, bit_list(rest)), second)


def _seconds(avoid: "Avoided", holding: int, end_bits: int, changed_bits: int, atom: int,
             truth: bool) -> int:
    """The atoms of `holding` that make a goal with the literal (atom, truth): a second
    literal must differ wherever the first does not, at the start and in the avoided
    states where the first's atom has its truth; not about its atom."""
    need = avoid.differing(end_bits, (atom, truth))
    if not changed_bits >> atom & 1:
        need &= changed_bits
    return holding & need & ~(1 << atom)


BIT_LISTS = 65_536  # `bit_list` entries kept
_BIT_LISTS: dict[int, list[int]] = {}


def bit_list(mask: int) -> list[int]:
    """`list(iter_bits(mask))`, kept (read it, never change it): goal draws list the
    literals of the same few thousand masks again and again."""
    found = _BIT_LISTS.get(mask)
    if found is None:
        if len(_BIT_LISTS) >= BIT_LISTS:
            _BIT_LISTS.clear()
        found = _BIT_LISTS[mask] = list(iter_bits(mask))
    return found


def kind_masks(world) -> dict[tuple, int]:
    """An atom kind -> the mask of its atoms (kept per world)."""
    found = world.__dict__.get("_kind_masks")
    if found is None:
        found = world.__dict__["_kind_masks"] = {
            k: sum(1 << i for i in atoms) for k, atoms in world.atoms_by_kind.items()}
    return found


def _goal_drawn_and_refused(rng, start_bits: int, end_bits: int, size: int, kind, avoid,
                            choices) -> tuple[Literal, ...] | None:
    """`goals_between` without `exact`: up to GOAL_TRIES goals drawn from `choices` and
    refused while one holds in a state of `avoid`."""
    if isinstance(avoid, Avoided):
        avoid = avoid.states
    differs = [start_bits ^ end_bits] + [s ^ end_bits for s in avoid]
    for _ in range(GOAL_TRIES):
        first = pick(rng, choices[0])
        goal, atoms = [first], 1 << first[0]
        if size == 2:
            rest = _without(choices[1], first)
            if not rest:
                return None
            second = pick(rng, rest)
            goal.append(second)
            atoms |= 1 << second[0]
            if kind is None:
                rng.shuffle(goal)
        if all(map(atoms.__and__, differs)):  # each of those states differs in a goal atom
            return tuple(goal)
    return None


def _refused_outright(rng, start_bits: int, end_bits: int, size: int, kind, avoid,
                      holding: list[int]) -> bool:
    """Whether `_goal_drawn_and_refused` of goals of `kind` (whose literals true at the
    end are the atoms `holding`, one mask a kind) would find none because every goal
    it can draw holds at the start or in an avoided state (its literals' atoms all keep
    their truth there: a walk that came back, or changed none of them); then its draws
    are made all the same (the same random numbers, so what follows keeps its bytes)
    without listing a literal. Most goal recognition draws away from TRAC end so."""
    first = holding[0]
    atoms = first | holding[1] if size == 2 else first
    if atoms & (start_bits ^ end_bits) and (
            not avoid or all(atoms & (s ^ end_bits)
                             for s in (avoid.states if isinstance(avoid, Avoided) else avoid))):
        return False
    # GOAL_TRIES goals: a first literal, then a second about another atom (the first is
    # among them only if both kinds are one); `below`'s draws, inlined
    getrandbits = rng.getrandbits
    n = first.bit_count()
    m = holding[1].bit_count() - (kind[0] == kind[1]) if size == 2 else 0
    k, j = n.bit_length(), m.bit_length()
    for _ in range(GOAL_TRIES):
        while getrandbits(k) >= n:
            pass
        if size == 2:
            if not m:
                break  # no second literal: given up at the first try
            while getrandbits(j) >= m:
                pass
    return True


LITERAL_LISTS = 65_536  # `literal_list` entries kept
_LITERAL_LISTS: dict[tuple[int, bool], list[Literal]] = {}


def literal_list(mask: int, positive: bool) -> list[Literal]:
    """The literals (atom, `positive`) of the atoms of `mask`, in atom order, kept
    (read it, never change it): goal draws list those of the same masks again and
    again, as a small world keeps its `true_literals`."""
    found = _LITERAL_LISTS.get((mask, positive))
    if found is None:
        if len(_LITERAL_LISTS) >= LITERAL_LISTS:
            _LITERAL_LISTS.clear()
        found = _LITERAL_LISTS[(mask, positive)] = [(i, positive) for i in bit_list(mask)]
    return found


def literal_masks(world) -> dict[tuple, int]:
    """A literal kind (a polarity, then an atom kind) -> the mask of its atoms (kept
    per world): `kind_masks` by the kinds goals are asked of."""
    found = world.__dict__.get("_literal_masks")
    if found is None:
        found = world.__dict__["_literal_masks"] = {
            (p, *k): mask for k, mask in kind_masks(world).items() for p in (True, False)}
    return found


EVERY_LITERAL_FROM = 64  # `Avoided(..., every_literal=True)`: batched from this many states


class Avoided:
    """States a goal must not hold in (their bits), with the masks goal draws read:
    the bitwise and and or of all of them, or of those where an atom has a given
    truth (worked out once per atom and truth, as draws ask again and again).
    `every_literal` (a set kept and asked about again and again: a small world's
    states near a goal recognition state, `near_layers`): at the first literal asked,
    those of every atom are worked out at once (`_literal_masks`), where there are
    EVERY_LITERAL_FROM states or more (five blocks' states up to four actions away,
    a few hundred: one literal's loop over them cost GE2's goal recognition a
    quarter of its draws)."""

    __slots__ = ("states", "_masks", "_every_literal")

    def __init__(self, states: Sequence[int], every_literal: bool = False):
        self.states = tuple(states)
        self._masks: dict = {}
        self._every_literal = every_literal and len(self.states) >= EVERY_LITERAL_FROM

    def masks(self, literal: Literal | None = None) -> tuple[int, int]:
        found = self._masks.get(literal)
        if found is None and literal is not None and self._every_literal:
            self._every_literal = False
            self._masks.update(_literal_masks(self.states))
            found = self._masks.get(literal)
        if found is None:
            every, some = -1, 0
            if literal is None:
                for s in self.states:
                    every &= s
                    some |= s
            else:  # (the atom's bit masked, not shifted: a quarter less on ten blocks)
                atom, truth = literal
                bit = 1 << atom
                want = bit if truth else 0
                for s in self.states:
                    if s & bit == want:
                        every &= s
                        some |= s
            found = self._masks[literal] = (every, some)
        return found

    def differing(self, end_bits: int, literal: Literal | None = None) -> int:
        """The atoms whose truth at `end_bits` differs in every avoided state (where
        `literal` holds, if given): a literal over one of them, true at the end, holds
        in none of those states."""
        every, some = self.masks(literal)
        return (end_bits & ~some) | (~end_bits & every)


def _literal_masks(states: tuple[int, ...]) -> dict:
    """`Avoided.masks` of every literal over an atom some state of `states` holds,
    at once: the states as a 0/1 matrix (state x atom), and for each atom and truth,
    from products of it and its complement, which atoms every state with that truth
    holds (none where no state has it: the and) and which some state holds (the or).
    The same masks as `masks`'s loop over the states (counts below 2**24 are exact
    in float32)."""
    width = max(states).bit_length()
    nbytes = max(1, (width + 7) // 8)
    raw = np.frombuffer(b"".join([s.to_bytes(nbytes, "little") for s in states]),
                        dtype=np.uint8).reshape(len(states), nbytes)
    on = np.unpackbits(raw, axis=1, bitorder="little")[:, :width].astype(np.float32)
    off = 1.0 - on
    n_on = on.sum(axis=0)
    found = {}
    for truth, rows, count in ((True, on, n_on), (False, off, len(states) - n_on)):
        every = np.packbits((rows.T @ off) == 0, axis=1, bitorder="little")
        some = np.packbits((rows.T @ on) > 0, axis=1, bitorder="little")
        for atom in range(width):
            found[(atom, truth)] = (
                (int.from_bytes(every[atom].tobytes(), "little"),
                 int.from_bytes(some[atom].tobytes(), "little"))
                if count[atom] else (-1, 0))
    return found


class _Holding:
    """The literals of every atom as it is in one state, (atom, truth) by atom index,
    read from its bits when asked (with `skip`, that atom's left out): a goal draw
    picks one or two of them, and listing them all cost more than the rest of the draw.
    A sequence as `random.choice` reads one (its length, then an item), so a draw
    consumes the same random numbers as from the list."""

    __slots__ = ("bits", "n", "skip")

    def __init__(self, bits: int, n: int, skip: int | None = None):
        self.bits, self.n, self.skip = bits, n, skip

    def __len__(self) -> int:
        return self.n if self.skip is None else self.n - 1

    def __getitem__(self, j: int) -> Literal:
        if not 0 <= j < len(self):
            raise IndexError(j)
        if self.skip is not None and j >= self.skip:
            j += 1
        return j, bool(self.bits >> j & 1)

    def without(self, literal: Literal) -> "_Holding":
        """These literals but `literal`, if it is one of them (see `_without`)."""
        atom, positive = literal
        if atom == self.skip or not (0 <= atom < self.n) or \
                positive != bool(self.bits >> atom & 1):
            return self
        if self.skip is None:
            return _Holding(self.bits, self.n, atom)
        return [x for x in self if x != literal]


def _without(literals: list[Literal], literal: Literal) -> list[Literal]:
    """The literals about other atoms than `literal`'s. All are true in one state, so
    the only one about its atom is `literal` itself; the list is copied only if it
    holds it."""
    if isinstance(literals, _Holding):
        return literals.without(literal)
    if literal not in literals:
        return literals
    i = literals.index(literal)
    return literals[:i] + literals[i + 1:]


def _goal_literal_kind(world, literal: Literal) -> tuple:
    atom, positive = literal
    return (positive,) + world.atom_kinds[atom]


GOAL_KINDS_KEPT = 65_536  # `goal_kind` answers kept per world


def goal_kind(world, goal: Sequence[Literal]) -> tuple:
    """The kind of a goal (its literals' kinds, in order), kept per world and goal: a
    row's pool asks it of the same goal again and again (its kind, its pick, its
    negatives), and TRAC's five blocks have a few thousand goals."""
    kept = world.__dict__.get("_goal_kinds")
    if kept is None:
        kept = world.__dict__["_goal_kinds"] = {}
    key = goal if type(goal) is tuple else tuple(goal)
    found = kept.get(key)
    if found is None:
        if len(kept) >= GOAL_KINDS_KEPT:
            kept.clear()
        found = kept[key] = tuple([_goal_literal_kind(world, lit) for lit in goal])
    return found
