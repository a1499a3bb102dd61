"""Action reachability: can an action (or two actions in the same state) that is not
applicable now become applicable?

bool and mc rows ask about single actions whose answer depends on the state: they can
become applicable from some states and not from others (balance.Pool draws the
subject, or the right option, before the state); problems whose states all reach
each other have none and give no bool or mc rows. Open rows use single actions where
some action can become impossible, or a well-typed action's static preconditions
never hold, and otherwise pairs of actions, each possible alone. bool: can it become
applicable? mc: which of four can. open: give a shortest sequence of actions after
which it is applicable (a plan for its preconditions).

An ADL action that keeps alternatives after grounding (it needs the key or the hammer)
becomes applicable when any one of them comes to hold: the question asks whether
some state reachable has the action applicable, and the open answer is a shortest
plan to any alternative (of the pair's alternatives taken together, for two actions).
"""

from __future__ import annotations

import random
from itertools import product

from racbench.worlds.strips import oracles
from racbench.worlds.strips.task import Condition
from racbench.tasks.balance import Pool
from racbench.tasks.base import (Family, Question, Target, any_state, family_template,
                                 pddl_term, render_subject_question, term)
from racbench.tasks.scoring import SEARCH_BUDGET, score_plan
from racbench.tasks.reachability import _closest

TYPED_TRIES = 60


def _typed_never(world, rng) -> list[list]:
    """Well-typed ground actions with distinct arguments that grounding ruled out."""
    found = []
    schemas = list(world.domain.actions)
    for _ in range(TYPED_TRIES):
        schema = rng.choice(schemas)
        args = []
        for _, types in schema.parameters:
            objs = world.objects_of_type(types)
            if not objs:
                break
            args.append(rng.choice(objs))
        if len(args) != len(schema.parameters) or len(set(args)) != len(args):
            continue
        t = (schema.name,) + tuple(args)
        if t not in world.task.action_index:
            found.append([list(t)])
    return found


def single_candidates(world, rng, sid: int, reachable: bool) -> list[list]:
    now = set(world.applicable(sid))
    n = len(world.task.actions)
    if reachable:
        reach = world.reachable_actions(sid)
        return [[term(world, k)] for k in range(n) if reach >> k & 1 and k not in now]
    never = world.unreachable_actions(sid)
    grounded = [[term(world, k)] for k in range(n) if never >> k & 1]
    return grounded or _typed_never(world, rng)


def pair_candidates(world, rng, sid: int, reachable: bool, count: int) -> list[list]:
    if not reachable and not world.explicit:
        return []  # an implicit world witnesses actions together, it proves none apart
    co = world.co_applicable(sid)
    now = set(world.applicable(sid))
    actions = world.task.actions
    alone = [k for k in range(len(actions)) if co[k, k]]
    out = []
    for _ in range(4 * count):
        if len(out) >= count or not alone:
            break
        a = rng.choice(alone)
        pool = [b for b in alone if b != a and co[a, b] == reachable
                and not (a in now and b in now)]
        if pool:
            terms = [x.term for x in actions]
            out.append(sorted([term(world, a), term(world, _closest(rng, terms, a, pool))]))
    return out


def single_mode(world) -> bool:
    """Single actions where some action can be or become impossible (cached)."""
    mode = world.__dict__.get("_acp_single_actions")
    if mode is None:
        mode = world.__dict__["_acp_single_actions"] = (
            world.has_unreachable_actions or bool(_typed_never(world, _Fixed())))
    return mode


class _Fixed:
    """A deterministic stand-in for rng.choice when only existence matters."""

    def __init__(self):
        self.i = 0

    def choice(self, seq):
        self.i += 1
        return seq[self.i % len(seq)]


def candidates(world, rng, sid: int, reachable: bool, count: int = 1) -> list[list]:
    if single_mode(world):
        return single_candidates(world, rng, sid, reachable)
    return pair_candidates(world, rng, sid, reachable, count)


def bool_pool(world, rng, cfg, want=None) -> Pool:
    """Single actions not applicable in a random state that can or can never become
    applicable."""
    sid = any_state(world, rng)
    return Pool(Question(sid), single_candidates(world, rng, sid, True),
                single_candidates(world, rng, sid, False))


def sample(world, rng, cfg, target: Target) -> Question | None:
    sid = any_state(world, rng)
    q = Question(sid)
    good = candidates(world, rng, sid, True)
    if not good:
        return None
    q.subject = rng.choice(good)
    ks = [world.task.action_index[tuple(t)] for t in q.subject]
    conds = _alternatives(world.task, ks)
    if len(conds) == 1:
        plan = world.optimal_plan(rng, sid, conds[0])
    else:  # the shortest plan to any alternative, the first alternative on a tie
        seed = rng.random()
        plans = [world.optimal_plan(random.Random(f"{seed} {i}"), sid, c)
                 for i, c in enumerate(conds)]
        plans = [p for p in plans if p is not None]
        if not plans:
            return None
        plan = min(plans, key=len)
    q.optimal_plan_length = len(plan)
    q.answer = [term(world, k) for k in plan]
    q.answer_text = "\n".join(pddl_term(t) for t in q.answer)
    return q


def _precondition(task, actions: list[int]) -> Condition:
    pos = neg = 0
    for k in actions:
        pos |= task.actions[k].pre
        neg |= task.actions[k].pre_neg
    return Condition(pos, neg)


def _alternatives(task, actions: list[int]) -> list[Condition]:
    """The conditions under which the actions are applicable together: one per
    combination of their alternatives (one, the conjunction of their preconditions,
    for actions without alternatives), contradictory ones left out."""
    if all(len(task.actions[k].clauses) == 1 for k in actions):
        cond = _precondition(task, actions)
        return [] if cond.pos & cond.neg else [cond]
    out = []
    for combo in product(*(task.actions[k].clauses for k in actions)):
        pos = neg = 0
        for p, n in combo:
            pos |= p
            neg |= n
        if not pos & neg and Condition(pos, neg) not in out:
            out.append(Condition(pos, neg))
    return out


def _phrase(text, terms) -> str:
    return str(family_template("action_reachability").together([text.action(tuple(t)) for t in terms]))


def render(q, world, text, rng, form):
    return render_subject_question(q, world, text, rng, form, "action_reachability", _phrase)


def _conditions(st, terms) -> list[Condition]:
    ks = [st.action(t) for t in terms]
    if any(k is None for k in ks):
        return []  # not grounded from this state: never applicable
    return _alternatives(st.task, ks)


def truth(st, item) -> bool:
    conds = _conditions(st, item)
    if not conds or any(c.holds(st.state) for c in conds):
        return False
    return any(oracles.optimal_cost(st.task, st.state, c, SEARCH_BUDGET) is not None
               for c in conds)


def score_open(st, answer: str) -> float:
    return score_plan(st, answer, _conditions(st, st.sym["subject"]) or None)


FAMILY = Family("action_reachability", ("bool", "mc", "open"), sample, render, truth,
                score_open, bool_pool=bool_pool, mc_pool=bool_pool)
