"""Justification: can a step be dropped from a valid plan and the plan stay valid?

Plans are valid plans one or two actions longer than optimal, from states 1 to
`length + 4` actions from the goal, so they carry detours. A step is unjustified when the plan
without it alone is still valid (oracles.is_justified_step, mode "single"). Questions
and options name steps by number only (the plan is in the context), drawn before the
plan (balance.Pool). bool: can step i be removed? mc: which of four steps can be
removed (exactly one can). open: list every step that can be removed on its own (set
equality; none if there is none).
"""

from __future__ import annotations

from racbench.worlds.strips import oracles
from racbench.tasks.balance import Pool
from racbench.tasks.base import (Family, Question, Target, assemble, base_context,
                                 family_template, problem_goal, term)
from racbench.tasks.scoring import score_numbers
from racbench.tasks.validation import valid_plan


def removable(world, sid: int, plan: list[int]) -> list[int]:
    out = []
    for i in range(len(plan)):
        end, failed = world.execute(sid, plan[:i] + plan[i + 1:])
        if failed is None and world.at_goal(end):
            out.append(i)
    return out


def _detour_plan(world, rng, cfg) -> tuple[Question, list[int], list[int]] | None:
    """A valid plan with detours, the steps that can be dropped alone and the others."""
    found = valid_plan(world, rng, cfg.length, (1, 2))
    if found is None:
        return None
    sid, plan = found
    q = Question(sid, actions=plan, goal=problem_goal(world))
    q.optimal_plan_length = world.distance(sid)
    free = removable(world, sid, plan)
    return q, free, [i for i in range(len(plan)) if i not in free]


def bool_pool(world, rng, cfg, want=None) -> Pool | None:
    """Steps that can or cannot be dropped; the question shows only the step's
    number (the plan is in the context), so that is the kind."""
    found = _detour_plan(world, rng, cfg)
    if found is None:
        return None
    q, free, needed = found
    return Pool(q, free, needed)


def mc_pool(world, rng, cfg) -> Pool | None:
    """Steps that can or cannot be dropped, shown as their actions (a plan repeating
    an action is skipped): step numbers would show that the removable step of a
    detour plan is usually a late one."""
    pool = bool_pool(world, rng, cfg)
    if pool is None or len(set(pool.question.actions)) < len(pool.question.actions):
        return None
    pool.text = lambda i: term(world, pool.question.actions[i])
    return pool


def sample(world, rng, cfg, target: Target) -> Question | None:
    found = _detour_plan(world, rng, cfg)
    if found is None:
        return None
    q, free, needed = found
    q.answer = [i + 1 for i in free]
    q.answer_text = ", ".join(map(str, q.answer)) or "none"
    return q


def render(q, world, text, rng, form):
    t = family_template("justification")
    steps = text.steps([tuple(term(world, k)) for k in q.actions])
    context = str(text.common.plan_context(base_context(world, text, q, rng), steps))
    if form == "bool":
        return context, assemble(text, form, str(t.bool(q.subject + 1))), []
    if form == "mc":  # steps by their actions (unique in mc plans): numbers would tell
        choices = [text.action(tuple(term(world, q.actions[i]))) for i in q.options]
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
    return not oracles.is_justified_step(st.task, st.state, plan, st.goal, int(item))


def score_open(st, answer: str) -> float:
    plan = _plan(st)
    if plan is None or st.goal is None:
        return 0.0
    free = oracles.unnecessary_steps(st.task, st.state, plan, st.goal)
    return score_numbers(answer, [i + 1 for i in free])


FAMILY = Family("justification", ("bool", "mc", "open"), sample, render, truth, score_open,
                uses_actions=True, bool_pool=bool_pool, mc_pool=mc_pool)
