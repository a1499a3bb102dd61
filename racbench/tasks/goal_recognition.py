"""Goal recognition (TRAC's task on any domain): is an agent pursuing this goal optimally?

Goals are one or two literals that hold at the end of a random walk of `length` to
`length + 2` actions and not at its start (reachable, not yet true), at least `length`
actions away, so the length of the observations never rules a goal out by itself.
TRAC's bool configs and every mc config draw such goals at once (`_far_goal`'s
`exact`): among the literals that hold in no state nearer than `length`, at a state
`length` to `length + 2` actions away (small worlds, such as five blocks) or a random
walk's end (larger ones). The observations are `length` actions. bool: are they the
start of some shortest plan for the goal? The goal's literals are the row's cell.
Negatives, in equal shares, move towards the goal but not optimally ('suboptimal') or
make no progress ('no_progress').
mc: for which of four goals are the observations the start of a shortest plan (exactly
one); each goal at least `length` actions away, so distance tells nothing, drawn so by
construction on every domain (`far_goal`, `_far_goal`'s `exact`).
No open form: many goals fit any observations.

In the science lab the goal is the task, and the oracle says only where it can prove
a shortest solution: from states at most LAB_MAX_DISTANCE commands from completing the
task (near the end of the gold trajectory, on it or a few commands off it; for tasks
whose whole solution is that short, such as lifespan-longest-lived and
lifespan-shortest-lived with teleportAction, from the start), the distance being
proven exactly by a witness (the gold trajectory's last commands) and an exhaustive
search of every command the simulator takes (none completes it sooner). The
observations are `length` commands (1 or 2) that run: the first commands of the gold
suffix, or those with one swapped for another of their verb; the row asks whether
they begin a shortest solution, and configs of other lengths are refused. With the
config's `earlier_state` (the stream's levels), one command is observed, and the
context shows the state `length - 1` commands before it on the way there and the
commands typed since (the row's actions: those, then the observed; its subject: the
observed), which `racbench verify` replays first. On a task decided by reading, the
state shown is one whose past readings decide the answer, and the context shows them
(planning's `lab_context`).
"""

from __future__ import annotations

from racbench.splits.draws import below, pick, shuffle_draws
from racbench.worlds.strips import oracles
from racbench.tasks.balance import Pool
from racbench.tasks.base import (Question, Target, any_state, assemble,
                                 base_context, choose_options, family_template,
                                 state_clauses, term, typed_since, walk_through)
from racbench.tasks import walk_ends
from racbench.tasks.queries import Avoided, goal_kind, goals_between, kind_masks, sizes
from racbench.tasks.question import N_OPTIONS, json_key
from racbench.tasks.scoring import SEARCH_BUDGET
from racbench.tasks.symbolic import goal_from_json
from racbench.worlds.strips.task import Condition
from racbench.worlds.strips.world import SMALL_SPACE
from racbench.tasks.planning import (SequenceGoalFamily, lab_context,
                                     lab_rendered, swapped)
from racbench.tasks.executability import schemas
from racbench.tasks.options import LAB_MAX_DISTANCE, TRAC_DOMAIN

OPTION_DRAWS = 24  # mc: goals drawn at most for the three wrong options
KINDS = ("suboptimal", "no_progress")
GOAL_SLACK = 2  # goals lie up to `length + GOAL_SLACK` actions away
OBSERVATION_WALKS = 12  # bool: walks classified per goal as negative observations
SMALL_WALKS = 4  # ... times this many for one kind of negative, in TRAC's small worlds
SWEEP_FROM = 4  # ... for goals at least this far
GOAL_TRIES = 6  # walks tried for a goal far enough before another state


def optimal_prefix(world, end: int, here: int, obs: list[int], cond) -> bool:
    """Whether `obs`, which lead to `end`, begin a shortest plan for `cond` from a state
    `here` actions from it: `end` is `here - len(obs)` from it. Searched no deeper than
    that, and read off a distance table where a small world keeps one (`drawn_plan`)."""
    there, _ = world.drawn_plan(end, cond, here - len(obs))
    return there is not None and there + len(obs) == here


