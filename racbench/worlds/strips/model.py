"""Lifted STRIPS: domains, action schemas and problems as plain frozen data.

Atoms are tuples `(predicate, arg1, ...)` of lower-case strings; a variable starts with
'?'. Equality constraints use the predicate '='. Nothing here knows about grounding.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Atom = tuple  # (predicate, *args)

ROOT_TYPE = "object"


@dataclass(frozen=True)
class Literal:
    atom: Atom
    positive: bool = True


@dataclass(frozen=True)
class ActionSchema:
    name: str
    parameters: tuple[tuple[str, tuple[str, ...]], ...]  # (variable, allowed types)
    precondition: tuple[Literal, ...]
    add: tuple[Atom, ...]
    delete: tuple[Atom, ...]
    cost: int | Atom = 1  # a constant, or a function term resolved from the problem


@dataclass(frozen=True)
class Domain:
    name: str
    requirements: frozenset[str]
    supertypes: dict[str, str]  # type -> parent type
    constants: dict[str, str]  # name -> type
    predicates: dict[str, tuple[tuple[str, ...], ...]]  # name -> allowed types per argument
    actions: tuple[ActionSchema, ...]
    functions: dict[str, int] = field(default_factory=dict)  # name -> arity
    source: str = "<string>"

    def is_subtype(self, child: str, parent: str) -> bool:
        seen = set()
        while child not in seen:
            if child == parent or parent == ROOT_TYPE:
                return True
            seen.add(child)
            child = self.supertypes.get(child, ROOT_TYPE)
            if child == ROOT_TYPE:
                return parent == ROOT_TYPE
        return False

    @property
    def fluent_predicates(self) -> frozenset[str]:
        """Predicates some action changes; the rest are static."""
        return frozenset(a[0] for schema in self.actions for a in schema.add + schema.delete)


@dataclass(frozen=True)
class Problem:
    name: str
    domain_name: str
    objects: dict[str, str]  # name -> type (domain constants included)
    init: frozenset[Atom]
    goal: tuple[Literal, ...]
    numeric_init: dict[Atom, float] = field(default_factory=dict)
    source: str = "<string>"
