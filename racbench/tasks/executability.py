"""Executability: can this sequence of actions be executed from the current state?

bool: is the sequence executable? Negatives are random executable sequences with one
step swapped for an action of the same schema that is not applicable at that point.
mc: which of four sequences is executable; the options are walks from four sampled
states, each executable from its own state only, and the row shows one of those
states (balance.py), so every option reads like an executable sequence. open: the number of the first step that cannot be executed,
or none (the failing step, or none, drawn uniformly).
"""

from __future__ import annotations

from racbench.tasks.balance import Pool, sequence_pool
from racbench.tasks.base import (Family, Question, Target, any_state, ask_first_failure,
                      render_sequence_question, spoil, walk)
from racbench.tasks.scoring import score_numbers


def mc_pool(world, rng, cfg) -> Pool | None:
    """A state and a walk executable from it."""
    sid = any_state(world, rng)
    plan = walk(world, rng, sid, cfg.length)
    if plan is None:
        return None
    return sequence_pool(world, Question(sid), plan,
                         lambda seq: world.execute(sid, seq)[1] is None)


def sample(world, rng, cfg, target: Target) -> Question | None:
    sid = any_state(world, rng)
    plan = walk(world, rng, sid, cfg.length)
    if plan is None:
        return None
    q = Question(sid)
    if target.form == "bool":
        if not target.label:
            spoilt = spoil(world, rng, sid, plan)
            if spoilt is None:
                return None
            plan = spoilt[0]
        q.actions, q.answer = plan, target.label
    else:
        failing = rng.randrange(len(plan) + 1)  # len(plan): executable
        if failing < len(plan):
            for _ in range(8):
                spoilt = spoil(world, rng, sid, plan)
                if spoilt is not None and spoilt[1] == failing:
                    plan = spoilt[0]
                    break
            else:
                return None
        return ask_first_failure(q, world, plan)
    return q


def render(q, world, text, rng, form):
    return render_sequence_question(q, world, text, rng, form, "executability",
                                    text.common.sequence_context)


def first_failure(st, terms) -> int | None:
    state = st.state
    for i, t in enumerate(terms):
        k = st.action(t)
        if k is None or not st.task.actions[k].applicable(state):
            return i
        state = st.task.actions[k].apply(state)
    return None


def truth(st, item) -> bool:
    return first_failure(st, item if item is not None else st.sym["actions"]) is None


def score_open(st, answer: str) -> float:
    failed = first_failure(st, st.sym["actions"])
    return score_numbers(answer, [] if failed is None else [failed + 1])


FAMILY = Family("executability", ("bool", "mc", "open"), sample, render, truth, score_open,
                uses_actions=True, mc_pool=mc_pool)
