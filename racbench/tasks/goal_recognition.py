"""Goal recognition (TRAC's task on any domain): is an agent pursuing this goal optimally?

Goals are one or two literals changed by a random walk of `length` to `length + 2`
actions (reachable, not yet true). The observations are `length` actions. bool: are
they the start of some shortest plan for the goal? Negatives are executable
observations that are not. mc: for which of four goals are the observations the start
of a shortest plan (exactly one). No open form: many goals fit any observations.
"""

from __future__ import annotations

from racbench.worlds.strips import analysis
from racbench.tasks.base import (Family, Question, Target, any_state, assemble, base_context, choose_options,
                      term, walk)
from racbench.tasks.scoring import SEARCH_BUDGET
from racbench.tasks.text import template
from racbench.worlds.strips.world import literal_condition
from racbench.tasks.planning import changed_goal

WALK_TRIES = 8


def optimal_prefix(world, sid: int, obs: list[int], cond, bound: int) -> bool:
    """Exact when the goal is at most `bound` actions from `sid` (goals come from walks
    of at most that length): a farther end state cannot be on a shortest plan."""
    end, failed = world.execute(sid, obs)
    if failed is not None:
        return False
    here, _ = world.nearby_plan(sid, cond, bound)
    there, _ = world.nearby_plan(end, cond, bound)
    return here is not None and there is not None and there + len(obs) == here


def bound(cfg) -> int:
    return cfg.length + 2


def random_goal(world, rng, sid: int, length: int):
    plan = walk(world, rng, sid, length + rng.randrange(3))
    if plan is None:
        return None
    goal = changed_goal(world, rng, sid, plan)
    if goal is None:
        return None
    cond = literal_condition(world.task, goal)
    d, plan = world.nearby_plan(sid, cond, length + 2, rng)
    return (goal, cond, d, plan) if d else None


def sample(world, rng, cfg, target: Target) -> Question | None:
    sid = any_state(world, rng)
    found = random_goal(world, rng, sid, cfg.length)
    if found is None:
        return None
    goal, cond, d, plan = found
    if d < cfg.length:
        return None
    obs = plan[:cfg.length]
    if target.form == "bool":
        q = Question(sid, goal=goal)
        q.optimal_plan_length = d
        if not target.label:
            for _ in range(WALK_TRIES):
                other = walk(world, rng, sid, cfg.length)
                if other is not None and not optimal_prefix(world, sid, other, cond, bound(cfg)):
                    obs = other
                    break
            else:
                return None
        q.actions, q.answer = obs, target.label
        return q
    q = Question(sid, actions=obs)
    wrong = []
    for _ in range(3 * WALK_TRIES):
        other = random_goal(world, rng, sid, cfg.length)
        # as far from the state as the right goal may be, so distance tells nothing
        if other is not None and other[2] >= cfg.length and \
                not optimal_prefix(world, sid, obs, other[1], bound(cfg)):
            wrong.append([{"atom": list(a), "positive": p} for a, p in other[0]])
    q.options = choose_options(rng, [{"atom": list(a), "positive": p} for a, p in goal],
                               [_hashable(w) for w in wrong], target.index)
    if q.options is None:
        return None
    q.options = [_plain(o) for o in q.options]
    q.answer = target.index
    return q


def _hashable(goal: list[dict]) -> list:
    return [[list(l["atom"]), l["positive"]] for l in goal]


def _plain(goal) -> list[dict]:
    if goal and isinstance(goal[0], dict):
        return goal
    return [{"atom": list(a), "positive": p} for a, p in goal]


def render(q, world, text, rng, form):
    t = template("goal_recognition")
    steps = text.steps([tuple(term(world, k)) for k in q.actions])
    if form == "bool":
        q_goal, q.goal = q.goal, None
        context = base_context(world, text, q, rng)
        q.goal = q_goal
        context = str(t.observed(context, steps))
        return context, assemble(text, form, str(t.bool(text.conjunction(q.goal)))), []
    context = str(t.observed(base_context(world, text, q, rng), steps))
    choices = [text.conjunction([(tuple(l["atom"]), l["positive"]) for l in o])
               for o in q.options]
    return context, assemble(text, form, str(t.mc()), choices), choices


def _optimal_prefix(st, goal_literals) -> bool:
    cond = st.condition([(tuple(l["atom"]), l["positive"]) for l in goal_literals])
    plan = [st.action(x) for x in st.sym["actions"]]
    if cond is None or any(k is None for k in plan):
        return False
    check = analysis.validate_plan(st.task, st.state, plan, cond)
    if not check.executable:
        return False
    here = analysis.optimal_cost(st.task, st.state, cond, SEARCH_BUDGET)
    there = analysis.optimal_cost(st.task, check.final_state, cond, SEARCH_BUDGET)
    return here is not None and there is not None and there + len(plan) == here


def truth(st, item) -> bool:
    return _optimal_prefix(st, item if item is not None else st.sym["goal"])


FAMILY = Family("goal_recognition", ("bool", "mc"), sample, render, truth, None,
                uses_actions=True)
