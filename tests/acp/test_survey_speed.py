"""The shortcuts that make surveys cheaper keep what they replace: a survey tallied as
its draws come is the survey of all its draws tallied at once, and goals drawn without
listing every literal are the goals drawn from the list.

(Speed itself is measured by benchmarks/acp_probes.py and build_recipe.py, not here.)
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from racbench.splits.seeding import derive_seed
from racbench.tasks import FAMILIES
from racbench.tasks.balance import (N_OPTIONS, OPTION_MIN, OPTION_TRIALS, Tally, _bits,
                                    _drawn, _subject_kind, draw_rng, option_set,
                                    survey_options)
from racbench.tasks.config import TaskConfig
from racbench.tasks.queries import _Holding, _without, goals_between
from racbench.worlds.strips import search
from racbench.worlds.strips.search import UNREACHABLE
from racbench.worlds.strips.shipped import shipped_files
from racbench.worlds.strips.task import Condition, iter_bits
from racbench.worlds.strips.world import world_for


def _tallied_at_once(pools: list, world, seed: int) -> dict:
    """The survey of these pools as balance tallied it before tallies ran on: every
    draw again at each look."""
    index: dict = {}
    keys, subjects, kinds, right = [], [], [], []
    for pool in pools:
        here = set()
        for x in (pool.positives if pool is not None else ()):
            key = pool.key_of(x)
            s = index.get(key)
            if s is None:
                s = index[key] = len(keys)
                keys.append(key)
                subjects.append(pool.subject(x))
                shown = pool.text(x) if pool.text is not None else pool.subject(x)
                kinds.append(_subject_kind(world, shown))
            here.add(s)
        right.append(tuple(sorted(here)))
    wrong = [0] * len(keys)
    for d, pool in enumerate(pools):
        if pool is None:
            continue
        negatives = [pool.key_of(x) for x in pool.negatives]
        for key in negatives:
            s = index.get(key)
            if s is not None:
                wrong[s] |= 1 << d
        if pool.judge is not None:
            listed = set(negatives).union(pool.key_of(x) for x in pool.positives)
            for s, key in enumerate(keys):
                if key not in listed and pool.judge(key) is False:
                    wrong[s] |= 1 << d
    return {"keys": tuple(keys), "subjects": tuple(subjects), "kind": tuple(kinds),
            "right": tuple(right), "wrong": tuple(wrong)}


def _usable(t: dict) -> int:
    both = {s for s, w in enumerate(t["wrong"])
            if w and any(s in here for here in t["right"])}
    wrong_here = Counter(d for s in both for d in _bits(t["wrong"][s]))
    return sum(1 for d, here in enumerate(t["right"])
               if any(s in both for s in here) and wrong_here[d] >= N_OPTIONS - 1)


# families with a judge (sequences judged by other situations: planning, validation,
# executability) and without (landmarks, justification)
@pytest.mark.parametrize("domain,problem,family", [
    ("logistics", "p04", "planning"), ("blocksworld", "p05", "validation"),
    ("grid", "p03", "executability"), ("logistics", "p06", "landmarks"),
    ("logistics", "p07", "justification")])
def test_tallies_as_draws_come_are_the_survey_of_all(domain, problem, family):
    domain_file, problems = shipped_files(domain, [problem])
    world = world_for(domain_file, problems[0])
    cfg = TaskConfig(family=family, form="mc", domain=domain, lengths=(2,)).validate()
    make_pool = FAMILIES[family].pool_for("mc")
    seed = derive_seed("test-tally", domain, problem, family)
    pools = [_drawn(make_pool, world, draw_rng(seed, d), cfg) for d in range(240)]
    tally = Tally(world, seed)
    looks = (0, 1, 7, 60, 61, 150, 240)  # batches of every size, one empty
    for a, b in zip(looks, looks[1:]):
        tally.add(pools[a:b])
        survey = tally.survey()
        expected = _tallied_at_once(pools[:b], world, seed)
        assert {k: getattr(survey, k) for k in expected} == expected, (a, b)
        assert survey.usable == _usable(expected)
        once = Tally(world, seed)
        once.add(pools[:b])
        assert (survey.has_sets, survey.some_sets) == (once.survey().has_sets,
                                                      once.survey().some_sets)
    assert any(survey.wrong) and any(survey.right)  # the survey is not trivial
    if FAMILIES[family].pool_for("mc") is not None and family in ("planning", "validation",
                                                                     "executability"):
        assert any(p is not None and p.judge is not None for p in pools)


def test_a_survey_looks_again_without_tallying_again():
    """survey_options on a problem that needs several looks (justification on
    logistics p07 adds draws until it decides) gives the survey of all its draws."""
    domain_file, problems = shipped_files("logistics", ["p07"])
    world = world_for(domain_file, problems[0])
    cfg = TaskConfig(family="justification", form="mc", domain="logistics",
                     lengths=(2,)).validate()
    make_pool = FAMILIES["justification"].pool_for("mc")
    for seed in (3, 4):
        survey = survey_options(make_pool, world, cfg, seed, weighted=True, first=25)
        pools = [_drawn(make_pool, world, draw_rng(seed, d), cfg)
                 for d in range(len(survey.right))]
        expected = _tallied_at_once(pools, world, seed)
        assert {k: getattr(survey, k) for k in expected} == expected


def test_holding_literals_read_as_the_list():
    for trial in range(500):
        rng = random.Random(trial)
        n = rng.randrange(1, 70)
        bits = rng.getrandbits(n)
        listed = [(i, bool(bits >> i & 1)) for i in range(n)]
        holding = _Holding(bits, n)
        assert list(holding) == listed and len(holding) == n
        literal = (rng.randrange(n + 2), rng.random() < 0.5)
        a, b = _without(listed, literal), _without(holding, literal)
        assert list(a) == list(b)
        assert list(_without(a, (0, True))) == list(_without(b, (0, True)))
        r1, r2 = random.Random(trial), random.Random(trial)
        assert [r1.choice(a) for _ in range(8)] == [r2.choice(b) for _ in range(8)]


def _goals_between_listed(world, rng, start_bits: int, end_bits: int, size: int):
    """goals_between without a kind, as it was: every literal listed first."""
    true = [(i, bool(end_bits >> i & 1)) for i in range(len(world.task.atoms))]
    changed = [true[i] for i in iter_bits((start_bits ^ end_bits) & world.task.atom_mask)]
    choices = [changed] + [true] * (size - 1)
    if not all(choices):
        return None
    for _ in range(8):
        first = rng.choice(choices[0])
        goal, atoms = [first], 1 << first[0]
        if size == 2:
            rest = _without(choices[1], first)
            second = rng.choice(rest)
            goal.append(second)
            atoms |= 1 << second[0]
            rng.shuffle(goal)
        if atoms & (start_bits ^ end_bits):
            return tuple(goal)
    return None


def test_goals_drawn_as_from_the_list():
    domain_file, problems = shipped_files("blocksworld", ["p06"])
    world = world_for(domain_file, problems[0])
    found = 0
    for trial in range(400):
        pick = random.Random(trial)
        start, end = (world.bits(pick.randrange(world.n_states)) for _ in range(2))
        size = 1 + trial % 2
        r1, r2 = random.Random(trial), random.Random(trial)
        got = goals_between(world, r1, start, end, size)
        assert got == _goals_between_listed(world, r2, start, end, size)
        assert r1.random() == r2.random()  # the same random numbers consumed
        found += got is not None
    assert found > 100


def _option_set_as_before(survey, rng):
    """option_set as it was, working out likeness afresh at each call."""
    from racbench.tasks.balance import SEARCH_BUDGET, _head
    starts = [d for d, here in enumerate(survey.right) if here]
    if not starts:
        return None
    first = rng.choice(starts)
    subject = rng.choice(survey.right[first])
    wrong, kind = survey.wrong, survey.kind[subject]

    def unlike(s):
        other = survey.kind[s]
        return 0 if other == kind else 1 if _head(other) == _head(kind) else 2

    def extend(chosen, open_draws, used, most):
        if len(chosen) == N_OPTIONS:
            return chosen
        draws = _bits(open_draws)
        rng.shuffle(draws)
        draws.sort(key=rank)
        for d in draws:
            budget[0] -= 1
            if budget[0] < 0:
                return None
            fits = [s for s in survey.right[d] if wrong[s] & used == used
                    and unlike(s) <= most and all(s != c for _, c in chosen)]
            rng.shuffle(fits)
            fits.sort(key=unlike)
            for s in fits[:2]:
                found = extend(chosen + [(d, s)], open_draws & wrong[s] & ~(1 << d),
                               used | 1 << d, most)
                if found is not None:
                    return found
        return None

    def rank(d):
        return min((unlike(s) for s in survey.right[d]), default=2)

    for most, share in ((1, SEARCH_BUDGET // 2), (2, SEARCH_BUDGET)):
        budget = [share]
        found = extend([(first, subject)], wrong[subject] & ~(1 << first), 1 << first, most)
        if found is not None:
            return found
    return None


@pytest.mark.parametrize("domain,problem,family", [
    ("ferry", "p09", "executability"), ("satellite", "p05", "applicability"),
    ("logistics", "p04", "planning")])
def test_option_sets_as_before(domain, problem, family):
    """option_set keeps each survey's likeness per kind (every row of a problem
    searches the same survey): the sets found, and the random numbers drawn, are
    those of working it out afresh; a pickled survey (a probe result) leaves it out."""
    import pickle

    domain_file, problems = shipped_files(domain, [problem])
    world = world_for(domain_file, problems[0])
    cfg = TaskConfig(family=family, form="mc", domain=domain, lengths=(2,)).validate()
    survey = survey_options(FAMILIES[family].pool_for("mc"), world, cfg, seed=7)
    found = 0
    for trial in range(60):
        r1, r2 = random.Random(trial), random.Random(trial)
        got = option_set(survey, r1)
        assert got == _option_set_as_before(survey, r2)
        assert r1.random() == r2.random()
        found += got is not None
    assert found >= 10
    assert survey._likeness and pickle.loads(pickle.dumps(survey))._likeness is None


@pytest.mark.parametrize("domain,problem,family", [
    ("logistics", "p07", "justification"), ("grid", "p03", "executability")])
def test_a_weighted_survey_goes_on_from_the_first_rounds_draws(domain, problem, family):
    """A weighted config's further survey of a problem (a build's second round of probe
    jobs, or its join) given the problem's first survey goes on from its draws rather
    than drawing them again, and is the survey made from draw 0; a family whose draws
    have a judge (executability) keeps nothing to go on from, and draws again."""
    domain_file, problems = shipped_files(domain, [problem])
    world = world_for(domain_file, problems[0])
    cfg = TaskConfig(family=family, form="mc", domain=domain, lengths=(2,)).validate()
    pool_for = FAMILIES[family].pool_for("mc")
    drawn = []

    def make_pool(*args):
        drawn.append(args[2])
        return pool_for(*args)

    seed = derive_seed("test-resume", domain, problem, family)
    first = survey_options(make_pool, world, cfg, seed, first=40)
    first_draws = len(first.right)
    assert (first._resume is None) == (family == "executability")
    drawn.clear()
    fresh = survey_options(make_pool, world, cfg, seed, weighted=True, first=2 * first_draws)
    fresh_draws = len(drawn)
    drawn.clear()
    resumed = survey_options(make_pool, world, cfg, seed, weighted=True,
                             first=2 * first_draws, start=first)
    fields = ("seed", "keys", "subjects", "kind", "right", "wrong", "found", "usable")
    assert {k: getattr(resumed, k) for k in fields} == {k: getattr(fresh, k) for k in fields}
    assert resumed.balance() == fresh.balance() and len(fresh.right) > first_draws
    saved = first_draws if first._resume is not None else 0
    assert len(drawn) == fresh_draws - saved


def _kind_goal_listed(world, rng, start_bits: int, end_bits: int, size: int, kind, avoid):
    """goals_between with a kind (never exact) as it was: both kinds' literals listed
    (`world.true_literals`), then up to eight goals drawn and refused while one holds at
    the start or in an avoided state."""
    choices = [world.true_literals(end_bits, k) for k in kind]
    if not all(choices):
        return None
    differs = [start_bits ^ end_bits] + [s ^ end_bits for s in avoid]
    for _ in range(8):
        first = rng.choice(choices[0])
        goal, atoms = [first], 1 << first[0]
        if size == 2:
            rest = _without(choices[1], first)
            if not rest:
                return None
            second = rng.choice(rest)
            goal.append(second)
            atoms |= 1 << second[0]
        if all(atoms & d for d in differs):
            return tuple(goal)
    return None


@pytest.mark.parametrize("domain,problem", [("gripper", "p02"), ("logistics", "p04")])
def test_goals_of_a_kind_refused_outright_as_drawn(domain, problem):
    """Goals of a kind whose every draw would be refused (a walk that came back, an end
    whose literals of the kind all held at the start or at an avoided state: planning's
    missed goals) are refused without a list, from the same random numbers: the same
    goals, and the stream left where it was."""
    domain_file, problems = shipped_files(domain, [problem])
    world = world_for(domain_file, problems[0])
    kinds = sorted({(p,) + k for k in world.atoms_by_kind for p in (True, False)}, key=repr)
    found = refused = 0
    for trial in range(600):
        pick = random.Random(trial)
        sid = pick.randrange(world.n_states)
        # ends near the start (most keep the literals of a kind), the start itself, or far
        end = sid if trial % 5 == 0 else pick.randrange(world.n_states) if trial % 5 == 1 \
            else world.succ(sid)[1][pick.randrange(len(world.succ(sid)[1]))] \
            if world.succ(sid)[1] else sid
        start_bits, end_bits = world.bits(sid), world.bits(end)
        avoid = () if trial % 3 else (world.bits(pick.randrange(world.n_states)),)
        size = 1 + trial % 2
        kind = tuple(pick.choice(kinds) for _ in range(size))
        if trial % 4 == 0 and size == 2:
            kind = (kind[0], kind[0])  # one kind twice: the second list lacks the first
        r1, r2 = random.Random(trial), random.Random(trial)
        got = goals_between(world, r1, start_bits, end_bits, size, kind, avoid)
        assert got == _kind_goal_listed(world, r2, start_bits, end_bits, size, kind, avoid)
        assert r1.random() == r2.random()  # the same random numbers consumed
        found += got is not None
        refused += got is None
    assert found > 50 and refused > 200


def _far_goal_searched(world, rng, sid: int, length: int, size: int, want):
    """goal_recognition._far_goal away from TRAC as it was: every goal searched for."""
    from racbench.splits.draws import below
    from racbench.tasks import goal_recognition as gr
    from racbench.tasks.base import walk_through
    from racbench.worlds.strips.task import Condition

    start = world.bits(sid)
    kind = want.cell[1] if want is not None else None
    for _ in range(gr.GOAL_TRIES):
        walked = walk_through(world, rng, sid, length + below(rng, gr.GOAL_SLACK + 1))
        if walked is None:
            return None
        goal = goals_between(world, rng, start, world.bits(walked[1][-1]), size, kind)
        if goal is None:
            continue
        cond = Condition.of(goal)
        total, plan = world.nearby_plan(sid, cond, length + gr.GOAL_SLACK, rng)
        if total and total >= length:
            return [(world.task.atoms[i], p) for i, p in goal], cond, total, plan, goal
    return None


@pytest.mark.parametrize("domain,problem", [("gripper", "p02"), ("grid", "p03")])
def test_far_goals_refused_without_a_search_as_searched(domain, problem):
    """A goal recognition draw refuses a goal one action away without searching for it,
    making the draws the search's shuffle made: the same goals, plans and stream."""
    from racbench.tasks import goal_recognition as gr
    from racbench.tasks.base import Target

    domain_file, problems = shipped_files(domain, [problem])
    world = world_for(domain_file, problems[0])
    kinds = sorted({(p,) + k for k in world.atoms_by_kind for p in (True, False)}, key=repr)
    found = 0
    for trial in range(300):
        pick = random.Random(trial)
        sid, length, size = pick.randrange(world.n_states), 2 + trial % 2, 1 + trial % 2
        want = None if trial % 3 == 0 else Target(
            "bool", False, cell=(length, tuple(pick.choice(kinds) for _ in range(size))))
        r1, r2 = random.Random(trial), random.Random(trial)
        got = gr._far_goal(world, r1, sid, length, size, want)
        assert got == _far_goal_searched(world, r2, sid, length, size, want)
        assert r1.random() == r2.random()
        found += got is not None
    assert found > 30


