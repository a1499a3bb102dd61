"""One ground ADL action from a schema and a binding of its parameters.

The precondition (its literal conjuncts and its formulas) is grounded into clauses
(adl.py): none means the action can never apply and it is dropped; one clause is an
ordinary precondition; several are alternatives of one action. Effects under `forall`
are instantiated for every binding of their variables; a `when` condition becomes one
conditional effect per clause. Conditions are compiled away where that is exact and
cheap: one that always holds is an unconditional effect, one that never holds (or that
the precondition contradicts) is dropped, one the precondition implies is
unconditional. An action left with one clause and no conditional effect is a plain
GroundAction, stepped by the STRIPS fast path.
"""

from __future__ import annotations

from racbench.worlds.strips import adl
from racbench.worlds.strips.model import ActionSchema, And
from racbench.worlds.strips.task import AdlAction, GroundAction


def static_value(static_preds: frozenset[str], static: frozenset):
    """Truth of an atom known before grounding: static atoms only."""
    def value(atom):
        return (atom in static) if atom[0] in static_preds else None
    return value


def possible_adds(schema: ActionSchema, binding: dict[str, str], objects: adl.Objects,
                  value) -> list:
    """Atoms the action may add under `binding` (conditions that cannot hold left out):
    what relaxed reachability needs."""
    out = [adl.instantiate(a, binding) for a in schema.add]
    for effect in schema.effects:
        if not effect.add:
            continue
        for b in objects.bindings(effect.variables, binding):
            if effect.condition is None or \
                    adl.ground(effect.condition, b, objects, value) != adl.FALSE:
                out.extend(adl.instantiate(a, b) for a in effect.add)
    return out


def ground_action(schema: ActionSchema, args: tuple[str, ...], objects: adl.Objects,
                  value, mask, cost: int) -> GroundAction | None:
    """The ground action, or None if its precondition can never hold. `value` gives the
    truth of atoms that cannot change, `mask` the bits of fluent atoms."""
    binding = dict(zip((v for v, _ in schema.parameters), args))
    whole = And(tuple(schema.precondition) + tuple(schema.formulas))
    clauses = adl.dnf(adl.ground(whole, binding, objects, value))
    if not clauses:
        return None
    masks = [_masks(c, mask) for c in clauses]
    pre = pre_neg = -1
    for p, n in masks:
        pre &= p
        pre_neg &= n
    alternatives = tuple((p & ~pre, n & ~pre_neg) for p, n in masks) if len(masks) > 1 else ()
    always_add = mask(adl.instantiate(a, binding) for a in schema.add)
    always_delete = mask(adl.instantiate(a, binding) for a in schema.delete)
    effects = []
    for effect in schema.effects:
        for b in objects.bindings(effect.variables, binding):
            add = mask(adl.instantiate(a, b) for a in effect.add)
            delete = mask(adl.instantiate(a, b) for a in effect.delete)
            if not (add | delete):
                continue
            conditions = [frozenset()] if effect.condition is None else \
                adl.dnf(adl.ground(effect.condition, b, objects, value))
            for clause in conditions:
                p, n = _masks(clause, mask)
                if p & pre_neg or n & pre:
                    continue  # the precondition rules it out
                if not (p & ~pre or n & ~pre_neg):  # the precondition implies it
                    always_add |= add
                    always_delete |= delete
                else:
                    effects.append((p, n, add, delete))
    if not alternatives and not effects:
        return GroundAction(name=schema.name, args=args, pre=pre, pre_neg=pre_neg,
                            add=always_add, delete=always_delete, cost=cost)
    may_add = always_add
    for _, _, a, _ in effects:
        may_add |= a
    return AdlAction(name=schema.name, args=args, pre=pre, pre_neg=pre_neg, add=may_add,
                     delete=always_delete & ~may_add, cost=cost, alternatives=alternatives,
                     effects=tuple(effects), always_add=always_add,
                     always_delete=always_delete)


def _masks(clause, mask) -> tuple[int, int]:
    return (mask(a for a, positive in clause if positive),
            mask(a for a, positive in clause if not positive))
