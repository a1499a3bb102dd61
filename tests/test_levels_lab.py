"""The science lab's difficulty levels are what their table says (LAB_LEVELS): a
stream's rows at each level carry the table's simplifications and
sequence length (benchmarks/difficulty_levels.py measures that they get harder)."""

from __future__ import annotations

import json
import re

import pytest

from racbench.checks.verify.dataset import verify_row
from racbench.tasks import FAMILIES, OWN_CONFIG
from racbench.training.levels import LAB_LEVELS, LEVELS, level_config
from test_levels_lab_history import Drawn, FirstVariations, read_by_two_nodes

LAB_FAMILIES = [f for f, fam in FAMILIES.items() if "science" in fam.worlds
                and "bool" in fam.forms and f not in OWN_CONFIG]


def test_the_table_takes_rules_away_and_adds_commands_level_by_level():
    # each level takes away rules the one before had (or is the last's) and asks longer
    # sequences (medium: easy's and a longer one); goal recognition's too, one observed
    # command after the rest (tests/test_levels_lab_goal.py)
    assert [s for s, _ in LAB_LEVELS] == ["easy", "teleport,openDoors", "", ""]
    assert [n for _, n in LAB_LEVELS] == [(1,), (1, 2), (3,), (4,)]


@pytest.mark.parametrize("family", LAB_FAMILIES)
def test_every_lab_family_has_the_tables_knobs_at_every_level(family):
    task = "boil" if family not in ("planning", "goal_recognition") else "grow-plant"
    for k, level in enumerate(LEVELS):
        cfg = level_config(family, level, f"science/{task}")
        simplifications, lengths = LAB_LEVELS[k]
        assert (cfg.science, cfg.simplifications, tuple(cfg.lengths)) == (
            task, simplifications, lengths)


@pytest.mark.parametrize("level", LEVELS)
def test_a_streams_lab_rows_carry_their_levels_knobs(level):
    simplifications, lengths = LAB_LEVELS[LEVELS.index(level)]
    # the first train variations, not all 14: the knobs are the level's on any of them
    rows = FirstVariations("projection@science/boil", seed=1, level=level).rows(
        0, 2 * len(lengths))
    seen = set()
    for row in rows:
        sym = json.loads(row["symbolic"])
        assert sym["simplifications"] == simplifications
        assert row["sequence_length"] == len(sym["actions"]) in lengths
        seen.add(row["sequence_length"])
    assert seen == set(lengths)  # medium's rows ask both its lengths


def test_goal_recognitions_two_commands_are_provable_on_power_component_not_on_boil():
    """Why goal recognition observes one command at every level, after the commands
    typed since the state shown (LAB_HISTORIES), and not two (docs/training.md): boil
    ends in waits, so two commands before its end a single wait completes it (distance
    1, below two commands), where power-component's last connection and wait are both
    needed (distance 2); one observed command is asked on both."""
    from racbench.tasks.goal_recognition import lab_distance
    from racbench.worlds.science.lab import ScienceLab

    for task, simplifications, distance in (("boil", "", 1), ("power-component", "", 2)):
        world = ScienceLab(task, 0, simplifications)
        gold = world.gold()
        assert lab_distance(world, gold[:-2], gold[-2:]) == distance, task
    assert ScienceLab("boil", 0, "").gold()[-2:] == ("wait1", "wait1")