@pytest.mark.parametrize("domain,problem", [("gripper", "p02"), ("depots", "p02")])
def test_nearby_distance_is_the_searched_plans_length(domain, problem):
    """`nearby_distance` is `nearby_plan`'s distance, within its depth, past its cap
    (a distance table) and short of it."""
    from racbench.tasks.base import walk_through
    from racbench.worlds.strips.task import Condition

    domain_file, problems = shipped_files(domain, [problem])
    world = world_for(domain_file, problems[0])
    seen = set()
    for trial in range(400):
        pick = random.Random(trial)
        sid, depth = pick.randrange(world.n_states), pick.randrange(5)
        # goals of literals a walk of up to five actions changes: some near, some not
        walked = walk_through(world, pick, sid, pick.randrange(6))
        start, other = world.bits(sid), world.bits(walked[1][-1])
        atoms = list(iter_bits(start ^ other)) or [0]
        cond = Condition.of((a, bool(other >> a & 1))
                            for a in pick.sample(atoms, min(len(atoms), 1 + trial % 2)))
        cap = 5_000 if trial % 4 else 2  # past the cap after one layer: a distance table
        d = world.nearby_distance(sid, cond, depth, cap)
        # (an rng: past its cap, `nearby_plan` draws its plan off the table with one)
        assert d == world.nearby_plan(sid, cond, depth, random.Random(0), cap)[0]
        seen.add((d, cap))
    assert {None, 0, 1, 2, 3} <= {d for d, _ in seen}
    assert any(d is not None and d >= 2 for d, cap in seen if cap == 2)  # past the cap


