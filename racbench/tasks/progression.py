"""Progression: what holds, and what changes, after one action.

The action is part of the context. bool: after it, does this fact hold? mc: which of
four facts holds afterwards. Facts are drawn from those the world lets a question about
the action ask (`question_facts`: in STRIPS the predicates the action's effects touch,
in the science lab facts about what the context shows), so both answers need the
effects, and (the subject or the right option) before the state and action, among
facts that hold after some actions and not after others (see balance.Pool). open: list the facts that become true as (p ...) and those that
become false as (not (p ...)) (set equality).

With the config's `earlier_state` (the science lab), the context shows a state
`length - 1` commands before the one asked about and the commands typed since; the
row's actions are those commands and then the asked one, last, and its facts are those
of the predicates the asked command changes that the context's state lets a reader know.
"""

from __future__ import annotations

from racbench.worlds.strips import oracles
from racbench.worlds.strips.task import iter_bits
from racbench.tasks.balance import Pool
from racbench.tasks.base import (Family, Question, Target, any_state, assemble,
                                 base_context, family_template, pddl_literal, since_shown,
                                 term)
from racbench.tasks.scoring import score_literal_set


def _step(world, rng, cfg=None) -> tuple[Question, object, object] | None:
    """A random state, the commands typed since it (`since_shown`: none unless the
    config asks an earlier state) and an action applicable after them: the question
    (its actions those commands and the action, last), the state the action is
    applied in and the state after it."""
    sid = any_state(world, rng)
    found = since_shown(world, rng, cfg, sid)
    if found is None:
        return None
    since, at = found
    applicable = world.applicable(at)
    if not applicable:
        return None
    action = rng.choice(applicable)
    if since and not world.askable(sid, since + [action]):
        return None
    return Question(sid, actions=since + [action]), at, world.step(at, action)


def bool_pool(world, rng, cfg, want=None) -> Pool | None:
    """Facts that hold or not after the action (which the context shows), of those the
    world says a question about it may ask (in STRIPS, the predicates its effects touch;
    after commands typed since the state shown, of the predicates the action changes)."""
    found = _step(world, rng, cfg)
    if found is None:
        return None
    q, at, nxt = found
    after = world.facts(nxt)
    facts = world.question_facts(q.actions, [q.sid, nxt])
    if len(q.actions) > 1:
        changed = {f[0] for f in world.facts(at) ^ after}
        facts = [f for f in facts if f[0] in changed]
    return Pool(q, [f for f in facts if f in after], [f for f in facts if f not in after],
                subject=list)


def sample(world, rng, cfg, target: Target) -> Question | None:
    found = _step(world, rng)
    if found is None:
        return None
    q, _, _ = found
    sid, action = q.sid, q.actions[0]
    atoms = world.task.atoms
    added, deleted = oracles.progression(world.task, world.bits(sid), action)
    lits = [(atoms[i], True) for i in iter_bits(added)] + \
           [(atoms[i], False) for i in iter_bits(deleted)]
    q.answer = [{"atom": list(a), "positive": p} for a, p in lits]
    q.answer_text = "\n".join(pddl_literal(a, p) for a, p in lits) or "none"
    return q


def render(q, world, text, rng, form):
    """The action joins the context (as projection's sequence does), after the commands
    typed since the state shown if any; the question asks only about the fact, so it
    says nothing of the answer by itself."""
    t = family_template("progression")
    action = text.action(tuple(term(world, q.actions[-1])))
    since = q.actions[:-1]
    shown = base_context(world, text, q, rng, since)
    context = str(t.then_context(shown, action) if since else t.action_context(shown, action))
    if form == "bool":
        return context, assemble(text, form, str(t.bool(text.fact(tuple(q.subject))))), []
    if form == "mc":
        choices = [text.fact(tuple(o)) for o in q.options]
        return context, assemble(text, form, str(t.mc()), choices), choices
    return context, assemble(text, form, str(t.open()), [],
                             str(text.common.facts_instruction())), []


def _after(st) -> int | None:
    k = st.action(st.sym["actions"][0])
    if k is None or not st.task.actions[k].applicable(st.state):
        return None
    return st.task.actions[k].apply(st.state)


def truth(st, item) -> bool:
    after = _after(st)
    return after is not None and st.task.holds(after, tuple(item))


def score_open(st, answer: str) -> float:
    after = _after(st)
    if after is None:
        return 0.0
    k = st.action(st.sym["actions"][0])
    added, deleted = oracles.progression(st.task, st.state, k)
    atoms = st.task.atoms
    expected = [{"atom": atoms[i], "positive": True} for i in iter_bits(added)] + \
               [{"atom": atoms[i], "positive": False} for i in iter_bits(deleted)]
    return score_literal_set(st, answer, expected, atoms)


FAMILY = Family("progression", ("bool", "mc", "open"), sample, render, truth, score_open,
                uses_actions=True, bool_pool=bool_pool, mc_pool=bool_pool,
                worlds=("strips", "science", "rules"))
