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

import heapq
import random
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from racbench.text import sayer
from racbench.worlds.strips.model import AnyOf, Atom, Literal

_say = sayer("cli", ("search.j2",))


SUCCESSOR_MEMO = 20_000  # states whose successor lists are kept
CHANGERS_KEPT = 4096  # conditions whose changing actions are kept (`_changing`)
TRUTH_WALK = 200  # steps of the walk that tells how often each atom is true


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
class AxiomAction(AdlAction):
    """An action of a task with derived predicates: its successor holds exactly the
    derived atoms the axioms derive there (racbench.worlds.strips.axioms). Its masks
    never name a derived atom as added or deleted: those change through the axioms."""

    axioms: object = field(default=None, compare=False, repr=False)

    def apply(self, state: int) -> int:
        return self.axioms.close(AdlAction.apply(self, state))

    @classmethod
    def of(cls, action: GroundAction, axioms) -> "AxiomAction":
        if isinstance(action, AdlAction):
            return cls(name=action.name, args=action.args, pre=action.pre,
                       pre_neg=action.pre_neg, add=action.add, delete=action.delete,
                       cost=action.cost, alternatives=action.alternatives,
                       effects=action.effects, always_add=action.always_add,
                       always_delete=action.always_delete, axioms=axioms)
        return cls(name=action.name, args=action.args, pre=action.pre,
                   pre_neg=action.pre_neg, add=action.add, delete=action.delete,
                   cost=action.cost, always_add=action.add, always_delete=action.delete,
                   axioms=axioms)


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


def _groups(rest: list[tuple[int, int, int]], counts: list[int],
            truth: list[float]) -> dict[int, list[tuple[int, int, int]]]:
    """Actions (positive preconditions left, negative ones, index) grouped under one
    atom at a time: the one that rules out most of those not grouped yet (needed by
    many, seldom true: `truth[i]` is how often atom i is true, so in depots a hoist's
    place, always true, comes last; ties: fewer actions overall, then the lower atom).
    Kept in a heap whose entries only worsen as actions are grouped (a stale one is
    ranked again), so that 20,000 actions group in well under a second."""
    holding: dict[int, list[int]] = {}  # atom -> the positions in `rest` that need it
    for j, (more, _, _) in enumerate(rest):
        for i in iter_bits(more):
            holding.setdefault(i, []).append(j)
    left = {i: len(js) for i, js in holding.items()}  # ... not grouped yet

    def rank(i: int) -> tuple:  # the least first
        return -left[i] * (1 - truth[i]), -left[i], counts[i], i

    heap = [rank(i) for i in left]
    heapq.heapify(heap)
    groups: dict[int, list[tuple[int, int, int]]] = {}
    grouped = [False] * len(rest)
    while heap:
        entry = heapq.heappop(heap)
        key = entry[-1]
        if not left[key]:
            continue
        if entry != rank(key):
            heapq.heappush(heap, rank(key))
            continue
        group = groups[key] = []
        for j in holding[key]:
            if not grouped[j]:
                grouped[j] = True
                group.append(rest[j])
                for i in iter_bits(rest[j][0]):
                    left[i] -= 1
    return groups


def _node(masks: list[tuple[int, int, int]], counts: list[int], truth: list[float]) -> tuple:
    """A node of the decision tree over atoms (as Fast Downward's successor generator)
    that `applicable` walks. `masks` are (positive preconditions not tested on the way
    here, negative ones, index). The node tests once the atoms they all share, then
    sorts its actions by what else they need: nothing (ready), negative atoms only
    (tested one by one), or more, grouped by `_groups`. A group is looked up by the
    bits true in the state: a leaf list if that atom is all its actions need (the clear
    blocks a held block can go onto), one action with its other preconditions
    (singles), or a child node (swap: an agent at a place, then what it holds, then
    another agent there), kept as (leaves, their atoms) in `flat` if it holds only
    leaves. Returns (shared, ready, leaves, their atoms as a mask, singles, their
    atoms, tested, flat, their atoms, children, their atoms)."""
    shared = -1 if masks else 0
    for pre, _, _ in masks:
        shared &= pre
    ready, tested, rest = [], [], []
    for pre, pre_neg, k in masks:
        more = pre & ~shared
        if more:
            rest.append((more, pre_neg, k))
        elif pre_neg:
            tested.append((0, pre_neg, k))
        else:
            ready.append(k)
    leaves, singles, flat, children = {}, {}, {}, {}
    for key, group in _groups(rest, counts, truth).items():
        bit = 1 << key
        if all(more == bit and not pre_neg for more, pre_neg, _ in group):
            leaves[bit] = [k for _, _, k in group]
        elif len(group) == 1:
            (more, pre_neg, k), = group
            singles[bit] = (more & ~bit, pre_neg, k)
        else:
            child = _node([(more & ~bit, pre_neg, k) for more, pre_neg, k in group],
                          counts, truth)
            shared_, ready_, _, _, singles_, _, tested_, flat_, _, children_, _ = child
            if not (shared_ or ready_ or singles_ or tested_ or flat_ or children_):
                flat[bit] = child[2:4]  # leaves only: walked inline, without the stack
            else:
                children[bit] = child
    return (shared, ready, leaves, sum(leaves), singles, sum(singles), tested, flat,
            sum(flat), children, sum(children))


