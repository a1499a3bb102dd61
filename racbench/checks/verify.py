"""``racbench verify DIR``: re-derive every label of a built dataset with engines that are not ours.

racbench computes its labels with its own STRIPS engine (``racbench.worlds.strips``).
This module checks them against independent implementations:

* `unified-planning <https://github.com/aiplan4eu/unified-planning>`_ (UP) reads the
  domain PDDL, and each row's ``symbolic`` JSON becomes a UP problem (objects, initial
  state, goal).  UP's ``SequentialSimulator`` answers executability, projection,
  applicability and progression claims; UP's ``PlanValidator`` answers plan validation.
* Fast Downward, through ``up-fast-downward`` (``fast-downward-opt``: A* with LM-cut,
  optimal for unit costs), answers optimal-cost and solvability claims: the
  ``optimal_plan_length`` column, goal recognition (an observation of N actions is a
  prefix of an optimal plan iff it executes and N + cost(after it) == cost(initial)),
  reachability, landmarks and next-action claims.  Fast Downward is GPL: it is only an
  optional extra (``pip install 'racbench[verify]'``) and UP runs it as a separate
  process (``python fast-downward.py`` on PDDL files it writes), never inside ours.
  Without it the optimal checks are skipped, said once, unless ``--require-optimal``.

Every STRIPS row (TRAC's included) has the families' ``symbolic`` JSON (``family``,
``domain_pddl``, ``state``...), with one checker per family in :data:`ACP_CHECKERS`
(register more with :func:`acp_checker`). Science-lab rows (``"world": "science"``)
have no independent engine and are reported as skipped.

Exit codes of the command: 0 every checked claim agrees, 1 some row disagrees (each
mismatch printed as ``config/split id: what differs``), 2 the folder is not a racbench
dataset or the engines are missing.
"""

from __future__ import annotations

import hashlib
import json
import os
import string
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence


from racbench.errors import InputError

__all__ = [
    "ACP_CHECKERS",
    "EngineMissing",
    "Mismatch",
    "NotADataset",
    "RowCheck",
    "VerifyReport",
    "acp_checker",
    "acp_open_checker",
    "fd_available",
    "problem_pddl",
    "up_available",
    "verify_dataset",
    "verify_row",
]

#: Rows sent to a worker process at a time.
CHUNK_ROWS = 64
#: Optimal costs remembered per process (goal recognition asks for the same ones twice).
COST_CACHE = 50_000
#: Seconds Fast Downward may search one problem before the claim is skipped.
FD_TIMEOUT = 120.0
SPLIT_ORDER = ("train", "validation", "test")
FD_ENGINE = "fast-downward-opt"
INSTALL_HINT = "pip install 'racbench[verify]'"


class NotADataset(InputError):
    """The folder (or a requested config) is not a racbench dataset."""


class EngineMissing(InputError):
    """A required verification engine is not installed."""


class _Skip(Exception):
    """A claim that cannot be checked here (no Fast Downward, a timeout)."""


# --------------------------------------------------------------------------
# Results


@dataclass
class RowCheck:
    """Outcome for one row: ``checked`` names the claims that were re-derived and agree
    or not; ``message`` says what differs (empty when ``ok``)."""

    ok: bool
    checked: list[str]
    message: str = ""
    skipped: list[str] = field(default_factory=list)


@dataclass
class Mismatch:
    config: str
    split: str
    row_id: str
    message: str

    def __str__(self) -> str:
        return f"{self.config}/{self.split} {self.row_id}: {self.message}"


@dataclass
class VerifyReport:
    root: Path
    rows: Counter = field(default_factory=Counter)        # config -> rows verified
    checked: Counter = field(default_factory=Counter)     # claim -> rows checking it
    skipped: Counter = field(default_factory=Counter)     # claim (reason) -> rows
    mismatches: list[Mismatch] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    optimal: bool = False                                 # Fast Downward checks ran

    @property
    def ok(self) -> bool:
        return not self.mismatches

    @property
    def exit_code(self) -> int:
        return 0 if self.ok else 1

    def summary(self) -> str:
        total = sum(self.rows.values())
        checks = ", ".join(f"{k} {v}" for k, v in sorted(self.checked.items())) or "none"
        text = (f"verified {total} rows in {len(self.rows)} configs: "
                f"{len(self.mismatches)} mismatching; checked: {checks}")
        if self.skipped:
            text += "; skipped: " + ", ".join(f"{k} {v}" for k, v in sorted(self.skipped.items()))
        return text


class _Claims:
    """Collects what one row's check compared."""

    def __init__(self) -> None:
        self.checked: list[str] = []
        self.skipped: list[str] = []
        self.problems: list[str] = []

    def expect(self, claim: str, stored: Any, derived: Any, detail: str = "") -> None:
        if claim not in self.checked:
            self.checked.append(claim)
        if stored != derived:
            text = f"{claim}: stored {_show(stored)}, re-derived {_show(derived)}"
            self.problems.append(text + (f" ({detail})" if detail else ""))

    def fail(self, claim: str, message: str) -> None:
        if claim not in self.checked:
            self.checked.append(claim)
        self.problems.append(f"{claim}: {message}")

    def skip(self, claim: str, reason: str) -> None:
        self.skipped.append(f"{claim} ({reason})")

    def result(self) -> RowCheck:
        return RowCheck(not self.problems, self.checked, "; ".join(self.problems),
                        self.skipped)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return json.dumps(value) if isinstance(value, (list, dict)) else str(value)


