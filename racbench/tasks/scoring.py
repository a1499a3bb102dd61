"""Scoring open answers by simulation, set equality or search, on the row's own task.

Plans score 1.0 when valid and optimal (shortest), PARTIAL_PLAN_SCORE when valid but
longer than optimal, 0.0 otherwise (unparseable, inapplicable step, goal missed).
Sets (applicable actions, changed facts, removable steps) score 1.0 when equal to the
true set and 0.0 otherwise.
"""

from __future__ import annotations

from racbench.worlds.strips import oracles
from racbench.worlds.strips.task import Condition
from racbench.tasks.symbolic import SymbolicTask, normalized

PARTIAL_PLAN_SCORE = 0.5
# States a verifying search may store: the generators enumerate up to 200,000.
SEARCH_BUDGET = 1_000_000


def score_plan(st: SymbolicTask, answer: str,
               goal: "Condition | list[Condition] | None") -> float:
    """1 for a shortest plan to the goal, PARTIAL_PLAN_SCORE for a longer one, else 0.
    A list of conditions is a goal with alternatives: any one reached will do."""
    if goal is None:
        return 0.0
    goals = goal if isinstance(goal, list) else [goal]
    terms = st.parse_actions(answer)
    if terms is None:
        return 0.0
    plan = [st.action(t) for t in terms]
    if any(k is None for k in plan):
        return 0.0  # not a ground action of the problem: it can never be applied
    end, failed = st.task.execute(st.state, plan)
    if failed is not None or not any(g.holds(end) for g in goals):
        return 0.0
    costs = [oracles.optimal_cost(st.task, st.state, g, SEARCH_BUDGET) for g in goals]
    costs = [c for c in costs if c is not None]
    return 1.0 if costs and len(plan) <= min(costs) else PARTIAL_PLAN_SCORE


def score_action_set(st: SymbolicTask, answer: str, expected) -> float:
    terms = st.parse_actions(answer)
    if terms is None:
        return 0.0
    return float(set(terms) == {tuple(t) for t in expected})


def score_literal_set(st: SymbolicTask, answer: str, expected, candidates) -> float:
    lits = st.parse_literals(answer, candidates)
    if lits is None:
        return 0.0
    return float(set(lits) == {(tuple(e["atom"]), e["positive"]) for e in expected})


def score_one_action(st: SymbolicTask, answer: str, test) -> float:
    terms = st.parse_actions(answer)
    if not terms or len(terms) != 1:
        return 0.0
    k = st.action(terms[0])
    return float(k is not None and test(k))


def score_one_fact(st: SymbolicTask, answer: str, candidates, test) -> float:
    lits = st.parse_literals(answer, candidates)
    if not lits or len(lits) != 1 or not lits[0][1]:
        return 0.0
    return float(test(lits[0][0]))


def score_numbers(answer: str, expected: list[int]) -> float:
    """Step numbers (1-based) as a set; 'none' is the empty set."""
    text = normalized(answer)
    if text in ("none", "no step", "no steps", "nothing"):
        got: set[int] | None = set()
    else:
        parts = [p for p in text.replace(",", " ").replace(" and ", " ").split() if p != "step"]
        try:
            got = {int(p) for p in parts}
        except ValueError:
            got = None
    return float(got is not None and got == set(expected))