def iter_bits(mask: int) -> Iterable[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class GroundTask:
    """A grounded STRIPS world: objects, fluent atoms, actions, and an initial state."""

    def __init__(self, domain_name: str, objects: dict[str, str], atoms: Sequence[Atom],
                 actions: Sequence[GroundAction], static_atoms: frozenset,
                 init: frozenset, goal: Sequence[Literal] = (), axioms=None,
                 goal_bit: int | None = None):
        self.domain_name = domain_name
        self.axioms = axioms  # Axioms of the derived predicates, or None
        # a disjunctive goal's derived atom: the bit after the atoms' (no atom of `atoms`,
        # never rendered or asked about), derived by `axioms` from its alternatives
        self.goal_bit = goal_bit
        if axioms is not None:
            actions = [AxiomAction.of(a, axioms) for a in actions]
        self.objects = dict(sorted(objects.items()))
        self.atoms: list[Atom] = list(atoms)
        self.atom_index = {atom: i for i, atom in enumerate(self.atoms)}
        self.atom_mask = (1 << len(self.atoms)) - 1  # the atoms' bits (no goal bit)
        self.actions: list[GroundAction] = list(actions)
        self.action_index = {a.term: i for i, a in enumerate(self.actions)}
        self.static_atoms = static_atoms
        self.init = self.state_of(a for a in init if a in self.atom_index)
        if axioms is not None:
            self.init = axioms.close(self.init)
        self.goal = tuple(goal)
        self._succ_memo: dict[int, list[tuple[int, int]]] = {}
        self._changers: dict[tuple[int, int], list] = {}  # `_changing`'s, per condition
        self._adders: dict[int, list[int]] | None = None  # atom -> actions adding it
        self._deleters: dict[int, list[int]] = {}  # atom -> actions deleting it
        self._build_successor_index()

    @property
    def n_bits(self) -> int:
        """Bits a state may have: one per atom, and the goal atom's if any."""
        return len(self.atoms) + (self.goal_bit is not None)

    @property
    def relaxed_axioms(self) -> list[tuple[int, int]]:
        """The axioms as relaxed actions (positive conditions, the derived atom), for
        delete relaxations: a derived atom is reached once its conditions are. Empty
        without derived predicates."""
        if self.axioms is None:
            return []
        return [(pos, 1 << head) for head, pos, _ in self.axioms.rules]

    # -- states -----------------------------------------------------------------------
    def state_of(self, atoms: Iterable[Atom]) -> int:
        state = 0
        for atom in atoms:
            state |= 1 << self.atom_index[tuple(atom)]
        return state

    def atoms_of(self, state: int) -> list[Atom]:
        """True fluent atoms of a state, in index (sorted) order."""
        return [self.atoms[i] for i in iter_bits(state & self.atom_mask)]

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
            if isinstance(lit, AnyOf):  # the task's disjunctive goal: its derived atom
                if self.goal_bit is None or lit != self._disjunction():
                    raise ValueError(_say("other_disjunction"))
                if not any(h == self.goal_bit for h, _, _ in self.axioms.rules):
                    return None  # no alternative can hold
                pos |= 1 << self.goal_bit
                continue
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

    def _disjunction(self) -> AnyOf | None:
        return next((p for p in self.goal if isinstance(p, AnyOf)), None)

    # -- actions ----------------------------------------------------------------------
    def _build_successor_index(self) -> None:
        """The decision tree (see _node) that `applicable` walks: every action whose
        applicability its masks decide, the others (ADL alternatives) kept apart."""
        counts = [0] * len(self.atoms)
        moved = 0  # atoms some action deletes (the others never turn false)
        for action in self.actions:
            moved |= action.may_delete
            for i in iter_bits(action.pre):
                counts[i] += 1
        masks = []
        self._unconditional: list[int] = []  # tested one by one, with `applicable`
        for k, action in enumerate(self.actions):
            if getattr(action, "alternatives", ()):
                self._unconditional.append(k)
            else:
                masks.append((action.pre, action.pre_neg, k))
        # a first tree guesses that atoms some action deletes are true half the time;
        # the tree kept weighs them by how often a walk with the first finds them true
        guess = [0.5 if moved >> i & 1 else 1.0 for i in range(len(self.atoms))]
        self._root = _node(masks, counts, guess)
        self._root = _node(masks, counts, self._truth_on_walk(TRUTH_WALK))
        self._keep = [~action.delete for action in self.actions]
        self._add = [action.add for action in self.actions]
        self._conditional = self.axioms is not None or \
            any(getattr(a, "effects", ()) for a in self.actions)

    def _truth_on_walk(self, steps: int) -> list[float]:
        """How often each atom is true along a seeded random walk from the initial
        state (the tree's shape only: any shape lists the same actions)."""
        rng = random.Random(f"successor index {self.domain_name} {len(self.actions)}")
        seen = [0] * self.n_bits
        state, walked = self.init, 0
        while walked < steps:
            walked += 1
            for i in iter_bits(state):
                seen[i] += 1
            options = self.applicable(state)
            if not options:
                break
            state = self.actions[rng.choice(options)].apply(state)
        return [n / walked for n in seen]

    def applicable(self, state: int) -> list[int]:
        """Indices of the actions applicable in `state`, ascending. The hot loop of
        every search and walk: the tree is walked with a stack, bits inline."""
        if self._unconditional:
            actions = self.actions
            found = [k for k in self._unconditional if actions[k].applicable(state)]
        else:
            found = []
        stack = [self._root]
        pop, push = stack.pop, stack.append
        while stack:
            (shared, ready, leaves, leaf_atoms, singles, single_atoms, tested, flat,
             flat_atoms, children, child_atoms) = pop()
            if state & shared != shared:
                continue
            if ready:
                found += ready
            if leaf_atoms:
                hits = state & leaf_atoms
                while hits:
                    atom = hits & -hits
                    hits ^= atom
                    found += leaves[atom]
            if single_atoms:
                hits = state & single_atoms
                while hits:
                    atom = hits & -hits
                    hits ^= atom
                    pre, pre_neg, k = singles[atom]
                    if state & pre == pre and not state & pre_neg:
                        found.append(k)
            if tested:
                for pre, pre_neg, k in tested:
                    if state & pre == pre and not state & pre_neg:
                        found.append(k)
            if flat_atoms:
                hits = state & flat_atoms
                while hits:
                    atom = hits & -hits
                    hits ^= atom
                    below, below_atoms = flat[atom]
                    more = state & below_atoms
                    while more:
                        atom = more & -more
                        more ^= atom
                        found += below[atom]
            hits = state & child_atoms
            while hits:
                atom = hits & -hits
                hits ^= atom
                push(children[atom])
        found.sort()
        return found

    @property
    def plain(self) -> bool:
        """Are successors `(state & keep_masks[k]) | add_masks[k]` for the actions k
        `applicable` lists (no conditional effects, no axioms)?"""
        return not self._conditional

    @property
    def keep_masks(self) -> list[int]:
        """Each action's atoms kept by it (the complement of its delete list)."""
        return self._keep

    @property
    def add_masks(self) -> list[int]:
        return self._add

    def successors(self, state: int) -> list[tuple[int, int]]:
        """(action, next state) pairs, memoised: searches revisit the same states."""
        succ = self._succ_memo.get(state)
        if succ is None:
            if len(self._succ_memo) >= SUCCESSOR_MEMO:
                self._succ_memo.clear()
            succ = self._succ_memo[state] = self._successor_pairs(state)
        return succ

    def successors_once(self, state: int) -> list[tuple[int, int]]:
        """`successors` not kept: for a state asked about once (an enumeration's, which
        kept each state's list until SUCCESSOR_MEMO of them were dropped at once)."""
        succ = self._succ_memo.get(state)
        return succ if succ is not None else self._successor_pairs(state)

    def _successor_pairs(self, state: int) -> list[tuple[int, int]]:
        if self._conditional:
            actions = self.actions
            return [(k, actions[k].apply(state)) for k in self.applicable(state)]
        keep, add = self._keep, self._add
        return [(k, (state & keep[k]) | add[k]) for k in self.applicable(state)]

    def reached_in_one(self, states: Iterable[int], cond: Condition) -> bool | None:
        """Whether one action takes some state of `states`, none of which meets `cond`,
        to one that does: only an action that adds one of its positive atoms or
        deletes one of its negative ones can (a successor that meets it differs from
        its state there), so only those are tried, not every applicable action (a
        search's last layer: `successors` would list each state's moves, most of them
        never needed again). None where successors are not plain STRIPS ones (ADL
        alternatives, conditional effects, axioms): the caller lists them."""
        if self._conditional or self._unconditional:
            return None
        pos, neg = cond.pos, cond.neg
        for state in states:
            for pre, pre_neg, keep, add in self._changing(pos, neg):
                if state & pre == pre and not state & pre_neg:
                    after = (state & keep) | add
                    if after & pos == pos and not after & neg:
                        return True
        return False

    def _changing(self, pos: int, neg: int) -> list[tuple[int, int, int, int]]:
        """(pre, pre_neg, keep, add) of the actions adding an atom of `pos` or deleting
        one of `neg`, kept per condition (a goal's walks ask again and again)."""
        found = self._changers.get((pos, neg))
        if found is None:
            if self._adders is None:
                self._adders = {}
                for k, action in enumerate(self.actions):
                    for i in iter_bits(action.add):
                        self._adders.setdefault(i, []).append(k)
                    for i in iter_bits(action.delete):
                        self._deleters.setdefault(i, []).append(k)
            ks = set()
            for i in iter_bits(pos):
                ks.update(self._adders.get(i, ()))
            for i in iter_bits(neg):
                ks.update(self._deleters.get(i, ()))
            actions = self.actions
            if len(self._changers) >= CHANGERS_KEPT:
                self._changers.clear()
            found = self._changers[(pos, neg)] = [
                (actions[k].pre, actions[k].pre_neg, self._keep[k], self._add[k])
                for k in sorted(ks)]
        return found

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
