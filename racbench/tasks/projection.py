"""Projection: what holds after a sequence of actions?

A random executable sequence of `length` actions from a random state, in the context.
bool: do these literals (one, or two over different atoms: the config's query kinds;
of predicates the sequence's effects touch) all hold afterwards? The row's cell fixes
their polarities, predicates and argument types before the label (balance.py), so none
of them tells the label; a false pair has one or both literals false. mc: which of
four facts holds afterwards (the right fact drawn before the sequence, among facts true
after some sequences and false after others). open: list every fact of a given
predicate that holds afterwards (set equality). TRAC's style puts the literals as
sentences in the query and asks nothing more.
"""

from __future__ import annotations

from racbench.worlds.strips.task import iter_bits
from racbench.tasks.balance import Pool
from racbench.tasks.queries import QueryPool, sizes
from racbench.tasks.base import (Family, Question, Target, any_state, assemble,
                                 base_context, family_template, pddl_term, state_clauses,
                                 term, walk, walk_through)
from racbench.tasks.scoring import score_literal_set


def touched_atoms(world, plan: list[int]) -> list[int]:
    preds = {world.task.atoms[i][0] for k in plan
             for i in iter_bits(world.task.actions[k].add | world.task.actions[k].delete)}
    return [i for p in sorted(preds) for i in world.atoms_by_predicate.get(p, [])]


def _walk_end(world, rng, cfg) -> tuple[Question, list[int], list[int], list[int]] | None:
    """A random walk of `length` actions from a random state, the atoms of the
    predicates its effects touch, and those of them true and false at its end."""
    sid = any_state(world, rng)
    plan = walk(world, rng, sid, cfg.length)
    if plan is None:
        return None
    end = world.bits(world.execute(sid, plan)[0])
    cands = touched_atoms(world, plan)
    return (Question(sid, actions=plan), cands, [i for i in cands if end >> i & 1],
            [i for i in cands if not end >> i & 1])


def bool_pool(world, rng, cfg, want=None) -> Pool | None:
    """Queries of one or two literals that hold, or not, after a walk: literals over the
    facts the world says a question about the walk may ask (those of the predicates it
    changes)."""
    sid = any_state(world, rng)
    walked = walk_through(world, rng, sid, cfg.length)
    if walked is None:
        return None
    plan, end = walked[0], walked[1][-1]
    true_end = world.facts(end)
    universe = world.question_facts(plan, [sid, end])
    on = [f for f in universe if f in true_end]
    off = [f for f in universe if f not in true_end]
    holds = [(f, True) for f in on] + [(f, False) for f in off]
    fails = [(f, True) for f in off] + [(f, False) for f in on]
    return QueryPool(Question(sid, actions=plan), world, holds, fails, sizes(cfg))


def mc_pool(world, rng, cfg) -> Pool | None:
    """Facts (of predicates the walk touches) true and false after the walk."""
    found = _walk_end(world, rng, cfg)
    if found is None:
        return None
    q, _, true_end, false_end = found
    atoms = world.task.atoms
    return Pool(q, true_end, false_end, subject=lambda i: list(atoms[i]))


def sample(world, rng, cfg, target: Target) -> Question | None:
    found = _walk_end(world, rng, cfg)
    if found is None:
        return None
    q, cands, true_end, false_end = found
    atoms = world.task.atoms
    pred = atoms[rng.choice(cands)][0]
    q.subject = pred
    true_now = set(true_end)  # every atom of a touched predicate is a candidate
    q.answer = [list(atoms[i]) for i in world.atoms_by_predicate[pred] if i in true_now]
    q.answer_text = "\n".join(pddl_term(a) for a in q.answer) or "none"
    return q


def render(q, world, text, rng, form):
    steps = [tuple(term(world, k)) for k in q.actions]
    literals = ([(tuple(l["atom"]), l["positive"]) for l in q.subject] if form == "bool"
                else [])
    if text.style == "trac":
        t = family_template("projection", "trac")
        context = t.context(text.state(state_clauses(world, q.sid), rng),
                            " ".join(text.sentence(text.action(s)) for s in steps))
        return str(context), str(t.question([text.sentence(text.fact(a, p))
                                              for a, p in literals])), []
    t = family_template("projection")
    context = str(text.common.sequence_context(base_context(world, text, q, rng),
                                               text.steps(steps)))
    if form == "bool":
        return context, assemble(text, form, str(t.bool(text.conjunction(literals)))), []
    if form == "mc":
        choices = [text.fact(tuple(o)) for o in q.options]
        return context, assemble(text, form, str(t.mc()), choices), choices
    return context, assemble(text, form, str(t.open(q.subject)), [],
                             str(text.common.facts_instruction())), []


def end_state(st) -> int | None:
    state = st.state
    for t in st.sym["actions"]:
        k = st.action(t)
        if k is None or not st.task.actions[k].applicable(state):
            return None
        state = st.task.actions[k].apply(state)
    return state


def truth(st, item) -> bool:
    """A bool query (a list of literals) or an mc option (an atom) after the actions."""
    end = end_state(st)
    if end is None:
        return False
    if item and isinstance(item[0], dict):
        return all(st.holds(end, lit["atom"], lit["positive"]) for lit in item)
    return st.holds(end, item)


def score_open(st, answer: str) -> float:
    end = end_state(st)
    if end is None:
        return 0.0
    pred = st.sym["subject"]
    atoms = [a for a in st.task.atoms if a[0] == pred]
    atoms += [a for a in st.task.static_atoms if a[0] == pred]
    expected = [{"atom": a, "positive": True} for a in atoms if st.task.holds(end, a)]
    return score_literal_set(st, answer, expected, atoms)


FAMILY = Family("projection", ("bool", "mc", "open"), sample, render, truth, score_open,
                uses_actions=True, bool_pool=bool_pool, mc_pool=mc_pool, explicit=False, worlds=("strips", "science"),
                literal_queries=True)
