"""Next action: is this applicable action the first step of some shortest plan?

States are at most MAX_DISTANCE actions from the problem's goal. bool: does a shortest
plan start with this action? Negatives are applicable actions that do not; only
actions that start a shortest plan from some states and not from others are asked
about, drawn before the label (see common.Pool). mc: which
of four actions starts a shortest plan (exactly one does); the others are applicable
actions that do not, topped up where there are fewer than three with actions of the
same schemas that are not applicable. open: name an
action that starts a shortest plan (checked by search).
"""

from __future__ import annotations

from ...simulator.strips import analysis
from ..common import (Family, Pool, Question, Target, choose_options, pddl_term, pick_bool,
                      problem_goal, render_action_question, state_at_goal_distance, term)
from ..scoring import SEARCH_BUDGET, score_one_action

MAX_DISTANCE = 12


def _near_goal(world, rng) -> tuple[Question, list[int], list[int]] | None:
    """A state near the goal, the actions starting a shortest plan and the other
    applicable actions."""
    sid = state_at_goal_distance(world, rng, 1, MAX_DISTANCE)
    if sid is None:
        return None
    good = [k for k, _ in world.optimal_steps(sid)]
    bad = [k for k in world.applicable(sid) if k not in set(good)]
    q = Question(sid, goal=problem_goal(world))
    q.optimal_plan_length = int(world.goal_distance[sid])
    return q, good, bad


def bool_pool(world, rng, cfg) -> Pool | None:
    """Applicable actions that do or do not start a shortest plan."""
    found = _near_goal(world, rng)
    if found is None:
        return None
    q, good, bad = found
    return Pool(q, good, bad, subject=lambda k: term(world, k))


def sample(world, rng, cfg, target: Target) -> Question | None:
    if target.form == "bool":
        return pick_bool(bool_pool, world, rng, cfg, target)
    found = _near_goal(world, rng)
    if found is None:
        return None
    q, good, bad = found
    sid = q.sid
    if target.form == "mc":
        # applicable detours first; where fewer than three exist (a corridor), actions
        # of the same schemas that are not applicable here (no plan starts with them)
        best = rng.choice(good)
        rng.shuffle(bad)
        bad.sort(key=lambda k: world.task.actions[k].name != world.task.actions[best].name)
        schemas = {world.task.actions[k].name for k in world.applicable(sid)}
        now = set(world.applicable(sid))
        later = [k for name in sorted(schemas) for k in world.actions_by_schema[name]
                 if k not in now]
        rng.shuffle(later)
        q.options = choose_options(rng, term(world, best),
                                   [term(world, k) for k in bad + later], target.index,
                                   ranked=True)
        if q.options is None:
            return None
        q.answer = target.index
    else:
        q.answer = [term(world, k) for k in good]
        q.answer_text = pddl_term(q.answer[0])
    return q


def render(q, world, text, rng, form):
    return render_action_question(q, world, text, rng, form, "next_action",
                                  text.common.action_instruction)


def _optimal_first(st, k: int) -> bool:
    return st.goal is not None and analysis.on_some_optimal_plan(st.task, st.state, st.goal, k,
                                                                  SEARCH_BUDGET)


def truth(st, item) -> bool:
    k = st.action(item)
    return k is not None and _optimal_first(st, k)


def score_open(st, answer: str) -> float:
    return score_one_action(st, answer, lambda k: _optimal_first(st, k))


FAMILY = Family("next_action", ("bool", "mc", "open"), sample, render, truth, score_open,
                bool_pool=bool_pool)
