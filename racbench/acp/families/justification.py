"""Justification: can a step be dropped from a valid plan and the plan stay valid?

Plans are valid plans one or two actions longer than optimal, from states 1 to
`length + 4` actions from the goal, so they carry detours. A step is unjustified when the plan
without it alone is still valid (analysis.is_justified_step, mode "single"). bool: can
step i be removed? mc: which of four steps can be removed (exactly one can). open:
list every step that can be removed on its own (set equality; none if there is none).
"""

from __future__ import annotations

from ...simulator.strips import analysis
from ..common import (Family, Question, Target, assemble, balanced_pick, base_context,
                      choose_options, problem_goal, term)
from ..scoring import score_numbers
from ..text import template
from .validation import valid_plan


def removable(world, sid: int, plan: list[int]) -> list[int]:
    out = []
    for i in range(len(plan)):
        end, failed = world.execute(sid, plan[:i] + plan[i + 1:])
        if failed is None and world.goal_distance[end] == 0:
            out.append(i)
    return out


def sample(world, rng, cfg, target: Target) -> Question | None:
    found = valid_plan(world, rng, cfg.length, (1, 2))
    if found is None:
        return None
    sid, plan = found
    n = len(plan)
    q = Question(sid, actions=plan, goal=problem_goal(world))
    q.optimal_plan_length = int(world.goal_distance[sid])
    free = removable(world, sid, plan)
    needed = [i for i in range(n) if i not in free]
    if target.form == "bool":
        i = balanced_pick(rng, free, needed, target.label,
                          lambda i: world.task.actions[plan[i]].name)
        if i is None:
            return None
        q.subject, q.answer = i, target.label
    elif target.form == "mc":
        if not free:
            return None
        q.options = choose_options(rng, rng.choice(free), needed, target.index)
        if q.options is None:
            return None
        q.answer = target.index
    else:
        q.answer = [i + 1 for i in free]
        q.answer_text = ", ".join(map(str, q.answer)) or "none"
    return q


def render(q, world, text, rng, form):
    t = template("justification")
    steps = text.steps([tuple(term(world, k)) for k in q.actions])
    context = str(text.common.plan_context(base_context(world, text, q, rng), steps))
    if form == "bool":
        action = text.action(tuple(term(world, q.actions[q.subject])))
        return context, assemble(text, form, str(t.bool(q.subject + 1, action))), []
    if form == "mc":
        clauses = [text.action(tuple(term(world, k))) for k in q.actions]
        choices = [str(text.common.step_option(i + 1, clauses[i])) for i in q.options]
        return context, assemble(text, form, str(t.mc()), choices), choices
    return context, assemble(text, form, str(t.open()), [],
                             str(text.common.steps_instruction())), []


def _plan(st) -> list[int] | None:
    plan = [st.action(t) for t in st.sym["actions"]]
    return None if any(k is None for k in plan) else plan


def truth(st, item) -> bool:
    plan = _plan(st)
    if plan is None or st.goal is None:
        return False
    return not analysis.is_justified_step(st.task, st.state, plan, st.goal, int(item))


def score_open(st, answer: str) -> float:
    plan = _plan(st)
    if plan is None or st.goal is None:
        return 0.0
    free = analysis.unnecessary_steps(st.task, st.state, plan, st.goal)
    return score_numbers(answer, [i + 1 for i in free])


FAMILY = Family("justification", ("bool", "mc", "open"), sample, render, truth, score_open,
                uses_actions=True)
