"""Problems too big to enumerate: families answer by search, with the same answers.

Above `limits.max_enumerated_states` reachable states a problem is an implicit world
(worlds/strips/world.py): states come from random walks, distances and plans from
bounded searches, and a question whose answer no search proves within its budget is
drawn again. Here the limit is lowered so that small shipped problems take that path,
and every row is checked twice: re-derived from its symbolic form by the search
oracles, and answered by the enumerated world of the same problem (the answer must not
depend on which path made the row).
"""

from __future__ import annotations

import json

import pytest

from racbench.checks.score import score
from racbench.tasks import FAMILIES, OWN_CONFIG
from racbench.tasks.config import TaskConfig
from racbench.tasks.rows import ConfigRows
from racbench.tasks.symbolic import symbolic_task
from racbench.text import sayer
from racbench.worlds.strips import limits
from racbench.worlds.strips.task import iter_bits
from racbench.worlds.strips.world import ImplicitWorld, WorldTooLarge, forget_worlds, world_for

PROBLEMS = {"test": ("p04", "p05")}
STRIPS_FAMILIES = sorted(f for f in FAMILIES if "strips" in FAMILIES[f].worlds
                         and f not in OWN_CONFIG)
# bool and mc reachability ask about facts (actions) that some states lose: floortile's
# painted tiles. Refused by the enumerated path on these problems too: justification
# mc (options must be steps of four plans at once), landmarks mc on ferry (no four
# facts each a landmark in one situation and not in three others)
CASES = [(f, d, form) for f in STRIPS_FAMILIES for form in FAMILIES[f].forms
         for d in (("floortile",) if "reachability" in f and form != "open"
                   else ("logistics", "ferry"))
         if (f, form) != ("justification", "mc") and (f, d, form) != ("landmarks", "ferry", "mc")]


def _rows(family: str, domain: str, form: str, n: int = 8) -> list[dict]:
    cfg = TaskConfig(family=family, domain=domain, form=form, lengths=(2,), problems=PROBLEMS)
    forget_worlds()
    try:
        with limits.overridden(max_enumerated_states=20):
            gen = ConfigRows(f"implicit_{family}_{domain}_{form}", cfg, 5, ("test",))
            assert all(isinstance(w, ImplicitWorld) for w in gen.worlds["test"])
            return [gen.row("test", i, i).columns for i in range(n)]
    finally:
        forget_worlds()


@pytest.mark.parametrize("family,domain,form", CASES)
def test_rows_of_implicit_worlds_hold_when_rederived(family, domain, form):
    fam = FAMILIES[family]
    rows = _rows(family, domain, form)
    assert len(rows) == 8
    for row in rows:
        sym = json.loads(row["symbolic"])
        st = symbolic_task(sym, json.loads(row["metadata"])["render"])
        if form == "bool":
            assert fam.truth(st, sym["subject"]) == sym["answer"], row["id"]
        elif form == "mc":
            truths = [fam.truth(st, o) for o in sym["options"]]
            assert truths.count(True) == 1 and truths.index(True) == sym["answer"], row["id"]
        assert score(row, row["answer"]).value == 1.0, row["id"]
    if form == "bool":
        assert sorted(r["label"] for r in rows) == [0] * 4 + [1] * 4


