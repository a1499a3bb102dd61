"""TRAC's composite tasks on the science lab: planning verification (does this sequence
complete the task?) and goal recognition (do these commands begin a shortest solution?,
only where the oracle proves it), over states along the gold trajectory and off it.
Labels are re-derived here with a fresh simulator, builds are the same bytes with one
or two workers, `racbench verify` replays every row, and a config the oracle cannot
answer is refused by name."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml

import racbench
from racbench.checks.verify import verify_dataset
from racbench.export.layout import read_columns, split_files
from racbench.worlds.science.env import ScienceEnv
from racbench.worlds.science.trajectory import gold_trajectory

PLANNING = {"name": "power_planning", "family": "planning", "science": "power-component",
            "simplifications": "easy", "length": 2, "problems": {"train": [0], "test": [15]},
            "splits": {"train": 8, "test": 4}}
GOALS = {"name": "lifespan_goal_recognition", "family": "goal_recognition",
         "science": "lifespan-shortest-lived", "simplifications": "teleportAction",
         "length": 1, "problems": {"train": [0], "test": [100]},
         "splits": {"train": 8, "test": 4}}


def _build(root: Path, configs, workers: int = 1) -> Path:
    (root / "lab.yaml").write_text(yaml.safe_dump({"name": "labq", "seed": 5,
                                                   "configs": configs}))
    racbench.build(str(root / "lab.yaml"), root / "out", workers=workers)
    return root / "out"


def _rows(out: Path, config: str) -> list[dict]:
    return [row for paths in split_files(out / config).values() for path in paths
            for row in read_columns(path).to_pylist()]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    return _build(tmp_path_factory.mktemp("labq"), [PLANNING, GOALS])


def _replay(sym: dict) -> ScienceEnv:
    env = ScienceEnv(sym["task"], sym["variation"], sym["simplifications"])
    env.reset()
    for command in sym["history"]:
        assert command in env.valid_actions(), command
        env.step(command)
    return env


def _carry_out(env: ScienceEnv, commands) -> bool:
    for command in commands:
        if env.finished or command not in env.valid_actions():
            return False
        env.step(command)
    return True


def test_planning_labels_are_what_the_simulator_does(built):
    kinds = Counter()
    for row in _rows(built, "power_planning"):
        sym = json.loads(row["symbolic"])
        env = _replay(sym)
        ran = _carry_out(env, [a[0] for a in sym["actions"]])
        complete = ran and env.episode.complete
        assert complete == bool(row["label"]) == (row["answer"] == "true"), row["id"]
        kind = json.loads(row["metadata"]).get("negative_kind")
        assert kind == (None if complete else "not_executable" if not ran else "misses_goal")
        kinds[kind] += 1
        assert row["context"].startswith(env.task_description)
    assert kinds[None] == 6 and kinds["not_executable"] and kinds["misses_goal"], kinds


def _completes_within_one(env: ScienceEnv) -> bool:
    if env.episode.complete:
        return True
    here = env.save()
    for command in env.valid_actions():
        env.restore(here)
        env.step(command)
        if env.episode.complete:
            env.restore(here)
            return True
    env.restore(here)
    return False


def test_goal_recognition_only_where_the_shortest_solution_is_proven(built):
    """Every state asked is one or two commands from completing the task, proven: some
    command completes it (one), or none does and the gold trajectory's last two do
    (two); true rows' command leaves one command fewer to go, false rows' does not."""
    labels, distances = Counter(), Counter()
    for row in _rows(built, "lifespan_goal_recognition"):
        sym = json.loads(row["symbolic"])
        env = _replay(sym)
        total = row["optimal_plan_length"]
        assert _completes_within_one(env) == (total == 1), row["id"]
        if total == 2:
            gold = [s["action"] for s in gold_trajectory(sym["task"], sym["variation"],
                                                         sym["simplifications"])]
            here = env.save()
            assert _carry_out(env, gold[-2:]) and env.episode.complete
            env.restore(here)
        assert _carry_out(env, [a[0] for a in sym["actions"]])
        after = env.episode.complete if total == 1 else _completes_within_one(env)
        assert after == bool(row["label"]), row["id"]
        labels[row["label"]] += 1
        distances[total] += 1
    assert labels == {0: 6, 1: 6} and distances[2], distances


def test_states_lie_on_the_gold_path_and_off_it(built):
    where = Counter()
    for config in ("power_planning", "lifespan_goal_recognition"):
        for row in _rows(built, config):
            sym = json.loads(row["symbolic"])
            gold = [s["action"] for s in gold_trajectory(sym["task"], sym["variation"],
                                                         sym["simplifications"])]
            history = sym["history"]
            on_path = all(h == g or h.split()[0] == g.split()[0] == "connect"
                          for h, g in zip(history, gold)) and len(history) <= len(gold)
            where[on_path] += 1
    assert where[True] and where[False], where


def test_verify_replays_every_row_with_no_mismatch(built, tmp_path, flip_first_label):
    report = verify_dataset(built, optimal=False)
    assert report.ok and not report.mismatches and not report.skipped
    assert report.checked["label"] == sum(report.rows.values()) == 24
    # a flipped label is caught
    copy = tmp_path / "flipped"
    shutil.copytree(built, copy)
    flipped = flip_first_label(copy, "power_planning")
    report = verify_dataset(copy, configs=["power_planning"], optimal=False)
    assert [m.row_id for m in report.mismatches] == [flipped]


def test_same_bytes_with_one_or_two_workers(tmp_path):
    """Goal recognition's rows: the lab's caches (states, proven distances) differ
    between workers, its bytes must not."""
    small = [{**GOALS, "splits": {"train": 4, "test": 2}}]
    digests = []
    for workers in (1, 2):
        (tmp_path / f"w{workers}").mkdir()
        out = _build(tmp_path / f"w{workers}", small, workers)
        digests.append({str(p.relative_to(out)): hashlib.blake2b(p.read_bytes()).hexdigest()
                        for p in sorted(out.rglob("*.parquet"))})
    assert digests[0] == digests[1] and len(digests[0]) == 2


def test_goal_recognition_the_oracle_cannot_prove_is_refused(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump({"name": "bad", "configs": [{**GOALS, "length": 3}]}))
    done = subprocess.run([sys.executable, "-m", "racbench.cli", "build", str(path), "--out",
                           str(tmp_path / "out"), "--quiet"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2, done.stderr
    assert "goal recognition on the science lab" in done.stderr
    assert "lifespan-longest-lived" in done.stderr and "length must be 1 to 2" in done.stderr
    assert not (tmp_path / "out").exists()
