"""Planning (TRAC's plan verification on any domain): does this sequence achieve a goal?

Goals are one or two literals that a random executable sequence of `length` actions
changes (made true, or made false), so they are reachable and not yet true. bool:
does the sequence execute and achieve the goal? Negatives, in equal shares, have one
inapplicable step, or execute but miss the goal. mc: which of four sequences achieves
it; the options are walks from four sampled states, each achieving its own state's
goal only, and the row shows one of those states and its goal (balance.py). open:
give a shortest plan for the goal (1.0 shortest, 0.5 longer, 0.0 invalid).
"""

from __future__ import annotations

from racbench.worlds.strips import analysis
from racbench.tasks.balance import Pool, sequence_pool
from racbench.tasks.base import (Family, Question, Target, any_state, assemble, base_context,
                      pddl_term, spoil, term, walk)
from racbench.tasks.scoring import score_plan
from racbench.tasks.text import template
from racbench.worlds.strips.world import literal_condition

KINDS = ("inapplicable step", "goal not reached")
WALK_TRIES = 8


def changed_goal(world, rng, sid: int, plan: list[int]) -> list[tuple[tuple, bool]] | None:
    start = world.states[sid]
    end = world.states[world.execute(sid, plan)[0]]
    atoms = world.task.atoms
    changed = [(atoms[i], bool(end >> i & 1)) for i in range(len(atoms))
               if (start ^ end) >> i & 1]
    if not changed:
        return None
    rng.shuffle(changed)
    return sorted(changed[:rng.choice((1, 2))])


def achieves(world, sid: int, plan: list[int], cond) -> bool:
    end, failed = world.execute(sid, plan)
    return failed is None and cond.holds(world.states[end])


def negative(world, rng, sid, plan, cond, kind: int) -> list[int] | None:
    if kind == 0:
        spoilt = spoil(world, rng, sid, plan)
        return None if spoilt is None else spoilt[0]
    for _ in range(WALK_TRIES):
        other = walk(world, rng, sid, len(plan))
        if other is not None and not achieves(world, sid, other, cond):
            return other
    return None


def situation(world, rng, cfg):
    """A state, a goal that a walk from it achieves, the walk and the goal's
    condition, with the goal's distance and a shortest plan in the question."""
    sid = any_state(world, rng)
    plan = walk(world, rng, sid, cfg.length)
    if plan is None:
        return None
    goal = changed_goal(world, rng, sid, plan)
    if goal is None:
        return None
    cond = literal_condition(world.task, goal)
    q = Question(sid, goal=goal)
    # the walk reaches the goal, so a shortest plan is at most `length` long
    q.optimal_plan_length, best = world.nearby_plan(sid, cond, cfg.length, rng)
    return q, plan, cond, best


def mc_pool(world, rng, cfg) -> Pool | None:
    found = situation(world, rng, cfg)
    if found is None:
        return None
    q, plan, cond, _ = found
    return sequence_pool(world, q, plan, lambda seq: achieves(world, q.sid, seq, cond))


def sample(world, rng, cfg, target: Target) -> Question | None:
    found = situation(world, rng, cfg)
    if found is None:
        return None
    q, plan, cond, best = found
    sid = q.sid
    if target.form == "bool":
        if not target.label:
            plan = negative(world, rng, sid, plan, cond, target.variant)
            if plan is None:
                return None
            q.meta["negative_kind"] = KINDS[target.variant]
        q.actions, q.answer = plan, target.label
    else:
        q.answer = [term(world, k) for k in best]
        q.answer_text = "\n".join(pddl_term(t) for t in q.answer)
    return q


def render(q, world, text, rng, form):
    t = template("planning")
    context = base_context(world, text, q, rng)
    if form == "mc":
        choices = [text.steps([tuple(a) for a in o]) for o in q.options]
        return context, assemble(text, form, str(t.mc()), choices), choices
    if form == "open":
        return context, assemble(text, form, str(t.open()), [],
                                 str(text.common.plan_instruction())), []
    steps = text.steps([tuple(term(world, k)) for k in q.actions])
    context = str(text.common.sequence_context(context, steps))
    return context, assemble(text, form, str(t.bool())), []


def truth(st, item) -> bool:
    plan = [st.action(t) for t in (item if item is not None else st.sym["actions"])]
    if any(k is None for k in plan) or st.goal is None:
        return False
    return analysis.validate_plan(st.task, st.state, plan, st.goal).valid


def score_open(st, answer: str) -> float:
    return score_plan(st, answer, st.goal)


FAMILY = Family("planning", ("bool", "mc", "open"), sample, render, truth, score_open,
                negative_kinds=KINDS, uses_actions=True, mc_pool=mc_pool)
