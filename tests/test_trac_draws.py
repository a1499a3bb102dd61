"""TRAC's goal draws construct what they used to draw and refuse (issue 31): a goal far
enough is drawn among the goals that are, and every row keeps its meaning and proof."""

from __future__ import annotations

import random

import pytest

from racbench.suites.recipe import load_recipe
from racbench.tasks import goal_recognition as gr
from racbench.tasks.base import Target
from racbench.tasks.queries import Avoided, goal_kind, goals_between
from racbench.worlds.strips.task import Condition
from racbench.worlds.strips.world import trac_world


def _holds(goal, bits: int) -> bool:
    return all(bool(bits >> atom & 1) == truth for atom, truth in goal)


def _far_literals(world, start: int, end: int, avoid: list[int], kind) -> list:
    """Every literal of `kind` true at `end` and in none of `start` and `avoid`."""
    return [lit for lit in world.true_literals(end, kind)
            if not any(_holds([lit], s) for s in [start, *avoid])]


def test_exact_goal_draws_find_a_goal_whenever_one_exists():
    world = trac_world(5)
    rng = random.Random(7)
    kinds = sorted({(truth,) + world.atom_kinds[a] for a in range(len(world.task.atoms))
                    for truth in (True, False)}, key=repr)
    checked = found = 0
    for sid in range(0, world.n_states, 7):
        for length in (2, 3, 4):
            layers, near = gr.near_layers(world, sid, length + 2, length)
            start = world.bits(sid)
            for end in layers[length][:6] + layers[-1][:6]:
                for kind in kinds:
                    exists = _far_literals(world, start, end, list(near.states), kind)
                    goal = goals_between(world, rng, start, end, 1, (kind,), near, True)
                    assert (goal is not None) == bool(exists)
                    if goal is not None:
                        assert goal[0] in exists
                        found += 1
                    pair = goals_between(world, rng, start, end, 2, (kind, kind), near, True)
                    if pair is not None:  # a pair holds at the end and in none of them
                        assert _holds(pair, end) and pair[0][0] != pair[1][0]
                        assert not any(_holds(pair, s) for s in [start, *near.states])
                        assert goal_kind(world, pair) == (kind, kind)
                    checked += 1
    assert found > 100 and checked > 1000


def _listed_goal(world, rng, start_bits, end_bits, size, kind, avoid, certain=False):
    """goals_between's exact draw of a goal of a kind as it was written on lists of
    literals (world.true_literals), before it read bit masks: the reference."""
    from racbench.splits.draws import pick
    from racbench.tasks.queries import GOAL_TRIES, _without

    choices = [world.true_literals(end_bits, k) for k in kind]
    if not all(choices):
        return None
    changed_bits = start_bits ^ end_bits
    if size == 1:
        far = changed_bits & avoid.differing(end_bits)
        found = [x for x in choices[0] if far >> x[0] & 1]
        return (pick(rng, found),) if found else None
    for _ in range(GOAL_TRIES):
        first = pick(rng, choices[0])
        need = avoid.differing(end_bits, first)
        if not changed_bits >> first[0] & 1:
            need &= changed_bits
        rest = [y for y in _without(choices[1], first) if need >> y[0] & 1]
        if rest:
            return first, pick(rng, rest)
    if not certain:
        return None
    # then among the first literals that make a goal (drawing on until one does)
    good = []
    for first in choices[0]:
        need = avoid.differing(end_bits, first)
        if not changed_bits >> first[0] & 1:
            need &= changed_bits
        rest = [y for y in _without(choices[1], first) if need >> y[0] & 1]
        if rest:
            good.append((first, rest))
    if not good:
        return None
    first, rest = pick(rng, good)
    return first, pick(rng, rest)


@pytest.mark.parametrize("objects", [5, 10])
def test_exact_goals_of_a_kind_read_from_bit_masks_are_those_listed(objects):
    """The same goal from the same random numbers as drawn from lists of literals, for
    every kind and pair of kinds, in the small world and the implicit one."""
    world = trac_world(objects)
    kinds = sorted({(truth,) + world.atom_kinds[a] for a in range(len(world.task.atoms))
                    for truth in (True, False)}, key=repr)
    draw = random.Random(5)
    checked = found = 0
    for _ in range(40):
        sid = world.sample_state(draw)
        start = world.bits(sid)
        length = 2 + draw.randrange(3)
        layers, near = gr.near_layers(world, sid, length, length)
        for end in layers[-1][:4]:
            for size, kind in [(1, (k,)) for k in kinds] + [
                    (2, (a, b)) for a in kinds for b in kinds if draw.random() < 0.2]:
                seed, certain = draw.random(), draw.random() < 0.5
                a, b = random.Random(seed), random.Random(seed)
                got = goals_between(world, a, start, end, size, kind, near, True, certain)
                assert got == _listed_goal(world, b, start, end, size, kind, near, certain)
                assert a.random() == b.random()
                found += got is not None
                checked += 1
    assert checked > 1000 and found > 100


