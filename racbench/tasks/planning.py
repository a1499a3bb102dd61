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

In the science lab the goal is the task itself (its description is in the context,
with what has been focused on so far): does the sequence run and complete the task
(ScienceWorld's full score)? The sequence is the last `length` commands of the oracle's
gold trajectory, or that suffix with one command swapped for another of its verb; the
state is the gold path's state before the suffix, one a few commands off it, or one a
step or two behind on it (a detour from an earlier step, the gold path then taken up
again). Each is labelled by running it in the simulator: positives
complete the task, negatives either cannot be carried out (a command the simulator does
not take at that point) or run and leave the task unfinished, in equal shares; the
verbs of the sequence, and whether its last command names a thing as the task
description does (and whether that is the thing it asks to create or grow), `lab_kind`,
are the row's cell. Only sequences the context can
support are asked (the lab's `askable`: typed in the shown room, naming what it shows
or, since the context shows the task, what the task names: a mix's product, a box in
the room the task names, that room, the fruit it asks to grow where it grew; and what
the location the task names holds, which the context then shows: the animals outside).
On a task decided by reading (use-thermometer; the inclined planes, whose readings are
the commands that timed each plane), only states whose past readings decide the answer
are shown, with those readings (the lab's `decided` and `readings`).
"""

from __future__ import annotations

from racbench.worlds.strips import oracles
from racbench.tasks.balance import Pool, sequence_pool
from racbench.tasks.base import (Family, Question, Target, any_state, assemble,
                                 base_context, family_template, pddl_term, state_clauses,
                                 term, walk, walk_through)
from racbench.tasks.executability import foreign_walk, schemas
from racbench.tasks.options import TRAC_DOMAIN
from racbench.tasks import walk_ends
from racbench.tasks.queries import Avoided, goal_kind, goals_between, kind_masks, sizes
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
    (not_executable). The kind is the goal's (given `want`, goals of its kind only).
    TRAC's configs construct theirs (`_trac_pool`)."""
    if cfg.domain == TRAC_DOMAIN:
        return _trac_pool(world, rng, cfg, want)
    sid = any_state(world, rng)
    walked = walk_through(world, rng, sid, cfg.length)
    if walked is None:
        return None
    plan, visited = walked
    start, end = world.bits(sid), world.bits(visited[-1])
    foreign = _foreign(world, rng, sid, plan)
    found = []
    wanted = want.cell[1] if want is not None else None
    for size in ([len(wanted)] if wanted is not None else sizes(cfg)):
        goal = goals_between(world, rng, start, end, size, wanted)
        if goal is not None:
            missed = _missed_goal(world, rng, plan, visited, size, goal, False)
            if missed is not None:  # every row needs both, whatever its label
                found.append((goal, missed))
    return _goal_pool(world, cfg, sid, plan, found, foreign)


WALK_TRIES = 4  # TRAC: walks from one state tried for goals of the wanted kind
FOREIGN_TRIES = 4  # TRAC: foreign walks tried for a not_executable negative
MISSED_TRIES = 64  # TRAC, tested walks: branching walks tried for the missed goal


def _trac_pool(world, rng, cfg, want: Target | None) -> Pool | None:
    """`bool_pool` for TRAC's configs, built to be used: a few walks from one state are
    tried until one achieves a goal of the wanted kind (and a branching walk one it
    misses), goals drawn among the literals that can make one (`goals_between`'s
    `exact`); a foreign walk is drawn only where a not_executable negative is wanted
    (or surveyed), and tried a few times for one. In a small world, a walk for a
    wanted kind is first tested against where walks of its length from the state can
    end (walk_ends.py): goals are drawn only for a walk that has both, and then found."""
    sid = any_state(world, rng)
    wanted = want.cell[1] if want is not None else None
    reach = None if wanted is None else walk_ends.ends(world, sid, cfg.length)
    masks = kind_masks(world) if reach is not None else None
    if reach is not None and not walk_ends.offers(world, masks, wanted, sid, cfg.length,
                                                  reach):
        return None  # no walk from here has both: another state
    start = world.bits(sid)
    for _ in range(WALK_TRIES):
        walked = walk_through(world, rng, sid, cfg.length)
        if walked is None:
            return None
        plan, visited = walked
        end = world.bits(visited[-1])
        if reach is not None and not (walk_ends.achieves(masks, wanted, start, end) and
                                      walk_ends.missable(masks, wanted, start, end, reach)):
            continue  # no goal of the kind, or none missed: the next walk
        found = []
        for size in ([len(wanted)] if wanted is not None else sizes(cfg)):
            goal = goals_between(world, rng, start, end, size, wanted, exact=True,
                                 certain=reach is not None)
            if goal is not None:
                missed = _missed_goal(world, rng, plan, visited, size, goal, True,
                                      masks if reach is not None else None)
                if missed is not None:
                    found.append((goal, missed))
        if found:
            break
    else:
        return None
    foreign = None
    if want is None or not want.label and KINDS[want.variant] == "not_executable":
        for _ in range(1 if want is None else FOREIGN_TRIES):
            foreign = _foreign(world, rng, sid, plan)
            if foreign is not None:
                break
    return _goal_pool(world, cfg, sid, plan, found, foreign)


def _foreign(world, rng, sid: int, plan: list[int]) -> list[int] | None:
    """A walk of `plan`'s schemas from another state that fails from `sid` and changes
    something where it runs (self-undoing sequences are never positives: those achieve
    something), or None."""
    foreign = foreign_walk(world, rng, sid, len(plan), schemas(world, plan))
    if foreign is None:
        return None
    other, other_start = foreign
    changes = world.bits(world.execute(other_start, other)[0]) != world.bits(other_start)
    return other if changes else None


def _missed_goal(world, rng, plan: list[int], visited: list[int], size: int, goal,
                 exact: bool, masks: dict | None = None):
    """A goal of `goal`'s kind that a walk sharing a prefix with `plan` achieves and
    `plan` misses (from `visited[0]`), or None after OTHER_WALKS walks. With `masks`
    (a tested walk, which has such a goal: `walk_ends.missable`), each branching walk's
    end is drawn from its law and tested first, goals drawn only for one that has it,
    up to MISSED_TRIES."""
    start, end, kind = world.bits(visited[0]), world.bits(visited[-1]), goal_kind(world, goal)
    avoid = Avoided((end,)) if exact else (end,)  # its masks worked out once for the walks
    if masks is not None:  # only the branching walk's end matters: drawn in one go
        for _ in range(MISSED_TRIES):
            split = rng.randrange(len(plan))
            other_end = walk_ends.walk_end(world, rng, visited[split], len(plan) - split)
            if walk_ends.achieves(masks, kind, start, other_end, end):
                return goals_between(world, rng, start, other_end, size, kind, avoid, exact,
                                     certain=True)
        return None
    for _ in range(OTHER_WALKS):
        split = rng.randrange(len(plan))
        other = walk_through(world, rng, visited[split], len(plan) - split)
        if other is not None:
            other_end = world.bits(other[1][-1])
            missed = goals_between(world, rng, start, other_end, size, kind, avoid, exact)
            if missed is not None:
                return missed
    return None


def _goal_pool(world, cfg, sid: int, plan: list[int], found: list, foreign) -> Pool | None:
    """The pool of (goal, missed goal) pairs found for `plan` from `sid`."""
    positives, negatives = [], []
    for goal, missed in found:
        positives.append((plan, goal))
        negatives.append((plan, missed, 1))
        if foreign is not None:
            negatives.append((foreign, missed, 0))
    if not positives:
        return None  # nothing to ask here (most draws)
    return Pool(Question(sid), positives, negatives, subject=lambda item: None,
                kind=lambda item: goal_kind(world, item[1]),
                variant=lambda item: item[2],
                question_for=lambda item: _question(world, sid, item[0], item[1], cfg))


SWAPS = 4  # lab: gold suffixes with one command swapped, tried per situation
BEHIND = 2  # lab: states up to this many gold steps before the suffix
# lab: where a question's state lies (its row's metadata `state_from`)
LAB_STATES = ("gold_path", "off_gold_path", "behind_on_gold_path")


def lab_situation(world, rng, length: int) -> tuple[tuple, list[str], str] | None:
    """A state on, off or behind the gold path before its last `length` commands, those
    commands (the gold suffix) and where the state lies (LAB_STATES)."""
    gold = world.gold()
    start = len(gold) - length
    if start < 0:
        return None
    way = rng.randrange(3)
    if way == 0:
        state = gold[:start]
    elif way == 1:
        state = world.off_gold(rng, start)
    else:
        state = gold[:max(0, start - rng.randint(1, BEHIND))]
    if not world.valid(state):
        return None  # the episode is over there (the task done or failed on the way)
    return state, list(gold[start:]), LAB_STATES[way]


def swapped(world, rng, state: tuple, suffix: list[str]) -> list[str] | None:
    """The suffix with one command swapped for another of its verb: half the time one
    the simulator takes where it is typed (or on the gold path there), which runs; half
    the time one it takes somewhere along the gold path, which mostly cannot run here."""
    k = rng.randrange(len(suffix))
    verb = world.action_kind(suffix[k])
    if rng.randrange(2):
        failed, _ = world.carry_out(state, suffix[:k])
        here = state + tuple(suffix[:k]) if failed is None else state
        gold = world.gold()
        there = gold[:len(gold) - len(suffix) + k]
        pool = world.valid(here) + world.valid(there)
    else:
        pool = gold_commands(world).get(verb, ())
    others = sorted({c for c in world.of_kind(pool, verb) if c != suffix[k]})
    return suffix[:k] + [rng.choice(others)] + suffix[k + 1:] if others else None


def gold_commands(world) -> dict[tuple, tuple[str, ...]]:
    """The commands the simulator takes somewhere along the gold path, by verb (once
    per variation)."""
    found = world.__dict__.get("_gold_commands")
    if found is None:
        gold, by_verb = world.gold(), {}
        for step in range(len(gold)):
            for command in world.valid(gold[:step]):
                by_verb.setdefault(world.action_kind(command), set()).add(command)
        found = world._gold_commands = {v: tuple(sorted(c)) for v, c in by_verb.items()}
    return found


def lab_pool(world, rng, cfg, want: Target | None = None) -> Pool | None:
    """Gold suffixes and swapped ones from a state near the gold path, that its context
    may name, labelled by running them: positives complete the task; negatives cannot
    be carried out (variant 0) or run and miss it (variant 1). The kind is the verbs."""
    found = lab_situation(world, rng, cfg.length)
    if found is None:
        return None
    state, suffix, where = found
    if not world.decided(state):  # a task decided by reading, not read yet on the way
        return None
    sequences = [suffix] + [swapped(world, rng, state, suffix) for _ in range(SWAPS)]
    positives, negatives = [], []
    for seq in dict.fromkeys(tuple(s) for s in sequences if s is not None):
        if not world.askable(state, seq, told=True):  # the context shows the task
            continue
        failed, complete = world.carry_out(state, seq)
        if failed is None and complete:
            positives.append((seq, 0))
        else:
            negatives.append((seq, 0 if failed is not None else 1))
    if not positives and not negatives:
        return None
    return Pool(Question(state), positives, negatives, subject=lambda item: None,
                kind=lambda item: lab_kind(world, item[0]), variant=lambda item: item[1],
                question_for=lambda item: Question(state, actions=list(item[0]),
                                                   meta={"state_from": where}))


def lab_kind(world, seq) -> tuple[str, ...]:
    """A lab sequence's kind: its verbs, and "told" where its last command names a
    thing as the task description does (focus on the salt water). Without it, a
    sequence ending on another thing (focus on the sodium chloride) is false whatever
    comes before, and one ending on the task's is mostly true: the last words would
    give the answer away. "made" in its place where that thing is the one the task asks
    to create, named only so (`made_names`): a tertiary paint's task also tells the
    secondary paint, focused on part-way ("focus on the green paint"), and a sequence
    ending on it is false whatever comes before, one ending on the green-blue paint not.
    "grown" likewise where it names the fruit the task asks to grow where it grew (focus
    on apple in flower pot 1): focusing on anything else is false whatever comes before,
    on the apple true where it has grown by then."""
    told = world.tells(seq[-1])
    return schemas(world, seq) + ((told,) if told else ())


def _question(world, sid: int, plan: list[int], goal, cfg) -> Question:
    q = Question(sid, actions=list(plan), goal=[(world.task.atoms[i], p) for i, p in goal])
    # TRAC's goals (a literal or two over five blocks) are read off the tables goal
    # recognition keeps (`drawn_plan`: the same distance, no random number drawn)
    cond = Condition.of(goal)
    if cfg.domain == TRAC_DOMAIN and walk_ends.small(world):
        q.optimal_plan_length = walk_ends.distance_within(world, sid, cond, cfg.length)
        return q  # small worlds: off the states near `sid` (the same distance)
    search = world.drawn_plan if cfg.domain == TRAC_DOMAIN else world.nearby_plan
    q.optimal_plan_length, _ = search(sid, cond, cfg.length)
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


def lab_context(world, text, q, rng, since=()) -> str:
    """A lab question's context: the task, what has been focused on, the readings taken
    on the way on a task decided by reading (`readings`), the state (with `since`, an
    earlier one and the commands typed since it)."""
    context = base_context(world, text, q, rng, since)
    readings = world.readings(q.sid)
    if readings:
        context = str(text.common.lab_readings(readings, context))
    return str(text.common.lab_task(world.task_description, world.focused(q.sid), context))


def _lab_shown(world, text, q, rng) -> str:
    """Planning's lab context: `lab_context`, and what the location the task names holds
    where the agent is elsewhere (`place_view`: the animals outside), which the
    sequence's last command may name."""
    context = lab_context(world, text, q, rng)
    place = world.place_view(q.sid)
    return str(text.common.lab_place(context, place[0])) if place else context


def render(q, world, text, rng, form):
    if world.goal == () and hasattr(world, "gold"):  # the science lab: the task is the goal
        t = family_template("planning")
        lab_rendered(q)
        steps = text.steps([tuple(term(world, k)) for k in q.actions])
        context = str(text.common.sequence_context(_lab_shown(world, text, q, rng), steps))
        return context, assemble(text, form, str(t.lab_bool())), []
    if text.style == "trac":
        t = family_template("planning", "trac")
        steps = [tuple(world.action_term(k)) for k in q.actions]
        return (str(t.context(text.state(state_clauses(world, q.sid), rng),
                              text.conjunction(q.goal))),
                str(t.question(" ".join([text.action_sentence(s) for s in steps]))), [])
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


def _bool_pool(world, rng, cfg, want: Target | None = None) -> Pool | None:
    """Each world's bool pool: the lab's (`lab_pool`) or STRIPS's (`bool_pool`)."""
    if hasattr(world, "gold"):
        return lab_pool(world, rng, cfg, want)
    return bool_pool(world, rng, cfg, want)


class SequenceGoalFamily(Family):
    """A family whose STRIPS goals are one or two literals (their kinds, tuples of
    literal kinds) and whose lab subjects are sequences of verbs towards the task: the
    latter are one subject each, whatever their length."""

    def arity(self, kind) -> int:
        return super().arity(kind) if kind and isinstance(kind[0], tuple) else 1


def lab_rendered(q) -> None:
    """A lab row has no query of literals: rows.py's query kind does not apply."""
    q.meta.pop("query_kind", None)


FAMILY = SequenceGoalFamily("planning", ("bool", "mc", "open"), sample, render, truth, score_open,
                negative_kinds=KINDS, uses_actions=True, bool_pool=_bool_pool, mc_pool=mc_pool,
                targeted=True, literal_queries=True, worlds=("strips", "science"))
