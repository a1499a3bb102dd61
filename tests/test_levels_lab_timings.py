"""Planning and goal recognition on the inclined planes (issue 32): which plane completes
inclined-plane-determine-angle and inclined-plane-friction-unnamed-surfaces is told only
by the stopwatch's timings, which do not say which plane they timed, so a state is asked
only once the history times both planes so a reader can trust and read it (the block
moved onto the plane, the watch started by the next command, looks at that plane until
the first that shows the block at the bottom, the watch stopped by the next command and
read, or shown by the state) and the timings differ; the context shows those commands
and the lab's answers, and `racbench verify` refuses a row whose history does not."""

from __future__ import annotations

import json

import pytest

from racbench.checks.verify.dataset import verify_row
from racbench.worlds.science.env import ScienceEnv
from racbench.worlds.science.lab import lab
from test_levels_lab_readings import ThreeVariations

PLANES = ("inclined-plane-determine-angle", "inclined-plane-friction-unnamed-surfaces")


@pytest.mark.parametrize("task", PLANES)
def test_the_gold_path_is_decided_from_the_second_planes_last_look(task):
    """The oracle times both planes; from the look that shows the block at the bottom
    of the second (the state then shows the running watch's count) the state is
    decided, never before; the context shows both timings, each run of looks by its
    last."""
    world = lab(task, 0)
    gold = world.gold()
    last_look = len(gold) - 3
    assert gold[last_look - 1].startswith("look at inclined plane")
    assert not any(world.decided(gold[:i]) for i in range(last_look))
    assert all(world.decided(gold[:i]) for i in range(last_look, len(gold) + 1))
    shown = world.readings(gold[:-1])
    assert [c.split(" ")[0] for c, _, _ in shown] == ["move", "activate", "look", "deactivate",
                                                      "look"] * 2
    looks = [(c, said, n) for c, said, n in shown if c.startswith("look at inclined plane")]
    assert all(n > 0 and said.endswith("at the bottom of the plane.") for _, said, n in looks)
    assert sum(n + 1 for _, _, n in looks) == sum(c.startswith("look at inclined") for c in gold)
    ticks = [int(said.split("reads ")[1].split(" ")[0]) for c, said, _ in shown
             if c == "look at stopwatch"]
    assert len(set(ticks)) == 2
    assert world.readings(gold[:last_look]) == shown[:8]


def _replayed(task: str, commands) -> ScienceEnv:
    env = ScienceEnv(task, 0)
    env.reset()
    for command in commands:
        assert env.act(command)[2], command
    return env


@pytest.mark.parametrize("where", ["gap", "late stop"])
def test_a_timing_a_reader_cannot_trust_does_not_decide(where):
    """A first timing with a wait among its looks (the block may have reached the bottom
    unseen), or stopped only after a second look showed the block at the bottom (the
    watch counted past the slide), does not count: the whole gold path then decides
    nothing."""
    task = PLANES[0]
    gold = list(lab(task, 0).gold())
    assert _replayed(task, gold[:-1]).decided()
    first_stop = gold.index("deactivate stopwatch")
    extra = "wait1" if where == "gap" else gold[first_stop - 1]
    at = first_stop - 2 if where == "gap" else first_stop
    changed = gold[:at] + [extra] + gold[at:-1]
    assert not _replayed(task, changed).decided()


def test_rows_show_the_timings_and_verify_rederives_them():
    rows = ThreeVariations(f"planning@science/{PLANES[0]}", seed=0, level="hard").rows(0, 4)
    for row in rows:
        assert 'You typed "activate stopwatch"; the lab answered: ' in row["context"]
        assert " times in a row; the lab answered each time but the last " in row["context"]
        check = verify_row(row)
        assert check.ok and "label" in check.checked, (row["id"], check.message)


def test_verify_refuses_a_row_asked_before_the_second_planes_last_look():
    """A planning row whose history stops a look short of the second plane's bottom,
    its sequence the rest of the gold path (which completes the task: the label
    replays true), is refused: its context could not tell which plane."""
    row = ThreeVariations(f"planning@science/{PLANES[0]}", seed=0, level="easy").rows(0, 1)[0]
    sym = json.loads(row["symbolic"])
    gold = lab(sym["task"], int(sym["variation"]), sym["simplifications"]).gold()
    early = {**sym, "history": list(gold[:-4]), "actions": [[c] for c in gold[-4:]],
             "answer": True}
    check = verify_row(dict(row, label=1, answer="true", symbolic=json.dumps(early)))
    assert not check.ok and "no reading" in check.message, check.message


def test_equal_timings_decide_nothing():
    """The oracle's timings always differ (by 2 ticks at least on every train
    variation); were they equal, neither plane would be the faster: not decided. The
    second timing's noted ticks are set to the first's here."""
    from racbench.worlds.science.tasks.forces import EXPERIMENT

    task = PLANES[1]
    env = _replayed(task, lab(task, 0).gold()[:-1])
    assert env.decided()
    notes = env.episode.memory[EXPERIMENT]
    first = next(n[2] for n in notes if n[1] == "stopped")
    env.episode.memory[EXPERIMENT] = tuple(
        n[:2] + (first,) if n[1] in ("stopped", "read") else n for n in notes)
    assert not env.decided()