@pytest.mark.parametrize("domain", ["logistics", "ferry"])
def test_implicit_distances_and_plans_match_the_enumerated_world(domain):
    from racbench.worlds.strips.shipped import shipped_files
    import random

    domain_file, (problem,) = shipped_files(domain, ["p05"])
    explicit = world_for(domain_file, problem)
    implicit = ImplicitWorld(explicit.domain, explicit.domain_text, explicit.problem, "p05")
    rng = random.Random(3)
    checked = 0
    for _ in range(30):
        state = implicit.state_at_goal_distance(rng, 1, 6)
        if state is None:
            continue
        sid = explicit.index[state]
        d = implicit.distance(state)
        assert d == explicit.distance(sid) and 1 <= d <= 6
        plan = implicit.optimal_plan(rng, state)
        assert len(plan) == d and explicit.at_goal(explicit.execute(sid, plan)[0])
        steps = {k for k, _ in implicit.optimal_steps(state)}
        assert steps == {k for k, _ in explicit.optimal_steps(sid)}
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("domain", ["floortile", "goldminer", "logistics"])
def test_whether_the_goal_can_be_reached_agrees_with_the_enumerated_world(domain):
    """`reaches_goal` (any plan, by greedy search: asked before a split whose problems give
    no rows is blamed on their goals) says what the enumerated world's distances say from
    every state, dead ends included (floortile p01 has 96 of 120, goldminer p01 53)."""
    from racbench.worlds.strips.shipped import shipped_files

    domain_file, (problem,) = shipped_files(domain, ["p01"])
    explicit = world_for(domain_file, problem)
    implicit = ImplicitWorld(explicit.domain, explicit.domain_text, explicit.problem, "p01")
    reached = [explicit.distance(s) is not None for s in range(explicit.n_states)]
    assert [implicit.reaches_goal(explicit.bits(s)) for s in range(explicit.n_states)] == reached
    assert [explicit.reaches_goal(s) for s in range(explicit.n_states)] == reached
    assert (domain == "logistics") == all(reached)


def test_families_that_enumerate_refuse_problems_beyond_the_limit_by_name():
    from racbench.worlds.strips.shipped import shipped_files

    domain_file, (problem,) = shipped_files("logistics", ["p05"])
    forget_worlds()
    try:
        with limits.overridden(max_enumerated_states=20):
            with pytest.raises(WorldTooLarge, match="more than 20 reachable states"):
                world_for(domain_file, problem)
            assert isinstance(world_for(domain_file, problem, implicit=True), ImplicitWorld)
            # asked again (the problem now known too large): the same sentence, both
            # times templates/cli/pddl.j2's
            with pytest.raises(WorldTooLarge) as again:
                world_for(domain_file, problem)
        said = sayer("cli", ("pddl.j2",))("world_too_large", problem=problem, max_states=20)
        assert str(again.value) == said
        forget_worlds()
        with limits.overridden(max_enumerated_states=20):
            with pytest.raises(WorldTooLarge) as first:
                world_for(domain_file, problem)
        assert str(first.value) == said
    finally:
        forget_worlds()


BUDGET_RECIPE = """\
name: budget
seed: 0
configs:
  - name: justification_bool
    family: justification
    form: bool
    domain: swap
    length: 2
    problems: {test: [p14]}
    splits: {test: 6}
"""


def test_questions_dropped_for_budget_are_counted_in_the_card(tmp_path):
    """Swap p14 is answered by search (beyond a lowered enumeration limit); under a
    small search budget some justification questions cannot be proven: they are drawn
    again, and the card and configs.json count them, the same whatever the number of
    workers. (Blocks 8-0's landmarks used to serve here; the regression proof now
    settles every one of them. A budget of 100 dropped some until the pool of states
    near the goal proved its candidates by A* where breadth-first search runs out.)"""
    import subprocess
    import sys

    recipe = tmp_path / "budget.yaml"
    recipe.write_text(BUDGET_RECIPE)
    from click.testing import CliRunner

    from racbench.cli import main

    outs = []
    for workers in (1, 2):
        out = tmp_path / f"out{workers}"
        args = ["build", str(recipe), "--out", str(out), "--workers", str(workers),
                "--search-budget", "20", "--max-enumerated-states", "1000", "--quiet"]
        if workers == 1:  # in this process (click's runner): no process start to pay
            result = CliRunner().invoke(main, args)
            assert result.exit_code == 0, (result.output, result.exception)
        else:
            subprocess.run([sys.executable, "-m", "racbench.cli", *args], check=True,
                           capture_output=True)
        outs.append(out)
    details = [(o / "configs.json").read_text() for o in outs]
    assert details[0] == details[1]
    dropped = json.loads(details[0])["configs"][0]["dropped_for_budget"]
    assert dropped > 0
    card = (outs[0] / "README.md").read_text()
    assert f"| justification_bool | {dropped} |" in card