def test_avoided_masks_name_the_atoms_that_differ_everywhere():
    states = [0b1011, 0b0011, 0b1110]
    avoided = Avoided(states)
    end = 0b0101
    every_differs = [i for i in range(4) if all((s ^ end) >> i & 1 for s in states)]
    assert [i for i in range(4) if avoided.differing(end) >> i & 1] == every_differs
    # where atom 3 is true (the first and third state), atoms that differ in both
    assert [i for i in range(4) if avoided.differing(end, (3, True)) >> i & 1] == [
        i for i in range(4) if all((s ^ end) >> i & 1 for s in (states[0], states[2]))]


@pytest.mark.parametrize("config", ["goal_recognition_L3", "ge2_goal_recognition_L5",
                                    "ge4_goal_recognition_conjunctions"])
def test_trac_goal_recognition_pools_keep_their_meaning(config):
    """Every goal of a TRAC pool is `length` to `length + 2` actions away and not true
    at the state; positives start a shortest plan for it, negatives do not and are the
    kind they say (suboptimal: the goal closer, just not by one action per step)."""
    spec = load_recipe("trac").select(config).configs[0]
    world = trac_world(spec.task.objects)
    length = spec.task.lengths[0] if len(spec.task.lengths) == 1 else 3
    cfg = spec.task.at_length(length)
    rng = random.Random(3)
    seen = {True: 0, 0: 0, 1: 0}
    for i in range(400):
        label = i % 3 == 0
        size = 2 if config.endswith("conjunctions") else 1 + i % 2 if i % 5 else 1
        pool = gr.bool_pool(world, rng, cfg, None if i % 4 == 0 else
                            _want(world, rng, label, i % 2, size))
        if pool is None:
            continue
        for item, is_positive in [(x, True) for x in pool.positives] + \
                                 [(x, False) for x in pool.negatives]:
            obs, literals, total, variant = item
            sid = pool.question.sid
            cond = Condition.of([(world.task.atom_index[tuple(a)], p) for a, p in literals])
            assert not cond.holds(world.bits(sid))
            assert world.distance(sid, cond) == total and length <= total <= length + 2
            end, failed = world.execute(sid, obs)
            assert failed is None and len(obs) == length
            rest = world.distance(end, cond)
            assert (rest is not None and rest + length == total) == is_positive
            if not is_positive:
                assert variant == (0 if rest is not None and rest < total else 1)
            seen[True if is_positive else variant] += 1
    assert all(n > 10 for n in seen.values()), seen


def _want(world, rng, label: bool, variant: int, size: int) -> Target:
    """A bool target of a kind of goal the world has (drawn from its atoms)."""
    kinds = tuple((rng.random() < 0.5,) + world.atom_kinds[rng.randrange(len(world.task.atoms))]
                  for _ in range(size))
    return Target("bool", label, variant=variant, cell=(0, kinds))


@pytest.mark.parametrize("config", ["planning_L1", "ge2_planning_L4",
                                    "ge4_planning_conjunctions"])
def test_trac_planning_pools_keep_their_meaning(config):
    """Positives execute and achieve a goal not true at the state; misses_goal negatives
    execute and miss a goal of the same kind that a walk sharing a prefix achieves;
    not_executable ones cannot be executed; each kind of item is found."""
    from racbench.tasks import planning

    spec = load_recipe("trac").select(config).configs[0]
    world = trac_world(spec.task.objects)
    length = spec.task.lengths[0] if len(spec.task.lengths) == 1 else 2
    cfg = spec.task.at_length(length)
    rng = random.Random(5)
    seen = {True: 0, 0: 0, 1: 0}
    for i in range(300):
        size = 2 if config.endswith("conjunctions") else 1 + i % 2
        want = None if i % 4 == 0 else _want(world, rng, i % 3 == 0, i % 2, size)
        pool = planning.bool_pool(world, rng, cfg, want)
        if pool is None:
            continue
        sid = pool.question.sid
        for plan, goal in pool.positives:
            cond = Condition.of(goal)
            assert not cond.holds(world.bits(sid)) and len(plan) == length
            assert planning.achieves(world, sid, plan, cond)
            if want is not None:
                assert goal_kind(world, goal) == want.cell[1]
            seen[True] += 1
        for plan, missed, variant in pool.negatives:
            cond = Condition.of(missed)
            assert not cond.holds(world.bits(sid))
            failed = world.execute(sid, plan)[1]
            assert (failed is not None) == (planning.KINDS[variant] == "not_executable")
            assert not planning.achieves(world, sid, plan, cond)
            assert goal_kind(world, missed) in [goal_kind(world, g) for _, g in pool.positives]
            seen[variant] += 1
    assert all(n > 10 for n in seen.values()), seen


