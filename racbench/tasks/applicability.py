"""Applicability: which actions can be executed in the current state?

bool: is this action applicable? Negatives are ground actions of a schema that has
applicable instances (so types and static facts fit), but whose fluent preconditions
fail; the row's cell fixes the action's schema and argument types before the label. mc: which of four actions (of one schema where possible) is applicable; each option
is applicable in one of four sampled states and not in the other three, and the row
shows one of those states (balance.py). open: list
every applicable action (set equality).
"""

from __future__ import annotations

from racbench.tasks.balance import Pool
from racbench.tasks.base import Family, Question, Target, any_state, render_action_question, term
from racbench.tasks.scoring import score_action_set


def mc_pool(world, rng, cfg) -> Pool | None:
    """A state, its applicable actions and the others."""
    sid = any_state(world, rng)
    applicable = world.applicable(sid)
    if not applicable:
        return None
    now = set(applicable)
    actions = world.task.actions
    return Pool(Question(sid), applicable, [k for k in range(len(actions)) if k not in now],
                subject=lambda k: term(world, k), key=lambda k: actions[k].term)


def bool_pool(world, rng, cfg, want=None) -> Pool | None:
    """A state's applicable actions, and actions like them that are not applicable there
    (see the world's `inapplicable`), that its context may name; the kind is what a
    sentence shows of the action."""
    sid = any_state(world, rng)
    applicable = [k for k in world.applicable(sid) if world.askable(sid, [k])]
    if not applicable:
        return None
    return Pool(Question(sid), applicable, world.inapplicable(sid),
                subject=lambda k: term(world, k), kind=world.action_kind)


def sample(world, rng, cfg, target: Target) -> Question | None:
    """Open rows: every applicable action."""
    sid = any_state(world, rng)
    applicable = world.applicable(sid)
    if not applicable:
        return None
    q = Question(sid)
    q.answer = [term(world, k) for k in applicable]
    q.answer_text = "\n".join("(" + " ".join(t) + ")" for t in q.answer)
    return q


def render(q, world, text, rng, form):
    return render_action_question(q, world, text, rng, form, "applicability",
                                  text.common.actions_instruction)


def truth(st, item) -> bool:
    k = st.action(item)
    return k is not None and st.task.actions[k].applicable(st.state)


def score_open(st, answer: str) -> float:
    expected = [a.term for a in st.task.actions if a.applicable(st.state)]
    return score_action_set(st, answer, expected)


FAMILY = Family("applicability", ("bool", "mc", "open"), sample, render, truth, score_open,
                bool_pool=bool_pool, mc_pool=mc_pool, worlds=("strips", "science", "rules"))
