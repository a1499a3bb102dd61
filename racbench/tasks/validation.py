"""Validation: is this plan valid for the problem's goal, and where does it fail?

States are 1 to `length + 4` actions from the goal; plans are valid plans from
them, optimal or up to two actions longer, before any spoiling. bool: is the
plan valid (executable, goal reached)? Negatives are, in equal shares, the plan with
one step swapped for an inapplicable action of the same schema, and an executable
sequence sharing a prefix with a valid plan that misses the goal. mc: which of four
plans is valid; the options are valid plans from four sampled states, each valid from
its own state only, and the row shows one of those states (balance.py), so every
option reads like a valid plan. open: the number of the first step that cannot be
executed, or none.
"""

from __future__ import annotations

from dataclasses import replace

from racbench.worlds.strips import oracles
from racbench.tasks.balance import Pool, sequence_pool
from racbench.tasks.base import (Family, Question, Target, ask_first_failure, plan_of_length,
                      problem_goal, render_sequence_question, spoil,
                      walk)
from racbench.tasks.scoring import score_numbers
from racbench.tasks.executability import first_failure

KINDS = ("inapplicable step", "goal not reached")


def valid_plan(world, rng, length: int, slack=(0, 1, 2)) -> tuple[int, list[int]] | None:
    """A state 1 to `length + 4` actions from the goal and a valid plan from it, of
    its optimal length plus a slack drawn from `slack`."""
    sid = world.state_at_goal_distance(rng, 1, length + 4)
    if sid is None:
        return None
    plan = plan_of_length(world, rng, sid, world.distance(sid) + rng.choice(slack))
    return None if plan is None else (sid, plan)


def invalid_plan(world, rng, sid: int, plan: list[int], kind: int) -> list[int] | None:
    if kind == 0:
        spoilt = spoil(world, rng, sid, plan)
        return None if spoilt is None else spoilt[0]
    i = rng.randrange(len(plan))
    mid, _ = world.execute(sid, plan[:i])
    rest = walk(world, rng, mid, len(plan) - i)
    if rest is None:
        return None
    end, failed = world.execute(mid, rest)
    if failed is not None or world.at_goal(end):
        return None
    return plan[:i] + rest


def situation(world, rng, cfg) -> tuple[Question, list[int]] | None:
    """A question about a state near the goal, and a valid plan from it."""
    found = valid_plan(world, rng, cfg.length)
    if found is None:
        return None
    sid, plan = found
    q = Question(sid, goal=problem_goal(world))
    q.optimal_plan_length = world.distance(sid)
    return q, plan


def mc_pool(world, rng, cfg) -> Pool | None:
    found = situation(world, rng, cfg)
    if found is None:
        return None
    q, plan = found
    sid = q.sid

    def valid(seq: list[int]) -> bool:
        end, failed = world.execute(sid, seq)
        return failed is None and world.at_goal(end)

    return sequence_pool(world, q, plan, valid)


def bool_pool(world, rng, cfg, want: Target | None = None) -> Pool | None:
    """A valid plan from a state near the goal and, as negatives, the plan with one step
    swapped for an inapplicable action of its schema (inapplicable step), and a
    sequence sharing a prefix with it that executes but misses the goal (goal not
    reached). The question shows nothing of the plan, which the context holds."""
    found = situation(world, rng, cfg)
    if found is None:
        return None
    q, plan = found
    wanted = range(len(KINDS)) if want is None else [want.variant]
    negatives = [(bad, v) for v in wanted
                 for bad in [invalid_plan(world, rng, q.sid, plan, v)] if bad is not None]

    def question(item) -> Question:
        return replace(q, actions=list(item[0]), meta=dict(q.meta))

    return Pool(q, [(plan, None)], negatives, subject=lambda item: None, kind=lambda item: (),
                variant=lambda item: item[1], question_for=question)


def sample(world, rng, cfg, target: Target) -> Question | None:
    """Open rows: the first step that cannot be executed (half the plans are spoilt)."""
    found = situation(world, rng, cfg)
    if found is None:
        return None
    q, plan = found
    if rng.random() < 0.5:
        spoilt = spoil(world, rng, q.sid, plan)
        if spoilt is None:
            return None
        plan = spoilt[0]
    return ask_first_failure(q, world, plan)


def render(q, world, text, rng, form):
    return render_sequence_question(q, world, text, rng, form, "validation",
                                    text.common.plan_context)


def _plan(st, terms) -> list[int] | None:
    plan = [st.action(t) for t in terms]
    return None if any(k is None for k in plan) else plan


def truth(st, item) -> bool:
    plan = _plan(st, item if item is not None else st.sym["actions"])
    if plan is None or st.goal is None:
        return False
    return oracles.validate_plan(st.task, st.state, plan, st.goal).valid


def score_open(st, answer: str) -> float:
    failed = first_failure(st, st.sym["actions"])
    return score_numbers(answer, [] if failed is None else [failed + 1])


FAMILY = Family("validation", ("bool", "mc", "open"), sample, render, truth, score_open,
                negative_kinds=KINDS, uses_actions=True, bool_pool=bool_pool, mc_pool=mc_pool)
