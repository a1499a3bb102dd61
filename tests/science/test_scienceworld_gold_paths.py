"""ScienceWorld's own gold paths play in racbench's lab, command by command and score for score.

A reference test (the `scienceworld` extra, Java 17; the `test` extra installs it): for four
variations of every task, sampled across its train, validation and test splits, ScienceWorld
1.2.3 generates its gold action sequence and plays it, and racbench plays the same commands in
the same task variation. Every command must be accepted here (run, or answered with the same
question about which thing is meant where ScienceWorld asks one: its gold paths answer `0`),
and the 0-100 score after every step must be ScienceWorld's. The replay is
`benchmarks/science_gold_replay.py`'s; set RACBENCH_SW_CACHE to a JSON file outside the
repository to keep ScienceWorld's recordings between runs.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

scienceworld = pytest.importorskip("scienceworld")

from racbench.worlds.science import TASKS  # noqa: E402

PER_TASK = 4


def _replay_module():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "science_gold_replay.py"
    spec = importlib.util.spec_from_file_location("science_gold_replay", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


replay_module = _replay_module()


@pytest.fixture(scope="module")
def recordings():
    rec = replay_module.Recordings(os.environ.get("RACBENCH_SW_CACHE"))
    yield rec
    rec.close()


def _first_difference(result: dict) -> str | None:
    for i, step in enumerate(result["steps"]):
        if not step["accepted"]:
            return f"step {i}: {step['command']!r} refused: {step['reply']!r}"
        if step["ours"] != step["theirs"]:
            return f"step {i}: {step['command']!r} scores {step['ours']} here, {step['theirs']} in ScienceWorld"
    return None


@pytest.mark.parametrize("task", sorted(TASKS))
def test_scienceworlds_gold_path_is_accepted_and_scores_alike(recordings, task):
    variations = replay_module.sample_variations(task, PER_TASK)
    assert len(variations) == min(PER_TASK, TASKS[task].n_variations)
    problems = []
    for v in variations:
        recording = recordings.get(task, v, "")
        assert recording["commands"] and recording["scores"][-1] == 100, (task, v, "ScienceWorld's own gold path")
        result = replay_module.replay(task, v, "", recording)
        diff = _first_difference(result)
        if diff:
            problems.append(f"{task} v{v} {diff}")
    recordings.save()     # with RACBENCH_SW_CACHE set, what was recorded so far is kept
    assert not problems, "\n".join(problems)


def test_the_sample_spans_every_split():
    """Four variations of a task come from its train, validation and test splits alike."""
    from racbench.worlds.science import variation_split
    for task in sorted(TASKS):
        splits = {variation_split(task, v) for v in replay_module.sample_variations(task, PER_TASK)}
        assert splits == {"train", "validation", "test"}, task
