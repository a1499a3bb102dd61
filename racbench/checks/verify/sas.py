"""Fast Downward's finite-domain task format (the translator's ``output.sas``, version 3),
read into plain data and written back.

A task has variables (each a list of value names such as ``Atom on(a, b)``,
``NegatedAtom clear(a)`` or ``<none of those>``; derived variables carry an axiom
layer >= 0), mutex groups, an initial state, a goal (variable, value pairs), operators
and axioms. An operator has prevail conditions and effects; an effect has its own
conditions, an optional precondition on the variable it sets (``pre`` -1: none) and the
value it sets.  Format: https://www.fast-downward.org/TranslatorOutputFormat
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from racbench.checks.verify.words import say

Fact = tuple[int, int]


class SasFormatError(ValueError):
    """The text is not a translator output this reader knows."""


@dataclass
class Variable:
    name: str
    axiom_layer: int
    values: list[str]


@dataclass
class Effect:
    conditions: list[Fact]
    var: int
    pre: int
    post: int


@dataclass
class Operator:
    name: str
    prevail: list[Fact]
    effects: list[Effect]
    cost: int

    @property
    def precondition(self) -> list[Fact]:
        return [*self.prevail, *((e.var, e.pre) for e in self.effects if e.pre != -1)]


@dataclass
class Axiom:
    conditions: list[Fact]
    var: int
    pre: int
    post: int


@dataclass
class SasTask:
    metric: bool
    variables: list[Variable]
    mutexes: list[list[Fact]]
    init: list[int]
    goal: list[Fact]
    operators: list[Operator]
    axioms: list[Axiom] = field(default_factory=list)

    @property
    def conditional(self) -> bool:
        return any(e.conditions for op in self.operators for e in op.effects)


class _Lines:
    def __init__(self, text: str) -> None:
        self._it: Iterator[str] = iter(text.splitlines())
        self.number = 0

    def next(self) -> str:
        for line in self._it:
            self.number += 1
            return line.strip()
        raise SasFormatError(say("sas_ends_early"))

    def ints(self) -> list[int]:
        line = self.next()
        try:
            return [int(x) for x in line.split()]
        except ValueError:
            raise SasFormatError(say("sas_not_numbers", line=self.number, got=repr(line))) from None

    def int(self) -> int:
        values = self.ints()
        if len(values) != 1:
            raise SasFormatError(say("sas_not_one_number", line=self.number))
        return values[0]

    def expect(self, word: str) -> None:
        line = self.next()
        if line != word:
            raise SasFormatError(say("sas_expected", line=self.number, word=word, got=repr(line)))


def _pairs(values: list[int]) -> list[Fact]:
    return [(values[i], values[i + 1]) for i in range(0, len(values), 2)]


def parse_sas(text: str) -> SasTask:
    lines = _Lines(text)
    lines.expect("begin_version")
    version = lines.int()
    if version != 3:
        raise SasFormatError(say("sas_version", version=version))
    lines.expect("end_version")
    lines.expect("begin_metric")
    metric = bool(lines.int())
    lines.expect("end_metric")
    variables = []
    for _ in range(lines.int()):
        lines.expect("begin_variable")
        name = lines.next()
        layer = lines.int()
        values = [lines.next() for _ in range(lines.int())]
        lines.expect("end_variable")
        variables.append(Variable(name, layer, values))
    mutexes = []
    for _ in range(lines.int()):
        lines.expect("begin_mutex_group")
        mutexes.append([tuple(lines.ints()) for _ in range(lines.int())])
        lines.expect("end_mutex_group")
    lines.expect("begin_state")
    init = [lines.int() for _ in variables]
    lines.expect("end_state")
    lines.expect("begin_goal")
    goal = [tuple(lines.ints()) for _ in range(lines.int())]
    lines.expect("end_goal")
    operators = []
    for _ in range(lines.int()):
        lines.expect("begin_operator")
        name = lines.next()
        prevail = [tuple(lines.ints()) for _ in range(lines.int())]
        effects = []
        for _ in range(lines.int()):
            values = lines.ints()
            n = values[0]
            conditions = _pairs(values[1:1 + 2 * n])
            var, pre, post = values[1 + 2 * n:]
            effects.append(Effect(conditions, var, pre, post))
        cost = lines.int()
        lines.expect("end_operator")
        operators.append(Operator(name, prevail, effects, cost))
    axioms = []
    for _ in range(lines.int()):
        lines.expect("begin_rule")
        conditions = [tuple(lines.ints()) for _ in range(lines.int())]
        var, pre, post = lines.ints()
        lines.expect("end_rule")
        axioms.append(Axiom(conditions, var, pre, post))
    return SasTask(metric, variables, mutexes, init, goal, operators, axioms)  # type: ignore[arg-type]


def write_sas(task: SasTask) -> str:
    out = ["begin_version", "3", "end_version", "begin_metric", str(int(task.metric)),
           "end_metric", str(len(task.variables))]
    for var in task.variables:
        out += ["begin_variable", var.name, str(var.axiom_layer), str(len(var.values)),
                *var.values, "end_variable"]
    out.append(str(len(task.mutexes)))
    for group in task.mutexes:
        out += ["begin_mutex_group", str(len(group)), *(f"{v} {x}" for v, x in group),
                "end_mutex_group"]
    out += ["begin_state", *(str(v) for v in task.init), "end_state",
            "begin_goal", str(len(task.goal)), *(f"{v} {x}" for v, x in task.goal), "end_goal",
            str(len(task.operators))]
    for op in task.operators:
        out += ["begin_operator", op.name, str(len(op.prevail)),
                *(f"{v} {x}" for v, x in op.prevail), str(len(op.effects))]
        for e in op.effects:
            cond = " ".join(f"{v} {x}" for v, x in e.conditions)
            out.append(" ".join(filter(None, [str(len(e.conditions)), cond,
                                              f"{e.var} {e.pre} {e.post}"])))
        out += [str(op.cost), "end_operator"]
    out.append(str(len(task.axioms)))
    for ax in task.axioms:
        out += ["begin_rule", str(len(ax.conditions)), *(f"{v} {x}" for v, x in ax.conditions),
                f"{ax.var} {ax.pre} {ax.post}", "end_rule"]
    return "\n".join(out) + "\n"
