"""Lab planning on grow-fruit and the three lifespan tasks is asked at hard (issue 32):
three commands from the end their last focus named a thing neither the state shown nor
the task named (an animal outside; an apple not grown yet), so hard and expert were not
asked and planning could not fall over three levels (docs/training.md)."""

from __future__ import annotations

import json
import re

import pytest

from racbench.checks.verify.dataset import verify_row
from test_levels_lab import _FirstVariations
from test_levels_lab_history import Drawn, read_by_two_nodes

_DRAWN = Drawn(_FirstVariations)


def _planning_rows(task: str, level: str, n: int) -> list[dict]:
    """Planning's first `n` rows (seed 0) on `task` at `level`, drawn once a module."""
    return _DRAWN.rows(f"planning@science/{task}", level, n)


LIFESPAN = ("lifespan-longest-lived", "lifespan-shortest-lived",
            "lifespan-longest-lived-then-shortest-lived")


def test_lifespan_planning_shows_the_animals_in_the_location_its_task_names():
    """The task says "The animals are in the 'outside' location" (ScienceWorld's words),
    so the context shows what the outside holds, where the agent is elsewhere; the gold
    path's last three commands (open the door, go outside, focus on the animal) are then
    askable from the kitchen. What the context shows not stays out: four commands from
    the end the door to the outside is opened in the kitchen, typed from the hallway."""
    from racbench.worlds.science.lab import ScienceLab, told_place

    for task in LIFESPAN:
        world = ScienceLab(task, 0, "")
        assert told_place(world.task_description) == "outside", task
        gold = world.gold()
        start = len(gold) - (4 if task.endswith("then-shortest-lived") else 3)
        assert gold[start:start + 2] == ("open door to outside", "go to outside"), task
        assert world.carry_out(gold[:start], gold[start:]) == (None, True), task
        assert world.askable(gold[:start], gold[start:], told=True), task
        assert not world.askable(gold[:start], gold[start:]), task
        text, names = world.place_view(gold[:start])
        animal = gold[-1].removeprefix("focus on ")
        assert animal in names and f"a {animal}\n" in text + "\n", task
        assert world.place_view(gold[:start + 2]) is None, task  # outside: its look shows it
    longest = ScienceLab("lifespan-longest-lived", 0, "")
    gold = longest.gold()
    assert not longest.askable(gold[:-4], gold[-4:], told=True)
    for task in ("chemistry-mix", "grow-fruit", "find-living-thing"):
        assert told_place(ScienceLab(task, 0, "").task_description) is None, task


def test_grow_fruits_apple_in_a_flower_pot_is_the_grown_apple_its_task_names():
    """grow-fruit's task says "focus on the grown apple"; the simulator names it by where
    it grew ("focus on apple in flower pot 1"), which three commands from the end (two
    waits before it) reads as the plant in that pot: the command is read as the grown
    apple, of its own kind ("grown"), since a focus on anything else is false whatever
    comes before. A bare "apple" is any apple (the kitchen's bowl holds one)."""
    from racbench.tasks.planning import lab_kind
    from racbench.worlds.science.lab import ScienceLab, grown_names

    world = ScienceLab("grow-fruit", 0, "")
    assert grown_names(world.task_description) == {"apple"}
    gold = world.gold()
    assert gold[-3:] == ("wait1", "wait1", "focus on apple in flower pot 1")
    assert world.askable(gold[:-3], gold[-3:], told=True)
    assert world.carry_out(gold[:-3], gold[-3:]) == (None, True)
    assert lab_kind(world, gold[-3:]) == ("wait1", "wait1", "focus", "grown")
    assert lab_kind(world, [*gold[-3:-1], "focus on flower pot 1"]) == ("wait1", "wait1", "focus")
    assert world.tells("focus on apple") is None
    assert not world.askable(gold[:-3], [*gold[-3:-1], "focus on apple"], told=True)
    for task in ("grow-plant", "chemistry-mix", *LIFESPAN):
        assert grown_names(ScienceLab(task, 0, "").task_description) == frozenset(), task


@pytest.mark.parametrize("task", [*LIFESPAN, "grow-fruit"])
def test_planning_is_asked_at_hard_with_labels_verify_rederives(task):
    """Refused at hard before ("every subject has one answer whatever the state")."""
    from racbench.worlds.science.lab import lab

    rows = _planning_rows(task, "hard", 8)
    assert {r["label"] for r in rows} == {0, 1}
    place_line, shown = "In the 'outside' location, you would see:", []
    for row in rows:
        assert row["sequence_length"] == 3, row["id"]
        check = verify_row(row)
        assert check.ok and "label" in check.checked, (row["id"], check.problems)
        sym = json.loads(row["symbolic"])
        place = lab(task, int(sym["variation"]), "").place_view(tuple(sym["history"]))
        if task in LIFESPAN:
            assert (place is not None) == (place_line in row["context"]), row["id"]
            shown.append(place is not None)
    assert task not in LIFESPAN or any(shown)


def test_lifespan_planning_rows_are_the_same_bytes_for_any_number_of_readers():
    key = "planning@science/lifespan-longest-lived"
    reference = _planning_rows("lifespan-longest-lived", "hard", 6)  # drawn in one process
    assert read_by_two_nodes(_FirstVariations(key, seed=0, level="hard"), 6) == reference


@pytest.mark.parametrize("task, level", [("grow-fruit", "medium"), ("grow-fruit", "hard"),
                                         ("grow-plant", "hard")])
def test_lab_planning_rows_of_the_same_text_have_one_label(task, level):
    """A row's label is decided by its text: two planning rows reading the same (context
    and question) must not differ in label. Before contexts listed the commands typed,
    seed 0's did: grow-fruit at hard rows 1 and 5, the same three reproducing apple
    plants, bees and sequence (wait1, wait1, focus on apple in flower pot 1), the apple
    grown in two ticks in one and not in the other (the plants' hidden timers); at
    medium rows 0, 3 and 6; grow-plant at hard rows 2, 3, 4 and 6 (its waits)."""
    rows = _planning_rows(task, level, 16)
    assert {r["label"] for r in rows} == {0, 1}
    assert _both_labels(rows) == 0


def test_the_commands_typed_decide_what_the_room_alone_does_not():
    """Grow-plant's hard planning rows hold two that show the same room and ask the
    same sequence with opposite labels: the waits typed before them (the plant's hidden
    timer) tell them apart, and only they do."""
    rows = _planning_rows("grow-plant", "hard", 16)
    rooms = [{**r, "context": re.sub(r"The commands typed so far[^\n]*\n", "", r["context"])}
             for r in rows]
    assert all("The commands typed so far" in r["context"] for r in rows)
    assert _both_labels(rooms) > 0 and _both_labels(rows) == 0


def _both_labels(rows: list[dict]) -> int:
    """Groups of rows of the same text (context and question) holding both labels."""
    labels: dict[tuple[str, str], set[int]] = {}
    for row in rows:
        labels.setdefault((row["context"], row["question"]), set()).add(row["label"])
    return sum(len(found) > 1 for found in labels.values())
