"""Applicability: which actions can be executed in the current state?

bool: is this action applicable? Negatives are ground actions of a schema that has
applicable instances (so types and static facts fit), but whose fluent preconditions
fail; the row's cell fixes the action's schema and argument types before the label. mc: which of four actions (of one schema where possible) is applicable; each option
is applicable in one of four sampled states and not in the other three, and the row
shows one of those states (balance.py). open: list
every applicable action (set equality).

With the config's `earlier_state` (the science lab), the context shows a state
`length - 1` commands before the one asked about and the commands typed since (the
row's actions): is the command applicable after them? Negatives are then commands valid
somewhere on the way and not after them, among them those the state shown allows.
"""

from __future__ import annotations

from racbench.tasks.balance import Pool
from racbench.tasks.base import (Family, Question, Target, any_state, assemble, base_context,
                                 family_template, render_action_question, since_shown, term)
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
    sentence shows of the action. With commands typed since the state shown
    (`since_shown`), the actions are asked after them, named as the state shown
    names them."""
    sid = any_state(world, rng)
    found = since_shown(world, rng, cfg, sid)
    if found is None:
        return None
    since, at = found
    applicable = [k for k in world.applicable(at) if world.askable(sid, since + [k])]
    if not applicable:
        return None
    refused = world.inapplicable(at)
    if since:
        refused = [k for k in refused if world.askable(sid, since + [k])]
    return Pool(Question(sid, actions=since), applicable, refused,
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
    """The question about the state shown or, after commands typed since it (the
    row's actions), about the state they lead to."""
    if q.actions and form == "bool":
        t = family_template("applicability")
        context = base_context(world, text, q, rng, q.actions)
        return context, assemble(text, form, str(t.bool_after(text.action(tuple(q.subject))))), []
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