def far_goal(world, rng, sid: int, length: int):
    """An mc option: a goal of one or two literals drawn far enough by construction
    (`_far_goal`'s `exact`, as TRAC's bool rows draw theirs), as (literals, condition,
    distance, a shortest plan). Random walks' goals are mostly nearer than `length`
    (gripper at four actions, five blocks at three), too few for four options."""
    found = _far_goal(world, rng, sid, length, rng.choice((1, 2)), None, exact=True)
    return None if found is None else (sorted(found[0]), *found[1:4])


def bool_pool(world, rng, cfg, want: Target | None = None) -> Pool | None:
    """A state and, per allowed goal size (the wanted one only, given `want`), a goal at
    least `length` actions away: the start of a shortest plan for it, and walks that
    are not, classified as suboptimal (they bring the goal closer, just not by one
    action per step) or no_progress."""
    sid = any_state(world, rng)
    length, exact = cfg.length, cfg.domain == TRAC_DOMAIN
    positives, negatives = [], []
    kinds = {}  # the kind of each goal's literals (by identity), worked out once a goal
    for size in ([len(want.cell[1])] if want is not None else sizes(cfg)):
        found = _far_goal(world, rng, sid, length, size, want, exact)
        if found is None:
            continue
        literals, cond, total, plan, goal = found
        kinds[id(literals)] = goal_kind(world, goal)
        # listed whatever the answer wanted (a survey counts it: `negatives_first`)
        positives.append((plan[:length], literals, total, 0))
        if want is not None and want.label:
            continue
        # in a small world every state's distance to a far goal is read off one sweep
        # (nearer ones are cheaper to search), so a wanted kind of negative is looked
        # for in more walks before another state
        small = world.explicit and world.n_states <= SMALL_SPACE and total >= SWEEP_FROM
        more = SMALL_WALKS if exact and small and want is not None else 1
        # TRAC's small worlds read every distance off the goal's table (kept per goal)
        if exact and world.explicit and world.n_states <= SMALL_SPACE:
            small, dist = True, world.cond_distances(cond)
        else:
            dist = world.distances(cond, total - 1) if small else None
        searched = {}  # a walk's end -> its distance (walks from one state meet often)
        for _ in range(OBSERVATION_WALKS * more):
            walked = walk_through(world, rng, sid, length)
            if walked is None:
                break
            obs, end = walked[0], walked[1][-1]
            # a walk's end is at least total - length from the goal; only whether it is
            # exactly that, nearer than `total` or not is asked, so searching as deep as
            # total - 1 tells the same as as deep as `total` (its deepest layer, the dearest)
            if small:
                rest = int(dist[end])
                rest = None if rest < 0 else rest
            elif end in searched:
                rest = searched[end]
            else:
                rest = searched[end] = world.nearby_distance(end, cond, total - 1)
            if rest is not None and rest + length == total:
                continue  # the start of a shortest plan after all
            variant = 0 if rest is not None and rest < total else 1
            # every negative walked is listed (a survey's confirming draw counts the
            # other kind too), though a row picks the wanted kind only
            negatives.append((obs, literals, total, variant))
            if want is not None and want.variant == variant:
                break
    if not positives and not negatives:
        return None  # no goal far enough: nothing to ask here (most draws)
    return Pool(Question(sid), positives, negatives, subject=lambda item: None,
                kind=lambda item: kinds[id(item[1])], variant=lambda item: item[3],
                question_for=lambda item: Question(sid, actions=list(item[0]),
                                                   goal=item[1], optimal_plan_length=item[2]))


