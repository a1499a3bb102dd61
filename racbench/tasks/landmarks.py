"""Landmarks: must every plan from the current state make this fact true?

Subjects are atoms false in the current state and not part of the goal (goal facts and
facts already true are landmarks trivially). A fact is a landmark when the goal cannot
be reached through states where it stays false. bool and mc rows ask only about facts
that are landmarks from some states and not from others, the subject (or right
option) drawn before the state (balance.Pool). bool: is it a landmark? mc: which of
four is. open: name one landmark (checked by search).
"""

from __future__ import annotations

from racbench.worlds.strips import oracles
from racbench.worlds.strips.model import Literal
from racbench.tasks.balance import Pool
from racbench.worlds.strips.budget import note_dropped
from racbench.tasks.base import (Family, Question, Target, assemble, base_context,
                                 family_template, pddl_term, problem_goal)
from racbench.tasks.scoring import SEARCH_BUDGET, score_one_fact

MAX_DISTANCE = 12
LANDMARK_BUDGET = 5_000  # implicit worlds: states one landmark search may visit
SPLITS_KEPT = 4_096  # implicit worlds: states whose landmarks are kept


def split_atoms(world, rng, sid: int) -> tuple[list[int], list[int]]:
    """(landmarks, non-landmarks) among the atoms false in `sid` and not in the goal;
    non-landmarks made true by a shortest plan first."""
    state = world.bits(sid)
    goal_atoms = {world.task.atom_index.get(tuple(l.atom)) for l in world.goal
                  if isinstance(l, Literal)}  # an alternative's atoms are asked about
    candidates = [i for i in range(len(world.task.atoms))
                  if not state >> i & 1 and i not in goal_atoms]
    if not world.explicit:
        return _split_by_search(world, sid, candidates)
    free = world.goal_avoiding(sid)
    lm, other = [], []
    for i in candidates:
        (other if free >> i & 1 else lm).append(i)
    touched = _touched(world, sid, world.optimal_plan(rng, sid) or [])
    other.sort(key=lambda i: not touched >> i & 1)
    return lm, other


def _touched(world, sid: int, plan: list[int]) -> int:
    """Atoms true in some state a plan passes through after `sid`."""
    touched = 0
    s = sid
    for k in plan:
        s = world.step(s, k)
        touched |= world.bits(s)
    return touched


def _split_by_search(world, sid: int, candidates: list[int]) -> tuple[list[int], list[int]]:
    """An implicit world's split: atoms a shortest plan never makes true are not
    landmarks (the plan is the witness); the atoms it does make true are settled
    together by `oracles.split_landmarks` (relaxed reachability and h^2 without each
    atom's achievers, backchaining from the goal, then bounded searches whose plans
    settle more than one atom), and left out if a search's budget runs out. Kept per state
    (draws near the goal meet the pool's states again and again), with the number
    left out, counted as dropped whenever the split is used, as if searched again."""
    kept = world.__dict__.setdefault("_landmark_splits", {})
    found = kept.get(sid)
    if found is None:
        if len(kept) >= SPLITS_KEPT:
            kept.clear()
        found = kept[sid] = _search_split(world, sid, candidates)
    lm, other, dropped = found
    for _ in range(dropped):
        note_dropped()
    return list(lm), list(other)


def _search_split(world, sid: int, candidates: list[int]) -> tuple[list[int], list[int], int]:
    # any shortest plan is a witness: the one breadth-first search finds first, which
    # drawing `sid` near the goal has usually found already
    touched = _touched(world, sid, world.optimal_plan(None, sid) or [])
    lm, other, undecided = oracles.split_landmarks(
        world.task, world.bits(sid), world.goal_condition,
        [i for i in candidates if touched >> i & 1], LANDMARK_BUDGET)
    # not asked about when undecided: dropped, never guessed
    return lm, other + [i for i in candidates if not touched >> i & 1], len(undecided)


def _near_goal(world, rng) -> tuple[Question, list[int], list[int]] | None:
    sid = world.state_at_goal_distance(rng, 1, MAX_DISTANCE)
    if sid is None:
        return None
    lm, other = split_atoms(world, rng, sid)
    q = Question(sid, goal=problem_goal(world))
    q.optimal_plan_length = world.distance(sid)
    return q, lm, other


def bool_pool(world, rng, cfg, want=None) -> Pool | None:
    """Landmarks and other facts of a state near the goal."""
    found = _near_goal(world, rng)
    if found is None:
        return None
    q, lm, other = found
    atoms = world.task.atoms
    return Pool(q, lm, other, subject=lambda i: list(atoms[i]))


def sample(world, rng, cfg, target: Target) -> Question | None:
    found = _near_goal(world, rng)
    if found is None:
        return None
    q, lm, other = found
    atoms = world.task.atoms
    if not lm:
        return None
    q.answer = [list(atoms[i]) for i in lm]
    q.answer_text = pddl_term(atoms[lm[0]])
    return q


def render(q, world, text, rng, form):
    t = family_template("landmarks")
    context = base_context(world, text, q, rng)
    if form == "bool":
        return context, assemble(text, form, str(t.bool(text.fact(tuple(q.subject))))), []
    if form == "mc":
        choices = [text.fact(tuple(o)) for o in q.options]
        return context, assemble(text, form, str(t.mc()), choices), choices
    return context, assemble(text, form, str(t.open()), [],
                             str(text.common.fact_instruction())), []


def _is_landmark(st, atom) -> bool:
    if st.goal is None or st.holds(st.state, atom):
        return False
    if any(tuple(g["atom"]) == tuple(atom) for g in st.sym.get("goal", []) if "atom" in g):
        return False
    i = st.atom(atom)
    if i is None:
        return False  # can never become true, so no plan makes it true
    return oracles.is_fact_landmark(st.task, st.state, st.goal, i, SEARCH_BUDGET)


def truth(st, item) -> bool:
    return _is_landmark(st, item)


def score_open(st, answer: str) -> float:
    return score_one_fact(st, answer, st.task.atoms, lambda a: _is_landmark(st, a))


FAMILY = Family("landmarks", ("bool", "mc", "open"), sample, render, truth, score_open,
                bool_pool=bool_pool, mc_pool=bool_pool)
