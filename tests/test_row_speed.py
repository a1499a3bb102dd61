"""The shortcuts that make rows cheaper keep what they replace: same text, same keys,
same bits, and a full collection only when worlds were let go.

(Speed itself is measured by benchmarks/build_recipe.py, not here.)
"""

from __future__ import annotations

import gc
import json
import random
import shutil
import subprocess
import sys

from racbench.splits.dedup import canonical_json, problem_key, symbolic_and_key
from racbench.suites.recipe import load_recipe
from racbench.tasks.balance import _bits
from racbench.tasks.question import json_key
from racbench.tasks.rows import release_worlds
from racbench.text import Clause
from racbench.text.phrasing import Names
from racbench.worlds.strips.shipped import shipped_files
import numpy as np
import pytest

from racbench.worlds.strips import world as strips_world
from racbench.worlds.strips.pddl_reader import parse_domain, parse_problem
from racbench.worlds.strips.world import ExplicitWorld, kept_spaces, trac_world, world_for


def _full_collections(action) -> int:
    """How many generation-2 collections `action` made."""
    seen = []

    def callback(phase, info):
        if phase == "start" and info["generation"] == 2:
            seen.append(1)

    gc.callbacks.append(callback)
    try:
        action()
    finally:
        gc.callbacks.remove(callback)
    return len(seen)


def test_release_collects_only_when_worlds_go():
    release_worlds()  # whatever earlier tests loaded
    # nothing loaded: a build releasing after each config of one world makes no pass
    assert _full_collections(release_worlds) == 0
    domain, problems = shipped_files("gripper", ["p01"])
    world_for(domain, problems[0])
    assert _full_collections(release_worlds) == 1  # a world went: its cycles are freed
    assert _full_collections(lambda: release_worlds(dropped=True)) == 1  # a caller's labs


def test_a_world_loaded_again_reads_its_kept_space():
    """Inside kept_spaces (a build), a world let go and loaded again reads the state
    space enumerated the first time from the kept folder, identical, instead of
    enumerating it again; outside, nothing is kept, and the folder goes with the
    block."""
    release_worlds()
    domain, (p01, p02) = shipped_files("gripper", ["p01", "p02"])
    with kept_spaces():
        folder = strips_world._spaces[0]
        first = world_for(domain, p01)
        (kept,) = folder.glob("*.pickle")
        release_worlds()
        again = world_for(domain, p01)
        assert again is not first and again.space is not first.space
        assert again.states == first.states and again.index == first.index
        for name in ("edge_src", "edge_dst", "edge_act", "indptr", "_truth"):
            assert np.array_equal(getattr(again.space, name), getattr(first.space, name))
        # and the caches a build warms: made once, read back
        first.warm()
        assert "_components" not in again.__dict__
        again.warm()
        assert np.array_equal(again.__dict__["goal_distance"], first.goal_distance)
        assert again.__dict__["_components"][1:] == first._components[1:]
        assert np.array_equal(again._components[0], first._components[0])
        assert np.array_equal(again.distances(again.goal_condition), first.goal_distance)
        # it is the kept file that is read: one holding p02's space gives p02's states
        other = world_for(domain, p02)
        assert len(list(folder.glob("*.pickle"))) == 2 and other.states != first.states
        kept.write_bytes(next(p for p in folder.glob("*.pickle") if p != kept).read_bytes())
        release_worlds()
        assert world_for(domain, p01).states == other.states
    assert strips_world._spaces[0] is None and not folder.exists()
    again.warm()  # its folder gone: warmed, nothing kept
    with kept_spaces():  # nor in another build's (where the world was not loaded)
        again.warm()
        assert not list(strips_world._spaces[0].iterdir())
    release_worlds()
    assert world_for(domain, p01).states == first.states  # enumerated: none kept
    release_worlds()


def test_a_world_loaded_again_reads_its_kept_predecessors_and_landmark_splits():
    """Inside kept_spaces (a build), the edges into each state (every sweep reads them)
    are kept with the warmed caches, and the landmark splits of every state
    (goal_avoiding) by the first process to work them out: a world loaded again (the
    driver, another worker) reads them back, the same, instead of working them out."""
    release_worlds()
    domain, (p01,) = shipped_files("gripper", ["p01"])
    with kept_spaces():
        folder = strips_world._spaces[0]
        first = world_for(domain, p01)
        first.warm()
        splits = [first.goal_avoiding(s) for s in range(first.n_states)]
        (avoiding,) = folder.glob("*.avoiding")
        release_worlds()
        again = world_for(domain, p01)
        assert again.space._reverse is None
        again.warm()  # no sweep made (the goal's distances are read back), yet:
        assert again.space._reverse is not None
        for read, made in zip(again.space._reverse, first.space._predecessors()):
            assert np.array_equal(read, made)
        assert [again.goal_avoiding(s) for s in range(again.n_states)] == splits
        # as worked out afresh
        fresh = first.space.reach_avoiding(first.mask_of(first.goal_condition))
        assert np.array_equal(again._goal_avoiding, fresh)
        # it is the kept file that is read: another array there is what comes back
        strips_world._keep(avoiding, np.zeros_like(fresh))
        release_worlds()
        assert world_for(domain, p01).goal_avoiding(0) == 0 != splits[0]
    release_worlds()
    assert world_for(domain, p01).goal_avoiding(0) == splits[0]  # no folder: worked out
    release_worlds()


