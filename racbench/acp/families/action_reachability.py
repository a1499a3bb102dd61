"""Action reachability: can an action that is not applicable now ever become applicable?

Negatives are ground actions applicable in some state of the problem but in none
reachable from this one, and, where there are none, well-typed actions whose static
preconditions fail (never applicable anywhere). bool: can it become applicable? mc:
which of four can. open: give a shortest sequence of actions after which a given
action is applicable (a plan for its preconditions).
"""

from __future__ import annotations

from ...simulator.strips import analysis
from ..common import (Family, Question, Target, any_state, assemble, base_context,
                      choose_options, pddl_term, term)
from ..scoring import score_plan
from ..text import template

TYPED_TRIES = 60


def _typed_never(world, rng, schema_pool) -> list[list[str]]:
    """Well-typed ground actions with distinct arguments that grounding ruled out."""
    found = []
    for _ in range(TYPED_TRIES):
        schema = rng.choice(schema_pool)
        args = []
        for _, types in schema.parameters:
            objs = world.objects_of_type(types)
            if not objs:
                break
            args.append(rng.choice(objs))
        if len(args) != len(schema.parameters) or len(set(args)) != len(args):
            continue
        t = (schema.name,) + tuple(args)
        if t not in world.task.action_index:
            found.append(list(t))
    return found


def candidates(world, rng, sid: int, reachable: bool) -> list[list[str]]:
    reach = world.reachable_actions(sid)
    now = set(world.applicable(sid))
    n = len(world.task.actions)
    if reachable:
        return [term(world, k) for k in range(n) if reach >> k & 1 and k not in now]
    grounded = [term(world, k) for k in range(n) if not reach >> k & 1]
    return grounded or _typed_never(world, rng, list(world.domain.actions))


def sample(world, rng, cfg, target: Target) -> Question | None:
    sid = any_state(world, rng)
    q = Question(sid)
    if target.form == "bool":
        pool = candidates(world, rng, sid, target.label)
        if not pool:
            return None
        q.subject, q.answer = rng.choice(pool), target.label
    elif target.form == "mc":
        good = candidates(world, rng, sid, True)
        if not good:
            return None
        q.options = choose_options(rng, rng.choice(good), candidates(world, rng, sid, False),
                                   target.index, kind=lambda t: t[0])
        if q.options is None:
            return None
        q.answer = target.index
    else:
        good = candidates(world, rng, sid, True)
        if not good:
            return None
        q.subject = rng.choice(good)
        a = world.task.actions[world.task.action_index[tuple(q.subject)]]
        from ...simulator.strips.task import Condition
        plan = world.optimal_plan(rng, sid, Condition(a.pre, a.pre_neg))
        q.optimal_plan_length = len(plan)
        q.answer = [term(world, k) for k in plan]
        q.answer_text = "\n".join(pddl_term(t) for t in q.answer)
    return q


def render(q, world, text, rng, form):
    t = template("action_reachability")
    context = base_context(world, text, q, rng)
    if form == "bool":
        return context, assemble(text, form, str(t.bool(text.action(tuple(q.subject))))), []
    if form == "mc":
        choices = [text.action(tuple(o)) for o in q.options]
        return context, assemble(text, form, str(t.mc()), choices), choices
    return context, assemble(text, form, str(t.open(text.action(tuple(q.subject)))), [],
                             str(text.common.plan_instruction())), []


def truth(st, item) -> bool:
    k = st.action(item)
    if k is None or st.task.actions[k].applicable(st.state):
        return False
    return analysis.action_reachable(st.task, st.state, k)


def score_open(st, answer: str) -> float:
    from ...simulator.strips.task import Condition
    k = st.action(st.sym["subject"])
    if k is None:
        return 0.0
    a = st.task.actions[k]
    return score_plan(st, answer, Condition(a.pre, a.pre_neg))


FAMILY = Family("action_reachability", ("bool", "mc", "open"), sample, render, truth,
                score_open)
