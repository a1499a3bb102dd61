"""A domain racbench read, handed to unified-planning through its Python API.

`racbench verify` reads a row's domain with UP's own PDDL reader first: an engine that
is not ours, reading the text afresh. Some domains that racbench reads, UP's reader
refuses (a `:types` list naming one type twice, as competition files do). For those
the checks still run: the domain is built in UP from racbench's parsed model, and UP's
simulator, validator and Fast Downward answer on it. The model is plain STRIPS with
types, constants, equality and negative preconditions, which maps one to one; ADL
domains are left to UP's own reader.
"""

from __future__ import annotations

from racbench.checks.verify.words import say
from racbench.worlds.strips.model import ROOT_TYPE, Domain, Literal


class Untranslatable(ValueError):
    """A construct of the model that UP's Python API has no direct form for."""


def up_domain(domain: Domain):
    """A UP problem holding `domain`'s types, predicates, constants and actions."""
    from unified_planning.model import Fluent, InstantaneousAction, Object, Problem
    from unified_planning.shortcuts import BoolType

    if domain.axioms:  # a model without the axioms would step wrongly and still answer
        raise Untranslatable(say("up_no_derived"))
    if any(p != ROOT_TYPE for parents in domain.more_parents.values() for p in parents):
        raise Untranslatable(say("up_two_parents"))
    types = _user_types(domain)
    problem = Problem(domain.name)
    for name, arg_types in domain.predicates.items():
        if name == "=":
            continue
        params = {f"x{i}": types[_one_type(t, say("up_predicate", name=name))]
                  for i, t in enumerate(arg_types)}
        problem.add_fluent(Fluent(name, BoolType(), **params), default_initial_value=False)
    for name, typ in sorted(domain.constants.items()):
        problem.add_object(Object(name, types[typ]))
    for schema in domain.actions:
        if not schema.strips:
            raise Untranslatable(say("up_adl_action", action=schema.name))
        params = {var.lstrip("?"): types[_one_type(allowed, f"{schema.name} {var}")]
                  for var, allowed in schema.parameters}
        action = InstantaneousAction(schema.name, **params)
        for literal in schema.precondition:
            action.add_precondition(_expression(problem, action, literal))
        for atom in schema.delete:
            action.add_effect(_atom(problem, action, atom), False)
        for atom in schema.add:
            action.add_effect(_atom(problem, action, atom), True)
        problem.add_action(action)
    return problem


def _one_type(allowed: tuple[str, ...], where: str) -> str:
    if len(allowed) != 1:
        raise Untranslatable(say("up_either_type", where=where, types=allowed))
    return allowed[0]


def _user_types(domain: Domain) -> dict:
    """UP user types by name, parents before children. `object` is UP's implicit root
    unless the domain names it as a type of something, then a type of its own."""
    from unified_planning.shortcuts import UserType

    used = {t for args in domain.predicates.values() for arg in args for t in arg}
    used |= {t for s in domain.actions for _, allowed in s.parameters for t in allowed}
    used |= set(domain.constants.values())
    names = set(domain.supertypes) | set(domain.supertypes.values()) | used
    explicit_root = ROOT_TYPE in used
    types: dict = {}

    def make(name: str, seen: tuple = ()):
        if name not in types:
            if name in seen:
                raise Untranslatable(say("up_type_cycle", name=name))
            parent = domain.supertypes.get(name, ROOT_TYPE) if name != ROOT_TYPE else None
            father = (make(parent, seen + (name,))
                      if parent and (parent != ROOT_TYPE or explicit_root) else None)
            types[name] = UserType(name, father)
        return types[name]

    for name in sorted(names):
        if name != ROOT_TYPE or explicit_root:
            make(name)
    return types


def _term(problem, action, arg: str):
    return action.parameter(arg.lstrip("?")) if arg.startswith("?") else problem.object(arg)


def _atom(problem, action, atom: tuple):
    return problem.fluent(atom[0])(*(_term(problem, action, a) for a in atom[1:]))


def _expression(problem, action, literal: Literal):
    from unified_planning.shortcuts import Equals, Not

    if literal.atom[0] == "=":
        expr = Equals(*(_term(problem, action, a) for a in literal.atom[1:]))
    else:
        expr = _atom(problem, action, literal.atom)
    return expr if literal.positive else Not(expr)
