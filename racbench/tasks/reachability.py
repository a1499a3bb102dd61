"""Reachability: can a fact (or two facts together) that is not true now become true?

bool and mc rows ask about single facts whose answer depends on the state: reachable
from some states where they are false and not from others (balance.Pool draws the
subject, or the right option, before the state). Problems whose states all reach each
other have no such fact (the answer would follow from the question alone: a ball in
two rooms, a truck in another city) and give no bool or mc rows. Open rows use single
facts where some fact can be unreachable and otherwise pairs of facts, each reachable
alone. bool: can it become true? mc: which of four can. open: give a shortest
sequence of actions after which it is true (1.0 shortest, 0.5 longer, 0.0 invalid).
"""

from __future__ import annotations

from racbench.worlds.strips import oracles
from racbench.tasks.balance import Pool
from racbench.tasks.base import (Family, Question, Target, any_state, pddl_term,
                      render_subject_question)
from racbench.tasks.scoring import SEARCH_BUDGET, score_plan
from racbench.worlds.strips.world import literal_condition


def single_candidates(world, sid: int, reachable: bool) -> list[list]:
    """Atoms false in `sid` that can (or can never) become true from it: both proven,
    so an implicit world leaves out the atoms its searches could not decide."""
    state = world.bits(sid)
    index = world.task.atom_index
    if reachable:
        reach = world.reachable_atoms(sid)
        return [[a] for i, a in enumerate(world.task.atoms)
                if not state >> i & 1 and reach >> i & 1]
    never = world.unreachable_atoms(sid)
    grounded = [[a] for i, a in enumerate(world.task.atoms) if never >> i & 1]
    if grounded:
        return grounded
    return [[a] for atoms in world.typed_atoms.values() for a in atoms if a not in index]


def pair_candidates(world, rng, sid: int, reachable: bool, count: int) -> list[list]:
    """Pairs of atoms, each reachable alone and not both true in `sid`, that can (or
    can never) hold together; pairs of one predicate first."""
    if not reachable and not world.explicit:
        return []  # an implicit world witnesses pairs together, it proves none apart
    together = world.together(sid)
    atoms, state = world.task.atoms, world.bits(sid)
    alone = [i for i in range(len(atoms)) if together[i, i]]
    out = []
    for _ in range(4 * count):
        if len(out) >= count or not alone:
            break
        i = rng.choice(alone)
        pool = [j for j in alone if j != i and together[i, j] == reachable
                and not (state >> i & 1 and state >> j & 1)]
        if pool:
            out.append(sorted([atoms[i], atoms[_closest(rng, atoms, i, pool)]]))
    return out


def _closest(rng, items, i: int, pool: list[int]) -> int:
    """A partner for item i: same predicate (schema) and a shared object if any, so
    that positives look like the negatives (which, being mutually exclusive, mostly
    share both), then same predicate, then any."""
    head, args = items[i][0], set(items[i][1:])
    same = [j for j in pool if items[j][0] == head]
    sharing = [j for j in same if args & set(items[j][1:])]
    return rng.choice(sharing or same or pool)


def candidates(world, rng, sid: int, reachable: bool, count: int = 1) -> list[list]:
    if world.has_unreachable_atoms:
        return single_candidates(world, sid, reachable)
    return pair_candidates(world, rng, sid, reachable, count)


def _json(atoms) -> list[list[str]]:
    return [list(a) for a in atoms]


def bool_pool(world, rng, cfg, want=None) -> Pool:
    """Single atoms false in a random state that can or can never become true."""
    sid = any_state(world, rng)
    return Pool(Question(sid), single_candidates(world, sid, True),
                single_candidates(world, sid, False), subject=_json)


def sample(world, rng, cfg, target: Target) -> Question | None:
    sid = any_state(world, rng)
    q = Question(sid)
    good = candidates(world, rng, sid, True)
    if not good:
        return None
    atoms = rng.choice(good)
    cond = literal_condition(world.task, [(a, True) for a in atoms])
    plan = world.optimal_plan(rng, sid, cond)
    q.subject = _json(atoms)
    q.optimal_plan_length = len(plan)
    q.answer = [list(world.task.actions[k].term) for k in plan]
    q.answer_text = "\n".join(pddl_term(t) for t in q.answer)
    return q


def _phrase(text, atoms) -> str:
    return text.conjunction([(tuple(a), True) for a in atoms])


def render(q, world, text, rng, form):
    return render_subject_question(q, world, text, rng, form, "reachability", _phrase)


def _condition(st, atoms):
    return st.condition([(tuple(a), True) for a in atoms])


def truth(st, item) -> bool:
    cond = _condition(st, item)
    if cond is None or cond.holds(st.state):
        return False
    return oracles.optimal_cost(st.task, st.state, cond, SEARCH_BUDGET) is not None


def score_open(st, answer: str) -> float:
    return score_plan(st, answer, _condition(st, st.sym["subject"]))


FAMILY = Family("reachability", ("bool", "mc", "open"), sample, render, truth, score_open,
                bool_pool=bool_pool, mc_pool=bool_pool)