# --------------------------------------------------------------------------
# Engines


def up_available() -> bool:
    try:
        import unified_planning  # noqa: F401
    except ImportError:
        return False
    return True


def fd_available() -> bool:
    """Whether UP can run Fast Downward's optimal configuration."""
    if not up_available():
        return False
    from unified_planning.shortcuts import get_environment

    try:
        return FD_ENGINE in get_environment().factory.engines
    except Exception:  # pragma: no cover - a broken plugin counts as missing
        return False


def _quiet_up() -> None:
    from unified_planning.shortcuts import get_environment

    env = get_environment()
    env.credits_stream = None
    env.error_used_name = False




def _lit(item: Any) -> tuple[list[str], bool]:
    """(atom, positive) from {"atom": [...], "positive": b} or a bare atom list."""
    if isinstance(item, dict):
        return list(item["atom"]), bool(item.get("positive", True))
    return list(item), True


def _symbol(prob, term: Sequence[str], kind: str):
    """The UP fluent ("predicate") or action a ground term names, and its argument
    objects; a ValueError naming the term if the name, the arity or an object does
    not fit the problem (names are tried as written, then lower-cased)."""
    name, *args = term
    if kind == "predicate":
        has, get, text, noun = prob.has_fluent, prob.fluent, _atom_text(term), "arguments"
    else:
        has, get, text, noun = prob.has_action, prob.action, _term_text(term), "parameters"
    name = name if has(name) else name.lower()
    if not has(name):
        raise ValueError(f"unknown {kind} {name} in {text}")
    symbol = get(name)
    arity = symbol.arity if kind == "predicate" else len(symbol.parameters)
    if arity != len(args):
        raise ValueError(f"{text}: {name} takes {arity} {noun}")
    for a in args:
        if not prob.has_object(a):
            raise ValueError(f"unknown object {a} in {text}")
    return symbol, tuple(prob.object(a) for a in args)


def _atom_text(atom: Sequence[str]) -> str:
    return f"({' '.join(str(a) for a in atom)})"


def _literal_text(atom: Sequence[str], positive: bool) -> str:
    return _atom_text(atom) if positive else f"(not {_atom_text(atom)})"


def _term_text(term: Sequence[str]) -> str:
    return f"{term[0]}({', '.join(term[1:])})"


def problem_pddl(objects: dict[str, str] | Sequence[str], state: Iterable[Sequence[str]],
                 goal: Iterable[Any] = (), domain: str = "blocksworld",
                 name: str = "verify") -> str:
    """A PDDL problem text for a row's objects, true atoms and goal literals: what the
    checks hand to UP, for reproducing a mismatch with any other planner."""
    if not isinstance(objects, dict):
        objects = {o: "block" for o in objects}
    by_type: dict[str, list[str]] = {}
    for obj, typ in objects.items():
        by_type.setdefault(typ, []).append(obj)
    objs = " ".join(f"{' '.join(names)} - {typ}" for typ, names in by_type.items())
    init = " ".join(_atom_text(a) for a in state)
    lits = [_literal_text(*_lit(g)) for g in goal]
    return (f"(define (problem {name}) (:domain {domain})\n  (:objects {objs})\n"
            f"  (:init {init})\n  (:goal (and {' '.join(lits)})))\n")


def _private_sas_file(planner):
    """Make Fast Downward write its translator output next to UP's temporary plan file.

    By default the FD driver writes ``output.sas`` into the current directory, so two
    planners running at once in one directory (our --jobs workers, or anyone else's)
    read each other's tasks.  Every call gets its own file in UP's temporary folder."""
    base = planner._base_cmd

    def base_cmd(plan_filename: str):
        sas = os.path.join(os.path.dirname(os.path.abspath(plan_filename)), "output.sas")
        return [*base(plan_filename), "--sas-file", sas]

    planner._base_cmd = base_cmd
    return planner


