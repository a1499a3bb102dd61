"""Ground STRIPS: atoms indexed as bits, states as Python ints, actions as bit masks.

A state is the set of true fluent atoms (closed world), held as an int whose bit i is
atom i. Applicability and progression are then two mask operations, which keeps the
oracle and the generators fast in plain Python. Static atoms (never changed by any
action) are folded away during grounding and kept in `static_atoms` for rendering.

An ADL action (`AdlAction`) that grounding could not reduce to masks keeps several
alternative preconditions (a disjunction, one action to the reader) or conditional
effects; its masks then hold what relaxations need (necessary preconditions, every
atom it may add, the atoms it surely deletes), and `applicable`/`apply` are exact.
Tasks without such actions step exactly as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from racbench.worlds.strips.model import Atom, Literal


SUCCESSOR_MEMO = 20_000  # states whose successor lists are kept


@dataclass(frozen=True)
class GroundAction:
    name: str
    args: tuple[str, ...]
    pre: int  # atoms that must be true
    pre_neg: int  # atoms that must be false
    add: int
    delete: int
    cost: int = 1

    @property
    def term(self) -> tuple[str, ...]:
        return (self.name,) + self.args

    def applicable(self, state: int) -> bool:
        return state & self.pre == self.pre and not state & self.pre_neg

    def apply(self, state: int) -> int:
        """PDDL semantics: deletes first, then adds."""
        return (state & ~self.delete) | self.add

    @property
    def touched(self) -> int:
        """Atoms the action may change."""
        return self.add | self.delete

    @property
    def sure_add(self) -> int:
        """Atoms the action adds whenever it is applied (`add`: every atom it may add)."""
        return self.add

    @property
    def may_delete(self) -> int:
        """Atoms the action deletes in some state (`delete`: the ones it surely deletes)."""
        return self.delete

    @property
    def clauses(self) -> tuple[tuple[int, int], ...]:
        """The (pos, neg) conjunctions any one of which makes the action applicable."""
        return ((self.pre, self.pre_neg),)


@dataclass(frozen=True)
class AdlAction(GroundAction):
    """A ground ADL action. `pre`/`pre_neg` are what every alternative needs, `add`
    every atom it may add, `delete` the atoms it surely deletes (for relaxations);
    applicability needs one of `alternatives` besides (none: `pre` is exact), and the
    successor applies `always_add`/`always_delete` and the effects whose condition holds
    in the state before, deletes first."""

    alternatives: tuple[tuple[int, int], ...] = ()  # (pos, neg) beyond pre/pre_neg
    effects: tuple[tuple[int, int, int, int], ...] = ()  # (cond pos, cond neg, add, del)
    always_add: int = 0
    always_delete: int = 0

    def applicable(self, state: int) -> bool:
        if state & self.pre != self.pre or state & self.pre_neg:
            return False
        return not self.alternatives or any(state & p == p and not state & n
                                            for p, n in self.alternatives)

    def apply(self, state: int) -> int:
        add, delete = self.always_add, self.always_delete
        for p, n, a, d in self.effects:
            if state & p == p and not state & n:
                add |= a
                delete |= d
        return (state & ~delete) | add

    @property
    def touched(self) -> int:
        return self.add | self.may_delete

    @property
    def sure_add(self) -> int:
        return self.always_add

    @property
    def may_delete(self) -> int:
        deletes = self.always_delete
        for _, _, _, d in self.effects:
            deletes |= d
        return deletes

    @property
    def clauses(self) -> tuple[tuple[int, int], ...]:
        if not self.alternatives:
            return ((self.pre, self.pre_neg),)
        return tuple((self.pre | p, self.pre_neg | n) for p, n in self.alternatives)


@dataclass(frozen=True)
class Condition:
    """A conjunction of ground literals over fluent atoms, as two masks."""

    pos: int
    neg: int

    def holds(self, state: int) -> bool:
        return state & self.pos == self.pos and not state & self.neg

    @classmethod
    def of(cls, literals: Iterable[tuple[int, bool]]) -> "Condition":
        """The condition of literals given as (fluent atom index, polarity), each about
        another atom (goals drawn over atom indices)."""
        pos = neg = 0
        for i, positive in literals:
            if positive:
                pos |= 1 << i
            else:
                neg |= 1 << i
        return cls(pos, neg)


SPLIT_TESTED = 16  # a bucket testing more actions than this one by one splits them


def _bucket(masks: list[tuple[int, int, int]], counts: list[int]) -> tuple:
    """A bucket of actions, given as (pre, pre_neg, index): the precondition atoms they
    all share (tested once: in blocksworld, a block that is not clear rules out its
    whole bucket), then its actions by what else they need: nothing (ready), one more
    atom (by that atom's bit, looked up from the atoms true in the state: the clear
    blocks a block can go onto), or more, or negative preconditions (tested one by
    one). Where more than SPLIT_TESTED actions would be tested one by one (swap: an
    agent at a place can swap with any agent, any item for any other), those without
    negative preconditions go into buckets of their own under their rarest other atom,
    looked up like the atoms of `by_atom`. Returns (shared, ready, by_atom, the by_atom
    atoms as a mask, tested, sub-buckets, their atoms as a mask)."""
    shared = -1
    for pre, _, _ in masks:
        shared &= pre
    ready, by_atom, tested = [], {}, []
    for pre, pre_neg, k in masks:
        more = pre & ~shared
        if pre_neg or more & (more - 1):
            tested.append((pre, pre_neg, k))
        elif more:
            by_atom.setdefault(more, []).append(k)
        else:
            ready.append(k)
    sub: dict[int, list[tuple[int, int, int]]] = {}
    if len(tested) > SPLIT_TESTED:
        kept = []
        for pre, pre_neg, k in tested:
            if pre_neg:
                kept.append((pre, pre_neg, k))
                continue
            key = min(iter_bits(pre & ~shared), key=lambda i: (counts[i], i))
            sub.setdefault(1 << key, []).append((pre, pre_neg, k))
        tested = kept
    buckets = {bit: _bucket(group, counts) for bit, group in sub.items()}
    return shared, ready, by_atom, sum(by_atom), tested, buckets, sum(buckets)


def _scan(bucket: tuple, state: int, found: list[int]) -> None:
    """Append to `found` the actions of a sub-bucket (see _bucket) applicable in
    `state` (the top-level buckets are walked inline in GroundTask.applicable)."""
    shared, ready, by_atom, atoms, tested, sub, sub_atoms = bucket
    if state & shared != shared:
        return
    found += ready
    hits = state & atoms
    while hits:
        atom = hits & -hits
        hits ^= atom
        found += by_atom[atom]
    for pre, pre_neg, k in tested:
        if state & pre == pre and not state & pre_neg:
            found.append(k)
    hits = state & sub_atoms
    while hits:
        atom = hits & -hits
        hits ^= atom
        _scan(sub[atom], state, found)


def iter_bits(mask: int) -> Iterable[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class GroundTask:
    """A grounded STRIPS world: objects, fluent atoms, actions, and an initial state."""

    def __init__(self, domain_name: str, objects: dict[str, str], atoms: Sequence[Atom],
                 actions: Sequence[GroundAction], static_atoms: frozenset,
                 init: frozenset, goal: Sequence[Literal] = ()):
        self.domain_name = domain_name
        self.objects = dict(sorted(objects.items()))
        self.atoms: list[Atom] = list(atoms)
        self.atom_index = {atom: i for i, atom in enumerate(self.atoms)}
        self.actions: list[GroundAction] = list(actions)
        self.action_index = {a.term: i for i, a in enumerate(self.actions)}
        self.static_atoms = static_atoms
        self.init = self.state_of(a for a in init if a in self.atom_index)
        self.goal = tuple(goal)
        self._succ_memo: dict[int, list[tuple[int, int]]] = {}
        self._build_successor_index()

    # -- states -----------------------------------------------------------------------
    def state_of(self, atoms: Iterable[Atom]) -> int:
        state = 0
        for atom in atoms:
            state |= 1 << self.atom_index[tuple(atom)]
        return state

    def atoms_of(self, state: int) -> list[Atom]:
        """True fluent atoms of a state, in index (sorted) order."""
        return [self.atoms[i] for i in iter_bits(state)]

    def holds(self, state: int, atom: Atom) -> bool:
        """Truth of any ground atom, static ones included (closed world)."""
        atom = tuple(atom)
        i = self.atom_index.get(atom)
        if i is None:
            return atom in self.static_atoms
        return bool(state >> i & 1)

    def condition(self, literals: Iterable[Literal]) -> Condition | None:
        """Masks for a conjunction; None if a static literal makes it unsatisfiable.

        Statically true literals drop out; a fluent atom that no action can reach is
        treated as always false, so its positive literal makes the condition impossible.
        """
        pos = neg = 0
        for lit in literals:
            atom = tuple(lit.atom)
            i = self.atom_index.get(atom)
            if i is None:
                if (atom in self.static_atoms) != lit.positive:
                    return None
                continue
            if lit.positive:
                pos |= 1 << i
            else:
                neg |= 1 << i
        if pos & neg:
            return None
        return Condition(pos, neg)

    # -- actions ----------------------------------------------------------------------
    def _build_successor_index(self) -> None:
        """Bucket each action under its rarest precondition atom, keyed by that atom's
        bit, so that `applicable` only looks at buckets whose atom is true in the state
        (see _bucket for what a bucket holds)."""
        counts = [0] * len(self.atoms)
        for action in self.actions:
            for i in iter_bits(action.pre):
                counts[i] += 1
        buckets: dict[int, list[tuple[int, int, int]]] = {}
        self._unconditional: list[int] = []  # tested one by one, with `applicable`
        for k, action in enumerate(self.actions):
            if not action.pre or getattr(action, "alternatives", ()):
                self._unconditional.append(k)
                continue
            key = min(iter_bits(action.pre), key=lambda i: (counts[i], i))
            buckets.setdefault(1 << key, []).append((action.pre, action.pre_neg, k))
        self._bucket_atoms = sum(buckets)
        self._buckets = {bit: _bucket(masks, counts) for bit, masks in buckets.items()}
        self._keep = [~action.delete for action in self.actions]
        self._add = [action.add for action in self.actions]
        self._conditional = any(getattr(a, "effects", ()) for a in self.actions)

    def applicable(self, state: int) -> list[int]:
        """Indices of the actions applicable in `state`, ascending. The hot loop of
        every search and walk: bits are walked inline."""
        actions = self.actions
        found = [k for k in self._unconditional if actions[k].applicable(state)]
        buckets = self._buckets
        rest = state & self._bucket_atoms
        while rest:
            bit = rest & -rest
            rest ^= bit
            shared, ready, by_atom, atoms, tested, sub, sub_atoms = buckets[bit]
            if state & shared != shared:
                continue
            found += ready
            hits = state & atoms
            while hits:
                atom = hits & -hits
                hits ^= atom
                found += by_atom[atom]
            for pre, pre_neg, k in tested:
                if state & pre == pre and not state & pre_neg:
                    found.append(k)
            hits = state & sub_atoms
            while hits:
                atom = hits & -hits
                hits ^= atom
                _scan(sub[atom], state, found)
        found.sort()
        return found

    def successors(self, state: int) -> list[tuple[int, int]]:
        """(action, next state) pairs, memoised: searches revisit the same states."""
        succ = self._succ_memo.get(state)
        if succ is None:
            if len(self._succ_memo) >= SUCCESSOR_MEMO:
                self._succ_memo.clear()
            if self._conditional:
                actions = self.actions
                succ = self._succ_memo[state] = [(k, actions[k].apply(state))
                                                 for k in self.applicable(state)]
                return succ
            keep, add = self._keep, self._add
            succ = self._succ_memo[state] = [(k, (state & keep[k]) | add[k])
                                             for k in self.applicable(state)]
        return succ

    def action_of(self, term: Sequence[str]) -> int:
        """Index of a ground action given as (name, arg, ...); KeyError if unknown."""
        return self.action_index[tuple(term)]

    def execute(self, state: int, plan: Sequence[int]) -> tuple[int, int | None]:
        """Run a sequence; returns (final state, index of the first failing step or None)."""
        for step, k in enumerate(plan):
            action = self.actions[k]
            if not action.applicable(state):
                return state, step
            state = action.apply(state)
        return state, None
