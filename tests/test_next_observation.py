"""Next-observation rows (racbench/tasks/next_observation.py): answers re-derived by
replaying the rows in fresh environments, JECC's distractors, horizons, splits by
unseen tasks, byte-identical builds and recipe errors. Tiny scales: CI's budget."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import racbench
from racbench.checks.verify.dataset import verify_row
from racbench.suites.recipe import RecipeError, parse_recipe
from racbench.tasks.next_observation import NextObservationConfig

RECIPE = """
name: nobs-tiny
seed: 3
configs:
  - name: lab_h2
    family: next_observation
    science: boil
    horizon: 2
    history: 2
    distractors: 5
    splits: {train: 8, test: 4}
  - name: unseen
    family: next_observation
    form: bool
    tasks: {train: [boil], test: [melt]}
    distractors: 3
    splits: {train: 4, test: 4}
  - name: strips_h3
    family: next_observation
    domain: logistics
    problems: {train: [p01], test: [p13]}
    horizon: 3
    distractors: 3
    splits: {train: 4, test: 4}
"""


def _rows(cfg: NextObservationConfig, split: str, n: int) -> list[dict]:
    gen = cfg.rows("t", 1, ("train", "test"))
    return [gen.row(split, i, i).columns for i in range(n)]


@pytest.mark.parametrize("cfg", [NextObservationConfig(science="boil", distractors=7, horizon=1),
                                 NextObservationConfig(science="boil", form="bool", horizon=2,
                                                       distractors=3),
                                 NextObservationConfig(domain="logistics", distractors=3,
                                                       horizon=2),
                                 NextObservationConfig(rules="rtfm", distractors=3, horizon=4,
                                                       rule_options=(("episodes", 5),)),
                                 NextObservationConfig(rules="messenger", form="bool",
                                                       distractors=2, rule_options=(
                                                           ("episodes", 5), ("overlap", False)))],
                         ids=["lab", "lab-bool", "strips", "rules", "rules-bool"])
def test_rows_replay_with_distinct_distractors_of_other_actions(cfg):
    for row in _rows(cfg, "test", 6):
        sym = json.loads(row["symbolic"])
        check = verify_row(row)
        assert check.ok and "option command valid" in check.checked, check.detail
        assert len(set(sym["options"])) == len(sym["options"]) == cfg.distractors + 1
        assert len(set(map(json.dumps, sym["option_actions"]))) == cfg.distractors + 1
        assert row["sequence_length"] == len(sym["actions"]) == cfg.horizon
        assert json.loads(row["metadata"])["n_options"] == cfg.distractors + 1
        assert racbench.score(row, f"I think the answer is ({row['answer']}).").value == 1.0
        if cfg.form == "mc":
            assert row["choices"] == sym["options"] and row["answer_index"] == sym["answer"]
            assert sym["option_actions"][sym["answer"]] == sym["actions"][-1]
        else:
            assert row["label"] == int(sym["answer"]) and row["choices"] == []


def test_rule_world_rows_draw_episodes_of_their_split_only():
    cfg = NextObservationConfig(rules="rtfm", distractors=3, rule_options=(("episodes", 5),))
    for split in ("train", "test"):
        rows = _rows(cfg, split, 8)
        assert {r["problem"].split("-")[1] for r in rows} == {split}
        sym = json.loads(rows[0]["symbolic"])
        assert sym["world"] == "rules" and sym["episode"] == rows[0]["problem"]
        assert "Manual: " in rows[0]["context"]


def test_unseen_tasks_share_no_task_between_splits():
    cfg = NextObservationConfig(tasks={"train": ("boil", "melt"), "test": ("freeze",)})
    train = {item[1] for item in cfg.items("train")}
    test = {item[1] for item in cfg.items("test")}
    assert train == {"boil", "melt"} and test == {"freeze"}
    assert {r["problem"].rsplit("-", 1)[0] for r in _rows(cfg, "test", 4)} == {"freeze"}


def test_build_is_byte_identical_whatever_workers_and_hash_seed_and_verifies(tmp_path):
    recipe = tmp_path / "r.yaml"
    recipe.write_text(RECIPE)
    one = racbench.build(str(recipe), tmp_path / "one", workers=1)
    two = tmp_path / "two"  # two workers, another hash seed
    subprocess.run([sys.executable, "-m", "racbench.cli", "build", str(recipe), "--out", str(two),
                    "--workers", "2", "--quiet"], check=True,
                   env={**os.environ, "PYTHONHASHSEED": "1"})
    files = sorted(p.relative_to(one) for p in one.rglob("*.parquet"))
    assert len(files) == 6
    assert all((one / f).read_bytes() == (two / f).read_bytes() for f in files)
    out = subprocess.run([sys.executable, "-m", "racbench.cli", "verify", str(one)],
                         capture_output=True, text=True)
    assert out.returncode == 0 and "0 mismatching" in out.stdout + out.stderr


@pytest.mark.parametrize("change", [
    ("    horizon: 2", "    horizon: 7") + ("'horizon' must be between 1 and 5",),
    ("    distractors: 5", "    distractors: 16") + ("'distractors' must be between 1 and 15",),
    ("test: [melt]", "test: [boil]") + ("in both 'train' and 'test'",),
    ("    history: 2", "    history: 2\n    length: 3") + ("unknown key 'length'",),
    ("    science: boil", "    rules: rtfm\n    rule_options: {grid: 2}")
    + ("rule option 'grid' of rtfm must be an integer from 3 to 8, got 2",),
    ("    science: boil", "    rules: rtfm\n    simplifications: easy")
    + ("a rule world takes 'rule_options'",),
    ("    science: boil", "    rule_options: {grid: 4}")
    + ("a next_observation config names one world",),
])
def test_bad_recipe_values_exit_2_naming_the_field(tmp_path, change):
    old, new, expected = change
    text = RECIPE.replace(old, new, 1)
    with pytest.raises(RecipeError, match=re.escape(expected)):
        parse_recipe(text, "bad.yaml")
    if change[0].strip() == "horizon: 2":  # and the CLI: exit 2, nothing written
        recipe = tmp_path / "bad.yaml"
        recipe.write_text(text)
        out = subprocess.run([sys.executable, "-m", "racbench.cli", "build", str(recipe),
                              "--out", str(tmp_path / "o")], capture_output=True, text=True)
        assert out.returncode == 2 and expected in out.stderr, out.stderr
        assert not Path(tmp_path / "o").exists()
