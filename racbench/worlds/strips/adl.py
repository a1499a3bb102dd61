"""ADL formulas made ground and propositional, the way Fast Downward's translator does.

A precondition, goal or effect condition is grounded for one binding of its free
variables: quantifiers expand over the objects of their types (`forall` into a
conjunction, `exists` into a disjunction), `imply` becomes `or`, negations move
inwards, and every atom whose truth is known (equalities, static atoms, fluent atoms
that nothing can make true) is replaced by its value. What is left is turned into
disjunctive normal form: a list of clauses, each a conjunction of fluent literals. A
precondition with several clauses is one action with several ways to be applicable
(the translator's action variants, kept under one name); an effect condition with
several clauses is several conditional effects with the same atoms.
"""

from __future__ import annotations

import math
from itertools import product
from typing import Callable

from racbench.text import sayer
from racbench.worlds.strips.model import (And, Atom, Domain, Imply, Literal, Not, Or,
                                          Quantified)

TRUE, FALSE = ("true",), ("false",)
MAX_CLAUSES = 4096  # a normal form beyond this is refused (DNF can grow exponentially)
MAX_BINDINGS = 2_000_000  # quantifier bindings one Objects expands before refusing
_say = sayer("cli", ("pddl.j2",))

Value = Callable[[Atom], "bool | None"]  # a ground atom's truth, None if it can change
Clause = frozenset  # of (atom, positive)


class TooLarge(ValueError):
    """A formula whose disjunctive normal form has more than MAX_CLAUSES clauses."""


class Objects:
    """The objects of each type list, for expanding quantifiers (sorted, cached). Each
    expansion is charged: to `spend(n)` if given (grounding's budget, which raises its
    own limit), else against MAX_BINDINGS in all (TooLarge), so that nested quantifiers
    over many objects stop instead of running for hours."""

    def __init__(self, domain: Domain, objects: dict[str, str], spend=None):
        self.domain = domain
        self.objects = objects
        self.spend = spend
        self.work = 0
        self._cache: dict[tuple, list[str]] = {}

    def of(self, types: tuple[str, ...]) -> list[str]:
        found = self._cache.get(types)
        if found is None:
            found = self._cache[types] = [
                o for o in sorted(self.objects)
                if any(self.domain.is_subtype(self.objects[o], t) for t in types)]
        return found

    def bindings(self, variables, binding: dict[str, str]):
        """`binding` extended by every combination of values of `variables`."""
        pools = [self.of(types) for _, types in variables]
        n = math.prod(len(p) for p in pools)
        self.work += n
        if self.spend is not None:
            self.spend(n)
        elif self.work > MAX_BINDINGS:
            raise TooLarge(_say("more_bindings", most=f"{MAX_BINDINGS:,}"))
        names = [v for v, _ in variables]
        for values in product(*pools):
            yield {**binding, **dict(zip(names, values))}


def instantiate(atom: Atom, binding: dict[str, str]) -> Atom:
    return (atom[0], *(binding.get(t, t) for t in atom[1:]))


def ground(formula, binding: dict[str, str], objects: Objects, value: Value,
           positive: bool = True):
    """The formula (negated unless `positive`) for `binding`, quantifiers expanded and
    known atoms replaced: TRUE, FALSE, ("lit", atom, positive), ("and", parts) or
    ("or", parts), negations on atoms only."""
    if isinstance(formula, Literal):
        atom = instantiate(formula.atom, binding)
        want = formula.positive == positive
        if atom[0] == "=":
            known = atom[1] == atom[2]
        else:
            known = value(atom)
            if known is None:
                return ("lit", atom, want)
        return TRUE if known == want else FALSE
    if isinstance(formula, Not):
        return ground(formula.part, binding, objects, value, not positive)
    if isinstance(formula, Imply):  # a -> b  ==  (not a) or b
        parts = ((formula.condition, not positive), (formula.consequence, positive))
        return _join(positive, (ground(f, binding, objects, value, p) for f, p in parts))
    if isinstance(formula, (And, Or)):
        conjunctive = isinstance(formula, And) == positive
        return _join(not conjunctive,
                     (ground(p, binding, objects, value, positive) for p in formula.parts))
    if isinstance(formula, Quantified):
        conjunctive = formula.universal == positive
        return _join(not conjunctive,
                     (ground(formula.body, b, objects, value, positive)
                      for b in objects.bindings(formula.variables, binding)))
    raise TypeError(f"not a formula: {formula!r}")


def predicates(formula) -> set[str]:
    """Every predicate a formula mentions ('=' included)."""
    if isinstance(formula, Literal):
        return {formula.atom[0]}
    if isinstance(formula, Not):
        return predicates(formula.part)
    if isinstance(formula, Imply):
        return predicates(formula.condition) | predicates(formula.consequence)
    if isinstance(formula, Quantified):
        return predicates(formula.body)
    return set().union(*(predicates(p) for p in formula.parts))


def _join(disjunctive: bool, parts):
    """An `or` (or `and`) of simplified parts, simplified: units dropped, zeros absorb
    (and stop the grounding of the parts after them)."""
    unit, zero = (FALSE, TRUE) if disjunctive else (TRUE, FALSE)
    kind = "or" if disjunctive else "and"
    out = []
    for part in parts:
        if part == zero:
            return zero
        if part == unit:
            continue
        if part[0] == kind:
            out.extend(part[1])
        else:
            out.append(part)
    if not out:
        return unit
    return out[0] if len(out) == 1 else (kind, tuple(out))


def dnf(node) -> list[Clause]:
    """Clauses of a ground formula from `ground`, without contradictory, repeated or
    subsumed clauses, in a deterministic order; [] for FALSE, [frozenset()] for TRUE.
    TooLarge past MAX_CLAUSES."""
    if node == TRUE:
        return [frozenset()]
    if node == FALSE:
        return []
    kind = node[0]
    if kind == "lit":
        return [frozenset([(node[1], node[2])])]
    children = [dnf(part) for part in node[1]]
    if kind == "or":
        clauses = [c for child in children for c in child]
    else:
        clauses = [frozenset()]
        for child in children:
            joined = []
            for a in clauses:
                for b in child:
                    c = a | b
                    if not any((atom, not pos) in c for atom, pos in c):
                        joined.append(c)
                        if len(joined) > MAX_CLAUSES:
                            raise TooLarge(_say("more_alternatives", most=MAX_CLAUSES))
            clauses = _minimal(joined)
    if len(clauses) > MAX_CLAUSES:
        raise TooLarge(_say("more_alternatives", most=MAX_CLAUSES))
    return _minimal(clauses)


def _minimal(clauses: list[Clause]) -> list[Clause]:
    """Distinct clauses none of which contains another, shortest first then sorted."""
    unique = sorted(set(clauses), key=lambda c: (len(c), sorted(c)))
    out: list[Clause] = []
    for c in unique:
        if not any(kept <= c for kept in out):
            out.append(c)
    return out


def clause_literals(clause: Clause) -> list[Literal]:
    return [Literal(atom, pos) for atom, pos in sorted(clause)]
