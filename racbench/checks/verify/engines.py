"""The independent engines: a row's symbolic JSON as a unified-planning problem
(simulation, plan validation) and Fast Downward's optimal costs, run by UP as a
separate process (it is GPL)."""

from __future__ import annotations

import hashlib
import os
from typing import Any, Iterable, Sequence

from racbench.checks.verify.report import Skip, Unchecked
from racbench.checks.verify.words import say
from racbench.errors import InputError


#: Optimal costs remembered per process (goal recognition asks for the same ones twice).
COST_CACHE = 50_000
#: Seconds Fast Downward may search one problem before the claim is skipped.
FD_TIMEOUT = 120.0
FD_ENGINE = "fast-downward-opt"


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


def quiet_up() -> None:
    from unified_planning.shortcuts import get_environment

    env = get_environment()
    env.credits_stream = None
    env.error_used_name = False




def literal_of(item: Any) -> tuple[list[str], bool]:
    """(atom, positive) from {"atom": [...], "positive": b} or a bare atom list."""
    if isinstance(item, dict):
        return list(item["atom"]), bool(item.get("positive", True))
    return list(item), True


def alternatives_of(item: Any) -> list | None:
    """The alternatives (lists of literal items) of a disjunctive goal part
    ({"any": [[literal, ...], ...]}); None for a literal."""
    if isinstance(item, dict) and "any" in item:
        return item["any"]
    return None


def goal_text(item: Any) -> str:
    """A goal part as PDDL: a literal, or `(or (and ...) ...)` for a disjunction."""
    alternatives = alternatives_of(item)
    if alternatives is None:
        return literal_text(*literal_of(item))
    return "(or " + " ".join("(and " + " ".join(goal_text(g) for g in alt) + ")"
                             for alt in alternatives) + ")"


def _symbol(prob, term: Sequence[str], kind: str):
    """The UP fluent ("predicate") or action a ground term names, and its argument
    objects; a ValueError naming the term if the name, the arity or an object does
    not fit the problem (names are tried as written, then lower-cased)."""
    name, *args = term
    if kind == "predicate":
        has, get, text = prob.has_fluent, prob.fluent, atom_text(term)
    else:
        has, get, text = prob.has_action, prob.action, term_text(term)
    name = name if has(name) else name.lower()
    if not has(name):
        raise ValueError(say("unknown_symbol", kind=kind, name=name, term=text))
    symbol = get(name)
    arity = symbol.arity if kind == "predicate" else len(symbol.parameters)
    if arity != len(args):
        raise ValueError(say("wrong_arity", kind=kind, term=text, name=name, arity=arity))
    for a in args:
        if not prob.has_object(a):
            raise ValueError(say("unknown_object", name=a, term=text))
    return symbol, tuple(prob.object(a) for a in args)


def atom_text(atom: Sequence[str]) -> str:
    return f"({' '.join(str(a) for a in atom)})"


def literal_text(atom: Sequence[str], positive: bool) -> str:
    return atom_text(atom) if positive else f"(not {atom_text(atom)})"


def term_text(term: Sequence[str]) -> str:
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
    init = " ".join(atom_text(a) for a in state)
    lits = [goal_text(g) for g in goal]
    return (f"(define (problem {name}) (:domain {domain})\n  (:objects {objs})\n"
            f"  (:init {init})\n  (:goal (and {' '.join(lits)})))\n")


def _read_domain(text: str):
    from unified_planning.io import PDDLReader

    from racbench.checks.verify.translate import Untranslatable, up_domain
    from racbench.worlds.strips.pddl_reader import parse_domain

    try:
        return PDDLReader().parse_problem_string(text)
    except Exception as exc:  # UP's reader refuses what racbench reads: use the model
        refused = f"{type(exc).__name__}: {' '.join(str(exc).split())[:120]}"
    try:
        return up_domain(parse_domain(text, "<row's domain_pddl>"))
    except (Untranslatable, InputError) as exc:
        raise Unchecked(say("domain_unreadable", refused=refused, reason=exc)) from None


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