def _far_goal(world, rng, sid: int, length: int, size: int, want: Target | None,
              exact: bool = False):
    """A goal of `size` literals (of the wanted kind) that holds at the end of a walk of
    `length` to `length + GOAL_SLACK` actions, is not true now and is at least `length`
    actions away: (literals, condition, distance, a shortest plan, the literals as
    (atom index, truth) pairs); a few ends share one state before the caller draws
    another.

    `exact` (TRAC's bool configs, every mc option): the goal is drawn among the literals
    of the end state that hold in no state fewer than `length` actions away
    (`near_layers`), so it is far enough by construction; in a small world the end is a
    state drawn at `length` to `length + GOAL_SLACK` actions (the end of a walk that
    does not come back on itself),
    elsewhere the end of a random walk of that length. Otherwise (other suites' bool
    rows, which keep their bytes) goals at random walks' ends are drawn and refused."""
    start = world.bits(sid)
    small = exact and world.explicit and world.n_states <= SMALL_SPACE
    layers, near = near_layers(world, sid, length + GOAL_SLACK if small else length - 1,
                               length) if exact else (None, ())
    kind = want.cell[1] if want is not None else None
    # small worlds: an end is tested before a goal is drawn there (`walk_ends.far`)
    masks = kind_masks(world) if small and kind is not None else None
    nexts = None  # the bits of `sid`'s successors, listed for the first goal searched
    for _ in range(GOAL_TRIES):
        steps = length + below(rng, GOAL_SLACK + 1)
        if small:
            if not layers[steps]:
                continue
            end = pick(rng, layers[steps])
            if masks is not None and not walk_ends.far(masks, kind, start, end, near):
                continue
        else:
            walked = walk_through(world, rng, sid, steps)
            if walked is None:
                return None
            end = world.bits(walked[1][-1])
        goal = goals_between(world, rng, start, end, size, kind, near, exact)
        if goal is None:
            continue
        cond = Condition.of(goal)
        if not exact and length > 1:
            # a goal one action away is refused without a search: its search would
            # have shuffled `sid`'s moves and found it among them (the same draws made)
            if nexts is None:
                nexts = [world.bits(t) for t in world.succ(sid)[1]]
            if _one_step(cond, start, nexts):
                shuffle_draws(rng, len(nexts))
                continue
        total, plan = (world.drawn_plan if exact else world.nearby_plan)(
            sid, cond, length + GOAL_SLACK, rng)
        if total and total >= length:
            return [(world.task.atoms[i], p) for i, p in goal], cond, total, plan, goal
    return None


def _one_step(cond, start: int, nexts: list[int]) -> bool:
    """Whether `cond`, false at `start`, holds in one of its successors' bits `nexts`:
    what `nearby_plan` finds at depth 1."""
    pos, neg = cond.pos, cond.neg
    if start & pos == pos and not start & neg:
        return False  # (at depth 0: searched as before)
    for bits in nexts:
        if bits & pos == pos and not bits & neg:
            return True
    return False


NEAR_KEPT = 4096  # `near_layers` kept per small world


def near_layers(world, sid: int, radius: int, length: int) -> tuple[list[list[int]], Avoided]:
    """The bits of the states at 0, 1, ... `radius` actions from `sid` (a breadth-first
    search; layer 0 is `sid`'s) and those fewer than `length` away but `sid`, as the
    states a goal far enough must avoid; kept per state in small worlds, whose rows ask
    about the same few hundred states again and again."""
    small = world.explicit and world.n_states <= SMALL_SPACE
    kept = world.__dict__.setdefault("_near_layers", {}) if small else {}
    found = kept.get((sid, radius, length))
    if found is None:
        around = walk_ends.ball if small else walk_ends.layers
        layers = around(world, sid, radius)
        if world.explicit:  # (an implicit world's states are their bits: its fresh lists)
            layers = [[world.bits(t) for t in layer] for layer in layers]
        if len(kept) >= NEAR_KEPT:
            kept.clear()
        found = kept[(sid, radius, length)] = (
            layers, Avoided([bits for layer in layers[1:length] for bits in layer],
                            every_literal=small))
    return found


