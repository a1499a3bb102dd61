"""Planning (TRAC's plan verification on any domain): does this sequence achieve a goal?

Goals are one or two literals that a random executable sequence of `length` actions
achieves (they hold at its end and not at its start), so they are reachable and not yet
true. bool: does the sequence execute and achieve the goal? The goal's literals (their
polarities, predicates and argument types) are the row's cell. Every row's sequence
achieves some goal of that kind, and a walk sharing a prefix with it achieves one it
misses; negatives, in equal shares, pursue that missed goal with the sequence itself
(it executes but misses the goal) or with a walk of the same schemas from another state
that cannot be executed here. So positives and negatives share one distribution of
sequences (self-undoing ones once marked negatives). mc: which of four sequences achieves
it; the options are walks from four sampled states, each achieving its own state's
goal only, and the row shows one of those states and its goal (balance.py). open:
give a shortest plan for the goal (1.0 shortest, 0.5 longer, 0.0 invalid).
"""

from __future__ import annotations

from racbench.worlds.strips import oracles
from racbench.tasks.balance import Pool, sequence_pool
from racbench.tasks.base import (Family, Question, Target, any_state, assemble,
                                 base_context, family_template, pddl_term, state_clauses,
                                 term, walk, walk_through)
from racbench.tasks.executability import foreign_walk, schemas
from racbench.tasks.queries import goal_kind, goals_between, sizes
from racbench.tasks.scoring import score_plan
from racbench.worlds.strips.task import Condition
from racbench.worlds.strips.world import literal_condition

KINDS = ("not_executable", "misses_goal")
OTHER_WALKS = 4  # walks tried for a goal the sequence misses


def changed_goal(world, rng, sid: int, plan: list[int]) -> list[tuple[tuple, bool]] | None:
    start = world.bits(sid)
    end = world.bits(world.execute(sid, plan)[0])
    atoms = world.task.atoms
    changed = [(atoms[i], bool(end >> i & 1)) for i in range(len(atoms))
               if (start ^ end) >> i & 1]
    if not changed:
        return None
    rng.shuffle(changed)
    return sorted(changed[:rng.choice((1, 2))])


def achieves(world, sid: int, plan: list[int], cond) -> bool:
    end, failed = world.execute(sid, plan)
    return failed is None and cond.holds(world.bits(end))


def situation(world, rng, cfg):
    """A state, a goal that a walk from it achieves, the walk and the goal's
    condition, with the goal's distance and a shortest plan in the question."""
    sid = any_state(world, rng)
    plan = walk(world, rng, sid, cfg.length)
    if plan is None:
        return None
    goal = changed_goal(world, rng, sid, plan)
    if goal is None:
        return None
    cond = literal_condition(world.task, goal)
    q = Question(sid, goal=goal)
    # the walk reaches the goal, so a shortest plan is at most `length` long
    q.optimal_plan_length, best = world.nearby_plan(sid, cond, cfg.length, rng)
    return q, plan, cond, best


def mc_pool(world, rng, cfg) -> Pool | None:
    found = situation(world, rng, cfg)
    if found is None:
        return None
    q, plan, cond, _ = found
    return sequence_pool(world, q, plan, lambda seq: achieves(world, q.sid, seq, cond))


def bool_pool(world, rng, cfg, want: Target | None = None) -> Pool | None:
    """A walk, goals of each allowed size it achieves and goals a walk sharing a prefix
    achieves and it misses; negatives pursue a missed goal with the walk (misses_goal)
    or with a walk of the same schemas from another state that fails here
    (not_executable). The kind is the goal's (given `want`, goals of its kind only)."""
    sid = any_state(world, rng)
    walked = walk_through(world, rng, sid, cfg.length)
    if walked is None:
        return None
    plan, visited = walked
    start, end = world.bits(sid), world.bits(visited[-1])
    foreign = foreign_walk(world, rng, sid, len(plan), schemas(world, plan))
    if foreign is not None:
        other, other_start = foreign
        # self-undoing sequences are never positives (those achieve something)
        changes = world.bits(world.execute(other_start, other)[0]) != world.bits(other_start)
        foreign = other if changes else None
    positives, negatives = [], []
    wanted = want.cell[1] if want is not None else None
    for size in ([len(wanted)] if wanted is not None else sizes(cfg)):
        goal = goals_between(world, rng, start, end, size, wanted)
        if goal is None:
            continue
        kind, missed = goal_kind(world, goal), None
        for _ in range(OTHER_WALKS):
            split = rng.randrange(len(plan))
            other = walk_through(world, rng, visited[split], len(plan) - split)
            if other is not None:
                other_end = world.bits(other[1][-1])
                missed = goals_between(world, rng, start, other_end, size, kind, (end,))
                if missed is not None:
                    break
        if missed is None:
            continue  # every row needs both, whatever its label
        positives.append((plan, goal))
        negatives.append((plan, missed, 1))
        if foreign is not None:
            negatives.append((foreign, missed, 0))
    if not positives and not negatives:
        return None  # nothing to ask here (most draws)
    return Pool(Question(sid), positives, negatives, subject=lambda item: None,
                kind=lambda item: goal_kind(world, item[1]),
                variant=lambda item: item[2],
                question_for=lambda item: _question(world, sid, item[0], item[1], cfg))


def _question(world, sid: int, plan: list[int], goal, cfg) -> Question:
    q = Question(sid, actions=list(plan), goal=[(world.task.atoms[i], p) for i, p in goal])
    q.optimal_plan_length, _ = world.nearby_plan(sid, Condition.of(goal), cfg.length)
    return q


def sample(world, rng, cfg, target: Target) -> Question | None:
    """Open rows: a state, a goal a walk from it achieves, and a shortest plan."""
    found = situation(world, rng, cfg)
    if found is None:
        return None
    q, _, _, best = found
    q.answer = [term(world, k) for k in best]
    q.answer_text = "\n".join(pddl_term(t) for t in q.answer)
    return q


def render(q, world, text, rng, form):
    if text.style == "trac":
        t = family_template("planning", "trac")
        steps = [tuple(term(world, k)) for k in q.actions]
        return (str(t.context(text.state(state_clauses(world, q.sid), rng),
                              text.conjunction(q.goal))),
                str(t.question(" ".join(text.sentence(text.action(s)) for s in steps))), [])
    t = family_template("planning")
    context = base_context(world, text, q, rng)
    if form == "mc":
        choices = [text.steps([tuple(a) for a in o]) for o in q.options]
        return context, assemble(text, form, str(t.mc()), choices), choices
    if form == "open":
        return context, assemble(text, form, str(t.open()), [],
                                 str(text.common.plan_instruction())), []
    steps = text.steps([tuple(term(world, k)) for k in q.actions])
    context = str(text.common.sequence_context(context, steps))
    return context, assemble(text, form, str(t.bool())), []


def truth(st, item) -> bool:
    plan = [st.action(t) for t in (item if item is not None else st.sym["actions"])]
    if any(k is None for k in plan) or st.goal is None:
        return False
    return oracles.validate_plan(st.task, st.state, plan, st.goal).valid


def score_open(st, answer: str) -> float:
    return score_plan(st, answer, st.goal)


FAMILY = Family("planning", ("bool", "mc", "open"), sample, render, truth, score_open,
                negative_kinds=KINDS, uses_actions=True, bool_pool=bool_pool, mc_pool=mc_pool,
                targeted=True, literal_queries=True)
