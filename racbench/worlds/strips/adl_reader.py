"""Reading ADL conditions and effects: the syntax Fast Downward's translator accepts.

Conditions (preconditions, goals, `when` conditions): `and`, `or`, `not` over any
condition, `imply`, `exists` and `forall` over typed variables, atoms and equality.
Effects: `and`, `forall`, `when` (its effect a conjunction of literals, or more
`forall`/`when`), literals and the action-cost `increase`. `and` and `or` are flattened
without recursion (any depth, as STRIPS conjunctions always were); every other nesting
counts, and beyond MAX_DEPTH levels the file is refused rather than recursed into.
A mixin of the domain and problem readers (pddl_reader), which supply `leaf`
(an atom's checks) and `check_types`.
"""

from __future__ import annotations

from racbench.text import Phrase, sayer
from racbench.worlds.strips.model import And, Effect, Imply, Literal, Not, Or, Quantified
from racbench.worlds.strips.sexpr import SList

MAX_DEPTH = 100
_say = sayer("cli", ("pddl.j2",))
_AN_ATOM = Phrase(_say, "an_atom")
UNSUPPORTED_CONSTRUCTS = {
    "assign": ":numeric-fluents", "decrease": ":numeric-fluents",
    "scale-up": ":numeric-fluents", "scale-down": ":numeric-fluents",
    "at": ":durative-actions", "over": ":durative-actions",
}


