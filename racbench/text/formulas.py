"""ADL conditions and effects of an action schema as clauses of its domain description.

A disjunction reads as "either ... or ...", `imply` as "if ... then ...", quantifiers
as "for every passenger D" / "there is a tool D such that", and a conditional or
quantified effect as what happens ("for every passenger D such that D is boarded, D
is served"): the formula as written, never the compiler's variants. Quantified
variables take the capital letters after the action's own. The words are macros of
the template parts (default/parts.j2); `DomainText` supplies facts and types.
"""

from __future__ import annotations

from racbench.worlds.strips.model import And, Effect, Imply, Literal, Not, Or, Quantified


class FormulaText:
    """Clauses for one schema: `fact(atom, positive)` phrases an atom whose variables
    `bind` names, `part(name)` finds a macro, `kind(types)` names a type list."""

    def __init__(self, fact, part, kind, rename, bind: dict[str, str]):
        self.fact, self.part, self.kind, self.rename = fact, part, kind, rename
        self.bind = dict(bind)
        self.next_letter = len(bind)

    def _ground(self, atom: tuple, bind: dict[str, str]) -> tuple:
        return (atom[0],) + tuple(bind.get(a, self.rename(a)) for a in atom[1:])

    def _declare(self, variables, bind: dict[str, str]):
        """(letter, kind) per quantified variable, and the binding with them."""
        bind = dict(bind)
        kinds = []
        for var, types in variables:
            letter = _letter(self.next_letter)
            self.next_letter += 1
            bind[var] = letter
            kinds.append((letter, self.kind(types)))
        return kinds, bind

    def condition(self, formula, bind: dict[str, str] | None = None) -> str:
        bind = self.bind if bind is None else bind
        if isinstance(formula, Literal):
            return self.fact(self._ground(formula.atom, bind), formula.positive)
        if isinstance(formula, And):
            return str(self.part("all_of")([self.condition(p, bind) for p in formula.parts]))
        if isinstance(formula, Or):
            return str(self.part("any_of")([self.condition(p, bind) for p in formula.parts]))
        if isinstance(formula, Not):
            return str(self.part("not_that")(self.condition(formula.part, bind)))
        if isinstance(formula, Imply):
            return str(self.part("if_then")(self.condition(formula.condition, bind),
                                            self.condition(formula.consequence, bind)))
        if isinstance(formula, Quantified):
            kinds, inner = self._declare(formula.variables, bind)
            body = self.condition(formula.body, inner)
            return str(self.part("for_every" if formula.universal else "there_is")(kinds, body))
        raise TypeError(f"not a formula: {formula!r}")

    def effect(self, effect: Effect) -> str:
        kinds, bind = self._declare(effect.variables, self.bind)
        changes = [self.fact(self._ground(a, bind), True) for a in effect.add]
        changes += [self.fact(self._ground(a, bind), False) for a in effect.delete]
        condition = None if effect.condition is None else self.condition(effect.condition, bind)
        return str(self.part("effect_when")(kinds, condition, changes))


def _letter(i: int) -> str:
    return chr(ord("A") + i % 26) + (str(i // 26 + 1) if i >= 26 else "")
