"""A stepper over Fast Downward's finite-domain task (sas.py): states, applicable
operators, progression with conditional effects, and axioms evaluated layer by layer
to a fixpoint after every step, as Fast Downward's search evaluates them.

Our ground atoms and actions are matched to the translator's facts and operators by
name (``Atom on(a, b)``, operator ``move a b c``; the translator lower-cases names).
An atom the translator dropped (static, or never reachable) keeps its value in the
task's initial state; an action with no operator of its name is never applicable in a
state reachable from that initial state; an action the translator split (one operator
per disjunct of its precondition) is applicable when one of its operators is.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from racbench.checks.verify.sas import Fact, Operator, SasTask

State = tuple[int, ...]


def atom_key(atom: Sequence[str]) -> str:
    name, *args = atom
    return f"Atom {name}({', '.join(args)})".lower()


def action_key(term: Sequence[str]) -> str:
    return " ".join(term).lower()


def parse_atom(value: str) -> tuple[str, ...] | None:
    """("on", "a", "b") from "Atom on(a, b)"; None for negated atoms and other values."""
    if not value.startswith("Atom ") or not value.endswith(")"):
        return None
    name, _, args = value[len("Atom "):-1].partition("(")
    return (name, *(a.strip() for a in args.split(",") if a.strip()))


class FdStepper:
    """Steps through ``task`` from its initial state. ``constants``: the true atoms of
    the problem the task was translated from (the values of the atoms it dropped)."""

    def __init__(self, task: SasTask, constants: Iterable[Sequence[str]]) -> None:
        self.task = task
        self.facts: dict[str, Fact] = {}
        for var, variable in enumerate(task.variables):
            for val, value in enumerate(variable.values):
                if value.startswith("Atom "):
                    self.facts[value.lower()] = (var, val)
        self.constants = {atom_key(a) for a in constants}
        self.operators: dict[str, list[Operator]] = {}
        for op in task.operators:
            self.operators.setdefault(op.name.lower(), []).append(op)
        self.derived = [v for v, variable in enumerate(task.variables)
                        if variable.axiom_layer >= 0]
        layers = sorted({task.variables[ax.var].axiom_layer for ax in task.axioms})
        self.layers = [[ax for ax in task.axioms if task.variables[ax.var].axiom_layer == layer]
                       for layer in layers]

    # -- states ---------------------------------------------------------------

    def initial(self) -> State:
        return self.evaluate(list(self.task.init))

    def evaluate(self, values: list[int]) -> State:
        """Derived variables at their default (initial) value, then each layer's rules
        applied until nothing changes."""
        for var in self.derived:
            values[var] = self.task.init[var]
        for rules in self.layers:
            changed = True
            while changed:
                changed = False
                for rule in rules:
                    if values[rule.var] != rule.post and all(values[v] == x
                                                            for v, x in rule.conditions):
                        values[rule.var] = rule.post
                        changed = True
        return tuple(values)

    def holds(self, state: State, atom: Sequence[str]) -> bool:
        key = atom_key(atom)
        fact = self.facts.get(key)
        if fact is None:
            return key in self.constants
        return state[fact[0]] == fact[1]

    def true_atoms(self, state: State) -> set[tuple[str, ...]]:
        """The true atoms the task names (its own helper atoms, with '@', left out),
        and the constant ones."""
        out = set()
        for var, val in enumerate(state):
            atom = parse_atom(self.task.variables[var].values[val])
            if atom is not None and "@" not in atom[0]:
                out.add(atom)
        for key in self.constants:
            if key not in self.facts:
                out.add(parse_atom(key[:1].upper() + key[1:]) or ())
        out.discard(())
        return out

    # -- operators ------------------------------------------------------------

    def operators_of(self, term: Sequence[str]) -> list[Operator]:
        return self.operators.get(action_key(term), [])

    @staticmethod
    def applicable_op(state: State, op: Operator) -> bool:
        return all(state[v] == x for v, x in op.precondition)

    def apply(self, state: State, op: Operator) -> State:
        values = list(state)
        for effect in op.effects:
            if all(state[v] == x for v, x in effect.conditions):
                values[effect.var] = effect.post
        return self.evaluate(values)

    def step(self, state: State, term: Sequence[str]) -> State | None:
        """The state after the action ``term``, None if it is not applicable."""
        for op in self.operators_of(term):
            if self.applicable_op(state, op):
                return self.apply(state, op)
        return None

    def applicable_names(self, state: State) -> list[str]:
        """Names (lower-case, "move a b c") of the operators applicable in state."""
        return sorted({op.name.lower() for op in self.task.operators
                       if self.applicable_op(state, op)})
