"""racbench.Curriculum: levels move up and down with the scores given back, the moves
are logged, the state survives a save and a load, and a stream follows it."""

import json
import logging

import pytest

import racbench
from racbench.checks.score import Score
from racbench.errors import InputError

TASK = "projection@blocksworld_trac"


def feed(cur, task, scores):
    return [m for m in (cur.update(task, s) for s in scores) if m]


def test_levels_rise_with_high_accuracy_and_fall_with_low(caplog):
    cur = racbench.Curriculum(band=(0.4, 0.7), window=10)
    assert cur.level(TASK) == "easy"
    with caplog.at_level(logging.INFO, logger="racbench.training"):
        up = feed(cur, TASK, [1.0] * 9)
        assert up == [] and cur.level(TASK) == "easy"  # not a whole window yet
        up = feed(cur, TASK, [1.0] + [1, 1, 1, 0, 1, 1, 1, 1, 1, 1] + [1.0] * 10)
    assert [(m["from"], m["to"]) for m in up] == [("easy", "medium"), ("medium", "hard"),
                                                  ("hard", "expert")]
    assert up[1]["accuracy"] == 0.9 and up[0]["update"] == 10 and cur.level(TASK) == "expert"
    assert "projection@blocksworld_trac easy -> medium" in caplog.text
    assert feed(cur, TASK, [1.0] * 30) == [] and cur.level(TASK) == "expert"  # the top
    in_band = feed(cur, TASK, [1, 0] * 20)  # 0.5: inside the band, a sliding window
    assert in_band == [] and cur.level(TASK) == "expert"
    down = feed(cur, TASK, [0.0] * 3 + [Score(0.0, False, None)] * 7)
    assert [(m["from"], m["to"], m["accuracy"]) for m in down] == [("expert", "hard", 0.3)]
    # the sliding window held the last nine in-band scores: the third 0 moved it
    assert down[0]["update"] == 9 + 21 + 30 + 40 + 3
    assert cur.accuracy(TASK) == 0.0 and len(cur.recent[TASK]) == 7  # at the new level
    assert feed(cur, TASK, [0.0] * 30) and cur.level(TASK) == "easy"
    assert [m["to"] for m in cur.moves] == ["medium", "hard", "expert", "hard", "medium",
                                            "easy"]


def test_a_restored_curriculum_moves_as_the_saved_one_would(tmp_path):
    scores = [(TASK if i % 3 else "applicability@gripper", float(i % 5 != 0))
              for i in range(130)]
    whole = racbench.Curriculum(window=8, band=(0.3, 0.75))
    feed_all = lambda cur, part: [cur.update(t, s) for t, s in part]  # noqa: E731
    feed_all(whole, scores)
    first = racbench.Curriculum(window=8, band=(0.3, 0.75))
    feed_all(first, scores[:61])
    path = first.save(tmp_path / "cur.json")
    assert json.loads(path.read_text())["updates"] == 61
    restored = racbench.Curriculum.load(path)
    assert restored.state() == first.state()
    feed_all(restored, scores[61:])
    assert restored.state() == whole.state() and whole.moves
    assert {m["task"] for m in whole.moves} == {TASK, "applicability@gripper"}


def test_a_stream_asks_its_curriculum_for_levels():
    cur = racbench.Curriculum(window=4)
    stream = racbench.stream({"executability": 1, "progression@gripper": 1}, seed=0,
                             curriculum=cur)
    rows = stream.rows(0, 8)
    assert {r["n_objects"] for r in rows if r["domain"] == "blocksworld_trac"} == {3}
    for row in rows:  # a model right on every row: scored with the row's own answer
        cur.update(row, racbench.score(row, row["answer"]))
    ex = "executability@blocksworld_trac"
    assert cur.level(ex) == "medium" or cur.level("executability") == "medium"
    later = [r for r in stream.rows(8, 40) if r["domain"] == "blocksworld_trac"]
    assert later and {(r["n_objects"], r["sequence_length"]) for r in later} == {(4, 2)}
    # a bare family names its one task here
    assert cur.level("executability") == cur.level(ex)


@pytest.mark.parametrize("kwargs,words", [
    ({"band": (0.8, 0.5)}, "band is \\(low, high\\)"),
    ({"window": 0}, "window must be a positive integer"),
    ({"start": "legendary"}, "unknown level 'legendary'"),
])
def test_bad_settings_raise_one_input_error(kwargs, words):
    with pytest.raises(InputError, match=words):
        racbench.Curriculum(**kwargs)


def test_bad_scores_and_states_raise_one_input_error(tmp_path):
    cur = racbench.Curriculum(tasks=["projection@gripper", "projection@ferry"])
    with pytest.raises(InputError, match="a score is a number from 0 to 1"):
        cur.update("projection@gripper", 2)
    with pytest.raises(InputError, match="asked on several worlds here"):
        cur.update("projection", 1.0)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"version": 1, "start": "easy"}))
    with pytest.raises(InputError, match="bad.json: not a curriculum's saved state"):
        racbench.Curriculum.load(bad)
    bad.write_text("{")
    with pytest.raises(InputError, match="cannot read a curriculum's state"):
        racbench.Curriculum.load(bad)
