"""Imitation rows of the science lab (racbench/tasks/gold_trajectories.py): behaviour
cloning and return-conditioned rows agree with the gold trajectory, a real build replays
with 0 mismatches and is byte-identical with 1 or 2 workers, splits are ScienceWorld's,
bad recipe values are refused before anything is written."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from dataclasses import replace

import datasets
import pytest

import racbench
import racbench.errors
from racbench.checks.audit import audit_dataset, update_card
from racbench.checks.verify import verify_dataset
from racbench.errors import GenerationError
from racbench.export.show import show_rows
from racbench.suites.recipe import RecipeError, load_recipe, parse_recipe
from racbench.tasks.gold_trajectories import (STEP_FEATURES, ScienceStepRows, gold_lengths,
                                              gold_row, play_gold, step_rows)
from racbench.worlds.science import TASKS
from racbench.worlds.science.data import load

TASK = "identify-life-stages-2"  # ten variations of about ten steps: a build in a second
RECIPE = f"""
name: imitation-tiny
configs:
  - name: bc
    science: {TASK}
    rows: behaviour_cloning
    history: 3
    simplifications: [easy]
    valid_actions: true
  - name: rc
    science: {TASK}
    rows: return_conditioned
    simplifications: [easy]
  - name: gold
    science: {TASK}
    simplifications: [easy]
    valid_actions: true
"""


def test_behaviour_cloning_rows_follow_the_gold_trajectory():
    play = play_gold("boil", 3, "", True)
    gold = gold_row("boil", 3, "", True)["steps"]
    rows = step_rows("behaviour_cloning", play, "boil", 3, "", 2, True)
    assert len(rows) == len(gold) > 3
    shown = [play.start["observation"]] + [s["observation"] for s in gold]
    for t, row in enumerate(rows):
        assert row["action"] == gold[t]["action"] and row["step"] == t
        assert row["observation"] == shown[t]
        assert row["history"] == [{"observation": shown[i], "action": gold[i]["action"]}
                                  for i in range(max(0, t - 2), t)]
        before = play.start if t == 0 else gold[t - 1]
        assert row["valid_actions"] == before["valid_actions"] and row["look"] == before["look"]
        assert row["score"] == before["score"]
        sym = json.loads(row["symbolic"])
        assert sym["actions"] == [s["action"] for s in gold[:t]] and sym["answer"] == row["action"]
    assert rows[0]["history"] == [] and len(rows[-1]["history"]) == 2
    datasets.Dataset.from_list(rows, features=STEP_FEATURES["behaviour_cloning"])


def test_return_to_go_is_the_sum_of_rewards_still_to_come():
    play = play_gold("melt", 5, "easy")
    rows = step_rows("return_conditioned", play, "melt", 5, "easy", 1)
    points = [round(100 * s["score"]) for s in [play.start, *play.steps]]
    rewards = [b - a for a, b in zip(points, points[1:])]
    assert points[-1] == 100 and sum(rewards) > 0
    for t, row in enumerate(rows):
        assert row["return_to_go"] == sum(rewards[t:])
        if t:
            assert row["history"] == [{"observation": rows[t - 1]["observation"],
                                       "return_to_go": sum(rewards[t - 1:]),
                                       "action": rows[t - 1]["action"]}]
    assert rows[0]["return_to_go"] == 100 and rows[-1]["return_to_go"] == rewards[-1]
    assert rows[0]["valid_actions"] == [] and rows[0]["look"] == ""


def _same_files(a, b) -> list:
    """The files of build `a` (relative paths), asserting each has the bytes of b's."""
    files = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert [p for p in files if (a / p).read_bytes() != (b / p).read_bytes()] == []
    return files


