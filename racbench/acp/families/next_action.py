"""Next action: is this applicable action the first step of some shortest plan?

States are at most MAX_DISTANCE actions from the problem's goal. bool: does a shortest
plan start with this action? Negatives are applicable actions that do not. mc: which
of four actions starts a shortest plan (exactly one does); the others are applicable
actions that do not, topped up where there are fewer than three with actions of the
same schemas that are not applicable. open: name an
action that starts a shortest plan (checked by search).
"""

from __future__ import annotations

from ...simulator.strips import analysis
from ..common import (Family, Question, Target, balanced_pick, choose_options, pddl_term,
                      problem_goal, render_action_question, state_at_goal_distance, term)
from ..scoring import SEARCH_BUDGET, score_one_action

MAX_DISTANCE = 12


def sample(world, rng, cfg, target: Target) -> Question | None:
    sid = state_at_goal_distance(world, rng, 1, MAX_DISTANCE)
    if sid is None:
        return None
    good = [k for k, _ in world.optimal_steps(sid)]
    bad = [k for k in world.applicable(sid) if k not in set(good)]
    q = Question(sid, goal=problem_goal(world))
    q.optimal_plan_length = int(world.goal_distance[sid])
    if target.form == "bool":
        k = balanced_pick(rng, good, bad, target.label, lambda k: world.task.actions[k].name)
        if k is None:
            return None
        q.subject, q.answer = term(world, k), target.label
    elif target.form == "mc":
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


FAMILY = Family("next_action", ("bool", "mc", "open"), sample, render, truth, score_open)