def test_nearby_plan_past_its_cap_without_an_rng_gives_a_shortest_plan():
    """Past its cap `nearby_plan` reads the distance table; without an rng (callers
    that ask only the distance) the plan is still a shortest one, not an AttributeError
    from drawing its steps with None."""
    from racbench.worlds.strips.task import Condition

    domain_file, problems = shipped_files("gripper", ["p02"])
    world = world_for(domain_file, problems[0])
    far = []
    for sid in range(0, world.n_states, 7):
        start = world.bits(sid)
        cond = Condition.of([(a, not start >> a & 1) for a in range(2)])
        d = world.distance(sid, cond, 6)
        if d is not None and d >= 2:
            far.append((sid, cond, d))
    assert far
    for sid, cond, d in far[:20]:
        got, plan = world.nearby_plan(sid, cond, 6, None, cap=2)
        assert got == d == len(plan)
        state = sid
        for k in plan:
            state = dict((kk, t) for kk, t, _ in world.moves(state))[k]
        assert cond.holds(world.bits(state))


def test_weighted_draws_are_random_choices_without_replacement():
    """`_draw_weighted`, given the running sums once and summing again only past the
    item taken, picks what `rng.choices` picks, one at a time without replacement, from
    the same random numbers (`_simulated_rows` keeps each draw's sums for its rows)."""
    from racbench.tasks.balance import _draw_weighted, _running_sums
    for trial in range(300):
        pick = random.Random(trial)
        weight = [1.0 / pick.randrange(1, 40) if pick.random() < 0.9 else 0.0
                  for _ in range(60)]
        weight[0] = weight[0] or 0.5
        found = pick.sample(range(60), pick.randrange(1, 25))
        if not any(weight[s] for s in found):
            continue
        n = pick.randrange(1, 5)
        r1, r2 = random.Random(trial), random.Random(trial)
        got = _draw_weighted(found, weight, n, r1.random, _running_sums(found, weight))
        left, expected = list(found), []
        for _ in range(min(n, len(found))):
            if not any(weight[s] for s in left):
                break
            chosen = r2.choices(left, [weight[s] for s in left])[0]
            expected.append(chosen)
            left.remove(chosen)
        if len(expected) == min(n, len(found)):
            assert got == expected, trial
            assert r1.random() == r2.random()