def test_a_tiny_build_replays_is_worker_independent_and_shows(tmp_path):
    recipe = parse_recipe(RECIPE, "tiny.yaml")
    racbench.build(recipe, tmp_path / "a", workers=2, progress=False)
    racbench.build(recipe, tmp_path / "b", workers=1, progress=False)
    _same_files(tmp_path / "a", tmp_path / "b")
    report = verify_dataset(tmp_path / "a", jobs=1, optimal=False)
    assert report.ok and not report.mismatches and not report.unchecked
    assert report.rows["bc"] == sum(gold_lengths(TASK, "easy"))
    assert report.checked["action"] == report.rows["bc"] + report.rows["rc"]
    assert report.checked["commands"] == sum(report.rows.values())
    ds = datasets.load_dataset(str(tmp_path / "a"), "rc")
    counts = load("splits")[TASK]
    for split, n_variations in zip(("train", "validation", "test"), counts):
        assert len(set(ds[split]["variation"])) == n_variations
        assert set(ds[split]["split"]) == {split}
    assert ds["train"].features == STEP_FEATURES["return_conditioned"]
    shown = "".join(show_rows(tmp_path / "a", "bc", 3, "train"))
    assert "gold action: " in shown and "valid actions (" in shown
    assert audit_dataset(tmp_path / "a") == []  # nothing to probe, and no crash
    update_card(tmp_path / "a", [])
    card = (tmp_path / "a" / "README.md").read_text()
    assert "`return_to_go` (return-conditioned)" in card and "No configs were probed: none" in card


def test_verify_finds_a_changed_row(tmp_path):
    from racbench.checks.verify.replay_imitation import check

    row = step_rows("return_conditioned", play_gold(TASK, 0, "easy", True), TASK, 0, "easy",
                    2, True)[4]
    assert check(row).ok
    for key, value in (("action", "wait"), ("return_to_go", row["return_to_go"] + 1),
                       ("observation", "x")):
        assert not check({**row, key: value}).ok
    sym = json.loads(row["symbolic"])
    sym["actions"][0] = "look around"
    assert "commands" in check({**row, "symbolic": json.dumps(sym)}).message


def test_splits_are_scienceworlds_for_every_variation():
    recipe = load_recipe("trajectories-imitation")
    counts = load("splits")
    tasks = {c.task.task for c in recipe.configs}
    assert tasks == set(TASKS) and len(recipe.configs) == 3 * len(TASKS)
    for spec in recipe.configs:
        gen = spec.task.rows(spec.name, 0, tuple(spec.splits))
        train, dev, test = counts[spec.task.task]
        bounds = {"train": range(0, train), "validation": range(train, train + dev),
                  "test": range(train + dev, train + dev + test)}
        for split, items in gen.items.items():
            assert sorted({v for _, v, _ in items}) == list(bounds[split])
        if isinstance(gen, ScienceStepRows):
            assert spec.splits == {s: sum(gen.lengths[s]) for s in gen.lengths}


def test_the_lengths_table_matches_the_oracle_and_a_stale_one_stops_the_build():
    for task in TASKS:
        for setting in ("", "easy"):
            assert gold_lengths(task, setting)[0] == len(play_gold(task, 0, setting).steps)
    spec = parse_recipe(RECIPE, "tiny.yaml").configs[1]
    gen = spec.task.rows("rc", 0, ("train",))
    gen.lengths["train"][0] += 1
    with pytest.raises(GenerationError, match="tools/gold_lengths.py"):
        gen.row("train", 0)


def test_science_gold_rows_keep_their_bytes():
    rows = [gold_row("boil", 3, "", True), gold_row("find-plant", 299, "easy"),
            gold_row("power-component", 17, "easy", True)]
    digest = hashlib.blake2b(json.dumps(rows, sort_keys=True).encode(), digest_size=16)
    assert digest.hexdigest() == "32be7c9f1eca79bf062287bb054f55bf"


@pytest.mark.parametrize("change, words", [
    ({"rows": "dagger"}, "unknown rows 'dagger'; accepted: trajectory, behaviour_cloning"),
    ({"history": -1}, "history must be an integer from 0"),
    ({"history": "5"}, "history must be an integer from 0"),
    ({"rows": "trajectory", "history": 2}, "'history' is for rows: behaviour_cloning"),
])
def test_bad_values_are_refused(change, words):
    entry = {"name": "x", "science": TASK, "rows": "behaviour_cloning", **change}
    text = json.dumps({"name": "bad", "configs": [entry]})
    with pytest.raises(RecipeError, match=words.replace("(", r"\(")):
        parse_recipe(text, "bad.yaml")


