"""Re-derivation per family: one checker per question family (racbench/tasks/*,
their `truth`), answering each row's claims with the engines.

``predicate(ctx, item)`` re-derives the family's answer about one candidate: the
subject of a bool row, or each option of an mc row (``item`` None: the row's own
actions or goal, for bool rows whose subject is the row's sequence).  bool rows must
agree with it, mc rows must have exactly their chosen option satisfy it.  Open rows
go to ``open(ctx, answer)``, which returns what is wrong with the stored answer (or
None).  Claims needing optimal costs call ``ctx.cost`` and are skipped without FD.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from racbench.checks.verify.engines import (Engine, alternatives_of, atom_text, literal_of,
                                            term_text)
from racbench.checks.verify.report import Claims, Skip, show_value
from racbench.checks.verify.words import say


def _row_label(row: dict) -> bool | None:
    """The row's label as a bool (None: no label, e.g. -1 on ACP mc/open rows)."""
    label = row.get("label")
    if isinstance(label, str):
        return {"true": True, "false": False}.get(label)
    if label is None or label < 0:
        return None
    return bool(label)



class RowView:
    """What every engine's context reads off the row itself: its actions and its goal."""

    sym: dict

    @property
    def actions(self) -> list[list[str]]:
        return [list(t) for t in self.sym.get("actions") or []]

    @property
    def goal(self) -> list[dict] | None:
        return self.sym.get("goal") or None


@dataclass
class AcpContext(RowView):
    """What an ACP family checker gets: the row, its symbolic JSON, the engine and the
    UP problem built from ``domain_pddl``/``objects``/``state``/``goal``."""

    engine: Engine
    row: dict
    sym: dict
    problem: Any

    @property
    def state(self):
        return self.engine.simulator(self.problem).get_initial_state()

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
            raise ValueError(say("no_goal", family=self.sym.get("family")))
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

    def applicable_actions(self) -> list[list[str]]:
        sim = self.engine.simulator(self.problem)
        return [[a.name, *(str(p) for p in params)]
                for a, params in sim.get_applicable_actions(sim.get_initial_state())]

    def cost_until_applicable(self, terms: Sequence[Sequence[str]]) -> int | None:
        """Length of a shortest plan after which all `terms` are applicable in one state
        (None: never), by Fast Downward on the fire task."""
        fire = self.engine.optimal_cost(_fire_task(self, terms))
        return None if fire is None else fire - 1

    def cost_without_adding(self, atom: Sequence[str]) -> int | None:
        """Optimal cost to the row's goal when no action may make `atom` true."""
        return self.engine.optimal_cost(_without_adders(self, atom))


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
    return {(tuple(literal_of(i)[0]), literal_of(i)[1]) for i in items}


def _set_difference(what: str, stored: Iterable, derived: Iterable) -> str | None:
    """`what` (a sentence of verify.j2) the answer misses or wrongly has."""
    stored, derived = set(stored), set(derived)
    if stored == derived:
        return None

    def shown(items: set) -> str | None:
        """The items as JSON, sorted; None for none."""
        if not items:
            return None
        return show_value([list(x) if isinstance(x, tuple) else x for x in sorted(items)])

    return say("answer_differs", what=what, missing=shown(derived - stored),
               extra=shown(stored - derived))


def _shortest_plan(ctx: AcpContext, plan: list, goal: Iterable[Any] | None,
                   what: str) -> str | None:
    """A stored plan must be valid for `goal` and as short as Fast Downward's."""
    if not ctx.valid(plan, goal):
        return say("plan_not_valid", what=what, plan=show_value(plan))
    best = ctx.cost(goal=goal)
    if best != len(plan):
        return say("plan_not_shortest", what=what, steps=len(plan), optimal=show_value(best))
    return _optimal_plan_length(ctx, best)


def _optimal_plan_length(ctx: AcpContext, best: int) -> str | None:
    """The row's optimal_plan_length against the length of an optimal plan found."""
    stored = ctx.row.get("optimal_plan_length")
    if stored is not None and stored != best:
        return say("differs", claim="optimal_plan_length", stored=show_value(stored),
                   derived=show_value(best), detail="")
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
    derived = {tuple(t) for t in ctx.applicable_actions()}
    return _set_difference(say("applicable_actions"), {tuple(t) for t in answer}, derived)


# -- progression: the row's one action, then a fact

def _one_step(ctx: AcpContext):
    if not ctx.actions:
        raise ValueError(say("no_action", family="progression"))
    return ctx.after(ctx.actions[:1])[0]


@acp_checker("progression")
def _progression(ctx: AcpContext, item: Any) -> bool:
    end = _one_step(ctx)
    return end is not None and ctx.holds(end, item)