class Engine:
    """UP problems and Fast Downward costs for one process, with caches."""

    def __init__(self, optimal: bool, fd_timeout: float = FD_TIMEOUT):
        _quiet_up()
        self.optimal = optimal
        self.fd_timeout = fd_timeout
        self._domains: dict[str, Any] = {}
        self._costs: dict[tuple, int | None] = {}
        self._planner = None

    # -- problems -----------------------------------------------------------

    def domain(self, text: str):
        key = hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
        dom = self._domains.get(key)
        if dom is None:
            from unified_planning.io import PDDLReader

            dom = PDDLReader().parse_problem_string(text)
            dom._racbench_key = key  # type: ignore[attr-defined]
            self._domains[key] = dom
        return dom

    def problem(self, domain_text: str, objects: dict[str, str], state: Iterable[Sequence[str]],
                goal: Iterable[Any] = ()):
        """A UP problem: the domain, these typed objects, exactly these atoms true."""
        from unified_planning.model import Object

        dom = self.domain(domain_text)
        prob = dom.clone()
        prob._racbench_key = dom._racbench_key  # type: ignore[attr-defined]
        for name, typ in objects.items():
            if prob.has_object(name):
                continue
            if not prob.has_type(typ):
                raise ValueError(f"object {name} has type {typ}, not a type of the domain")
            prob.add_object(Object(name, prob.user_type(typ)))
        for atom in state:
            prob.set_initial_value(self.atom(prob, atom), True)
        for item in goal:
            prob.add_goal(self.literal(prob, item))
        return prob

    @staticmethod
    def atom(prob, atom: Sequence[str]):
        fluent, args = _symbol(prob, atom, "predicate")
        return fluent(*args)

    def literal(self, prob, item: Any):
        from unified_planning.shortcuts import Not

        atom, positive = _lit(item)
        expr = self.atom(prob, atom)
        return expr if positive else Not(expr)

    @staticmethod
    def action(prob, term: Sequence[str]):
        return _symbol(prob, term, "action")

    def plan(self, prob, terms: Sequence[Sequence[str]]):
        from unified_planning.plans import ActionInstance, SequentialPlan

        return SequentialPlan([ActionInstance(*self.action(prob, t)) for t in terms])

    # -- simulation ---------------------------------------------------------

    @staticmethod
    def simulator(prob):
        from unified_planning.shortcuts import SequentialSimulator

        return SequentialSimulator(problem=prob)

    def run(self, prob, terms: Sequence[Sequence[str]]):
        """(states from the initial one on, index of the first inapplicable action or None)."""
        sim = self.simulator(prob)
        states = [sim.get_initial_state()]
        for i, term in enumerate(terms):
            act, params = self.action(prob, term)
            if not sim.is_applicable(states[-1], act, params):
                return sim, states, i
            states.append(sim.apply(states[-1], act, params))
        return sim, states, None

    def holds(self, prob, state, item: Any) -> bool:
        atom, positive = _lit(item)
        value = state.get_value(self.atom(prob, atom)).bool_constant_value()
        return value == positive

    def validate(self, prob, terms: Sequence[Sequence[str]]) -> bool:
        """UP's PlanValidator: the plan executes from prob's initial state to its goal."""
        from unified_planning.engines import ValidationResultStatus
        from unified_planning.shortcuts import PlanValidator

        with PlanValidator(problem_kind=prob.kind) as validator:
            result = validator.validate(prob, self.plan(prob, terms))
        return result.status == ValidationResultStatus.VALID

    def state_atoms(self, prob, state) -> list[tuple]:
        """The true ground atoms of a UP state (every grounding of every predicate)."""
        atoms = []
        for fexp in prob.initial_values:
            if state.get_value(fexp).bool_constant_value():
                atoms.append((fexp.fluent().name, *(str(a) for a in fexp.args)))
        return sorted(atoms)

    def rebase(self, prob, state, goal: Iterable[Any] | None = None):
        """A copy of prob whose initial state is `state` (and goal `goal` if given)."""
        new = prob.clone()
        new._racbench_key = prob._racbench_key  # type: ignore[attr-defined]
        for fexp in prob.initial_values:
            new.set_initial_value(fexp, state.get_value(fexp))
        if goal is not None:
            new.clear_goals()
            for item in goal:
                new.add_goal(self.literal(new, item))
        return new

    # -- Fast Downward ------------------------------------------------------

    def optimal_cost(self, prob) -> int | None:
        """Length of a shortest plan of prob (None: unsolvable), by Fast Downward."""
        if not self.optimal:
            raise _Skip("no Fast Downward")
        shape = "\n".join([*(str(a) for a in prob.actions), *(str(f) for f in prob.fluents),
                            *sorted(str(g) for g in prob.goals),
                            *sorted(f"{o.name} - {o.type}" for o in prob.all_objects)])
        key = (prob._racbench_key,  # type: ignore[attr-defined]
               hashlib.blake2b(shape.encode(), digest_size=16).digest(),
               frozenset(str(k) for k, v in prob.explicit_initial_values.items()
                         if v.is_true()))
        if key in self._costs:
            return self._costs[key]
        from unified_planning.engines import PlanGenerationResultStatus as S
        from unified_planning.shortcuts import MinimizeSequentialPlanLength, OneshotPlanner

        task = prob.clone()
        task.clear_quality_metrics()
        task.add_quality_metric(MinimizeSequentialPlanLength())
        if self._planner is None:
            self._planner = _private_sas_file(OneshotPlanner(name=FD_ENGINE))
        result = self._planner.solve(task, timeout=self.fd_timeout)
        if result.status == S.SOLVED_OPTIMALLY:
            cost: int | None = len(result.plan.actions)
        elif result.status == S.UNSOLVABLE_PROVEN:
            cost = None
        elif result.status == S.TIMEOUT:
            raise _Skip("Fast Downward timeout")
        else:
            raise RuntimeError(f"Fast Downward returned {result.status.name}")
        if len(self._costs) >= COST_CACHE:
            self._costs.clear()
        self._costs[key] = cost
        return cost


def _row_label(row: dict) -> bool | None:
    """The row's label as a bool (None: no label, e.g. -1 on ACP mc/open rows)."""
    label = row.get("label")
    if isinstance(label, str):
        return {"true": True, "false": False}.get(label)
    if label is None or label < 0:
        return None
    return bool(label)


# --------------------------------------------------------------------------
# ACP rows: one checker per family (racbench/tasks/*, their `truth`)
#
# ``predicate(ctx, item)`` re-derives the family's answer about one candidate: the
# subject of a bool row, or each option of an mc row (``item`` None: the row's own
# actions or goal, for bool rows whose subject is the row's sequence).  bool rows must
# agree with it, mc rows must have exactly their chosen option satisfy it.  Open rows
# go to ``open(ctx, answer)``, which returns what is wrong with the stored answer (or
# None).  Claims needing optimal costs call ``ctx.cost`` and are skipped without FD.