def test_drawn_plans_read_off_tables_are_shortest_plans():
    """ExplicitWorld.drawn_plan (TRAC's goal recognition draws in the five-block world):
    the distance a breadth-first search finds, within the same bound, and a plan of that
    many actions reaching the goal, drawn among the shortest (several for some goals)."""
    world = trac_world(5)
    draw = random.Random(11)
    n_atoms = len(world.task.atoms)
    checked = varied = 0
    for _ in range(300):
        sid = world.sample_state(draw)
        atoms = draw.sample(range(n_atoms), 1 + draw.randrange(2))
        cond = Condition.of([(a, draw.random() < 0.7) for a in atoms])
        bound = draw.randrange(1, 7)
        searched, _ = world.nearby_plan(sid, cond, bound)
        plans = set()
        for seed in range(4):
            d, plan = world.drawn_plan(sid, cond, bound, random.Random(seed))
            assert d == searched
            if d is None:
                assert plan is None
                continue
            end, failed = world.execute(sid, plan)
            assert failed is None and len(plan) == d and cond.holds(world.bits(end))
            plans.add(tuple(plan))
        checked += searched is not None
        varied += len(plans) > 1
    assert checked > 100 and varied > 10


def _walks(world, sid: int, length: int):
    """Every walk of `length` actions from `sid`: (its end's bits, its probability as a
    random walk, each step uniform among the applicable actions)."""
    found = [(sid, 1.0)]
    for _ in range(length):
        found = [(t, p / len(world.succ(s)[1])) for s, p in found for t in world.succ(s)[1]]
    return [(world.bits(t), p) for t, p in found]


def _goal_exists(world, kind, start: int, end: int, avoided: int | None = None) -> bool:
    """Listed: a goal of `kind` (literals over distinct atoms) true at `end`, not at
    `start` and not at `avoided`."""
    literals = [world.true_literals(end, k) for k in kind]
    goals = ([(x,) for x in literals[0]] if len(kind) == 1 else
             [(x, y) for x in literals[0] for y in literals[1] if x[0] != y[0]])
    return any(not _holds(g, start) and (avoided is None or not _holds(g, avoided))
               for g in goals)


def test_walk_ends_tell_which_walks_have_goals_as_listing_them_does():
    """`walk_ends`: where walks of a length end and with what probability, and whether
    a goal of a kind is achieved (and one missed by another walk of that length), the
    same as listing every walk and every goal."""
    from racbench.tasks import walk_ends
    from racbench.tasks.queries import kind_masks

    world = trac_world(5)
    masks = kind_masks(world)
    kinds = sorted({(truth,) + world.atom_kinds[a] for a in range(len(world.task.atoms))
                    for truth in (True, False)}, key=repr)
    draw = random.Random(11)
    checked = found = 0
    for sid in range(0, world.n_states, 37):
        start = world.bits(sid)
        for length in (1, 2, 3):
            walks = _walks(world, sid, length)
            reach = walk_ends.ends(world, sid, length)
            assert set(reach[0]) == {b for b, _ in walks}
            law = dict(zip(*walk_ends.end_law(world, sid, length)))
            bits, cum = walk_ends.end_law(world, sid, length)
            probs = {b: c - (cum[i - 1] if i else 0.0) for i, (b, c) in enumerate(zip(bits, cum))}
            for b in law:
                assert abs(probs[b] - sum(p for e, p in walks if e == b)) < 1e-9
            for end in sorted(set(reach[0]))[:5]:
                for kind in [(k,) for k in kinds] + [
                        (a, b) for a in kinds for b in kinds if draw.random() < 0.1]:
                    got = walk_ends.achieves(masks, kind, start, end)
                    assert got == _goal_exists(world, kind, start, end)
                    missed = walk_ends.missable(masks, kind, start, end, reach)
                    assert missed == any(_goal_exists(world, kind, start, other, end)
                                         for other in reach[0])
                    found += got and missed
                    checked += 1
    assert checked > 1000 and found > 100


