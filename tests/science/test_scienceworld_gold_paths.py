"""ScienceWorld's own gold paths play in racbench's lab, command by command and score for score.

A reference test (the `scienceworld` extra, Java 17; the `test` extra installs it): for four
variations of every task, sampled across its train, validation and test splits, ScienceWorld
1.2.3 generates its gold action sequence and plays it, and racbench plays the same commands in
the same task variation. Every command must be accepted here (run, or answered with the same
question about which thing is meant where ScienceWorld asks one: its gold paths answer `0`),
and the 0-100 score after every step must be ScienceWorld's. The replay is
`benchmarks/science_gold_replay.py`'s.

ScienceWorld's recordings of those 120 gold paths (its commands, its score after every step,
and whether it asked which thing was meant) are kept in
tests/data/science/scienceworld_gold_paths.json, written from ScienceWorld by
`python benchmarks/science_gold_replay.py --per-task 4 --write-sample PATH`: generating them
takes ScienceWorld's Java side many minutes, too long for every run. That they are
ScienceWorld's own is checked live on every run: a sample of them is generated and played in
ScienceWorld again and must match step for step.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

scienceworld = pytest.importorskip("scienceworld")

from racbench.worlds.science import TASKS  # noqa: E402
from scienceworld_env import reference_env  # noqa: E402

PER_TASK = 4
RECORDED = Path(__file__).resolve().parents[1] / "data" / "science" / "scienceworld_gold_paths.json"
# played live in ScienceWorld on every run, against the recordings: tasks of every topic whose
# gold paths are short (a few seconds of Java each)
LIVE = ("find-living-thing", "inclined-plane-determine-angle", "lifespan-longest-lived",
        "test-conductivity", "chemistry-mix-paint-secondary-color", "use-thermometer")


def _replay_module():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "science_gold_replay.py"
    spec = importlib.util.spec_from_file_location("science_gold_replay", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


replay_module = _replay_module()


@pytest.fixture(scope="module")
def recordings() -> dict:
    return json.loads(RECORDED.read_text(encoding="utf-8"))


def _first_difference(result: dict) -> str | None:
    for i, step in enumerate(result["steps"]):
        if not step["accepted"]:
            return f"step {i}: {step['command']!r} refused: {step['reply']!r}"
        if step["ours"] != step["theirs"]:
            return f"step {i}: {step['command']!r} scores {step['ours']} here, {step['theirs']} in ScienceWorld"
    return None


# Tasks whose replays still differ from ScienceWorld's (issue 28 is open for them), each
# with why and the bounds measured on the recorded sample: (refused commands, mean per-step
# score difference). Their gold paths reach full score here too; the test holds them to
# their bounds and, once one plays exactly as ScienceWorld, asks for it to leave the list.
KNOWN_APART = {
    "power-component": ("a bulb lights at the connect or a tick later there, by the order its "
                        "identity-hashed sets of things tick in (by run, not variation); always a "
                        "tick later here", 0, 0.55),
    "power-component-renewable-vs-nonrenewable-energy": ("as power-component", 0, 0.55),
    "grow-fruit": ("ScienceWorld's bees pollinate at random, unseeded (first fruit 10-16 ticks "
                   "after the hive opens, plants one after another); ours all in 12", 1, 0.16),
    "mendelian-genetics-known-plant": ("the seed traits of the parents' offspring are ScienceWorld's "
                                       "unseeded random draws (they change from run to run there), ours "
                                       "our own; its bees pollinate later (the parents' grown traits are "
                                       "its per-variation draw, read into genetics_parents.json)", 4, 0.68),
    "mendelian-genetics-unknown-plant": ("as mendelian-genetics-known-plant", 11, 0.60),
}


@pytest.mark.parametrize("task", sorted(TASKS))
def test_scienceworlds_gold_path_is_accepted_and_scores_alike(recordings, task):
    variations = replay_module.sample_variations(task, PER_TASK)
    assert len(variations) == min(PER_TASK, TASKS[task].n_variations)
    problems, refused, diffs = [], 0, []
    for v in variations:
        recording = recordings[f"{task}|{v}|"]
        assert recording["commands"] and recording["scores"][-1] == 100, (task, v, "ScienceWorld's own gold path")
        result = replay_module.replay(task, v, "", recording)
        assert result["complete"], (task, v, "ScienceWorld's gold path does not reach full score here")
        diff = _first_difference(result)
        if diff:
            problems.append(f"{task} v{v} {diff}")
        refused += result["refused"]
        diffs += [abs(s["ours"] - s["theirs"]) for s in result["steps"]]
    if task not in KNOWN_APART:
        assert not problems, "\n".join(problems)
        return
    why, max_refused, max_mean = KNOWN_APART[task]
    assert problems, f"{task} now plays exactly as ScienceWorld: take it out of KNOWN_APART"
    mean = sum(diffs) / len(diffs)
    assert refused <= max_refused and mean <= max_mean + 0.005, (
        f"{task} moved further from ScienceWorld ({why}): {refused} refused (was "
        f"{max_refused}), mean difference {mean:.2f} (was {max_mean})\n" + "\n".join(problems))


@pytest.fixture(scope="module")
def live():
    """ScienceWorld played live, a run apart from the one that recorded the gold paths: one
    JVM for the module's two live tests (each start costs seconds of Java)."""
    played = replay_module.Recordings(None)
    played._sw = reference_env(replay_module.STEP_LIMIT)  # its steps' valid actions not fetched
    try:
        yield played
    finally:
        played.close()