def test_past_the_budget_of_breadth_first_search_astar_with_lmcut_proves_distances():
    """Where breadth-first search runs out of budget (logistics: a goal a few trucks
    and planes away), A* with LM-cut still proves the distance, equal to the
    enumerated world's."""
    import random

    from racbench.worlds.strips.search import SearchBudgetExceeded, bfs_plan
    from racbench.worlds.strips.shipped import shipped_files

    domain_file, (problem_file,) = shipped_files("logistics", ["p05"])
    forget_worlds()
    try:
        enumerated = world_for(str(domain_file), str(problem_file))
        with limits.overridden(max_enumerated_states=20, search_budget=300):
            implicit = world_for(str(domain_file), str(problem_file), implicit=True)
            assert isinstance(implicit, ImplicitWorld)
            goal = implicit.goal_condition
            rng = random.Random(0)
            by_astar = 0
            for _ in range(30):
                sid = enumerated.sample_state(rng)
                state = int(enumerated.states[sid])
                try:
                    bfs_plan(implicit.task, state, goal.pos, goal.neg, 300)
                except SearchBudgetExceeded:
                    try:
                        distance = implicit.distance(state)
                    except SearchBudgetExceeded:
                        continue
                    by_astar += 1
                    assert distance == enumerated.goal_distance[sid]
            assert by_astar >= 3
    finally:
        forget_worlds()


TINY_BUDGET_RECIPE = """\
name: tiny
seed: 0
configs:
  - name: next_action_bool
    family: next_action
    form: bool
    domain: floortile
    length: 2
    problems: {test: [p14]}
    splits: {test: 6}
"""


def test_a_refusal_under_a_tiny_budget_names_the_budget(tmp_path):
    """A config refused on a problem answered by search says that a larger
    --search-budget may help (exit 2, nothing written)."""
    from click.testing import CliRunner

    from racbench.cli import main

    recipe = tmp_path / "tiny.yaml"
    recipe.write_text(TINY_BUDGET_RECIPE)
    result = CliRunner().invoke(main, ["build", str(recipe), "--out", str(tmp_path / "out"),
                                       "--workers", "1", "--search-budget", "30", "--quiet"])
    assert result.exit_code == 2, result.output
    assert "--search-budget (30 states)" in result.stderr
    assert not (tmp_path / "out").exists()


ALL_DOMAINS = ("blocksworld", "depots", "ferry", "floortile", "goldminer", "grid", "gripper",
               "household", "logistics", "rovers", "satellite", "swap", "visitall")


@pytest.mark.parametrize("domain", ALL_DOMAINS)
def test_lm_cut_never_overestimates_an_exact_distance(domain):
    """LM-cut, the A* fallback's heuristic, against every state's exact distance in
    enumerated problems of each shipped domain (ADL household included): never above
    it, zero exactly at the goal (for positive goals), infinite only where the goal
    cannot be reached."""
    import random

    from racbench.worlds.strips.heuristics import lm_cut
    from racbench.worlds.strips.shipped import shipped_files

    rng = random.Random(domain)
    checked = 0
    for name in ("p03", "p06"):
        domain_file, (problem,) = shipped_files(domain, [name])
        world = world_for(domain_file, problem)
        goal = world.goal_condition
        h = lm_cut(world.task, goal.pos)
        for sid in rng.sample(range(world.n_states), min(80, world.n_states)):
            exact = int(world.goal_distance[sid])
            value = h(world.states[sid])
            if value == float("inf"):
                assert exact < 0, (name, sid)
                continue
            if exact >= 0:
                assert value <= exact, (name, sid, value, exact)
                assert (value == 0) == world.at_goal(sid) or goal.neg, (name, sid)
                checked += 1
    assert checked >= 20  # floortile's sampled states are mostly dead ends