@dataclass
class AcpContext:
    """What an ACP family checker gets: the row, its symbolic JSON, the engine and the
    UP problem built from ``domain_pddl``/``objects``/``state``/``goal``."""

    engine: Engine
    row: dict
    sym: dict
    problem: Any

    @property
    def state(self):
        return self.engine.simulator(self.problem).get_initial_state()

    @property
    def actions(self) -> list[list[str]]:
        return [list(t) for t in self.sym.get("actions") or []]

    @property
    def goal(self) -> list[dict] | None:
        return self.sym.get("goal") or None

    def holds(self, state, item: Any) -> bool:
        return self.engine.holds(self.problem, state, item)

    def applicable(self, term: Sequence[str], state=None) -> bool:
        act, params = self.engine.action(self.problem, term)
        sim = self.engine.simulator(self.problem)
        return bool(sim.is_applicable(state if state is not None else sim.get_initial_state(),
                                      act, params))

    def after(self, terms: Sequence[Sequence[str]]):
        """(final state, or None if step `failed` (0-based) is inapplicable; failed)."""
        _, states, failed = self.engine.run(self.problem, terms)
        return (None if failed is not None else states[-1]), failed

    def with_goal(self, goal: Iterable[Any] | None):
        """The row's problem with another goal (literals or atoms; None: the row's)."""
        if goal is None:
            return self.problem
        prob = _derived(self.problem)
        prob.clear_goals()
        for item in goal:
            prob.add_goal(self.engine.literal(prob, item))
        return prob

    def valid(self, plan: Sequence[Sequence[str]], goal: Iterable[Any] | None = None) -> bool:
        """UP's PlanValidator: `plan` executes from the state and reaches the goal."""
        if goal is None and not self.goal:
            raise ValueError(f"{self.sym.get('family')} row without a goal")
        return self.engine.validate(self.with_goal(goal), plan)

    def cost(self, state=None, goal: Iterable[Any] | None = None) -> int | None:
        """Optimal cost (Fast Downward) from `state` (default: the row's) to `goal`
        (default: the row's); None if unsolvable."""
        prob = self.with_goal(goal)
        if state is not None:
            prob = self.engine.rebase(prob, state)
        return self.engine.optimal_cost(prob)

    def atoms(self, state) -> set[tuple]:
        return set(self.engine.state_atoms(self.problem, state))


AcpPredicate = Callable[[AcpContext, Any], bool]
AcpOpen = Callable[[AcpContext, Any], "str | None"]


@dataclass
class FamilyChecker:
    family: str
    predicate: AcpPredicate | None = None
    open: AcpOpen | None = None


#: family -> checker.  Adjust with :func:`acp_checker` / :func:`acp_open_checker`.
ACP_CHECKERS: dict[str, FamilyChecker] = {}


def acp_checker(family: str):
    """Register ``predicate(ctx, item) -> bool`` for a family's bool and mc rows."""
    def register(predicate: AcpPredicate) -> AcpPredicate:
        ACP_CHECKERS.setdefault(family, FamilyChecker(family)).predicate = predicate
        return predicate
    return register


def acp_open_checker(family: str):
    """Register ``check(ctx, answer) -> message or None`` for a family's open rows."""
    def register(check: AcpOpen) -> AcpOpen:
        ACP_CHECKERS.setdefault(family, FamilyChecker(family)).open = check
        return check
    return register


def _derived(prob):
    task = prob.clone()
    task._racbench_key = prob._racbench_key  # type: ignore[attr-defined]
    return task


def _literal_set(items: Iterable[Any]) -> set[tuple]:
    return {(tuple(_lit(i)[0]), _lit(i)[1]) for i in items}


def _set_difference(what: str, stored: Iterable, derived: Iterable) -> str | None:
    stored, derived = set(stored), set(derived)
    if stored == derived:
        return None
    missing = sorted(derived - stored)
    extra = sorted(stored - derived)
    parts = []
    if missing:
        parts.append(f"misses {_show([list(x) if isinstance(x, tuple) else x for x in missing])}")
    if extra:
        parts.append(f"wrongly has {_show([list(x) if isinstance(x, tuple) else x for x in extra])}")
    return f"{what}: the answer " + " and ".join(parts)


def _shortest_plan(ctx: AcpContext, plan: list, goal: Iterable[Any] | None,
                   what: str) -> str | None:
    """A stored plan must be valid for `goal` and as short as Fast Downward's."""
    if not ctx.valid(plan, goal):
        return f"{what}: the stored plan {_show(plan)} is not valid"
    best = ctx.cost(goal=goal)
    if best != len(plan):
        return f"{what}: the stored plan has {len(plan)} steps, an optimal one {_show(best)}"
    stored = ctx.row.get("optimal_plan_length")
    if stored is not None and stored != best:
        return f"optimal_plan_length: stored {stored}, re-derived {best}"
    return None


def _first_failure(ctx: AcpContext, plan: list) -> int | None:
    _, failed = ctx.after(plan)
    return None if failed is None else failed + 1


# -- applicability

@acp_checker("applicability")
def _applicability(ctx: AcpContext, item: Any) -> bool:
    return ctx.applicable(item)


@acp_open_checker("applicability")
def _applicability_open(ctx: AcpContext, answer: Any) -> str | None:
    sim = ctx.engine.simulator(ctx.problem)
    derived = {(a.name, *(str(p) for p in params))
               for a, params in sim.get_applicable_actions(sim.get_initial_state())}
    return _set_difference("applicable actions", {tuple(t) for t in answer}, derived)


# -- progression: the row's one action, then a fact