def test_bad_recipe_exits_2_and_writes_nothing(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(RECIPE.replace("history: 3", "history: -2"))
    proc = subprocess.run([sys.executable, "-m", "racbench.cli", "build", str(bad), "--out",
                           str(tmp_path / "out"), "--quiet"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "configs[0] (bc): history must be an integer from 0 to 1000" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.yaml"]


def test_history_zero_and_a_config_without_valid_actions():
    cfg = replace(parse_recipe(RECIPE, "t.yaml").configs[0].task, history=0,
                  valid_actions=False).validate()
    gen = cfg.rows("bc0", 0, ("test",))
    row = gen.row("test", 3).columns
    assert row["history"] == [] and row["valid_actions"] == [] and row["inventory"] == ""


def test_generate_makes_the_rows_a_build_makes():
    rows = racbench.generate("behaviour_cloning", science=TASK, n=12, split="train",
                             simplifications="easy", history=3, valid_actions=True)
    expected = [r for v in range(3) for r in step_rows(
        "behaviour_cloning", play_gold(TASK, v, "easy", True), TASK, v, "easy", 3, True)]
    assert rows == expected[:12]
    with pytest.raises(racbench.errors.InputError, match="history is for"):
        racbench.generate("trajectory", science=TASK, history=2)


def test_behaviour_cloning_steps_are_written_in_small_shards(tmp_path, monkeypatch):
    """Steps with their valid actions (15 KB each in memory while their shard is
    written) go in shards of VALID_STEPS_PER_SHARD, return-conditioned steps in larger
    ones: the same rows, in order, over more files (20,000 such steps a shard made the
    trajectories build's peak memory)."""
    from racbench.export.layout import read_columns, split_files
    from racbench.tasks import gold_trajectories

    monkeypatch.setattr(gold_trajectories, "VALID_STEPS_PER_SHARD", 16)
    recipe = tmp_path / "imitation.yaml"
    recipe.write_text(RECIPE)
    racbench.build(str(recipe), tmp_path / "out", workers=1, progress=False)
    bc, rc = (split_files(tmp_path / "out" / name)["train"] for name in ("bc", "rc"))
    rows = [r for path in bc for r in read_columns(path).to_pylist()]
    assert len(bc) == -(-len(rows) // 16) > 1 and len(rc) == 1
    assert [(r["variation"], r["step"]) for r in rows] == sorted(
        (r["variation"], r["step"]) for r in rows)


def test_long_rows_go_in_row_groups_under_the_byte_bound(tmp_path, monkeypatch):
    """Gold trajectories and steps with their valid actions are long rows: with the
    bound on a row group's bytes (parquet.GROUP_BYTES, here lowered to a few trajectories'
    worth) every row group of a real build's shards is within it (or one row), the build
    is byte-identical with 1 or 2 workers, and every config's rows, read with `datasets`,
    are those of a build whose row groups the bound never cuts (one a shard). Short rows
    (return-conditioned steps, without valid actions) keep their bytes."""
    import pyarrow.parquet as pq

    from racbench.export import parquet
    from racbench.export.layout import split_files
    from racbench.export.parquet import ROW_GROUP, row_bytes

    recipe = parse_recipe(RECIPE, "tiny.yaml")
    racbench.build(recipe, tmp_path / "whole", workers=1, progress=False)
    bound = 60_000
    monkeypatch.setattr(parquet, "GROUP_BYTES", bound)
    racbench.build(recipe, tmp_path / "a", workers=2, progress=False)
    racbench.build(recipe, tmp_path / "b", workers=1, progress=False)
    files = _same_files(tmp_path / "a", tmp_path / "b")
    groups = {}
    for name in ("bc", "rc", "gold"):
        for path in (p for paths in split_files(tmp_path / "a" / name).values()
                     for p in paths):
            shard = pq.ParquetFile(path)
            for g in range(shard.num_row_groups):
                table = shard.read_row_group(g)
                held = int(sum(row_bytes(c.combine_chunks()) for c in table.columns).sum())
                assert held <= bound or table.num_rows == 1, (path, g, held)
                assert table.num_rows <= ROW_GROUP
            groups[name] = groups.get(name, 0) + shard.num_row_groups
        whole = [pq.ParquetFile(p).num_row_groups
                 for paths in split_files(tmp_path / "whole" / name).values() for p in paths]
        assert set(whole) == {1}
        if name == "rc":  # some 23 KB a split: under the bound, not cut
            assert all((tmp_path / "a" / p).read_bytes() == (tmp_path / "whole" / p).read_bytes()
                       for p in files if p.parts[0] == "rc" and p.suffix == ".parquet")
        else:  # 17 KB a step, 78 KB a trajectory: the bound cut them
            assert groups[name] > 2 * len(whole)
        for split in ("train", "validation", "test"):
            assert (datasets.load_dataset(str(tmp_path / "a"), name, split=split).to_list()
                    == datasets.load_dataset(str(tmp_path / "whole"), name,
                                             split=split).to_list())