def test_the_pool_near_the_goal_does_not_depend_on_what_was_asked_before():
    """Rows must not depend on the number of workers: the pool of states near the goal
    is built from a fixed seed, so a world asked other things first (distances, plans,
    first steps, states of other bounds) builds the same pool as a fresh one; and every
    distance it holds is the enumerated world's."""
    import random

    from racbench.worlds.strips.shipped import shipped_files

    domain_file, (problem,) = shipped_files("ferry", ["p06"])
    explicit = world_for(domain_file, problem)

    def fresh() -> ImplicitWorld:
        return ImplicitWorld(explicit.domain, explicit.domain_text, explicit.problem, "p06")

    busy = fresh()
    rng = random.Random(1)
    for _ in range(20):
        state = busy.sample_state(rng)
        busy.distance(state)
        busy.optimal_plan(rng, state)
        busy.optimal_steps(state)
    assert busy.state_at_goal_distance(rng, 1, 4) is not None
    first = fresh()._near_goal_pool(explicit.goal_condition, 12)
    assert busy._near_goal_pool(explicit.goal_condition, 12) == first
    assert sum(map(len, first.values())) >= 30
    for d, states in first.items():
        for state in states:
            assert explicit.distance(explicit.index[state]) == d


def test_the_pool_proves_by_astar_what_breadth_first_search_cannot_reach():
    """Under a budget breadth-first search runs out of 7 or more actions from the goal
    (satellite p08, 12,288 states), the pool still reaches the bound: A* with LM-cut
    proves those candidates' distances (29 were left out before, and only 8 of its
    states lay 7 or more actions away). Every distance is the enumerated world's, and
    so are each state's shortest plans' first actions (found by the search LM-cut
    prunes) and its landmarks (its plan found by A* past the budget)."""
    import random

    from racbench.tasks import landmarks
    from racbench.worlds.strips.shipped import shipped_files
    from racbench.worlds.strips.world import BUDGET_RAN_OUT

    domain_file, (problem,) = shipped_files("satellite", ["p08"])
    explicit = world_for(domain_file, problem)
    with limits.overridden(search_budget=500):
        implicit = ImplicitWorld(explicit.domain, explicit.domain_text, explicit.problem,
                                 "p08")
        goal = implicit.goal_condition
        pool = implicit._near_goal_pool(goal, 12)
        assert implicit.pool_dropped == 0
        assert sum(len(states) for d, states in pool.items() if d >= 7) >= 30
        first = implicit._pool_first_actions((goal.pos, goal.neg, 12), goal)
        for d, states in pool.items():
            for state in states:
                sid = explicit.index[state]
                assert explicit.distance(sid) == d
                steps = first[(state, goal.pos, goal.neg)]
                assert steps is not BUDGET_RAN_OUT
                assert sorted(steps) == sorted(k for k, _ in explicit.optimal_steps(sid))
        for state in pool[max(pool)] + pool[max(pool) - 1]:
            sid = explicit.index[state]
            rng = random.Random(sid)
            assert set(landmarks.split_atoms(implicit, rng, state)[0]) == \
                set(landmarks.split_atoms(explicit, rng, sid)[0])


SATELLITE_LANDMARKS_RECIPE = """\
name: satellite
seed: 0
configs:
  - name: landmarks_open
    family: landmarks
    form: open
    domain: satellite
    problems: {test: [p14]}
    splits: {test: 8}
"""


def test_landmarks_open_on_satellite_p14_builds(tmp_path):
    """Satellite p14's pool held states 1 to 7 actions from the goal (its initial state
    is 11 away), and only 3 of them had a landmark besides the goal facts: a build of
    4 rows refused ("64 redraws in a row repeated earlier problems"). With the pool's
    farther states proven by A*, 8 distinct rows are built, through the CLI (click's
    runner in this process: a process paid Python's, racbench's and pyarrow's start)."""
    import pyarrow.parquet as pq
    from click.testing import CliRunner

    from racbench.cli import main

    recipe = tmp_path / "satellite.yaml"
    recipe.write_text(SATELLITE_LANDMARKS_RECIPE)
    out = tmp_path / "out"
    forget_worlds()  # as a fresh process would: no world an earlier test loaded
    result = CliRunner().invoke(main, ["build", str(recipe), "--out", str(out), "--workers",
                                       "1", "--quiet"])
    assert result.exit_code == 0, (result.output, result.exception)
    rows = [r for f in sorted(out.rglob("*.parquet")) for r in pq.read_table(f).to_pylist()]
    assert len(rows) == 8 and len({r["id"] for r in rows}) == 8
    assert len({r["context"] for r in rows}) == 8