def _one_step(ctx: AcpContext):
    if not ctx.actions:
        raise ValueError("progression row without its action")
    return ctx.after(ctx.actions[:1])[0]


@acp_checker("progression")
def _progression(ctx: AcpContext, item: Any) -> bool:
    end = _one_step(ctx)
    return end is not None and ctx.holds(end, item)


@acp_open_checker("progression")
def _progression_open(ctx: AcpContext, answer: Any) -> str | None:
    end = _one_step(ctx)
    if end is None:
        return f"progression: the action {_term_text(ctx.actions[0])} is not applicable"
    before, after = ctx.atoms(ctx.state), ctx.atoms(end)
    derived = {(a, True) for a in after - before} | {(a, False) for a in before - after}
    return _set_difference("changed facts", _literal_set(answer), derived)


# -- reachability: facts (together) not all true now that can become true

def _facts(item: Any) -> list:
    """One atom or literal, or a list of them (a conjunction), as a list."""
    if isinstance(item, dict) or (isinstance(item, list) and item and isinstance(item[0], str)):
        return [item]
    return list(item)


@acp_checker("reachability")
def _reachability(ctx: AcpContext, item: Any) -> bool:
    facts = _facts(item)
    if all(ctx.holds(ctx.state, f) for f in facts):
        return False
    return ctx.cost(goal=facts) is not None


@acp_open_checker("reachability")
def _reachability_open(ctx: AcpContext, answer: Any) -> str | None:
    facts = _facts(ctx.sym["subject"])
    return _shortest_plan(ctx, answer, facts, "a shortest plan making "
                          + " and ".join(_atom_text(_lit(f)[0]) for f in facts) + " true")


# -- action reachability: actions (applicable together) not all applicable now that
# can become applicable in one state

def _terms(item: Any) -> list[list[str]]:
    """One action term or a list of them, as a list."""
    if isinstance(item, list) and item and isinstance(item[0], str):
        return [item]
    return [list(t) for t in item]


def _fire_task(ctx: AcpContext, terms: Sequence[Sequence[str]]):
    """The problem whose goal is "these actions have been applicable in one state": a
    fresh nullary fluent set by a new action carrying all their ground preconditions."""
    from unified_planning.model import Fluent, InstantaneousAction
    from unified_planning.shortcuts import BoolType

    em = ctx.problem.environment.expression_manager
    task = _derived(ctx.problem)
    done = Fluent("racbench_verify_fired", BoolType())
    task.add_fluent(done, default_initial_value=False)
    fire = InstantaneousAction("racbench_verify_fire")
    for term in terms:
        act, params = ctx.engine.action(ctx.problem, term)
        binding = {em.ParameterExp(p): em.ObjectExp(o) for p, o in zip(act.parameters, params)}
        for pre in act.preconditions:
            fire.add_precondition(pre.substitute(binding))
    fire.add_effect(done(), True)
    task.add_action(fire)
    task.clear_goals()
    task.add_goal(done())
    return task


@acp_checker("action_reachability")
def _action_reachability(ctx: AcpContext, item: Any) -> bool:
    terms = _terms(item)
    if all(ctx.applicable(t) for t in terms):
        return False
    return ctx.engine.optimal_cost(_fire_task(ctx, terms)) is not None


@acp_open_checker("action_reachability")
def _action_reachability_open(ctx: AcpContext, answer: Any) -> str | None:
    terms = _terms(ctx.sym["subject"])
    what = ("a shortest plan after which " + " and ".join(_term_text(t) for t in terms)
            + (" are" if len(terms) > 1 else " is") + " applicable")
    end, failed = ctx.after(answer)
    if end is None:
        return f"{what}: the stored plan fails at step {failed + 1}"
    if not all(ctx.applicable(t, end) for t in terms):
        return f"{what}: the stored plan does not get there"
    fire = ctx.engine.optimal_cost(_fire_task(ctx, terms))
    best = None if fire is None else fire - 1
    if best != len(answer):
        return f"{what}: the stored plan has {len(answer)} steps, an optimal one {_show(best)}"
    stored = ctx.row.get("optimal_plan_length")
    if stored is not None and stored != best:
        return f"optimal_plan_length: stored {stored}, re-derived {best}"
    return None


# -- sequences: executability, projection, planning, validation

@acp_checker("executability")
def _executability(ctx: AcpContext, item: Any) -> bool:
    return ctx.after(item if item is not None else ctx.actions)[0] is not None


def _failure_open(family: str):
    def check(ctx: AcpContext, answer: Any) -> str | None:
        derived = _first_failure(ctx, ctx.actions)
        if answer != derived:
            return (f"{family}: stored first failing step {_show(answer)}, "
                    f"re-derived {_show(derived)}")
        return None
    return check


acp_open_checker("executability")(_failure_open("executability"))


@acp_checker("projection")
def _projection(ctx: AcpContext, item: Any) -> bool:
    end = ctx.after(ctx.actions)[0]  # the subject: a literal or a conjunction of them
    return end is not None and all(ctx.holds(end, lit) for lit in _facts(item))


@acp_open_checker("projection")
def _projection_open(ctx: AcpContext, answer: Any) -> str | None:
    end, failed = ctx.after(ctx.actions)
    if end is None:
        return f"projection: step {failed + 1} of the actions is not applicable"
    pred = ctx.sym["subject"]
    derived = {a for a in ctx.atoms(end) if a[0] == pred}
    return _set_difference(f"true {pred} facts", {tuple(a) for a in answer}, derived)