def test_walk_tables_warmed_before_the_fork_are_those_made_on_demand():
    """A TRAC planning config's warm fills its world's walk tables (`walk_ends.warm`,
    once before worker processes fork) from every state, the same as each draw made
    them on demand in a world of its own."""
    from racbench.tasks import walk_ends
    from racbench.worlds.strips.world import TRAC_EXPLICIT_STATES, ExplicitWorld

    spec = load_recipe("trac").select("planning_L3").configs[0]
    spec.task.warm(tuple(spec.splits))
    world = trac_world(5)
    length = max(spec.task.lengths)
    assert len(world.__dict__.get("_end_laws", ())) >= world.n_states * length
    assert len(world.__dict__.get("_walk_ends", ())) >= world.n_states
    fresh = ExplicitWorld(world.domain, world.domain_text, world.problem, world.label,
                          TRAC_EXPLICIT_STATES)
    assert fresh.states == world.states
    for sid in range(world.n_states):
        assert walk_ends.ends(fresh, sid, length) == world._walk_ends[(sid, length)]
        for steps in range(1, length + 1):
            assert walk_ends.end_law(fresh, sid, steps) == world._end_laws[(sid, steps)]


def test_distances_read_off_the_states_near_a_state_are_the_tables():
    from racbench.tasks import walk_ends

    world = trac_world(5)
    rng = random.Random(2)
    for _ in range(300):
        sid = world.sample_state(rng)
        atom = rng.randrange(len(world.task.atoms))
        cond = Condition.of([(atom, rng.random() < 0.5)])
        radius = rng.randrange(1, 6)
        assert walk_ends.distance_within(world, sid, cond, radius) == \
            world.drawn_plan(sid, cond, radius)[0]


@pytest.mark.parametrize("config", ["planning_L1", "planning_L3", "ge4_planning_conjunctions"])
def test_trac_planning_rows_draw_their_goals_once(config):
    """Issue 31: a planning row's walks are tested before goals are drawn for them, so a
    row draws its goal and its missed goal and nothing else (it used to draw 7-19
    goals a row, most failing, and build two or three pools)."""
    from racbench.splits.strata import position_codes
    from racbench.tasks import planning

    spec = load_recipe("trac").select(config).configs[0]
    made = spec.task.rows(spec.name, 0, spec.splits)
    split, n = next(iter(spec.splits.items()))
    codes = position_codes(0, spec.name, split, n)
    drawn = []
    real = planning.goals_between

    def counted(*args, **kwargs):
        goal = real(*args, **kwargs)
        drawn.append(goal)
        return goal

    planning.goals_between = counted
    try:
        rows = 300
        for i in range(rows):
            made.row(split, i, codes[i])
    finally:
        planning.goals_between = real
    assert not [g for g in drawn if g is None]
    assert len(drawn) <= 2.2 * rows, len(drawn) / rows


def test_needed_literals_of_a_holding_are_those_listed():
    """`_needed` reads the literals a second goal literal may be off a `_Holding`'s bits:
    the same list, in the same order, as going through it item by item (so the same
    pick from the same random numbers)."""
    from racbench.tasks.queries import _Holding, _needed, _without

    rng = random.Random(2)
    for _ in range(300):
        n = rng.randrange(1, 140)
        holding = _Holding(rng.getrandbits(n), n)
        need = rng.getrandbits(n + 8) * rng.choice((1, -1))
        first = holding[rng.randrange(n)]
        for literals in (holding, _without(holding, first), _without(holding, (n + 3, True))):
            assert _needed(literals, need) == [y for y in literals if need >> y[0] & 1]


def test_every_literal_masks_worked_out_at_once_are_the_loops():
    """A kept set of near states works out every literal's masks at once (`Avoided`'s
    `every_literal`, from EVERY_LITERAL_FROM states): the same and-or masks, literal by
    literal, as the loop over the states, for atoms held nowhere and everywhere too."""
    from racbench.tasks import walk_ends
    from racbench.tasks.queries import EVERY_LITERAL_FROM

    world = trac_world(5)
    literals = [(a, t) for a in range(len(world.task.atoms) + 2) for t in (True, False)]
    checked = 0
    for sid in range(0, world.n_states, 25):
        layers = walk_ends.layers(world, sid, 4)
        for length in (3, 5):
            states = [world.bits(t) for layer in layers[1:length] for t in layer]
            if len(states) < EVERY_LITERAL_FROM:
                continue
            loop, at_once = Avoided(states), Avoided(states, every_literal=True)
            for literal in literals + [None]:
                assert at_once.masks(literal) == loop.masks(literal)
            checked += 1
    assert checked >= 10
