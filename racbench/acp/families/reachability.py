"""Reachability: can a fact that is false now ever become true?

Subjects are well-typed atoms of predicates that actions change. Negatives are atoms
that some state of the problem makes true but none reachable from this one, and,
where there are none (reversible domains), well-typed atoms that no state makes true
(e.g. a truck at a location of another city). bool: can it become true? mc: which
of four can. open: give a shortest sequence of actions that makes a given fact true
(scored as a plan for that fact: 1.0 shortest, 0.5 longer, 0.0 invalid).
"""

from __future__ import annotations

from ...simulator.strips import analysis
from ..common import (Family, Question, Target, any_state, assemble, base_context,
                      choose_options, pddl_term)
from ..scoring import score_plan
from ..text import template


def candidates(world, sid: int, reachable: bool) -> list[tuple]:
    """Atoms false in `sid` that can (or can never) become true from it."""
    state = world.states[sid]
    reach = world.reachable_atoms(sid)
    index = world.task.atom_index
    if reachable:
        return [a for i, a in enumerate(world.task.atoms)
                if not state >> i & 1 and reach >> i & 1]
    grounded = [a for i, a in enumerate(world.task.atoms) if not reach >> i & 1]
    if grounded:
        return grounded
    return [a for atoms in world.typed_atoms.values() for a in atoms if a not in index]


def sample(world, rng, cfg, target: Target) -> Question | None:
    sid = any_state(world, rng)
    q = Question(sid)
    if target.form == "bool":
        pool = candidates(world, sid, target.label)
        if not pool:
            return None
        q.subject, q.answer = list(rng.choice(pool)), target.label
    elif target.form == "mc":
        good, bad = candidates(world, sid, True), candidates(world, sid, False)
        if not good:
            return None
        q.options = choose_options(rng, list(rng.choice(good)), [list(a) for a in bad],
                                   target.index, kind=lambda a: a[0])
        if q.options is None:
            return None
        q.answer = target.index
    else:
        good = candidates(world, sid, True)
        if not good:
            return None
        atom = rng.choice(good)
        cond = world.task.condition([_lit(atom)])
        plan = world.optimal_plan(rng, sid, cond)
        q.subject = list(atom)
        q.goal = [(tuple(atom), True)]
        q.optimal_plan_length = len(plan)
        q.answer = [list(world.task.actions[k].term) for k in plan]
        q.answer_text = "\n".join(pddl_term(t) for t in q.answer)
    return q


def _lit(atom):
    from ...simulator.strips.model import Literal
    return Literal(tuple(atom), True)


def render(q, world, text, rng, form):
    t = template("reachability")
    q_goal, q.goal = q.goal, None  # the fact is the question, not a goal in the context
    context = base_context(world, text, q, rng)
    q.goal = q_goal
    if form == "bool":
        return context, assemble(text, form, str(t.bool(text.fact(tuple(q.subject))))), []
    if form == "mc":
        choices = [text.fact(tuple(o)) for o in q.options]
        return context, assemble(text, form, str(t.mc()), choices), choices
    return context, assemble(text, form, str(t.open(text.fact(tuple(q.subject)))), [],
                             str(text.common.plan_instruction())), []


def truth(st, item) -> bool:
    i = st.atom(item)
    return i is not None and not st.state >> i & 1 and analysis.fact_reachable(st.task, st.state, i)


def score_open(st, answer: str) -> float:
    return score_plan(st, answer, st.condition([(tuple(st.sym["subject"]), True)]))


FAMILY = Family("reachability", ("bool", "mc", "open"), sample, render, truth, score_open)
