"""Gold rows match the declared schema; the interactive loop plays through text streams."""

import io

import datasets

from racbench.worlds.science import play
from racbench.tasks.gold_trajectories import FEATURES, gold_items, gold_row


def test_gold_items_are_sorted_and_complete():
    items = gold_items(["melt", "boil"], ("", "easy"))
    assert items == sorted(items) and len(items) == 2 * 2 * 30
    assert len(gold_items()) == 4136


def test_gold_rows_fit_the_features():
    rows = [gold_row("boil", 3, "", with_valid_actions=True), gold_row("find-plant", 299, "easy")]
    ds = datasets.Dataset.from_list(rows, features=FEATURES)
    assert ds.features == FEATURES
    assert rows[0]["final_score"] == 1.0 and rows[0]["n_steps"] == len(rows[0]["steps"])
    assert rows[0]["steps"][0]["valid_actions"] and rows[1]["steps"][0]["valid_actions"] == []
    assert rows[1]["split"] == "test" and rows[0]["id"] == "boil/3/none"


def test_play_reads_commands_until_quit():
    out = io.StringIO()
    score = play("find-non-living-thing", 0, "easy", io.StringIO("task\nlook around\nquit\nlook\n"), out)
    text = out.getvalue()
    assert "Your task is to find a non-living thing" in text
    assert text.count("Score:") == 2 and score == 0.0


def test_play_ends_at_completion_and_at_end_of_input():
    from racbench.worlds.science import gold_trajectory
    actions = "\n".join(s["action"] for s in gold_trajectory("freeze", 1, "easy"))
    out = io.StringIO()
    assert play("freeze", 1, "easy", io.StringIO(actions + "\n"), out) == 1.0
    assert "Task completed." in out.getvalue()
    assert play("freeze", 1, "", io.StringIO(""), io.StringIO()) == 0.0