def test_planning_names_what_the_task_tells_and_nothing_else():
    """Why hard and expert (three, four commands) ask planning on chemistry-mix and
    find-living-thing (docs/training.md): planning's context shows the task, so its
    commands may name what the task names as "the NAME" (the salt water a mix makes,
    the red box in the kitchen, the kitchen), which the state shown does not; the gold
    path's last three commands are then askable, as they are not by the state alone.
    What neither shows stays out: another box in the kitchen, a hallway to go through."""
    from racbench.worlds.science.lab import ScienceLab, told_names

    chem, living = ScienceLab("chemistry-mix", 0, ""), ScienceLab("find-living-thing", 0, "")
    assert told_names(chem.task_description) == {"substance", "salt water", "kitchen",
                                                 "ingredients might be found"}
    assert told_names(living.task_description) == {"thing", "red box", "kitchen"}
    for world in (chem, living):
        gold = world.gold()
        assert world.carry_out(gold[:-3], gold[-3:]) == (None, True), world.task
        assert not world.askable(gold[:-3], gold[-3:]), world.task
        assert world.askable(gold[:-3], gold[-3:], told=True), world.task
    gold = chem.gold()
    assert gold[-2:] == ("mix ceramic cup", "focus on salt water")
    # no mix, no salt water: the focus is refused, and read by the name the task tells
    unmixed = [gold[-3], gold[-1]]
    assert chem.carry_out(gold[:-3], unmixed)[0] == 1
    assert chem.askable(gold[:-3], unmixed, told=True)
    assert not chem.askable(gold[:-3], unmixed)
    gold = living.gold()
    assert gold[-3:] == ("open door to kitchen", "go to kitchen", "move flower pot 5 to red box")
    others = [c for c in living.valid(gold[:-1]) if c.startswith("move flower pot 5 to ")
              and c != gold[-1] and not c.endswith(("agent", "kitchen", "inventory"))]
    assert others, "no other container in the kitchen"
    assert not any(living.askable(gold[:-3], [*gold[-3:-1], c], told=True) for c in others)
    # four commands from the end the third is typed in the hallway, which the task names not
    assert not living.askable(gold[:-4], gold[-4:], told=True)


def test_a_planning_rows_last_words_do_not_give_its_label():
    """A lab planning row's kind is its verbs and whether its last command names what
    the task names (`lab_kind`): "focus on the sodium chloride" is false whatever comes
    before, so such sequences, one-sided, are not asked, and sequences naming the task's
    thing are balanced like any other kind."""
    from racbench.tasks.planning import lab_kind
    from racbench.worlds.science.lab import ScienceLab, lab

    chem = ScienceLab("chemistry-mix", 0, "")
    assert lab_kind(chem, ["mix ceramic cup", "focus on salt water"]) == ("mix", "focus", "told")
    assert lab_kind(chem, ["mix ceramic cup", "focus on sink"]) == ("mix", "focus")
    for level in ("easy", "hard"):
        rows = _planning_rows("chemistry-mix", level, 8)
        assert {r["label"] for r in rows} == {0, 1}
        for row in rows:
            sym = json.loads(row["symbolic"])
            world = lab(sym["task"], int(sym["variation"]), sym["simplifications"])
            assert world.tells(sym["actions"][-1][0]), (level, row["id"])


def test_a_tertiary_paints_planning_is_asked_at_hard_on_the_paint_its_task_makes():
    """chemistry-mix-paint-tertiary-color's task tells the paint it makes without "the"
    ("create green-blue paint"), and its last words name the secondary paint ("focus
    on the green paint"): three commands from the end the green-blue paint is not made,
    so the gold suffix was askable only by the name `told_names` now reads after
    "create" (`made_names`). A sequence ending on the secondary paint is false whatever
    comes before, so a sequence ending on the made paint is of another kind ("made",
    `lab_kind`). Other tasks' kinds are as before: a genetics task's "focus on the red
    box" is right on some variations and wrong on others, and stays "told"."""
    from racbench.tasks.planning import lab_kind
    from racbench.worlds.science.lab import ScienceLab, lab, made_names, told_names

    paint = ScienceLab("chemistry-mix-paint-tertiary-color", 0, "")
    assert told_names(paint.task_description) == {"green-blue paint", "green paint",
                                                  "intermediate"}
    gold = paint.gold()
    assert gold[-1] == "focus on green-blue paint"
    assert paint.askable(gold[:-3], gold[-3:], told=True)
    assert made_names(paint.task_description) == {"green-blue paint"}
    assert lab_kind(paint, [*gold[-3:-1], "focus on green paint"]) == ("pour", "mix", "focus",
                                                                        "told")
    assert lab_kind(paint, gold[-3:]) == ("pour", "mix", "focus", "made")
    # no other task makes a thing it names only so: chemistry-mix creates "the substance"
    # (and tells "the salt water"), power-component "an electrical circuit", a secondary
    # paint's task tells "the green paint" it creates
    for task in ("chemistry-mix", "power-component", "chemistry-mix-paint-secondary-color"):
        assert made_names(ScienceLab(task, 0, "").task_description) == frozenset(), task
    assert told_names(ScienceLab("power-component", 0, "").task_description) == {
        "red light bulb"}
    rows = _planning_rows("chemistry-mix-paint-tertiary-color", "hard", 8)
    assert {r["label"] for r in rows} == {0, 1}
    for row in rows:
        sym = json.loads(row["symbolic"])
        world = lab(sym["task"], int(sym["variation"]), sym["simplifications"])
        assert world.tells(sym["actions"][-1][0]) == "made", row["id"]
        assert row["sequence_length"] == 3
        check = verify_row(row)
        assert check.ok and "label" in check.checked, (row["id"], check.problems)