def test_a_worker_told_the_builds_folder_shares_its_spaces(tmp_path):
    """A worker that is not a fork of the build (a Ray worker) told the build's folder
    (keep_spaces_in) keeps there the spaces it enumerates, and reads back the space kept
    there (by any process) instead of enumerating it; told None, it keeps none."""
    release_worlds()
    domain, (p01, p02) = shipped_files("gripper", ["p01", "p02"])
    try:
        strips_world.keep_spaces_in(str(tmp_path))
        first = world_for(domain, p01)
        (kept,) = tmp_path.glob("*.pickle")
        other = world_for(domain, p02)
        assert other.states != first.states
        # the kept file is what is read: one holding p02's space gives p02's states
        kept.write_bytes(next(p for p in tmp_path.glob("*.pickle") if p != kept).read_bytes())
        release_worlds()
        assert world_for(domain, p01).states == other.states
        strips_world.keep_spaces_in(None)
        release_worlds()
        assert world_for(domain, p01).states == first.states  # enumerated: none read
        assert len(list(tmp_path.glob("*.pickle"))) == 2  # and none kept
    finally:
        strips_world.keep_spaces_in(None)
        release_worlds()


# A writer of a kept space in a pid namespace of its own (`unshare`): pid 1, as two
# nodes' processes can share a pid. Test-only.
SPACE_WRITER = """
import os, sys
from pathlib import Path
from racbench.worlds.strips import world
value = bytes([int(sys.argv[2])]) * (8 << 20)
for _ in range(30):
    world._keep(Path(sys.argv[1]), value)
print(os.getpid())
"""


def _torn_reads(path, values, writing) -> tuple[int, int]:
    """Reads of `path` while `writing()`: (how many were not one of `values`, how many)."""
    import pickle

    torn = reads = 0
    while writing():
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            continue
        try:
            torn += pickle.loads(data) not in values
        except Exception:  # half of a value, or two mixed
            torn += 1
        reads += 1
    return torn, reads


def test_two_writers_of_one_kept_space_never_leave_a_torn_file(tmp_path):
    """Two workers may keep the same space at once in the folder nodes share, and two
    nodes' processes can have the same pid (and the same host name, in containers):
    here two real processes, each pid 1 in a pid namespace of its own, keep different
    values under one name, over and over, while this process reads it. Each writes a
    file of its own and renames it into place: every read unpickles to one of the
    values, and no temporary file is left behind. (Named by pid alone, about a third
    of the reads were torn.)"""
    import pickle

    if subprocess.run(["unshare", "-r", "-p", "-f", "true"], capture_output=True).returncode:
        pytest.skip("needs pid namespaces (unshare -r -p -f) to run two processes of one pid")
    path = tmp_path / "space.pickle"
    values = {bytes([k]) * (8 << 20) for k in (1, 2)}
    writers = [subprocess.Popen(["unshare", "-r", "-p", "-f", sys.executable, "-c",
                                 SPACE_WRITER, str(path), str(k)], stdout=subprocess.PIPE,
                                text=True) for k in (1, 2)]
    torn, reads = _torn_reads(path, values, lambda: any(w.poll() is None for w in writers))
    assert [writer.communicate()[0].split() for writer in writers] == [["1"], ["1"]]
    assert reads and not torn, f"{torn} of {reads} reads torn"
    assert pickle.loads(path.read_bytes()) in values
    assert [p.name for p in tmp_path.iterdir()] == ["space.pickle"]


def test_threads_keeping_one_space_never_leave_a_torn_file(tmp_path):
    """The torn-file test above without pid namespaces (which CI runners and containers
    often refuse, where it skips): four threads of this process are writers of one
    host and one pid, keeping different values under one name while this thread reads
    it. Every read unpickles to one of the values and no temporary file is left. (Named
    by host and pid alone, most reads were torn, in 6 runs of 6.)"""
    import threading

    path = tmp_path / "space.pickle"
    values = [bytes([k]) * (8 << 20) for k in (1, 2, 3, 4)]

    def keep(value):
        for _ in range(20):
            strips_world._keep(path, value)

    writers = [threading.Thread(target=keep, args=(value,)) for value in values]
    for writer in writers:
        writer.start()
    torn, reads = _torn_reads(path, values, lambda: any(w.is_alive() for w in writers))
    for writer in writers:
        writer.join()
    assert reads and not torn, f"{torn} of {reads} reads torn"
    assert [p.name for p in tmp_path.iterdir()] == ["space.pickle"]


def test_a_kept_spaces_folder_gone_keeps_nothing_and_the_build_goes_on():
    """A folder that cannot take a space (here removed mid-build, as a temporary-file
    cleaner may; a full disk alike) keeps nothing: worlds are enumerated and warmed as
    outside kept_spaces, and the block ends without an error."""
    release_worlds()
    domain, (p01,) = shipped_files("gripper", ["p01"])
    with kept_spaces():
        folder = strips_world._spaces[0]
        shutil.rmtree(folder)
        world = world_for(domain, p01)
        world.warm()
        release_worlds()
        again = world_for(domain, p01)
        assert again.states == world.states
    assert not folder.exists() and strips_world._spaces[0] is None
    release_worlds()



