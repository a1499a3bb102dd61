"""Executability: can this sequence of actions be executed from the current state?

bool: is the sequence executable? Negatives are walks that another state can execute
(one or two moves away, or anywhere) and this one cannot, so each reads as a
consistent sequence and only the state tells it apart (in the science lab, walks from
the state that fail at a step drawn uniformly, by a command valid on the way there:
`failing_walk`); the row's cell fixes the
sequence's schemas before the label (balance.py), so they say nothing of it.
mc: which of four sequences is executable; the options are walks from four sampled
states, each executable from its own state only, and the row shows one of those
states (balance.py), so every option reads like an executable sequence. open: the
number of the first step that cannot be executed, or none (the failing step, or none,
drawn uniformly). TRAC's style puts the sequence as sentences in the query.
"""

from __future__ import annotations

from racbench.tasks.balance import Pool, sequence_pool
from racbench.tasks.base import (Family, Question, Target, any_state, ask_first_failure,
                                 family_template, render_sequence_question, spoil,
                                 state_clauses, walk, walk_through)
from racbench.tasks.scoring import score_numbers


def mc_pool(world, rng, cfg) -> Pool | None:
    """A state and a walk executable from it."""
    sid = any_state(world, rng)
    plan = walk(world, rng, sid, cfg.length)
    if plan is None:
        return None
    return sequence_pool(world, Question(sid), plan,
                         lambda seq: world.execute(sid, seq)[1] is None)


WALKS = 4  # bool: sequences of each label drawn per situation
NEARBY_SHARE = 0.5  # of foreign sequences, those from a state one or two moves away


def foreign_walk(world, rng, sid: int, length: int,
                 kinds: tuple[str, ...] | None = None) -> tuple[list[int], int] | None:
    """A walk of `length` (of the given schemas, if any) from a state near `sid` (half
    the time) or from anywhere, that cannot be executed from `sid`, and the state it
    runs from; None if the draw does not give one."""
    if rng.random() < NEARBY_SHARE:
        nearby = walk_through(world, rng, sid, rng.choice((1, 2)))
        if nearby is None:
            return None
        start = nearby[1][-1]
    else:
        start = any_state(world, rng)
    plan = walk(world, rng, start, length, kinds)
    if plan is None or world.execute(sid, plan)[1] is None:
        return None
    return plan, start


def earlier_walk(world, rng, sid, length: int, first: str,
                 kinds: tuple[str, ...] | None = None) -> list | None:
    """`first`, a command valid on the way to `sid` but not there (`inapplicable`), then
    a walk from the last state before `sid` that ran it; None if that walk meets a dead
    end."""
    back = max(n for n in range(len(sid)) if first in world.applicable(sid[:n]))
    rest = walk(world, rng, sid[:back] + (first,), length - 1, kinds and kinds[1:])
    return None if rest is None else [first] + rest


def failing_walk(world, rng, sid, length: int, kinds: tuple[str, ...] | None,
                 refused_here: list[str]) -> list | None:
    """The science lab's foreign walk: a walk from `sid` that fails at a step drawn
    uniformly, by a command valid earlier on the way there and not there (an
    `earlier_walk` from the state the steps before it reach), so a negative cannot be
    told from a positive by its first command alone. `refused_here`: `sid`'s such
    commands (of `kinds[0]`), computed once per pool. None at a dead end."""
    at = rng.randrange(length)
    if at == 0:
        here, prefix, refused = sid, [], refused_here
    else:
        walked = walk_through(world, rng, sid, at, kinds and kinds[:at])
        if walked is None:
            return None
        prefix, here = walked[0], walked[1][-1]
        refused = [c for c in world.inapplicable(here)
                   if kinds is None or world.action_kind(c)[0] == kinds[at]]
    if not refused:
        return None
    rest = earlier_walk(world, rng, here, length - at, rng.choice(refused),
                        kinds and kinds[at:])
    return None if rest is None else prefix + rest


def schemas(world, plan) -> tuple[str, ...]:
    """The kind of each step (its schema; a command's verb in the science lab)."""
    return tuple(world.action_kind(k)[0] for k in plan)


def bool_pool(world, rng, cfg, want: Target | None = None) -> Pool | None:
    """Walks from a state, and walks from other states it cannot execute, that its
    context may name; the kind is the sequence of schemas (given `want`, only sequences
    of its schemas and label)."""
    sid = any_state(world, rng)
    kinds = want.cell[1] if want is not None else None
    runs = foreign = []
    if want is None or want.label:
        runs = [walk(world, rng, sid, cfg.length, kinds) for _ in range(WALKS)]
    if (want is None or not want.label) and hasattr(world, "gold"):
        # the science lab: a walk from another state seldom names only what the context
        # shows and fails here (one in twenty-five, at 2-3 ms of simulator each); commands
        # valid on the way to a step and not there do, as applicability's negatives
        refused = [c for c in world.inapplicable(sid)
                   if kinds is None or world.action_kind(c)[0] == kinds[0]]
        foreign = [(failing_walk(world, rng, sid, cfg.length, kinds, refused), None)
                   for _ in range(WALKS)]
    elif want is None or not want.label:
        foreign = [foreign_walk(world, rng, sid, cfg.length, kinds) for _ in range(WALKS)]
    runs = [p for p in runs if p and world.askable(sid, p)]
    foreign = [f[0] for f in foreign if f and f[0] and world.askable(sid, f[0])]
    return Pool(Question(sid), runs, foreign,
                subject=lambda plan: None, kind=lambda plan: schemas(world, plan),
                question_for=lambda plan: Question(sid, actions=list(plan)))


def sample(world, rng, cfg, target: Target) -> Question | None:
    """Open rows: the first step that cannot be executed, or none (drawn uniformly)."""
    sid = any_state(world, rng)
    plan = walk(world, rng, sid, cfg.length)
    if plan is None:
        return None
    failing = rng.randrange(len(plan) + 1)  # len(plan): executable
    if failing < len(plan):
        for _ in range(8):
            spoilt = spoil(world, rng, sid, plan)
            if spoilt is not None and spoilt[1] == failing:
                plan = spoilt[0]
                break
        else:
            return None
    return ask_first_failure(Question(sid), world, plan)


def render(q, world, text, rng, form):
    if text.style == "trac":
        t = family_template("executability", "trac")
        steps = [tuple(world.action_term(k)) for k in q.actions]
        return (str(t.context(text.state(state_clauses(world, q.sid), rng))),
                str(t.question(" ".join([text.action_sentence(s) for s in steps]))), [])
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
                uses_actions=True, bool_pool=bool_pool, mc_pool=mc_pool,
                worlds=("strips", "science", "rules"), targeted=True)