def _plan_predicate(ctx: AcpContext, item: Any) -> bool:
    return ctx.valid(item if item is not None else ctx.actions)


def _plan_open(family: str):
    def check(ctx: AcpContext, answer: Any) -> str | None:
        return _shortest_plan(ctx, answer, None, f"{family}: a shortest plan")
    return check


acp_checker("planning")(_plan_predicate)
acp_open_checker("planning")(_plan_open("planning"))
acp_checker("validation")(_plan_predicate)
acp_open_checker("validation")(_failure_open("validation"))
acp_open_checker("plan_generation")(_plan_open("plan_generation"))


# -- goal recognition: the observed actions start a shortest plan for the goal

@acp_checker("goal_recognition")
def _goal_recognition(ctx: AcpContext, item: Any) -> bool:
    goal = item if item is not None else ctx.goal
    if not goal:
        raise ValueError("goal_recognition row without a goal")
    end = ctx.after(ctx.actions)[0]
    if end is None:
        return False
    total, rest = ctx.cost(goal=goal), ctx.cost(end, goal=goal)
    return total is not None and rest is not None and rest + len(ctx.actions) == total


# -- justification: a step (0-based) whose removal leaves a valid plan

@acp_checker("justification")
def _justification(ctx: AcpContext, item: Any) -> bool:
    plan, i = ctx.actions, int(item)
    if not 0 <= i < len(plan):
        raise ValueError(f"step {i} is out of range for a plan of {len(plan)} steps")
    return ctx.valid(plan) and ctx.valid(plan[:i] + plan[i + 1:])


@acp_open_checker("justification")
def _justification_open(ctx: AcpContext, answer: Any) -> str | None:
    derived = {i + 1 for i in range(len(ctx.actions)) if _justification(ctx, i)}
    return _set_difference("removable steps (1-based)", set(answer or []), derived)


# -- landmarks: a fact false now and not in the goal that every plan makes true

def _without_adders(ctx: AcpContext, atom: Sequence[str]):
    """The problem where no ground action may make `atom` true: every action with an
    effect on its predicate gets the precondition "the effect's arguments differ from
    the atom's"."""
    from unified_planning.shortcuts import Equals, Not, Or

    target = ctx.engine.atom(ctx.problem, atom)
    task = _derived(ctx.problem)
    for act in task.actions:
        for eff in act.effects:
            if eff.fluent.fluent() != target.fluent() or eff.value.is_false():
                continue
            if eff.is_conditional() or eff.is_forall():
                raise ValueError(f"action {act.name} adds {atom[0]} conditionally; "
                                 "landmark checks support STRIPS effects only")
            differs = [Not(Equals(a, b)) for a, b in zip(eff.fluent.args, target.args)]
            act.add_precondition(Or(*differs) if differs else False)
    return task


@acp_checker("landmarks")
def _landmark(ctx: AcpContext, item: Any) -> bool:
    """Every plan from the state makes the fact true: without the actions that add it
    the goal is unsolvable.  Facts true now or named by the goal are not asked about
    (the family answers False for them)."""
    atom = _lit(item)[0]
    if not ctx.goal:
        raise ValueError("landmarks row without a goal")
    if ctx.holds(ctx.state, atom) or any(_lit(g)[0] == atom for g in ctx.goal):
        return False
    return ctx.engine.optimal_cost(_without_adders(ctx, atom)) is None


@acp_open_checker("landmarks")
def _landmarks_open(ctx: AcpContext, answer: Any) -> str | None:
    wrong = [a for a in answer if not _landmark(ctx, a)]
    return f"landmarks: {_show(wrong[0])} is not a landmark" if wrong else None


# -- next action: an applicable action that starts a shortest plan

@acp_checker("next_action")
def _next_action(ctx: AcpContext, item: Any) -> bool:
    end = ctx.after([item])[0]
    if end is None:
        return False
    now, then = ctx.cost(), ctx.cost(end)
    return now is not None and then is not None and then + 1 == now


@acp_open_checker("next_action")
def _next_action_open(ctx: AcpContext, answer: Any) -> str | None:
    sim = ctx.engine.simulator(ctx.problem)
    applicable = [[a.name, *(str(p) for p in params)]
                  for a, params in sim.get_applicable_actions(sim.get_initial_state())]
    derived = {tuple(t) for t in applicable if _next_action(ctx, t)}
    return _set_difference("optimal first actions", {tuple(t) for t in answer}, derived)


