"""Lifted STRIPS and ADL: domains, action schemas and problems as plain frozen data.

Atoms are tuples `(predicate, arg1, ...)` of lower-case strings; a variable starts with
'?'. Equality constraints use the predicate '='. Nothing here knows about grounding.

A STRIPS schema is a conjunction of literals and two lists of atoms. ADL adds, as
written in the file (normal forms are built when grounding, racbench.worlds.strips.adl):
precondition conjuncts that are formulas (`or`, `imply`, `not` over a formula,
`exists`, `forall`), and effects under `forall` and `when`. A schema without them is
plain STRIPS and takes the fast path everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Atom = tuple  # (predicate, *args)

ROOT_TYPE = "object"


@dataclass(frozen=True)
class Literal:
    atom: Atom
    positive: bool = True


Variables = tuple  # ((variable, allowed types), ...)


@dataclass(frozen=True)
class And:
    parts: tuple  # formulas


@dataclass(frozen=True)
class Or:
    parts: tuple


@dataclass(frozen=True)
class Not:
    part: object


@dataclass(frozen=True)
class Imply:
    condition: object
    consequence: object


@dataclass(frozen=True)
class Quantified:
    """`(forall VARS BODY)` (universal) or `(exists VARS BODY)`."""

    universal: bool
    variables: Variables
    body: object


Formula = Literal | And | Or | Not | Imply | Quantified


@dataclass(frozen=True)
class AnyOf:
    """A goal part that is a disjunction: it holds where any one of `clauses` (each a
    conjunction of ground literals, two or more of them) holds. A goal that is not one
    conjunction is read into its literals common to every alternative and one AnyOf of
    the rest; grounding makes it one derived atom, as Fast Downward's translator makes a
    goal that is not a conjunction of literals the head of a new axiom."""

    clauses: tuple  # (tuple[Literal, ...], ...)

    @property
    def atoms(self) -> list:
        return sorted({tuple(lit.atom) for clause in self.clauses for lit in clause})


def goal_pairs(goal) -> list:
    """Goal parts as (atom, positive) pairs, the disjunction as (AnyOf, True): the form
    questions, texts and rows hold goals in."""
    return [(p, True) if isinstance(p, AnyOf) else (tuple(p.atom), p.positive) for p in goal]


@dataclass(frozen=True)
class Effect:
    """Atoms added and deleted for every binding of `variables` (a `forall` effect)
    under which `condition` holds (a `when` effect; None: always)."""

    variables: Variables
    condition: Formula | None
    add: tuple[Atom, ...]
    delete: tuple[Atom, ...]


@dataclass(frozen=True)
class ActionSchema:
    name: str
    parameters: Variables  # (variable, allowed types)
    precondition: tuple[Literal, ...]  # the conjuncts that are literals
    add: tuple[Atom, ...]  # unconditional effects
    delete: tuple[Atom, ...]
    cost: int | Atom = 1  # a constant, or a function term resolved from the problem
    formulas: tuple[Formula, ...] = ()  # ADL: the other precondition conjuncts
    effects: tuple[Effect, ...] = ()  # ADL: quantified and conditional effects

    @property
    def strips(self) -> bool:
        return not (self.formulas or self.effects)


@dataclass(frozen=True)
class Axiom:
    """`(:derived (PRED ?x ...) CONDITION)`: the atom holds in every state where the
    condition holds for its binding (and only there, once every axiom is applied)."""

    head: Atom  # (predicate, ?variable, ...)
    parameters: Variables  # the head's variables with their types
    condition: Formula


@dataclass(frozen=True)
class Domain:
    name: str
    requirements: frozenset[str]
    supertypes: dict[str, str]  # type -> parent type (the first other than object)
    constants: dict[str, str]  # name -> type
    predicates: dict[str, tuple[tuple[str, ...], ...]]  # name -> allowed types per argument
    actions: tuple[ActionSchema, ...]
    functions: dict[str, int] = field(default_factory=dict)  # name -> arity
    source: str = "<string>"
    # type -> further parents, for a type declared under several (as Fast Downward's
    # translator reads it, an object of the type is of every parent type and their
    # ancestors); most domains have none
    more_parents: dict[str, tuple[str, ...]] = field(default_factory=dict)
    axioms: tuple[Axiom, ...] = ()  # derived predicates, in the order written

    @property
    def derived_predicates(self) -> frozenset[str]:
        return frozenset(a.head[0] for a in self.axioms)

    def is_subtype(self, child: str, parent: str) -> bool:
        if parent == ROOT_TYPE:
            return True
        if self.more_parents:
            return parent in self.ancestors(child)
        seen = set()
        while child not in seen:
            if child == parent:
                return True
            seen.add(child)
            child = self.supertypes.get(child, ROOT_TYPE)
            if child == ROOT_TYPE:
                return False
        return False

    def ancestors(self, type_name: str) -> list[str]:
        """The type, every type above it (first parents first), and `object` last; a
        cycle is walked once."""
        out: list[str] = []
        todo = [type_name]
        while todo:
            t = todo.pop(0)
            if t in out or t == ROOT_TYPE:
                continue
            out.append(t)
            todo.append(self.supertypes.get(t, ROOT_TYPE))
            todo.extend(self.more_parents.get(t, ()))
        return out + [ROOT_TYPE]

    @property
    def fluent_predicates(self) -> frozenset[str]:
        """Predicates some action changes, and derived predicates; the rest are static."""
        return frozenset(a[0] for schema in self.actions
                         for a in schema.add + schema.delete
                         + tuple(a for e in schema.effects for a in e.add + e.delete)
                         ) | self.derived_predicates


@dataclass(frozen=True)
class Problem:
    name: str
    domain_name: str
    objects: dict[str, str]  # name -> type (domain constants included)
    init: frozenset[Atom]
    goal: tuple  # Literal, ... (a conjunction), with at most one AnyOf (a disjunction)
    numeric_init: dict[Atom, float] = field(default_factory=dict)
    source: str = "<string>"
