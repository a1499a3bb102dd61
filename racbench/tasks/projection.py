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

from functools import lru_cache

from racbench.tasks.balance import Pool
from racbench.tasks.question import json_key
from racbench.tasks.queries import QueryPool, sizes
from racbench.tasks.base import (Family, Question, Target, any_state, assemble,
                                 base_context, family_template, pddl_term, state_clauses,
                                 walk_through)
from racbench.tasks.scoring import score_literal_set
from racbench.worlds.strips.task import iter_bits
from racbench.worlds.strips.world import StripsWorld


def _walk_facts(world, rng, cfg) -> tuple[Question, list[tuple], frozenset] | None:
    """A random walk of `length` actions from a random state, the facts the world says a
    question about it may ask (in STRIPS, those of the predicates its effects touch),
    and the facts true at its end."""
    sid = any_state(world, rng)
    walked = walk_through(world, rng, sid, cfg.length)
    if walked is None:
        return None
    plan, end = walked[0], walked[1][-1]
    return Question(sid, actions=plan), world.question_facts(plan, [sid, end]), world.facts(end)


def bool_pool(world, rng, cfg, want=None) -> Pool | None:
    """Queries of one or two literals that hold, or not, after a walk: literals over the
    facts a question about the walk may ask. They depend on the walk's end and the
    predicates its effects touch only: an enumerated STRIPS world's are kept by those
    (`_kept_queries`), with the groups its pools' draws make of them, as rows of a
    world end in the same few hundred states."""
    kept = _kept_queries(world)
    if kept is None:
        found = _walk_facts(world, rng, cfg)
        if found is None:
            return None
        return QueryPool(found[0], world, *_queries(*found[1:]), sizes(cfg))
    sid = any_state(world, rng)
    walked = walk_through(world, rng, sid, cfg.length)
    if walked is None:
        return None
    plan, end = walked[0], walked[1][-1]
    touched = kept[0]
    key = (end, frozenset().union(*[touched(k) for k in plan]))
    queries = kept[1].get(key)
    if queries is None:
        holds, fails = _queries(world.question_facts(plan, [sid, end]), world.facts(end))
        queries = kept[1][key] = (holds, fails, {})
    holds, fails, groups = queries  # the same lists, so the same groups
    return QueryPool(Question(sid, actions=plan), world, holds, fails, sizes(cfg),
                     groups=groups)


def _queries(universe: list, true_end: frozenset) -> tuple[list, list]:
    """(literals that hold at the walk's end, literals that do not), over `universe`."""
    on = [f for f in universe if f in true_end]
    off = [f for f in universe if f not in true_end]
    return ([(f, True) for f in on] + [(f, False) for f in off],
            [(f, True) for f in off] + [(f, False) for f in on])


QUERIES_KEPT = 65_536  # (end state, predicates touched) kept per world


def _kept_queries(world):
    """(action -> the predicates its effects touch, (end, predicates) -> (holds, fails,
    groups)) of an enumerated STRIPS world whose question facts are StripsWorld's (the
    facts of the predicates a walk touches, whatever its start); None for any other."""
    kept = world.__dict__.get("_projection_queries")
    if kept is not None:
        if len(kept[1]) >= QUERIES_KEPT:
            kept[1].clear()
        return kept
    if not (isinstance(world, StripsWorld) and world.explicit
            and type(world).question_facts is StripsWorld.question_facts
            and type(world).facts is StripsWorld.facts):
        return None
    actions, atoms = world.task.actions, world.task.atoms

    @lru_cache(maxsize=None)
    def touched(k: int) -> frozenset:
        return frozenset(atoms[i][0] for i in iter_bits(actions[k].touched))
    kept = world.__dict__["_projection_queries"] = (touched, {})
    return kept


def mc_pool(world, rng, cfg) -> Pool | None:
    """Facts a question about the walk may ask, true and false after it."""
    found = _walk_facts(world, rng, cfg)
    if found is None:
        return None
    q, universe, true_end = found
    return Pool(q, [f for f in universe if f in true_end],
                [f for f in universe if f not in true_end], subject=list, key=_fact_key)


@lru_cache(maxsize=65_536)
def _fact_key(fact: tuple):
    """A fact option's key, as `Pool.key_of` makes it (json_key of its list), kept: a
    survey keys every fact of each of its hundreds of draws."""
    return json_key(list(fact))


def sample(world, rng, cfg, target: Target) -> Question | None:
    found = _walk_facts(world, rng, cfg)
    if found is None:
        return None
    q, universe, true_end = found
    atoms = world.task.atoms
    pred = rng.choice(universe)[0]
    q.subject = pred
    q.answer = [list(atoms[i]) for i in world.atoms_by_predicate[pred] if atoms[i] in true_end]
    q.answer_text = "\n".join(pddl_term(a) for a in q.answer) or "none"
    return q


def render(q, world, text, rng, form):
    steps = [tuple(world.action_term(k)) for k in q.actions]
    literals = ([(tuple(l["atom"]), l["positive"]) for l in q.subject] if form == "bool"
                else [])
    if text.style == "trac":
        t = family_template("projection", "trac")
        context = t.context(text.state(state_clauses(world, q.sid), rng),
                            " ".join([text.action_sentence(s) for s in steps]))
        return str(context), str(t.question([text.fact_sentence(a, p)
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
                uses_actions=True, bool_pool=bool_pool, mc_pool=mc_pool, worlds=("strips", "science", "rules"),
                literal_queries=True)