@pytest.mark.parametrize("domain,problem", [("blocksworld", "p15"), ("floortile", "p09"),
                                            ("household", "p08")])
def test_greedy_paths_with_helpful_actions_reach_the_goal(domain, problem):
    """The goal states that seed the pool come from lazy greedy search with FF's
    helpful actions: each path steps from state to successor and ends at the goal."""
    from racbench.worlds.strips.shipped import shipped_files

    domain_file, (path,) = shipped_files(domain, [problem])
    explicit = world_for(domain_file, path)
    implicit = ImplicitWorld(explicit.domain, explicit.domain_text, explicit.problem, problem)
    paths = implicit._greedy_paths(implicit.goal_condition)
    assert paths
    for states in paths:
        assert implicit.goal_condition.holds(states[-1])
        for a, b in zip(states, states[1:]):
            assert b in {n for _, n in implicit.task.successors(a)}


@pytest.mark.parametrize("domain", ("blocksworld", "depots", "household", "satellite"))
def test_relaxed_costs_are_the_fixpoint_and_supporters_the_first_achievers(domain):
    """h_add's costs (the bucket queue in `_relaxed_costs`, which FF's heuristic and the
    greedy searches read) against sweeping every action until nothing changes: the same
    cost for every atom, and each atom's supporter the lowest-numbered action adding it
    at that cost (-1 for atoms of the state), with and without avoided atoms."""
    import random

    from racbench.worlds.strips.search import _relaxed_costs
    from racbench.worlds.strips.shipped import shipped_files

    domain_file, (problem,) = shipped_files(domain, ["p06"])
    world = world_for(domain_file, problem)
    task = world.task
    everything = (1 << len(task.atoms)) - 1  # a goal of every atom: no early stop
    rng = random.Random(domain)
    for avoid in (0, 1 << rng.randrange(len(task.atoms))):
        costs, actions = _relaxed_costs(task, everything, avoid)
        for sid in rng.sample(range(world.n_states), min(15, world.n_states)):
            state = world.states[sid]
            expected = {atom: 0 for atom in iter_bits(state)}
            changed = True
            while changed:
                changed = False
                for pre, add in actions:
                    if all(p in expected for p in pre):
                        total = 1 + sum(expected[p] for p in pre)
                        for q in add:
                            if total < expected.get(q, float("inf")):
                                expected[q], changed = total, True
            cost, supporter = costs(state)
            assert cost == expected, (domain, sid)
            for atom, k in supporter.items():
                first = -1 if state >> atom & 1 else min(
                    j for j, (pre, add) in enumerate(actions)
                    if atom in add and all(p in cost for p in pre)
                    and 1 + sum(cost[p] for p in pre) == cost[atom])
                assert k == first, (domain, sid, atom)


def test_a_depth_limit_finds_the_same_plan_and_stores_fewer_states():
    """Breadth-first search within `max_depth` skips states the goal-count bound puts
    too far from the goal: it finds the plan the unlimited search finds if that is short
    enough (None otherwise), and stores fewer states on some goals (blocksworld: goals
    of one to three towers' facts, from enumerated states)."""
    import random

    from racbench.worlds.strips.search import bfs_plan
    from racbench.worlds.strips.shipped import shipped_files

    domain_file, (problem_file,) = shipped_files("blocksworld", ["p04"])
    world = world_for(str(domain_file), str(problem_file))
    task, rng = world.task, random.Random(5)
    fewer = 0
    for _ in range(40):
        state = int(world.states[world.sample_state(rng)])
        goal_state = int(world.states[world.sample_state(rng)])
        pos = 0
        for i in rng.sample(list(iter_bits(goal_state)), 3):
            pos |= 1 << i
        full, limited = [0], [0]
        plan = bfs_plan(task, state, pos, 0, 10 ** 6, spent=full)
        for depth in (1, 2, 4):
            found = bfs_plan(task, state, pos, 0, 10 ** 6, max_depth=depth, spent=limited)
            assert found == (plan if len(plan) <= depth else None)
        fewer += limited[0] < 3 * full[0]
    assert fewer >= 10