@acp_open_checker("progression")
def _progression_open(ctx: AcpContext, answer: Any) -> str | None:
    end = _one_step(ctx)
    if end is None:
        return say("action_not_applicable", family="progression",
                   action=term_text(ctx.actions[0]))
    before, after = ctx.atoms(ctx.state), ctx.atoms(end)
    derived = {(a, True) for a in after - before} | {(a, False) for a in before - after}
    return _set_difference(say("changed_facts"), _literal_set(answer), derived)


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
    return _shortest_plan(ctx, answer, facts, say("shortest_plan_making", facts=[
        atom_text(literal_of(f)[0]) for f in facts]))


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
    return ctx.cost_until_applicable(terms) is not None


@acp_open_checker("action_reachability")
def _action_reachability_open(ctx: AcpContext, answer: Any) -> str | None:
    terms = _terms(ctx.sym["subject"])
    what = say("shortest_plan_to_apply", actions=[term_text(t) for t in terms])
    end, failed = ctx.after(answer)
    if end is None:
        return say("plan_fails_at", what=what, step=failed + 1)
    if not all(ctx.applicable(t, end) for t in terms):
        return say("plan_falls_short", what=what)
    best = ctx.cost_until_applicable(terms)
    if best != len(answer):
        return say("plan_not_shortest", what=what, steps=len(answer), optimal=show_value(best))
    return _optimal_plan_length(ctx, best)


# -- sequences: executability, projection, planning, validation

@acp_checker("executability")
def _executability(ctx: AcpContext, item: Any) -> bool:
    return ctx.after(item if item is not None else ctx.actions)[0] is not None


def _failure_open(family: str):
    def check(ctx: AcpContext, answer: Any) -> str | None:
        derived = _first_failure(ctx, ctx.actions)
        if answer != derived:
            return say("first_failure_differs", family=family, stored=show_value(answer),
                       derived=show_value(derived))
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
        return say("step_not_applicable", family="projection", step=failed + 1)
    pred = ctx.sym["subject"]
    derived = {a for a in ctx.atoms(end) if a[0] == pred}
    return _set_difference(say("true_facts", predicate=pred), {tuple(a) for a in answer},
                           derived)


def _plan_predicate(ctx: AcpContext, item: Any) -> bool:
    return ctx.valid(item if item is not None else ctx.actions)


def _plan_open(family: str):
    def check(ctx: AcpContext, answer: Any) -> str | None:
        return _shortest_plan(ctx, answer, None, say("shortest_plan", family=family))
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
        raise ValueError(say("no_goal", family="goal_recognition"))
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
        raise ValueError(say("step_out_of_range", step=i, steps=len(plan)))
    return ctx.valid(plan) and ctx.valid(plan[:i] + plan[i + 1:])


@acp_open_checker("justification")
def _justification_open(ctx: AcpContext, answer: Any) -> str | None:
    derived = {i + 1 for i in range(len(ctx.actions)) if _justification(ctx, i)}
    return _set_difference(say("removable_steps"), set(answer or []), derived)


# -- landmarks: a fact false now and not in the goal that every plan makes true

def _without_adders(ctx: AcpContext, atom: Sequence[str]):
    """The problem where no ground action may make `atom` true: every action with an
    effect on its predicate gets the precondition "the effect's arguments differ from
    the atom's" (ADL: "... or the effect's condition is false", for every binding of
    a forall effect's variables)."""
    from unified_planning.shortcuts import Equals, Forall, Not, Or

    target = ctx.engine.atom(ctx.problem, atom)
    task = _derived(ctx.problem)
    for act in task.actions:
        for eff in act.effects:
            if eff.fluent.fluent() != target.fluent() or eff.value.is_false():
                continue
            avoid = [Not(Equals(a, b)) for a, b in zip(eff.fluent.args, target.args)]
            if eff.is_conditional():
                avoid.append(Not(eff.condition))
            if not avoid:
                act.add_precondition(False)
                continue
            avoid = Or(*avoid)
            act.add_precondition(Forall(avoid, *eff.forall) if eff.is_forall() else avoid)
    return task


@acp_checker("landmarks")
def _landmark(ctx: AcpContext, item: Any) -> bool:
    """Every plan from the state makes the fact true: without the actions that add it
    the goal is unsolvable.  Facts true now or named by the goal are not asked about
    (the family answers False for them)."""
    atom = literal_of(item)[0]
    if not ctx.goal:
        raise ValueError(say("no_goal", family="landmarks"))
    if ctx.holds(ctx.state, atom) or any(literal_of(g)[0] == atom for g in ctx.goal
                                         if alternatives_of(g) is None):
        return False
    return ctx.cost_without_adding(atom) is None