def test_a_world_too_large_found_so_by_a_worker_is_not_enumerated_again(monkeypatch):
    """A build's workers enumerate its problems ahead (enumerate_ahead, in forked
    processes); one found too large to enumerate is marked so in the kept folder, and
    the driver's load then makes its implicit world without enumerating it to the limit
    a second time."""
    import multiprocessing

    from racbench.worlds.strips import limits

    release_worlds()
    domain, (p05,) = shipped_files("gripper", ["p05"])
    spaces = []

    class Counted(strips_world.StateSpace):
        def __init__(self, *args):
            spaces.append(args)
            super().__init__(*args)

    with kept_spaces(), limits.overridden(max_enumerated_states=50):
        worker = multiprocessing.get_context("fork").Process(
            target=strips_world.enumerate_ahead, args=(domain, p05))
        worker.start()
        worker.join()
        assert worker.exitcode == 0
        monkeypatch.setattr(strips_world, "StateSpace", Counted)
        world = world_for(domain, p05, implicit=True)
        assert not world.explicit and spaces == []  # read as too large, not enumerated
    with limits.overridden(max_enumerated_states=50):  # outside a build: enumerated
        release_worlds()
        strips_world._TOO_LARGE.clear()
        assert not world_for(domain, p05, implicit=True).explicit and len(spaces) == 1
    strips_world._TOO_LARGE.clear()
    release_worlds()

_ROADS = """(define (domain roads) (:requirements :strips :typing :action-costs)
 (:types place)
 (:predicates (at ?p - place) (road ?a ?b - place))
 (:functions (len ?a ?b - place) (total-cost))
 (:action go :parameters (?a ?b - place) :precondition (and (at ?a) (road ?a ?b))
   :effect (and (not (at ?a)) (at ?b) (increase (total-cost) (len ?a ?b)))))"""


def _trip(length: int) -> str:
    return f"""(define (problem trip) (:domain roads) (:objects a b - place)
 (:init (at a) (road a b) (= (len a b) {length}) (= (total-cost) 0)) (:goal (at b))
 (:metric minimize (total-cost)))"""


def test_a_kept_space_is_not_read_back_for_other_action_costs():
    """Two problems alike but for the numbers of their :init (the action costs a space
    keeps) are two spaces in kept_spaces, not one read back for the other."""
    domain = parse_domain(_ROADS)
    with kept_spaces():
        five = ExplicitWorld(domain, _ROADS, parse_problem(_trip(5), domain), "trip", 100)
        seven = ExplicitWorld(domain, _ROADS, parse_problem(_trip(7), domain), "trip", 100)
        assert len(list(strips_world._spaces[0].glob("*.pickle"))) == 2
    assert five.space.costs.tolist() == [5] and seven.space.costs.tolist() == [7]


