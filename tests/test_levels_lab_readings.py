"""Planning and goal recognition on tasks decided by reading (issue 32): which answer
completes use-thermometer and measure-melting-point-unknown-substance is told only by a
thermometer's past readings, and which plane completes inclined-plane-determine-angle and
inclined-plane-friction-unnamed-surfaces only by the stopwatch's timings of both planes,
so their questions show the readings taken on the way to the state shown (what the lab
answered them; a plane's timing from the block's move to the watch's reading) and are
asked only where those decide the answer; `racbench verify` refuses a row whose history
holds none that does."""

from __future__ import annotations

import json

import pytest

from racbench.checks.verify.dataset import verify_row
from racbench.tasks.config import TaskConfig
from racbench.worlds.science.env import ScienceEnv
from racbench.worlds.science.lab import lab
from racbench.worlds.science.tasks.measurement import told_side
from test_levels_lab_history import Drawn, FirstVariations, read_by_two_nodes

READ = ("use-thermometer", "measure-melting-point-unknown-substance",
        "inclined-plane-determine-angle", "inclined-plane-friction-unnamed-surfaces")
REPLY = "The thermometer measures a temperature of "


class ThreeVariations(FirstVariations):
    variations = 3


_DRAWN = Drawn(ThreeVariations)


def _rows(family: str, level: str, n: int) -> list[dict]:
    """The first `n` rows (seed 0) of `family` on use-thermometer, drawn once a module."""
    return _DRAWN.rows(f"{family}@science/use-thermometer", level, n)


@pytest.mark.parametrize("family", ["planning", "goal_recognition"])
def test_every_task_decided_by_reading_is_asked(family):
    for task in READ:
        TaskConfig(family, science=task, problems={"train": ("0",)}).validate()


def test_a_reading_decides_use_thermometer_from_the_step_it_is_taken():
    """The first reading of the object decides its box: states before it are not
    decided, those after are, and show that reading as the lab answered it."""
    world = lab("use-thermometer", 0)
    gold = world.gold()
    at = next(i for i, c in enumerate(gold) if c.startswith("use thermometer"))
    assert not any(world.decided(gold[:i]) for i in range(at + 1))
    assert all(world.decided(gold[:i]) for i in range(at + 1, len(gold)))
    assert world.readings(gold[:at]) == []
    [(command, said, before)] = world.readings(gold[:-1])
    assert command == gold[at] and said.startswith(REPLY + "10 degrees celsius") and before == 0


def test_readings_on_both_sides_of_the_threshold_do_not_decide():
    """The first reading decides the box, but a later one on the other side (the object
    heated since) would leave a reader unsure which counts: not decided."""
    env = ScienceEnv("use-thermometer", 0)
    env.reset()
    gold = lab("use-thermometer", 0).gold()
    at = next(i for i, c in enumerate(gold) if c.startswith("use thermometer"))
    for command in gold[:at + 1]:
        env.step(command)
    assert env.decided()
    target, world = env.episode.hints["target"], env.world
    world.measurements.append((world.ticks, target.uid, 150, target.state))  # above 100
    assert not env.decided()


def test_melting_readings_decide_only_what_they_tell():
    """Solid at a reading at or above the threshold: it melts above; melted at one at or
    below: below. Variation 3's gold path reads it solid past its threshold (decided
    long before the end); variation 0's reads it solid below (it melts below, which no
    reading on the way tells: never asked)."""
    above = lab("measure-melting-point-unknown-substance", 3)
    gold = above.gold()
    assert not above.decided(()) and above.decided(gold[:-6])
    env = above._env
    threshold = float(above.task_description.split(" above ")[1].split(" ")[0])
    assert told_side(env.world, env.episode.hints["material"], threshold) is True
    below = lab("measure-melting-point-unknown-substance", 0)
    assert not any(below.decided(below.gold()[:i]) for i in range(len(below.gold())))
    assert below.readings(below.gold()[:-1])  # read, but solid below its threshold


@pytest.mark.parametrize("family,level", [("planning", "easy"), ("planning", "hard"),
                                          ("goal_recognition", "medium")])
def test_rows_show_the_readings_and_verify_rederives_them(family, level):
    rows = _rows(family, level, 6)
    assert {r["label"] for r in rows} == {0, 1}
    for row in rows:
        sym = json.loads(row["symbolic"])
        read = [c for c in sym["history"] if c.startswith("use thermometer on ")]
        assert read, row["id"]
        assert f'You typed "{read[0]}"; the lab answered: {REPLY}' in row["context"]
        check = verify_row(row)
        assert check.ok and "label" in check.checked, (row["id"], check.message)


def test_verify_refuses_a_row_asked_before_the_reading():
    """A planning row whose history stops before the reading, its sequence the rest of
    the gold path (which completes the task: the label replays true), is refused: its
    context could not tell which box."""
    row = _rows("planning", "easy", 1)[0]
    sym = json.loads(row["symbolic"])
    gold = lab(sym["task"], int(sym["variation"]), sym["simplifications"]).gold()
    at = next(i for i, c in enumerate(gold) if c.startswith("use thermometer"))
    early = {**sym, "history": list(gold[:at]), "actions": [[c] for c in gold[at:]],
             "answer": True}
    check = verify_row(dict(row, label=1, answer="true", symbolic=json.dumps(early)))
    assert not check.ok and "no reading" in check.message, check.message


def test_planning_rows_are_the_same_bytes_for_any_number_of_readers():
    reference = _rows("planning", "hard", 4)  # drawn in one process
    again = ThreeVariations("planning@science/use-thermometer", seed=0, level="hard")
    assert read_by_two_nodes(again, 4) == reference
