"""Plan generation (open only): give a plan from the current state to the goal.

States are `length` to `length + 8` actions from the problem's goal (the distance
drawn uniformly among those present; closer states where the problem has none). Any
valid plan scores 0.5, a shortest one 1.0 (scoring.score_plan); the canonical answer
is one shortest plan.
"""

from __future__ import annotations

from racbench.tasks.base import (Family, Question, Target, assemble, base_context,
                                 family_template, pddl_term, problem_goal, term)
from racbench.tasks.scoring import score_plan


def sample(world, rng, cfg, target: Target) -> Question | None:
    sid = world.state_at_goal_distance(rng, cfg.length, cfg.length + 8)
    if sid is None:
        sid = world.state_at_goal_distance(rng, 1, cfg.length + 8)
    if sid is None:
        return None
    plan = world.optimal_plan(rng, sid)
    q = Question(sid, goal=problem_goal(world))
    q.optimal_plan_length = len(plan)
    q.answer = [term(world, k) for k in plan]
    q.answer_text = "\n".join(pddl_term(t) for t in q.answer)
    return q


def render(q, world, text, rng, form):
    t = family_template("plan_generation")
    return base_context(world, text, q, rng), assemble(
        text, form, str(t.open()), [], str(text.common.plan_instruction())), []


def score_open(st, answer: str) -> float:
    return score_plan(st, answer, st.goal)


FAMILY = Family("plan_generation", ("open",), sample, render, None, score_open)