def test_a_pool_that_runs_short_is_widened_and_its_rows_stay_exact():
    """Satellite p08 answered by search under a budget of 40 states: its pool of states
    near the goal (158 states) gave about 105 distinct next_action open rows, and a
    split of 160 stopped with "64 draws in a row repeated problems already drawn ...
    ask for at most 105". Rows whose draws keep repeating (WIDEN_AFTER in a row) now
    draw from the wider pool: 160 distinct rows, each answer the enumerated world's
    first actions of its shortest plans. Rows drawn before the pool ran short are those
    of a build that never widens, byte for byte, wherever its repeats stayed short."""
    import ast

    from racbench.errors import GenerationError
    from racbench.export.build import SplitRows
    from racbench.tasks import rows as row_maker
    from racbench.worlds.strips.shipped import shipped_files

    cfg = TaskConfig(family="next_action", domain="satellite", form="open",
                     problems={"test": ("p08",)})
    domain_file, (problem,) = shipped_files("satellite", ["p08"])
    explicit = world_for(domain_file, problem)

    def build(widen_after: int, attempts: dict) -> list[dict]:
        forget_worlds()
        made = []
        before = row_maker.WIDEN_AFTER
        row_maker.WIDEN_AFTER = widen_after
        try:
            with limits.overridden(max_enumerated_states=20, search_budget=40):
                gen = ConfigRows("next_action_open", cfg, 0, ("test",))
                assert all(isinstance(w, ImplicitWorld) for w in gen.worlds["test"])
                row = gen.row

                def counted(split, index, code, attempt=0):
                    attempts[index] = attempt
                    return row(split, index, code, attempt)

                gen.row = counted
                batch = gen.row_batch

                def counted_batch(split, start, codes):  # first attempts, made together
                    attempts.update(dict.fromkeys(range(start, start + len(codes)), 0))
                    return batch(split, start, codes)

                gen.row_batch = counted_batch
                try:
                    for columns in SplitRows("next_action_open", gen, "test", 160, 0, {}):
                        made.append(columns)
                except GenerationError as exc:
                    assert "ask for at most" in str(exc)
        finally:
            row_maker.WIDEN_AFTER = before
            forget_worlds()
        return made

    narrow_attempts, wide_attempts = {}, {}
    narrow = build(10 ** 9, narrow_attempts)  # never widened: as before
    assert 60 < len(narrow) < 160
    rows = build(row_maker.WIDEN_AFTER, wide_attempts)
    assert len(rows) == 160 and len({r["id"] for r in rows}) == 160
    widened = [i for i, a in wide_attempts.items() if a >= row_maker.WIDEN_AFTER]
    assert widened
    for i in range(min(widened)):
        assert rows[i] == narrow[i]
    same = [i for i in range(len(narrow)) if wide_attempts[i] < row_maker.WIDEN_AFTER
            and narrow_attempts[i] == wide_attempts[i]]
    assert all(rows[i] == narrow[i] for i in same)
    atom_index = explicit.task.atom_index
    for row in rows:
        sym = json.loads(row["symbolic"])
        state = sym["state"] if isinstance(sym["state"], list) else ast.literal_eval(sym["state"])
        sid = explicit.index[explicit.task.state_of(a for a in state if tuple(a) in atom_index)]
        first = {explicit.task.actions[k].term for k, _ in explicit.optimal_steps(sid)}
        assert {tuple(a) for a in sym["answer"]} == first, row["id"]
        assert score(row, row["answer"]).value == 1.0, row["id"]