class FormulaReading:
    """Conditions and effects as model formulas; errors at the offending token, said by
    templates/cli/pddl.j2 (`where` is a phrase of it, or a keyword such as :goal)."""

    def formula(self, item, k: int, scope: dict[str, int], where, leaf, depth: int = 0):
        """A condition; `scope` holds the variables usable in atoms, `leaf(node, scope)`
        reads an atom."""
        if not isinstance(item, SList):
            self.expect_list(item, k, Phrase(_say, "a_condition_in", where=where))
        node = item
        if depth > MAX_DEPTH:
            raise self.error(node, "condition_too_deep", most=MAX_DEPTH, where=where)
        head = node.head()
        if head in ("and", "or") or (not node.items):
            kind = head or "and"
            parts = [self.formula(p, pk, scope, where, leaf, depth + 1)
                     for p, pk in self.flattened(node, kind)]
            return And(tuple(parts)) if kind == "and" else Or(tuple(parts))
        if head == "not":
            arg, ak = self.not_argument(node, where)
            inner = self.formula(arg, ak, scope, where, leaf, depth + 1)
            return Literal(inner.atom, not inner.positive) if isinstance(inner, Literal) \
                else Not(inner)
        if head == "imply":
            if len(node) != 3:
                raise self.error(node, "imply_arity", found=len(node) - 1, where=where)
            (a, ak), (b, bk) = node.located(1)
            return Imply(self.formula(a, ak, scope, where, leaf, depth + 1),
                         self.formula(b, bk, scope, where, leaf, depth + 1))
        if head in ("exists", "forall"):
            variables, inner_scope, (body, bk) = self.quantifier(node, scope, where)
            return Quantified(head == "forall", variables,
                              self.formula(body, bk, inner_scope, where, leaf, depth + 1))
        if head == "when":
            raise self.error(node, "when_in_condition", where=where)
        self.refuse_unsupported(node, where)
        return Literal(leaf(node, scope), True)

    def check_effect_atom(self, atom, node: SList, where) -> None:
        """An effect may not set a derived predicate (PDDL; the domain reader checks)."""

    def refuse_unsupported(self, node: SList, where) -> None:
        head = node.head()
        if head in UNSUPPORTED_CONSTRUCTS and head not in self.declared_predicates:
            raise self.error(node, "unsupported_construct", construct=head, where=where,
                             needs=UNSUPPORTED_CONSTRUCTS[head])

    def flattened(self, node: SList, kind: str) -> list:
        """(item, token) of nested `(kind ...)` lists in order, without recursion."""
        out = []
        stack = list(reversed(list(node.located(1))))
        while stack:
            item, k = stack.pop()
            if isinstance(item, SList) and item.head() == kind:
                stack.extend(reversed(list(item.located(1))))
            else:
                out.append((item, k))
        return out

    def quantifier(self, node: SList, scope: dict[str, int], where):
        """The variables of `(forall|exists (VARS) BODY)`, the scope with them, and BODY."""
        head = node.head()
        if len(node) != 3 or not isinstance(node.items[1], SList):
            raise self.error(node, "bad_quantifier", quantifier=head, where=where)
        declared: dict[str, int] = {}
        variables = []
        quantifier_in = Phrase(_say, "quantifier_in", quantifier=head, where=where)
        variable_of = Phrase(_say, "variable_of", owner=head)
        for var, vk, types in self.typed_list(node.items[1], 0,
                                              Phrase(_say, "variables_of", quantifier=head)):
            self.check_variable(var, vk, quantifier_in)
            self.declare(declared, var, vk, variable_of)
            self.check_types(types)
            variables.append((var, tuple(t for t, _ in types)))
        if not variables:
            raise self.error(node.items[1], "no_variables", quantifier=head, where=where)
        return tuple(variables), {**scope, **declared}, (node.items[2], node.token_of(2))

    def effect_parts(self, field: tuple, scope: dict[str, int], where, leaf):
        """(unconditional adds, deletes, quantified and conditional Effects, cost nodes)
        of the effect `where` names."""
        add, delete, costs = [], [], []
        groups: dict[tuple, tuple[list, list]] = {}  # (variables, condition) -> atoms
        stack = [(field[0], field[1], (), None, scope, 0)]
        while stack:
            item, k, variables, condition, inner, depth = stack.pop()
            if not isinstance(item, SList):
                self.expect_list(item, k, Phrase(_say, "an_effect_in", where=where))
            node = item
            if depth > MAX_DEPTH:
                raise self.error(node, "effect_too_deep", most=MAX_DEPTH, where=where)
            head = node.head()
            if head == "and" or not node.items:
                for part, pk in reversed(self.flattened(node, "and")):
                    stack.append((part, pk, variables, condition, inner, depth))
            elif head == "forall":
                more, inner_scope, (body, bk) = self.quantifier(node, inner, where)
                stack.append((body, bk, variables + more, condition, inner_scope, depth + 1))
            elif head == "when":
                if len(node) != 3:
                    raise self.error(node, "when_arity", found=len(node) - 1, where=where)
                (c, ck), (body, bk) = node.located(1)
                cond = self.formula(c, ck, inner, where, leaf, depth + 1)
                cond = cond if condition is None else And((condition, cond))
                stack.append((body, bk, variables, cond, inner, depth + 1))
            elif head == "increase":
                if variables or condition is not None:
                    raise self.error(node, "conditional_cost", where=where)
                costs.append(node)
            elif head in ("or", "exists", "imply"):
                raise self.error(node, "not_an_effect", construct=head, where=where)
            else:
                self.refuse_unsupported(node, where)
                positive = head != "not"
                atom_node = node
                if not positive:
                    atom_node, ak = self.not_argument(node, where)
                    atom_node = self.expect_list(atom_node, ak, _AN_ATOM)
                atom = leaf(atom_node, inner)
                self.check_effect_atom(atom, atom_node, where)
                if atom[0] == "=":
                    raise self.error(atom_node, "equality_effect", where=where)
                if not variables and condition is None:
                    (add if positive else delete).append(atom)
                else:
                    adds, dels = groups.setdefault((variables, condition), ([], []))
                    (adds if positive else dels).append(atom)
        effects = tuple(Effect(v, c, tuple(a), tuple(d)) for (v, c), (a, d) in groups.items())
        return add, delete, effects, costs