def _check_acp(engine: Engine, row: dict, sym: dict, claims: _Claims) -> None:
    family, form, answer = sym.get("family"), sym.get("form"), sym.get("answer")
    if row.get("family") not in (None, family):
        claims.fail("family", f"column says {row['family']}, symbolic says {family}")
    if row.get("form") not in (None, form):
        claims.fail("form", f"column says {row['form']}, symbolic says {form}")
    # The row's columns against its symbolic answer (racbench/tasks/rows.py).
    if form == "bool":
        if not isinstance(answer, bool):
            raise ValueError(f"bool row with answer {answer!r}")
        label = _row_label(row)
        if label is not None:
            claims.expect("answer", label, answer, "label column vs symbolic answer")
        if row.get("answer") is not None:
            claims.expect("answer", row["answer"], _show(answer), "answer column")
    elif form == "mc":
        if isinstance(answer, bool) or not isinstance(answer, int) \
                or not 0 <= answer < len(sym.get("options") or []):
            raise ValueError(f"mc row with answer {answer!r} for "
                             f"{len(sym.get('options') or [])} options")
        if row.get("answer_index") is not None:
            claims.expect("answer", row["answer_index"], answer, "answer_index column")
        if row.get("answer") is not None:
            claims.expect("answer", row["answer"], string.ascii_uppercase[answer],
                          "answer column")
    elif form != "open":
        raise ValueError(f"unknown ACP form {form!r}")
    checker = ACP_CHECKERS.get(family)
    check = None if checker is None else (checker.open if form == "open" else checker.predicate)
    if check is None:
        claims.skip("label", f"no {form} checker for ACP family {family}")
        return
    objects = sym["objects"]
    if not isinstance(objects, dict):
        raise ValueError("ACP objects must map names to types")
    prob = engine.problem(sym["domain_pddl"], objects, sym["state"], sym.get("goal") or [])
    ctx = AcpContext(engine, row, sym, prob)
    _acp_optimal_plan_length(ctx, claims)
    if form == "bool":
        subject = sym.get("subject")
        derived = bool(check(ctx, subject))
        what = _show(subject) if subject is not None or derived == answer else _sequence_text(ctx)
        claims.expect("label", answer, derived, f"{family} of {what}")
    elif form == "mc":
        correct = [i for i, option in enumerate(sym["options"]) if check(ctx, option)]
        letters = [string.ascii_uppercase[i] for i in correct]
        claims.expect("label", string.ascii_uppercase[answer],
                      letters[0] if len(letters) == 1 else letters,
                      f"{family}: the options that are correct")
    else:
        problem = check(ctx, answer)
        if problem:
            claims.fail("label", problem)
        elif "label" not in claims.checked:
            claims.checked.append("label")


def _sequence_text(ctx: AcpContext) -> str:
    """The row's actions, and the first that is not applicable, for a mismatch message."""
    failed = ctx.after(ctx.actions)[1]
    text = "the actions " + ", ".join(_term_text(t) for t in ctx.actions)
    if failed is not None:
        text += f" (action {failed + 1} {_term_text(ctx.actions[failed])} is not applicable)"
    return text


def _acp_optimal_plan_length(ctx: AcpContext, claims: _Claims) -> None:
    """optimal_plan_length, where the row carries the goal it is measured to."""
    stored = ctx.row.get("optimal_plan_length")
    if stored is None:
        return
    if not ctx.goal:
        if ctx.sym.get("form") != "open" or ctx.sym.get("family") not in (
                "reachability", "action_reachability"):  # those check it with the plan
            claims.skip("optimal_plan_length", "its goal is not in the row")
        return
    try:
        claims.expect("optimal_plan_length", stored, ctx.cost(),
                      "Fast Downward from the state to the row's goal")
    except _Skip as skip:
        claims.skip("optimal_plan_length", str(skip))


# --------------------------------------------------------------------------
# Rows


_ENGINE: Engine | None = None
_ENGINE_SETTINGS: tuple | None = None


def _engine(optimal: bool, fd_timeout: float) -> Engine:
    global _ENGINE, _ENGINE_SETTINGS
    if _ENGINE is None or _ENGINE_SETTINGS != (optimal, fd_timeout):
        _ENGINE = Engine(optimal, fd_timeout)
        _ENGINE_SETTINGS = (optimal, fd_timeout)
    return _ENGINE


def verify_row(row: dict, *, optimal: bool | None = None,
               fd_timeout: float = FD_TIMEOUT) -> RowCheck:
    """Re-derive one row's label (and optimal_plan_length) from its ``symbolic`` JSON.

    ``optimal``: run the Fast Downward checks (default: when it is installed)."""
    if not up_available():
        raise EngineMissing(f"racbench verify needs unified-planning: {INSTALL_HINT}")
    if optimal is None:
        optimal = fd_available()
    engine = _engine(bool(optimal), fd_timeout)
    claims = _Claims()
    try:
        sym = row["symbolic"]
        sym = json.loads(sym) if isinstance(sym, str) else sym
        if not isinstance(sym, dict):
            raise ValueError("symbolic is not a JSON object")
        if sym.get("world") == "science":
            raise _Skip("no independent engine for the science lab")
        if "family" not in sym:
            raise ValueError("symbolic JSON names no family: not a racbench row")
        _check_acp(engine, row, sym, claims)
    except _Skip as skip:
        claims.skip("label", str(skip))
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        what = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
        claims.fail("symbolic", f"cannot be checked: {what}")
    except Exception as exc:  # an engine error on this row: report it, go on
        claims.fail("engine", f"{type(exc).__name__}: {exc}")
    return claims.result()


def _verify_chunk(job: tuple) -> list[tuple[str, str, str, RowCheck]]:
    config, split, rows, optimal, fd_timeout = job
    out = []
    for row in rows:
        out.append((config, split, str(row.get("id", "?")),
                    verify_row(row, optimal=optimal, fd_timeout=fd_timeout)))
    return out


# --------------------------------------------------------------------------
# Datasets


def _split_of(path: Path) -> str:
    return path.name.split("-")[0]