WIDENED_RECIPE = """\
name: wide
seed: 0
configs:
  - name: next_action_open
    family: next_action
    form: open
    domain: satellite
    problems: {test: [p08]}
    splits: {test: 160}
"""


def test_a_build_whose_pool_is_widened_has_the_same_bytes_whatever_the_workers(tmp_path):
    """The build above through the CLI (it stopped with exit code 2 before the pool was
    widened): the wider pool is built only where rows are redrawn, in the process that
    redraws, and kept apart from the narrow one, so one worker and two (under another
    PYTHONHASHSEED) write the same Parquet bytes."""
    import os
    import subprocess
    import sys

    recipe = tmp_path / "wide.yaml"
    recipe.write_text(WIDENED_RECIPE)
    digests = []
    for workers, hashseed in ((1, "0"), (2, "1")):
        out = tmp_path / f"out{workers}"
        proc = subprocess.run([sys.executable, "-m", "racbench.cli", "build", str(recipe),
                               "--out", str(out), "--workers", str(workers), "--search-budget",
                               "40", "--max-enumerated-states", "1000", "--quiet"],
                              capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": hashseed})
        assert proc.returncode == 0, proc.stderr
        files = sorted(out.rglob("*.parquet"))
        assert files
        digests.append([f.read_bytes() for f in files])
    assert digests[0] == digests[1]


def test_states_kept_per_state_read_as_computed_afresh():
    """An enumerated world keeps each state's sorted atoms (state_terms) once read;
    what rows get of it (state_atoms, fresh lists) is what the world computes anew,
    the same as an implicit world over the same problem says, and a row changing its
    copy changes nobody else's."""
    from racbench.worlds.strips.world import ImplicitWorld, StripsWorld, trac_world

    world = trac_world(4)
    assert world.explicit and world._terms is not None
    implicit = ImplicitWorld(world.domain, world.domain_text, world.problem, world.label)
    for sid in range(world.n_states):
        fresh = sorted(list(a) for a in world.task.atoms_of(world.bits(sid)) + world.static_atoms)
        assert StripsWorld.state_terms(world, sid) == world.state_terms(sid)
        first = world.state_atoms(sid)
        assert first == fresh == implicit.state_atoms(world.bits(sid))
        first[0].append("changed")
        first.append(["changed"])
        assert world.state_atoms(sid) == fresh


@pytest.mark.parametrize("domain", ["logistics", "ferry"])
def test_nearby_distances_of_implicit_worlds_are_the_enumerated_worlds(domain):
    """`nearby_distance`'s last layer on an implicit world tries only the actions that
    change the goal's atoms (`GroundTask.reached_in_one`): the same distances as the
    enumerated world's search, within every depth, and the deepest layer's states get
    no successor lists (the search from a state one layer deep lists that state's only)."""
    from racbench.worlds.strips.shipped import shipped_files
    from racbench.worlds.strips.task import Condition
    import random

    domain_file, (problem,) = shipped_files(domain, ["p05"])
    explicit = world_for(domain_file, problem)
    implicit = ImplicitWorld(explicit.domain, explicit.domain_text, explicit.problem, "p05")
    task = implicit.task
    rng = random.Random(5)
    found = set()
    for trial in range(300):
        sid = rng.randrange(explicit.n_states)
        start, other = explicit.bits(sid), explicit.bits(rng.randrange(explicit.n_states))
        atoms = list(iter_bits(start ^ other)) or [0]
        cond = Condition.of((a, bool(other >> a & 1))
                            for a in rng.sample(atoms, min(len(atoms), 1 + trial % 2)))
        depth = rng.randrange(5)
        task._succ_memo.clear()
        d = implicit.nearby_distance(start, cond, depth)
        assert d == explicit.nearby_distance(sid, cond, depth)
        if depth == 1 and d is None:  # one layer: the state's moves never listed
            assert not task._succ_memo
        found.add(d)
    assert {None, 1, 2, 3} <= found  # (never 0: every goal differs from its state)