def test_find_plants_planning_teleports_to_the_kitchen_its_task_names_at_medium():
    """find-plant's medium (teleport at hand) ends its gold path "teleport to kitchen,
    move flower pot 3 to red box" from the greenhouse: the kitchen is out of view there,
    and told ("the red box in the kitchen"), so a reader knows what the teleport names;
    a room neither shown nor told (the bedroom) stays out, and so does a thing in the
    kitchen the task does not name (its counter). Before, the told room had to be in
    view, so every two-command sequence of medium was false and none was asked: medium
    asked one command, as easy does, and the reasoner erred on none of it."""
    from racbench.worlds.science.lab import ScienceLab

    plant = ScienceLab("find-plant", 0, "teleport,openDoors")
    gold = plant.gold()
    assert gold[-2:] == ("teleport to kitchen", "move flower pot 3 to red box")
    assert plant.askable(gold[:-2], gold[-2:], told=True)
    assert not plant.askable(gold[:-2], ["teleport to bedroom", gold[-1]], told=True)
    assert not plant.askable(gold[:-2], ["teleport to kitchen", "move flower pot 3 to counter"],
                             told=True)
    rows = _planning_rows("find-plant", "medium", 8)
    assert {r["label"] for r in rows if r["sequence_length"] == 2} == {0, 1}
    for row in rows:
        check = verify_row(row)
        assert check.ok and "label" in check.checked, (row["id"], check.problems)


class _FirstVariations(FirstVariations):
    """A stream whose lab configs draw from the task's first 3 train variations, as the
    benchmark's `--variations 3` does (survey CPU)."""

    variations = 3


_DRAWN = Drawn(_FirstVariations)


def _planning_rows(task: str, level: str, n: int) -> list[dict]:
    """Planning's first `n` rows (seed 0) on `task` at `level`, drawn once a module."""
    return _DRAWN.rows(f"planning@science/{task}", level, n)


@pytest.mark.parametrize("task", ["chemistry-mix", "find-living-thing"])
def test_planning_is_asked_at_hard_and_expert_with_labels_verify_rederives(task):
    for level in ("hard", "expert"):
        _, (length,) = LAB_LEVELS[LEVELS.index(level)]
        rows = _planning_rows(task, level, 8)
        assert {r["label"] for r in rows} == {0, 1}, level
        for row in rows:
            assert row["sequence_length"] == length, (level, row["id"])
            check = verify_row(row)
            assert check.ok and "label" in check.checked, (row["id"], check.problems)


def test_planning_rows_are_the_same_bytes_for_any_number_of_readers():
    key = "planning@science/chemistry-mix"
    reference = _planning_rows("chemistry-mix", "hard", 6)  # drawn in one process
    assert read_by_two_nodes(_FirstVariations(key, seed=0, level="hard"), 6) == reference


def test_the_docs_level_table_states_the_labs_knobs():
    """docs/training.md's level table, the science lab's row, is LAB_LEVELS:
    "simplifications, lengths" a level (goal recognition's too)."""
    from pathlib import Path

    text = (Path(__file__).parents[1] / "docs" / "training.md").read_text()
    row = next(line for line in text.splitlines() if line.startswith("| the science lab ("))
    cells = [c.strip() for c in row.strip("|").split("|")][1:]

    def lengths(said: str) -> tuple[int, ...]:
        return tuple(int(n) for n in said.split(" or "))
    assert len(cells) == len(LEVELS)
    for cell, (simplifications, n) in zip(cells, LAB_LEVELS):
        said = re.fullmatch(r"(.+), ([\d or]+)", cell)
        assert said, cell
        assert said[1] == (simplifications or "none"), cell
        assert lengths(said[2]) == n, cell