def find_configs(root: Path) -> dict[str, dict[str, list[Path]]]:
    """config -> split -> Parquet files.  ``root`` is a dataset folder (configs as
    subfolders) or one config folder."""
    root = Path(root)
    if not root.is_dir():
        raise NotADataset(f"{root} is not a racbench dataset: no such folder")
    folders = [root] if any(root.glob("*.parquet")) else sorted(
        p for p in root.iterdir()
        if p.is_dir() and not p.name.startswith(".") and any(p.glob("*.parquet")))
    configs: dict[str, dict[str, list[Path]]] = {}
    for folder in folders:
        splits: dict[str, list[Path]] = {}
        for f in sorted(folder.glob("*.parquet")):
            splits.setdefault(_split_of(f), []).append(f)
        order = sorted(splits, key=lambda s: (SPLIT_ORDER.index(s) if s in SPLIT_ORDER
                                              else len(SPLIT_ORDER), s))
        configs[folder.name] = {s: splits[s] for s in order}
    if not configs:
        raise NotADataset(f"{root} is not a racbench dataset: no config folders with "
                          f"Parquet files")
    import pyarrow.parquet as pq

    for name, splits in configs.items():
        for files in splits.values():
            try:
                columns = pq.read_schema(files[0]).names
            except Exception as exc:
                raise NotADataset(f"{files[0]} is not a readable Parquet file: {exc}") from None
            if "symbolic" not in columns:
                raise NotADataset(f"{root} is not a racbench dataset: {files[0].relative_to(root.parent)}"
                                  f" has no 'symbolic' column")
    return configs


def _iter_rows(files: Sequence[Path], limit: int | None) -> Iterator[dict]:
    import pyarrow.parquet as pq

    left = limit
    for f in files:
        for batch in pq.ParquetFile(f).iter_batches(batch_size=1024):
            rows = batch.to_pylist()
            if left is not None:
                rows = rows[:left]
                left -= len(rows)
            yield from rows
            if left is not None and left <= 0:
                return


def _split_limits(splits: dict[str, list[Path]], limit: int | None) -> dict[str, int]:
    """Rows to check per split: all, or `limit` spread over the splits (first splits
    take the remainder; a split with fewer rows hands its share on)."""
    import pyarrow.parquet as pq

    sizes = {s: sum(pq.ParquetFile(f).metadata.num_rows for f in files)
             for s, files in splits.items()}
    if limit is None:
        return sizes
    out = {s: 0 for s in splits}
    left = limit
    while left > 0 and any(out[s] < sizes[s] for s in splits):
        open_ = [s for s in splits if out[s] < sizes[s]]
        share, extra = divmod(left, len(open_))
        for i, s in enumerate(open_):
            take = min(sizes[s] - out[s], share + (1 if i < extra else 0))
            out[s] += take
            left -= take
    return out


def _jobs(configs, limits, optimal, fd_timeout) -> Iterator[tuple]:
    for config, splits in configs.items():
        for split, files in splits.items():
            if limits[config][split] == 0:
                continue
            chunk: list[dict] = []
            for row in _iter_rows(files, limits[config][split]):
                chunk.append(row)
                if len(chunk) == CHUNK_ROWS:
                    yield (config, split, chunk, optimal, fd_timeout)
                    chunk = []
            if chunk:
                yield (config, split, chunk, optimal, fd_timeout)


def verify_dataset(root: Path, *, limit: int | None = None,
                   configs: Sequence[str] | None = None, optimal: bool | None = None,
                   require_optimal: bool = False, jobs: int | None = 1,
                   fd_timeout: float = FD_TIMEOUT,
                   progress: Callable[[int], None] | None = None) -> VerifyReport:
    """Verify up to ``limit`` rows per config (default all) of the dataset at ``root``.

    ``optimal``: run Fast Downward checks (None: when installed; a note says when it is
    not, unless ``require_optimal`` which raises EngineMissing); ``jobs``: worker
    processes (None: all cores).  Raises NotADataset for a folder that is not one."""
    root = Path(root)
    found = find_configs(root)
    if not up_available():
        raise EngineMissing(f"racbench verify needs unified-planning: {INSTALL_HINT}")
    if configs:
        unknown = [c for c in configs if c not in found]
        if unknown:
            raise NotADataset(f"no config {', '.join(unknown)} in {root}; available: "
                              f"{', '.join(found)}")
        found = {c: found[c] for c in configs}
    report = VerifyReport(root)
    have_fd = fd_available()
    if optimal is None or optimal:
        if not have_fd:
            if require_optimal:
                raise EngineMissing(f"Fast Downward (up-fast-downward) is not installed: "
                                    f"{INSTALL_HINT}")
            report.notes.append("Fast Downward (up-fast-downward) is not installed: "
                                f"skipping optimal-cost checks ({INSTALL_HINT})")
        report.optimal = have_fd
    limits = {config: _split_limits(splits, limit) for config, splits in found.items()}
    chunks = sum(-(-n // CHUNK_ROWS) for per_split in limits.values() for n in per_split.values())
    work = _jobs(found, limits, report.optimal, fd_timeout)
    workers = min(jobs or os.cpu_count() or 1, chunks)

    def collect(results) -> None:
        for config, split, row_id, check in results:
            report.rows[config] += 1
            report.checked.update(check.checked)
            report.skipped.update(check.skipped)
            if not check.ok:
                report.mismatches.append(Mismatch(config, split, row_id, check.message))
        if progress is not None:
            progress(len(results))

    if workers <= 1:
        for job in work:
            collect(_verify_chunk(job))
    else:
        # Bounded submission: at most 2 chunks per worker in flight.
        from collections import deque

        with ProcessPoolExecutor(max_workers=workers) as pool:
            pending: deque = deque()
            for job in work:
                pending.append(pool.submit(_verify_chunk, job))
                if len(pending) >= 2 * workers:
                    collect(pending.popleft().result())
            while pending:
                collect(pending.popleft().result())
    for name in found:
        report.rows.setdefault(name, 0)
    return report