def test_the_recordings_are_scienceworlds_own(recordings, live):
    """The recorded commands of the first sampled variation of a task of each topic, played
    in ScienceWorld now, score and ask there as recorded, and reach its full score; and
    ScienceWorld still generates a gold path for them. (Its gold path generator may take
    another route on another run, through another door, so the commands are not compared.)"""
    for task in LIVE:
        v = replay_module.sample_variations(task, PER_TASK)[0]
        kept = recordings[f"{task}|{v}|"]
        theirs = live.play(task, v, "", kept["commands"])
        assert (theirs["scores"], theirs["asked"]) == (kept["scores"], kept["asked"]), (task, v)
        assert kept["scores"][-1] == 100, (task, v)
        assert live.get(task, v, "")["scores"][-1] == 100, (task, v)


def test_self_replay_counts_what_scienceworld_repeats_on_a_fresh_run(recordings, live):
    """The benchmark's --self-replay column: a recording ScienceWorld repeats on a fresh run is
    accepted with no score difference; one it would not (a question it did not ask, another
    score) counts the step refused and the difference."""
    task = LIVE[0]
    v = replay_module.sample_variations(task, PER_TASK)[0]
    kept = recordings[f"{task}|{v}|"]
    same = replay_module.self_replay(live, task, v, "", kept)
    assert same == {"accepted": True, "refused": 0, "diff": 0, "steps": len(kept["commands"])}
    altered = {**kept, "asked": [not kept["asked"][0]] + kept["asked"][1:],
               "scores": kept["scores"][:-1] + [kept["scores"][-1] - 7]}
    other = replay_module.self_replay(live, task, v, "", altered)
    assert (other["accepted"], other["refused"], other["diff"]) == (False, 1, 7)


def test_the_recordings_cover_the_sample(recordings):
    """Every sampled variation of every task is recorded, and nothing else is."""
    wanted = {f"{task}|{v}|" for task in TASKS
              for v in replay_module.sample_variations(task, PER_TASK)}
    assert set(recordings) == wanted


def test_the_sample_spans_every_split():
    """Four variations of a task come from its train, validation and test splits alike."""
    from racbench.worlds.science import variation_split
    for task in sorted(TASKS):
        splits = {variation_split(task, v) for v in replay_module.sample_variations(task, PER_TASK)}
        assert splits == {"train", "validation", "test"}, task


def test_a_command_scienceworld_refused_too_counts_as_accepted():
    """ScienceWorld's gold path of test-conductivity 825 holds 'connect block terminal 1 ...',
    which its parser refuses ('No known action matches that input.'); refused here too, the
    replay counts it accepted only because the recording says ScienceWorld refused it."""
    commands = ["open door to bedroom", "go to bedroom", "open door to hallway", "go to hallway",
                "open door to workshop", "go to workshop", "connect block terminal 1 to green wire terminal 2"]
    recording = {"commands": commands, "scores": [0, 5, 5, 5, 5, 10, 10], "asked": [False] * 7,
                 "refused": [False] * 6 + [True]}
    assert replay_module.replay("test-conductivity", 825, "", recording)["accepted"]
    recording["refused"][-1] = False
    assert not replay_module.replay("test-conductivity", 825, "", recording)["accepted"]