def _conditional_planner():
    """Fast Downward's optimal A* with h^max instead of LM-cut: both admissible, and
    h^max supports the conditional (and forall) effects that LM-cut refuses. Still run
    as a separate process by UP."""
    from up_fast_downward.fast_downward import FastDownwardOptimalPDDLPlanner

    class FastDownwardOptimalConditional(FastDownwardOptimalPDDLPlanner):
        def __init__(self):
            super().__init__()
            self._fd_search_config = "astar(hmax())"

        @property
        def name(self) -> str:
            return say("fd_conditional_planner")

        @staticmethod
        def supported_kind():
            kind = FastDownwardOptimalPDDLPlanner.supported_kind()
            kind.set_effects_kind("CONDITIONAL_EFFECTS")
            kind.set_effects_kind("FORALL_EFFECTS")
            return kind

        @staticmethod
        def supports(problem_kind) -> bool:
            return problem_kind <= FastDownwardOptimalConditional.supported_kind()

    return FastDownwardOptimalConditional()


class Engine:
    """UP problems and Fast Downward costs for one process, with caches."""

    def __init__(self, optimal: bool, fd_timeout: float = FD_TIMEOUT):
        quiet_up()
        self.optimal = optimal
        self.fd_timeout = fd_timeout
        self._domains: dict[str, Any] = {}
        self._costs: dict[tuple, int | None] = {}
        self._planner = None
        self._conditional_planner = None
        self.searches = 0  # optimal costs answered (rows count which engines answered)

    # -- problems -----------------------------------------------------------

    def domain(self, text: str):
        """The domain as a UP problem: read by UP's own PDDL reader, or, for a domain
        that reader refuses, built through UP's API from racbench's parsed model
        (translate.py); Unchecked if neither can be done."""
        key = hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
        dom = self._domains.get(key)
        if dom is None:
            dom = _read_domain(text)
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
                raise ValueError(say("unknown_type", name=name, type=typ))
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
        """A goal part as a UP expression (a disjunction as Or of Ands)."""
        from unified_planning.shortcuts import And, Not, Or

        alternatives = alternatives_of(item)
        if alternatives is not None:
            return Or(*(And(*(self.literal(prob, g) for g in alt)) for alt in alternatives))
        atom, positive = literal_of(item)
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
        alternatives = alternatives_of(item)
        if alternatives is not None:
            return any(all(self.holds(prob, state, g) for g in alt) for alt in alternatives)
        atom, positive = literal_of(item)
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
            raise Skip(say("no_fast_downward"))
        shape = "\n".join([*(str(a) for a in prob.actions), *(str(f) for f in prob.fluents),
                            *sorted(str(g) for g in prob.goals),
                            *sorted(f"{o.name} - {o.type}" for o in prob.all_objects)])
        key = (prob._racbench_key,  # type: ignore[attr-defined]
               hashlib.blake2b(shape.encode(), digest_size=16).digest(),
               frozenset(str(k) for k, v in prob.explicit_initial_values.items()
                         if v.is_true()))
        self.searches += 1
        if key in self._costs:
            return self._costs[key]
        from unified_planning.engines import PlanGenerationResultStatus as S
        from unified_planning.shortcuts import MinimizeSequentialPlanLength, OneshotPlanner

        task = prob.clone()
        task.clear_quality_metrics()
        task.add_quality_metric(MinimizeSequentialPlanLength())
        if self._planner is None:
            self._planner = _private_sas_file(OneshotPlanner(name=FD_ENGINE))
        planner = self._planner
        if not planner.supports(task.kind):  # conditional effects: LM-cut cannot
            if self._conditional_planner is None:
                self._conditional_planner = _private_sas_file(_conditional_planner())
            planner = self._conditional_planner
        result = planner.solve(task, timeout=self.fd_timeout)
        if result.status == S.SOLVED_OPTIMALLY:
            cost: int | None = len(result.plan.actions)
        elif result.status == S.UNSOLVABLE_PROVEN:
            cost = None
        elif result.status == S.TIMEOUT:
            raise Skip(say("fd_timeout"))
        else:
            raise Unchecked(say("fd_status", status=result.status.name))
        if len(self._costs) >= COST_CACHE:
            self._costs.clear()
        self._costs[key] = cost
        return cost