@acp_open_checker("landmarks")
def _landmarks_open(ctx: AcpContext, answer: Any) -> str | None:
    wrong = [a for a in answer if not _landmark(ctx, a)]
    return say("not_a_landmark", fact=show_value(wrong[0])) if wrong else None


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
    derived = {tuple(t) for t in ctx.applicable_actions() if _next_action(ctx, t)}
    return _set_difference(say("optimal_first_actions"), {tuple(t) for t in answer}, derived)


def check_row(engine: Engine | None, row: dict, sym: dict, claims: Claims,
              context: "Callable[[dict, dict], Any] | None" = None) -> None:
    """Re-derive the row's claims into `claims`, on unified-planning's problem built by
    `engine`, or on the context `context(row, sym)` returns (fd_context.FdContext)."""
    family, form, answer = sym.get("family"), sym.get("form"), sym.get("answer")
    if row.get("family") not in (None, family):
        claims.fail("family", say("column_differs", column=row["family"], symbolic=family))
    if row.get("form") not in (None, form):
        claims.fail("form", say("column_differs", column=row["form"], symbolic=form))
    # The row's columns against its symbolic answer (racbench/tasks/rows.py).
    if form == "bool":
        if not isinstance(answer, bool):
            raise ValueError(say("bad_bool_answer", answer=repr(answer)))
        label = _row_label(row)
        if label is not None:
            claims.expect("answer", label, answer, say("label_vs_answer"))
        if row.get("answer") is not None:
            claims.expect("answer", row["answer"], show_value(answer), say("column", name="answer"))
    elif form == "mc":
        if isinstance(answer, bool) or not isinstance(answer, int) \
                or not 0 <= answer < len(sym.get("options") or []):
            raise ValueError(say("bad_mc_answer", answer=repr(answer),
                                 options=len(sym.get("options") or [])))
        if row.get("answer_index") is not None:
            claims.expect("answer", row["answer_index"], answer, say("column", name="answer_index"))
        if row.get("answer") is not None:
            claims.expect("answer", row["answer"], string.ascii_uppercase[answer],
                          say("column", name="answer"))
    elif form != "open":
        raise ValueError(say("unknown_form", form=repr(form)))
    checker = ACP_CHECKERS.get(family)
    check = None if checker is None else (checker.open if form == "open" else checker.predicate)
    if check is None:
        claims.skip("label", say("no_checker", form=form, family=family))
        return
    objects = sym["objects"]
    if not isinstance(objects, dict):
        raise ValueError(say("objects_not_typed"))
    if context is not None:
        ctx = context(row, sym)
    else:
        prob = engine.problem(sym["domain_pddl"], objects, sym["state"], sym.get("goal") or [])
        ctx = AcpContext(engine, row, sym, prob)
    _acp_optimal_plan_length(ctx, claims)
    if form == "bool":
        subject = sym.get("subject")
        derived = bool(check(ctx, subject))
        what = show_value(subject) if subject is not None or derived == answer else _sequence_text(ctx)
        claims.expect("label", answer, derived, say("family_of", family=family, subject=what))
    elif form == "mc":
        correct = [i for i, option in enumerate(sym["options"]) if check(ctx, option)]
        letters = [string.ascii_uppercase[i] for i in correct]
        claims.expect("label", string.ascii_uppercase[answer],
                      letters[0] if len(letters) == 1 else letters,
                      say("correct_options", family=family))
    else:
        problem = check(ctx, answer)
        if problem:
            claims.fail("label", problem)
        elif "label" not in claims.checked:
            claims.checked.append("label")


def _sequence_text(ctx: AcpContext) -> str:
    """The row's actions, and the first that is not applicable, for a mismatch message."""
    failed = ctx.after(ctx.actions)[1]
    return say("the_actions", actions=[term_text(t) for t in ctx.actions],
               failed=None if failed is None else failed + 1,
               failed_action=None if failed is None else term_text(ctx.actions[failed]))


def _acp_optimal_plan_length(ctx: AcpContext, claims: Claims) -> None:
    """optimal_plan_length, where the row carries the goal it is measured to."""
    stored = ctx.row.get("optimal_plan_length")
    if stored is None:
        return
    if not ctx.goal:
        if ctx.sym.get("form") != "open" or ctx.sym.get("family") not in (
                "reachability", "action_reachability"):  # those check it with the plan
            claims.skip("optimal_plan_length", say("goal_not_in_row"))
        return
    try:
        claims.expect("optimal_plan_length", stored, ctx.cost(),
                      say("fd_cost_to_goal"))
    except Skip as skip:
        claims.skip("optimal_plan_length", str(skip))