@pytest.mark.parametrize("dense", [False, True])
@pytest.mark.parametrize("domain,problem", [("gripper", "p02"), ("depots", "p02")])
def test_a_plan_off_a_sweep_stopped_at_its_state_is_the_plan_off_the_whole_table(
        domain, problem, dense, monkeypatch):
    """`ExplicitWorld.optimal_plan` to a goal not yet swept reads a sweep that stops at
    the level reaching its state (`StateSpace.sweep`'s `until`): the distances up to
    that state's are those of the whole table, and the plans drawn off it the same;
    with edge lists and with the matrix of predecessors (`dense`)."""
    monkeypatch.setattr(search, "DENSE_SWEEP_UP_TO", 10**9 if dense else 0)
    domain_file, problems = shipped_files(domain, [problem])
    world = world_for(domain_file, problems[0])
    space, pick = world.space, random.Random(7)
    n_atoms = len(world.task.atoms)
    stopped_short = 0
    for trial in range(60):
        sid = pick.randrange(world.n_states)
        atom = pick.randrange(n_atoms)
        cond = Condition(1 << atom, 0)
        whole = space.sweep(world.mask_of(cond))
        part = space.sweep(world.mask_of(cond), until=sid)
        d = whole[sid]
        near = whole <= d if d >= 0 else whole >= -1
        assert (part[near] == whole[near]).all()
        assert (part[~near] == UNREACHABLE).all()
        stopped_short += int((whole > max(d, 0)).any() and d >= 0)
        world._dist_cache.clear()
        r1, r2 = random.Random(trial), random.Random(trial)
        got = world.optimal_plan(r1, sid, cond)
        expected = None
        if d >= 0:  # drawn off the whole table, step by step, as before
            expected, at = [], sid
            while whole[at] > 0:
                acts, dsts = world.succ(at)
                steps = [(a, t) for a, t in zip(acts, dsts) if whole[t] == whole[at] - 1]
                k, at = r2.choice(steps)
                expected.append(k)
        assert got == expected and r1.random() == r2.random()
    assert stopped_short > 10