def sample(world, rng, cfg, target: Target) -> Question | None:
    """The right goal and wrong ones drawn alike (`far_goal`: at least `length` actions
    away, so distance tells nothing), wrong ones until three differ (at most
    OPTION_DRAWS draws)."""
    sid = any_state(world, rng)
    found = far_goal(world, rng, sid, cfg.length)
    if found is None:
        return None
    goal, _, _, plan = found  # at least `length` actions away (`_far_goal`)
    obs = plan[:cfg.length]
    end, _ = world.execute(sid, obs)
    q = Question(sid, actions=obs)
    wrong = {}  # distinct, in the order drawn (never the right goal: obs begin its plan)
    for _ in range(OPTION_DRAWS):
        other = far_goal(world, rng, sid, cfg.length)
        if other is not None and not optimal_prefix(world, end, other[2], obs, other[1]):
            wrong.setdefault(json_key([[list(a), p] for a, p in other[0]]), None)
            if len(wrong) == N_OPTIONS - 1:
                break
    q.options = choose_options(rng, [{"atom": list(a), "positive": p} for a, p in goal],
                               list(wrong), target.index)
    if q.options is None:
        return None
    q.options = [_plain(o) for o in q.options]
    q.answer = target.index
    return q


def _plain(goal) -> list[dict]:
    if goal and isinstance(goal[0], dict):
        return goal
    return [{"atom": list(a), "positive": p} for a, p in goal]


LAB_SWAPS = 2  # lab: observations with one command swapped, tried per state
DISTANCES_KEPT = 4096  # lab: proven distances remembered per variation


def lab_distance(world, state: tuple, witness) -> int | None:
    """The proven number of commands from `state` to completing the task, if at most
    LAB_MAX_DISTANCE: 0 if complete, 1 if some command completes it (every command the
    simulator takes is tried), 2 if none does and `witness` (two commands) does; None
    otherwise (farther, or not proven here: never guessed)."""
    known = world.__dict__.setdefault("_lab_distances", {})
    if (state, witness) not in known:
        if len(known) >= DISTANCES_KEPT:
            known.clear()
        if world.carry_out(state, ())[1]:
            known[(state, witness)] = 0
        elif world.completes_in_one(state):
            known[(state, witness)] = 1
        else:
            known[(state, witness)] = 2 if world.carry_out(state, witness)[1] else None
    return known[(state, witness)]


def lab_pool(world, rng, cfg, want: Target | None = None) -> Pool | None:
    """A state within LAB_MAX_DISTANCE commands of completing the task (on the gold path
    or a few commands off it), and observations that run from it, that its context may
    name: positives begin a shortest solution; negatives bring the task closer, just not
    by one command per step (suboptimal), or do not (no_progress). The kind is the verbs
    of the observations. With the config's `earlier_state`, one command is observed and
    the context shows the state `length - 1` commands before it on the way there (the
    row's actions: those commands, then the observed one; its subject: the observed)."""
    since = typed_since(cfg)
    gold, length = world.gold(), cfg.length - since
    start = len(gold) - rng.randint(length, LAB_MAX_DISTANCE)
    if start < 0:
        return None
    state = world.off_gold(rng, start) if rng.randrange(2) else gold[:start]
    if not world.valid(state) or len(state) < since:
        return None
    # with commands typed since the state shown (`earlier_state`), the context shows the
    # state that many commands back on the way to `state`, and those commands
    shown, typed = state[:len(state) - since], list(state[len(state) - since:])
    if not world.decided(shown):  # a task decided by reading, not read by the state shown
        return None
    total = lab_distance(world, state, gold[-LAB_MAX_DISTANCE:])
    if total is None or total < length:
        return None
    suffix = list(gold[start:])
    observed = [suffix] + [swapped(world, rng, state, suffix) for _ in range(LAB_SWAPS)]
    positives, negatives = [], []
    for obs in dict.fromkeys(tuple(o[:length]) for o in observed if o is not None):
        failed, done = world.carry_out(state, obs)
        if failed is not None or not world.askable(shown, typed + list(obs)):
            continue
        # 0, 1 or None (at least 2); from a state one command from done, 1 and None say
        # the same (not done by the observations, and no nearer than before), so the
        # command that would complete it is not looked for (a try of every command)
        rest = 0 if done else None if total <= 1 else lab_distance(world, state + obs, ())
        if rest is not None and rest + length == total:
            positives.append((obs, 0))
        else:
            negatives.append((obs, 0 if rest is not None and rest < total else 1))
    if not positives and not negatives:
        return None
    # the subject: the observed commands where commands typed since come before them
    return Pool(Question(shown), positives, negatives,
                subject=lambda item: [[c] for c in item[0]] if typed else None,
                kind=lambda item: schemas(world, item[0]), variant=lambda item: item[1],
                question_for=lambda item: Question(shown, actions=typed + list(item[0]),
                                                   optimal_plan_length=total))


