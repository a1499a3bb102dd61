"""Next action: is this applicable action the first step of some shortest plan?

States are at most MAX_DISTANCE actions from the problem's goal. bool and mc rows ask
only about actions that start a shortest plan from some states and not from others,
the subject (or right option) drawn before the state (balance.Pool); wrong options are
applicable actions that start no shortest plan. bool: does a shortest plan start with
this action? mc: which of four actions does (exactly one). open: name an action that
starts a shortest plan (checked by search).
"""

from __future__ import annotations

from racbench.worlds.strips import oracles
from racbench.tasks.balance import Pool
from racbench.tasks.base import (Family, Question, Target, pddl_term, problem_goal,
                      render_action_question, term)
from racbench.tasks.scoring import SEARCH_BUDGET, score_one_action

MAX_DISTANCE = 12


def _near_goal(world, rng) -> tuple[Question, list[int], list[int]] | None:
    """A state near the goal, the actions starting a shortest plan and the other
    applicable actions."""
    sid = world.state_at_goal_distance(rng, 1, MAX_DISTANCE)
    if sid is None:
        return None
    good = [k for k, _ in world.optimal_steps(sid)]
    bad = [k for k in world.applicable(sid) if k not in set(good)]
    q = Question(sid, goal=problem_goal(world))
    q.optimal_plan_length = world.distance(sid)
    return q, good, bad


def bool_pool(world, rng, cfg, want=None) -> Pool | None:
    """Applicable actions that do or do not start a shortest plan."""
    found = _near_goal(world, rng)
    if found is None:
        return None
    q, good, bad = found
    return Pool(q, good, bad, subject=lambda k: term(world, k))


def mc_pool(world, rng, cfg) -> Pool | None:
    """Actions that start a shortest plan, and as wrong options the other applicable
    actions and, for corridors with few of them, actions of the same schemas that are
    not applicable here (no plan starts with them)."""
    found = _near_goal(world, rng)
    if found is None:
        return None
    q, good, bad = found
    now = set(world.applicable(q.sid))
    schemas = sorted({world.task.actions[k].name for k in now})
    later = [k for name in schemas for k in world.actions_by_schema[name] if k not in now]
    return Pool(q, good, bad + later, subject=lambda k: term(world, k))


def sample(world, rng, cfg, target: Target) -> Question | None:
    found = _near_goal(world, rng)
    if found is None:
        return None
    q, good, _ = found
    q.answer = [term(world, k) for k in good]
    q.answer_text = pddl_term(q.answer[0])
    return q


def render(q, world, text, rng, form):
    return render_action_question(q, world, text, rng, form, "next_action",
                                  text.common.action_instruction)


def _optimal_first(st, k: int) -> bool:
    return st.goal is not None and oracles.on_some_optimal_plan(st.task, st.state, st.goal, k,
                                                                  SEARCH_BUDGET)


def truth(st, item) -> bool:
    k = st.action(item)
    return k is not None and _optimal_first(st, k)


def score_open(st, answer: str) -> float:
    return score_one_action(st, answer, lambda k: _optimal_first(st, k))


FAMILY = Family("next_action", ("bool", "mc", "open"), sample, render, truth, score_open,
                bool_pool=bool_pool, mc_pool=mc_pool)