def _symbolic_values(rng: random.Random, depth: int = 0):
    kind = rng.randrange(6 if depth < 3 else 4)
    if kind == 0:
        return rng.choice(["on", "é", "a\"b", "", "pallet1"])
    if kind == 1:
        return rng.randrange(-5, 1000)
    if kind == 2:
        return rng.choice([True, False, None, 0.5, 1e300])
    if kind == 3:
        return rng.random()
    if kind == 4:
        return [_symbolic_values(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice("zyxab") + str(i): _symbolic_values(rng, depth + 1)
            for i in range(rng.randrange(4))}


def test_symbolic_and_key_are_the_two_encodings():
    rng = random.Random(0)
    for _ in range(500):
        sym = {k: _symbolic_values(rng) for k in rng.sample(
            ["family", "form", "answer", "actions", "goal", "objects", "init", "zeta", "a"],
            rng.randrange(1, 9))}
        text, key = symbolic_and_key(sym)
        assert text == canonical_json(sym)
        assert key == problem_key({k: v for k, v in sym.items() if k != "answer"})
        assert json.loads(text) == sym


def _old_problem_key(problem: dict) -> str:
    """The problem key before its long members were hashed once: the whole canonical
    JSON hashed."""
    import hashlib

    return hashlib.blake2b(canonical_json(problem).encode(), digest_size=16).hexdigest()


def _same_partition(old: list, new: list) -> None:
    """Equal new keys exactly where the old keys were equal (a bijection between them)."""
    assert len(set(old)) == len(set(new)) == len(set(zip(old, new)))


def test_problem_keys_equal_exactly_when_the_old_keys_were_over_rows():
    """Real rows of several worlds and families (GE3's renamed objects, GE4's literal and
    conjunction goals among them), and each row's first redraw: a row's key from the
    build's path (symbolic_and_key) is problem_key of its symbolic column read back, and
    two rows' keys are equal exactly when the old whole-text hashes were."""
    from racbench.splits.strata import position_codes

    recipe = load_recipe("trac").select(
        "projection_L1,executability_L1,planning_L1,goal_recognition_L2,ge2_planning_L4,"
        "ge3_projection,ge3_goal_recognition,ge4_projection_literals,"
        "ge4_planning_conjunctions")
    old, new = [], []
    for spec in recipe.configs:
        made = spec.task.rows(spec.name, recipe.seed, spec.splits)
        split = next(iter(spec.splits))
        codes = position_codes(recipe.seed, spec.name, split, 60)
        for i in range(60):
            for attempt in (0, 1):
                row = made.row(split, i, codes[i], attempt)
                sym = json.loads(row.columns["symbolic"])
                assert canonical_json(sym) == row.columns["symbolic"]
                problem = {k: v for k, v in sym.items() if k != "answer"}
                assert row.key == problem_key(problem)
                old.append(_old_problem_key(problem))
                new.append(row.key)
    _same_partition(old, new)  # (no two of these rows repeat a problem: the next test
    # holds repeats)


def test_problem_keys_equal_exactly_when_the_old_keys_were_over_any_values():
    """Forms with long strings (a domain's PDDL) at the top and deeper, short ones, a
    str subclass, keys the encoder turns into strings, members given `Encoded`: equal
    keys exactly where the old keys were equal, and the build's path gives problem_key."""
    from racbench.splits.dedup import LONG, Encoded

    class Text(str):
        pass

    rng = random.Random(3)
    longs = ["(define (domain d)" + "x" * LONG, "y" * LONG, "é" * (LONG + 5), "s" * (LONG - 1)]

    def value():
        kind = rng.randrange(5)
        if kind == 0:
            return rng.choice(longs)
        if kind == 1:
            return Text(rng.choice(longs))
        if kind == 2:
            return [rng.choice(longs), rng.randrange(2)]
        return _symbolic_values(rng, 3)

    forms = []
    for _ in range(3000):
        form = {k: value() for k in rng.sample(["domain_pddl", "a", "zeta", "state",
                                                "answer"], rng.randrange(1, 5))}
        if rng.random() < .1:
            form = {rng.randrange(3): v for v in form.values()}
        forms.append(form)
    old, new = [], []
    for form in forms:
        problem = {k: v for k, v in form.items() if k != "answer"}
        old.append(_old_problem_key(problem))
        new.append(problem_key(problem))
        if all(type(k) is str for k in form):
            text, key = symbolic_and_key(form)
            assert (text, key) == (canonical_json(form), new[-1])
            given = {k: Encoded(canonical_json(v)) if type(v) is list else v
                     for k, v in form.items()}
            assert symbolic_and_key(given) == (text, key)
    _same_partition(old, new)
    assert len(set(old)) < len(old) - 500  # many forms repeated


def test_json_key_and_bits_as_before():
    def old_json_key(x):
        if isinstance(x, list):
            return tuple(old_json_key(i) for i in x)
        if isinstance(x, dict):
            return tuple(sorted((k, old_json_key(v)) for k, v in x.items()))
        return x

    rng = random.Random(1)
    for _ in range(500):
        value = _symbolic_values(rng)
        assert json_key(value) == old_json_key(value)
        x = rng.getrandbits(rng.randrange(1, 200))
        assert _bits(x) == [i for i in range(x.bit_length()) if x >> i & 1]
    assert _bits(0) == []


def test_sentences_kept_per_text_and_case():
    world = trac_world(5)
    text = world.text(None, 0, 0, "trac", None)
    plain, named = "red is clear", Clause("red is clear")
    # the same words as a name-led clause keep their case, as a plain one do not
    assert text.sentence(plain) == "Red is clear."
    assert text.sentence(named) == "red is clear."
    assert text.sentence(plain) == "Red is clear."
    # a row's renamed copy shares its base's sentences
    renamed = text.renamed(Names({o: o for o in world.objects}, world.domain))
    assert renamed.sentence(named) == "red is clear."
    assert renamed._sentences is text._sentences


def test_build_freezes_what_outlives_a_release_and_still_frees_worlds():
    """While a build runs, a release of every kind of world freezes what survives it
    (later collections skip it), yet worlds loaded afterwards are still freed by the
    next release; the build unfreezes everything when it ends, and a caller's own
    freeze is left alone."""
    import weakref
    from types import SimpleNamespace

    from racbench.export.build import _rare_collections, _release
    from racbench.tasks.config import TaskConfig

    configs = [SimpleNamespace(task=TaskConfig(family="projection", domain="gripper"))]
    release_worlds()
    domain, problems = shipped_files("gripper", ["p01"])
    with _rare_collections():
        world_for(domain, problems[0])
        _release(configs)
        assert gc.get_freeze_count() > 0
        gone = weakref.ref(world_for(domain, problems[0]))
        _release(configs)
        assert gone() is None  # loaded after the freeze: not frozen, freed
    assert gc.get_freeze_count() == 0
    # a caller's own freeze: by identity, not by count (frozen objects freed meanwhile,
    # xdist's message buffers say, lower the count without anyone unfreezing)
    callers = [None]
    gc.freeze()
    try:
        survivor = [None]  # made after the caller's freeze, outlives the release
        with _rare_collections():
            _release(configs)
        tracked = gc.get_objects()  # generations 0-2: the frozen ones are not listed
        assert not any(o is callers for o in tracked), "the caller's freeze was undone"
        assert any(o is survivor for o in tracked), "the release froze over a caller's freeze"
    finally:
        gc.unfreeze()


def test_configs_phrasing_one_domain_alike_share_its_sentences_and_rows_stay():
    """TRAC's configs share one phrasing of their blocksworld (rows.shared_text); a
    config's rows are the same whether another config said its sentences first."""
    from racbench.splits.strata import position_codes
    from racbench.suites.recipe import load_recipe
    from racbench.tasks import rows

    recipe = load_recipe("trac").select("projection_L1,executability_L2,ge3_planning")
    specs = {spec.name: spec for spec in recipe.configs}

    def made(name):
        spec = specs[name]
        return spec.task.rows(spec.name, recipe.seed, spec.splits)

    def some_rows(config_rows, name):
        codes = position_codes(recipe.seed, name, "test", 40)
        return [config_rows.row("test", i, codes[i]).columns for i in range(40)]

    rows._SHARED_TEXTS.clear()
    cold = some_rows(made("executability_L2"), "executability_L2")
    rows._SHARED_TEXTS.clear()
    first, second = made("projection_L1"), made("executability_L2")
    some_rows(first, "projection_L1")
    world = second.worlds["test"][0]
    assert second._text(world) is first._text(world)  # one phrasing, said once
    assert some_rows(second, "executability_L2") == cold
    # other rendering options (TRAC's unseen names do not change the phrasing; another
    # seed does) get a phrasing of their own
    assert rows.shared_text(world, None, 0, 1, "trac", "blocksworld") is not first._text(world)
    # an obfuscated phrasing gives names' parts words in the order it meets them: never
    # shared, so no config's names hang on what another config met first in the process
    for mode in ("random", "misleading"):
        mine = rows.shared_text(world, mode, 0, 0, "trac", "blocksworld")
        assert mine is not rows.shared_text(world, mode, 0, 0, "trac", "blocksworld")


def _renamable_values(rng: random.Random, objects: list[str], depth: int = 0):
    """Symbolic values with terms of blocksworld (lists headed by its predicates and
    actions), literals and `objects` members, among plain values."""
    kind = rng.randrange(9 if depth < 3 else 5)
    if kind < 2:
        head = rng.choice(["on", "clear", "move", "movetotable", "unknown", "b01"])
        return [head, *rng.choices(objects + ["b99", "{0}", 3], k=rng.randrange(4))]
    if kind == 2:
        return rng.choice(objects + ["{}", "é"])
    if kind < 5:
        return _symbolic_values(rng, 3)
    if kind == 5:  # a literal (a goal's: these two members only), or one with more
        literal = {"atom": _renamable_values(rng, objects, depth + 1),
                   "positive": rng.random() < .5}
        if rng.random() < .5:
            literal["other"] = _renamable_values(rng, objects, depth + 1)
        return literal
    if kind == 6:
        return {"objects": {o: rng.choice(["block", "{x}"]) for o in rng.sample(objects, 3)},
                "any": _renamable_values(rng, objects, depth + 1)}
    if kind == 7:
        # (not headed by a symbol: a term's arguments are names, each looked up)
        return [7, *[_renamable_values(rng, objects, depth + 1) for _ in range(rng.randrange(4))]]
    return _symbolic_values(rng, 3)


def test_symbolic_renamed_as_encoded_is_the_renamed_copy_encoded():
    """symbolic_and_key(sym, names=names), which renames as it encodes, and the state and
    actions templates of tasks/symbolic_text.py give the text and key of the renamed
    copy (Names.symbolic) encoded, whatever the names (braces, quotes, non-ASCII) and
    values; so a row's bytes do not depend on which path made them."""
    from racbench.tasks.symbolic_text import strips_symbolic

    rng = random.Random(2)
    for world in (trac_world(5), trac_world(10)):  # enumerated and implicit
        objects = list(world.objects)
        pool = ["red", "{0}", "{1", "}", "a\"b", "é", "b02", "b01", "zz", "x" * 300,
                "blue", "green", "{{", "\\"]
        for _ in range(300):
            names = Names(dict(zip(objects, rng.sample(pool, len(objects)))), world.domain)
            sym = {k: _renamable_values(rng, objects) for k in rng.sample(
                ["family", "answer", "goal", "objects", "subject", "zeta", "atom"],
                rng.randrange(1, 7))}
            if "objects" in sym:  # a form's objects: name -> type
                sym["objects"] = {o: rng.choice(["block", "{t}"]) for o in objects}
            plain = names.symbolic(sym)
            want = canonical_json(plain), problem_key(
                {k: v for k, v in plain.items() if k != "answer"})
            assert symbolic_and_key(sym, names=names) == want
            sym.pop("atom", None)  # a row's form has none (Names.symbolic would rename
            # only that member of a dict holding one)
            sid = world.sample_state(rng)
            actions = [rng.randrange(len(world.task.actions)) for _ in range(rng.randrange(4))]
            copy = {**world.symbolic(sid), "actions": [list(world.action_term(k))
                                                       for k in actions], **sym}
            made = {**strips_symbolic(world, sid, actions, names), **sym}
            plain = names.symbolic(copy)
            assert symbolic_and_key(made, names=names) == (canonical_json(plain), problem_key(
                {k: v for k, v in plain.items() if k != "answer"}))


def test_scalar_json_is_canonical_json():
    """A row's answers and flags encoded without the encoder: the encoder's text."""
    from racbench.splits.dedup import scalar_json

    class Count(int):
        pass

    for value in (True, False, None, 0, 1, -7, 2 ** 80, -(2 ** 70), 1.5, float("inf"), "é",
                  Count(3), [1, True], {"b": None, "a": 2}):
        assert scalar_json(value) == canonical_json(value), value


def test_renamed_state_is_each_renamed_fact_said():
    """A renamed phrasing says a state's facts in one step: the same text, from the same
    draws, as TaskText.state asking the renamed copy fact by fact."""
    from racbench.text.phrasing import TaskText

    rng = random.Random(5)
    for world in (trac_world(5), trac_world(10)):
        base = world.text(None, 0, 0, "trac", "blocksworld")
        objects = list(world.objects)
        for _ in range(50):
            names = Names(dict(zip(objects, rng.sample(
                ["red", "blue", "{0}", "é", "b01", "x y", "teal", "gold", "plum", "navy",
                 "rose", "sand"], len(objects)))), world.domain)
            text = base.renamed(names)
            atoms = world.state_terms(world.sample_state(rng))
            seed = rng.random()
            assert text.state(atoms, random.Random(seed)) == \
                TaskText.state(text, atoms, random.Random(seed))



def test_query_pools_group_only_the_kinds_a_draw_asks_and_pick_as_grouping_all():
    """A projection draw picks among one or two kinds of literals: only those are grouped,
    in the pool's order, so picks are those of every kind grouped (the same literals
    from the same random numbers), and a survey's kinds are all of them."""
    from racbench.tasks.projection import bool_pool
    from racbench.tasks.queries import FALSE_PATTERNS, _distinct_pair

    world = trac_world(5)
    cfg = load_recipe("trac").select("projection_L2").configs[0].task
    rng, checked = random.Random(3), 0
    for _ in range(60):
        pool = bool_pool(world, rng, cfg)
        if pool is None:
            continue
        every = ({}, {})
        for truth, literals in ((True, pool.positives), (False, pool.negatives)):
            for lit in literals:
                every[truth].setdefault(pool._kind(lit), []).append(lit)
        label = rng.random() < 0.5
        kinds = sorted(pool.kinds(label), key=repr)
        kind = kinds[rng.randrange(len(kinds))]
        fresh = bool_pool(world, random.Random(0), cfg)  # not yet grouped
        picked = pool.__class__(pool.question, world, pool.positives, pool.negatives,
                                pool.allowed)
        seed = rng.random()
        got = picked.pick(random.Random(seed), label, kind)
        assert picked._by_kind_all is None and fresh._by_kind_all is None
        assert set(picked._groups) <= {(t, k) for t in (True, False) for k in kind}
        # the pick made from every kind grouped, as the pool grouped them before
        want_rng = random.Random(seed)
        if len(kind) == 1:
            found = every[label].get(kind[0])
            want = (want_rng.choice(found),) if found else None
        else:
            want = None
            patterns = [(True, True)] if label else list(FALSE_PATTERNS)
            want_rng.shuffle(patterns)
            for first, second in patterns:
                xs, ys = every[first].get(kind[0]), every[second].get(kind[1])
                if xs and ys and _distinct_pair(xs, ys):
                    a = want_rng.choice([x for x in xs if any(y[0] != x[0] for y in ys)])
                    want = a, want_rng.choice([y for y in ys if y[0] != a[0]])
                    break
        assert got == want
        assert {k: sorted(v) for k, v in pool._by_kind[label].items()} == \
            {k: sorted(v) for k, v in every[label].items()}
        checked += 1
    assert checked > 30


def test_object_json_is_canonical_json():
    """A row's metadata encoded member by member (its rendering options given encoded)
    is canonical_json's text, whatever its values."""
    from racbench.splits.dedup import object_json

    render = {"obfuscation": None, "paraphrase": 0, "seed": 7, "style": "trac",
              "templates": "blocksworld"}
    for meta in ({}, {"b": 1, "a": "x\u00e9\"", "c": None, "d": True, "e": [1, "z"],
                      "f": {"y": 2.5, "x": [None]}, "render": render},
                 {"query_kind": "literal", "negative_kind": "suboptimal", "render": render,
                  "problem_file": "blocks5", "state_id": 12, "n_states": 866, "g": -3},
                 {1: "a", 2: "b"}):
        assert object_json(meta) == canonical_json(meta)
        if "render" in meta:
            given = {"render": canonical_json(render)}
            assert object_json(dict(meta, render=None), given) == canonical_json(meta)


def test_worlds_chosen_as_random_choices_chooses_them():
    """A row's problem is drawn as rng.choices(worlds, weights) drew it: the same world
    from the same random numbers, for one world and for several."""
    from racbench.tasks.rows import ConfigRows

    class _World:
        def __init__(self, n, explicit=True):
            self.n_states, self.explicit = n, explicit

    rows = ConfigRows.__new__(ConfigRows)
    for worlds in ([_World(866)], [_World(4), _World(900), _World(1, False), _World(77)]):
        weights = [(w.n_states if w.explicit else 1) ** 0.5 for w in worlds]
        choose = rows._chooser(worlds)
        assert rows._chooser(worlds) is choose
        a, b = random.Random(11), random.Random(11)
        for _ in range(500):
            assert choose(a) is b.choices(worlds, weights)[0]
        assert a.random() == b.random()


def test_targets_kept_by_stratum_digits_are_the_strata_targets():
    """A bool row's target, kept by its stratum's digits, is the one its stratum makes
    (made afresh for every code), in a config of several groups and negative kinds."""
    from racbench.splits.strata import stratum_digits, stratum_for

    spec = load_recipe("trac").select("ge4_goal_recognition_literals").configs[0]
    made = spec.task.rows(spec.name, 0, {"test": 400})
    groups = made.groups["test"]
    for code in range(400):
        kept = made.target_for("test", code)
        made._targets.clear()
        assert made.target_for("test", code) == kept
        label, variant, g, i = stratum_digits(code, groups, made.n_variants)
        stratum = stratum_for(code, groups, made.n_variants)
        assert (stratum.label, stratum.cell, stratum.variant) == (bool(label), groups[g][i],
                                                                  variant)
        assert kept.label == stratum.label


def test_macros_called_straight_say_what_jinja_says():
    """A template module's plain macros called straight (phrasing.Macros) give jinja's
    own text for every macro of TRAC's and ACP's templates, by position; a call by
    keyword goes through jinja."""
    from racbench.text.phrasing import Macros, template

    for style, name in (("trac", "planning"), ("trac", "goal_recognition"),
                        ("trac", "projection"), ("trac", "executability"), ("acp", "common")):
        module = template(name, style)
        straight = Macros(module)
        macros = [m for m in dir(module) if not m.startswith("_")]
        assert macros
        for macro in macros:
            jinja = getattr(module, macro)
            args = [f"<{i}>" for i in range(getattr(jinja, "_argument_count", 0))]
            try:
                said = jinja(*args)
            except Exception:  # a macro that reads its arguments otherwise than text
                continue
            assert getattr(straight, macro)(*args) == said
            if args:
                assert getattr(straight, macro)(
                    *args[:-1], **{jinja.arguments[len(args) - 1]: args[-1]}) == said


def test_walks_of_given_schemas_keep_each_states_steps_of_a_schema():
    """A walk of given schemas in a world that keeps its successor lists reads each
    state's steps of a schema kept: the same walks, from the same draws, as listing
    them every step."""
    from racbench.splits.draws import pick
    from racbench.tasks.base import walk_through

    def listed(world, rng, sid, kinds):
        plan, states = [], [sid]
        for schema in kinds:
            acts, dsts = world.succ(sid)
            options = [i for i, k in enumerate(acts) if world.action_kind(k)[0] == schema]
            if not options:
                return None
            j = pick(rng, options)
            plan.append(acts[j])
            sid = dsts[j]
            states.append(sid)
        return plan, states

    world, rng = trac_world(5), random.Random(3)
    schemas = sorted({world.action_kind(k)[0] for k in range(len(world.task.actions))})
    for _ in range(300):
        sid, kinds = world.sample_state(rng), tuple(rng.choices(schemas, k=rng.randint(1, 4)))
        seed = rng.random()
        a, b = random.Random(seed), random.Random(seed)
        assert walk_through(world, a, sid, len(kinds), kinds) == listed(world, b, sid, kinds)
        assert a.random() == b.random()


def test_bit_lists_kept_are_the_bits():
    from racbench.tasks.queries import bit_list
    from racbench.worlds.strips.task import iter_bits

    rng = random.Random(2)
    for _ in range(500):
        mask = rng.getrandbits(rng.randint(0, 70))
        assert bit_list(mask) == list(iter_bits(mask)) == bit_list(mask)


def test_projection_queries_kept_per_end_state_are_the_walks_queries():
    """A projection pool of an enumerated world reads its literals (and their groups by
    kind) kept by the walk's end and the predicates it touches: the same walk from the
    same draws, the same literals in the same order, and the same picks, as listing
    them from the walk (`_walk_facts`) every draw, which worlds that keep nothing do."""
    from racbench.tasks import projection
    from racbench.tasks.queries import QueryPool, sizes

    world = trac_world(5)
    cfg = load_recipe("trac").select("projection_L2").configs[0].task
    rng, kept_hits = random.Random(5), 0
    for _ in range(200):
        seed = rng.random()
        a, b = random.Random(seed), random.Random(seed)
        before = len(world.__dict__.get("_projection_queries", (None, {}))[1])
        pool = projection.bool_pool(world, a, cfg)
        kept_hits += len(world.__dict__["_projection_queries"][1]) == before
        listed = projection._walk_facts(world, b, cfg)
        assert a.random() == b.random()
        if listed is None:
            assert pool is None
            continue
        q, universe, true_end = listed
        want = QueryPool(q, world, *projection._queries(universe, true_end), sizes(cfg))
        assert (pool.question.sid, pool.question.actions) == (q.sid, q.actions)
        assert (pool.positives, pool.negatives) == (want.positives, want.negatives)
        for label in (True, False):
            kinds = sorted(want.kinds(label), key=repr)
            for kind in rng.sample(kinds, min(2, len(kinds))):
                seed = rng.random()
                assert pool.pick(random.Random(seed), label, kind) == \
                    want.pick(random.Random(seed), label, kind)
    assert kept_hits > 10  # draws that end where earlier ones did read them kept


def test_rows_made_stage_by_stage_are_the_rows_made_one_by_one():
    """ConfigRows.row_batch (a chunk's rows drawn, then named, said, keyed and put in
    columns stage by stage) makes the rows `row` makes one at a time, in every form and
    whether or not a row maker made rows before: TRAC's renamed blocks (bool rows of
    several families, literal queries) and acp's gripper (mc and open rows)."""
    from racbench.export.split_rows import SplitRows, made_rows
    from racbench.splits.strata import position_codes

    trac = load_recipe("trac").select(
        "projection_L2,goal_recognition_L1,executability_L3,ge4_planning_literals")
    acp = load_recipe("acp").select("gripper_projection_mc,gripper_planning_open")
    for recipe in (trac, acp):
        for spec in recipe.configs:
            one, batch = (spec.task.rows(spec.name, recipe.seed, {"test": 60})
                          for _ in range(2))
            codes = position_codes(recipe.seed, spec.name, "test", 60)
            each = [one.row("test", i, code) for i, code in enumerate(codes)]
            assert batch.row_batch("test", 0, codes[:25]) == each[:25], spec.name
            # a batch after other rows, of a start other than 0, and one of one row
            assert batch.row_batch("test", 25, codes[25:59]) == each[25:59], spec.name
            assert made_rows(batch, "test", 59, codes[59:]) == each[59:], spec.name
            # a split's rows (SplitRows makes its chunks with row_batch): the same columns
            split = SplitRows(spec.name, batch, "test", 60, recipe.seed, {})
            assert list(split) == [row.columns for row in each], spec.name


def test_symbolic_written_straight_is_the_renamed_form_encoded():
    """A STRIPS row's symbolic form and key written straight in member order
    (symbolic_text.strips_symbolic_keyed, no dict) are the text and key of its renamed
    form encoded, in every form, with or without actions and a goal, whatever the names
    (braces, quotes, non-ASCII, long) and the subject, options and answer; where it
    declines (a long string member) the general way gives them."""
    from racbench.tasks.base import goal_json
    from racbench.tasks.question import Question
    from racbench.tasks.symbolic_text import strips_symbolic_keyed

    rng = random.Random(5)
    straight = 0
    for world in (trac_world(5), trac_world(10)):  # enumerated and implicit
        objects = list(world.objects)
        pool = ["red", "{0}", "{1", "}", "a\"b", "é", "b02", "b01", "zz", "x" * 300,
                "blue", "green", "{{", "\\"]
        atoms = [a for a in world.task.atoms][:12]
        for _ in range(300):
            names = Names(dict(zip(objects, rng.sample(pool, len(objects)))), world.domain)
            sid = world.sample_state(rng)
            form = rng.choice(["bool", "mc", "open"])
            family = rng.choice(["projection", "planning", "x" * 300])
            goal = (None if rng.random() < 0.4 else
                    [(tuple(rng.choice(atoms)), rng.random() < 0.5)
                     for _ in range(rng.randrange(1, 3))])
            q = Question(sid, subject=_renamable_values(rng, objects),
                         actions=[rng.randrange(len(world.task.actions))
                                  for _ in range(rng.randrange(4))], goal=goal,
                         options=_renamable_values(rng, objects) if form == "mc" else None,
                         answer=rng.choice([True, False, 2, "b01", "x" * 300,
                                            _renamable_values(rng, objects)]))
            if rng.random() < 0.1:
                q.subject = "y" * 300  # a long string: the general way
            actions = bool(q.actions) or rng.random() < 0.5
            plain = {"family": family, "form": form, **world.symbolic(sid)}
            if actions:
                plain["actions"] = [list(world.action_term(k)) for k in q.actions]
            if goal is not None:
                plain["goal"] = goal_json(goal)
            plain["subject"] = q.subject
            if form == "mc":
                plain["options"] = q.options
            plain["answer"] = q.answer
            plain = names.symbolic(plain)
            want = canonical_json(plain), problem_key(
                {k: v for k, v in plain.items() if k != "answer"})
            got = strips_symbolic_keyed(world, q, family, form, actions, names)
            if got is not None:
                straight += 1
                assert got == want
            else:
                assert q.subject == "y" * 300 or len(family) >= 256
    assert straight > 400


def test_metadata_written_per_world_is_object_json():
    """A row's metadata with the members a world's rows share written once per world
    (ConfigRows._metadata) is canonical_json's text of the whole dict, for enumerated and
    implicit worlds, whatever q.meta holds (a member of the same name as those added)."""
    from racbench.tasks.question import Question
    from racbench.tasks.rows import PROBLEM_GOAL

    recipe = load_recipe("trac").select("projection_L2")
    spec = recipe.configs[0]
    made = spec.task.rows(spec.name, recipe.seed, {"test": 10})
    render = json.loads(made._render_json())
    rng = random.Random(3)
    metas = [{}, {"query_kind": "literal"}, {"query_kind": "literal", "negative_kind": "x"},
             {"a": 1, "z": None, "m": [1, "é"], "b": {"y": 2.5}, "q": True},
             {"state_id": 3}, {"render": 1, "k": "v"}, {"n_states": "many"},
             {"optimal_plan_length_to": "elsewhere"}, {"problem_file": "p"}]
    for world in (*made.worlds["test"][:2], trac_world(10)):
        for meta in metas:
            for _ in range(3):
                sid = world.sample_state(rng)
                q = Question(sid, meta=dict(meta))
                for plan_to_goal in (False, True):
                    want = dict(meta, render=render, problem_file=world.label)
                    if world.explicit:
                        want.update(state_id=sid, n_states=world.n_states)
                    if plan_to_goal:
                        want["optimal_plan_length_to"] = PROBLEM_GOAL
                    assert made._metadata(world, q, plan_to_goal) == canonical_json(want)