def _bool_pool(world, rng, cfg, want: Target | None = None) -> Pool | None:
    """Each world's bool pool: the lab's (`lab_pool`) or STRIPS's (`bool_pool`)."""
    if hasattr(world, "gold"):
        return lab_pool(world, rng, cfg, want)
    return bool_pool(world, rng, cfg, want)


# a draw for a negative finds a far goal (a positive) first; one for a positive walks
# no further: a survey confirms a kind's negatives first (balance._survey_cells)
_bool_pool.negatives_first = True  # (the lab's surveys, dear, keep their order)


def render(q, world, text, rng, form):
    if world.goal == () and hasattr(world, "gold"):  # the science lab: the task is the goal
        t = family_template("goal_recognition")
        lab_rendered(q)
        observed = len(q.subject) if q.subject else len(q.actions)
        since = q.actions[:len(q.actions) - observed]
        steps = text.steps([tuple(term(world, k)) for k in q.actions[len(since):]])
        if since:  # after the commands typed since the state shown
            context = str(t.lab_observed_then(lab_context(world, text, q, rng, since), steps))
            return context, assemble(text, form, str(t.lab_bool_after())), []
        context = str(t.lab_observed(lab_context(world, text, q, rng), steps))
        return context, assemble(text, form, str(t.lab_bool())), []
    if text.style == "trac":
        t = family_template("goal_recognition", "trac")
        actions = [tuple(world.action_term(k)) for k in q.actions]
        return (str(t.context(text.state(state_clauses(world, q.sid), rng),
                              " ".join([text.action_sentence(a) for a in actions]))),
                str(t.question(text.sentence(text.conjunction(q.goal)))), [])
    t = family_template("goal_recognition")
    steps = text.steps([tuple(term(world, k)) for k in q.actions])
    if form == "bool":
        q_goal, q.goal = q.goal, None
        context = base_context(world, text, q, rng)
        q.goal = q_goal
        context = str(t.observed(context, steps))
        return context, assemble(text, form, str(t.bool(text.conjunction(q.goal)))), []
    context = str(t.observed(base_context(world, text, q, rng), steps))
    choices = [text.conjunction([(tuple(l["atom"]), l["positive"]) for l in o])
               for o in q.options]
    return context, assemble(text, form, str(t.mc()), choices), choices


def _optimal_prefix(st, goal_literals) -> bool:
    cond = st.task.condition(goal_from_json(goal_literals))
    plan = [st.action(x) for x in st.sym["actions"]]
    if cond is None or any(k is None for k in plan):
        return False
    check = oracles.validate_plan(st.task, st.state, plan, cond)
    if not check.executable:
        return False
    here = oracles.optimal_cost(st.task, st.state, cond, SEARCH_BUDGET)
    there = oracles.optimal_cost(st.task, check.final_state, cond, SEARCH_BUDGET)
    return here is not None and there is not None and there + len(plan) == here


def truth(st, item) -> bool:
    return _optimal_prefix(st, item if item is not None else st.sym["goal"])


FAMILY = SequenceGoalFamily("goal_recognition", ("bool", "mc"), sample, render, truth, None,
                            negative_kinds=KINDS, uses_actions=True, bool_pool=_bool_pool,
                            targeted=True, literal_queries=True, worlds=("strips", "science"))
