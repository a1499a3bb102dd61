"""The science lab's difficulty levels are what their table says (LAB_LEVELS): a
stream's rows at each level carry the table's simplifications and
sequence length (benchmarks/difficulty_levels.py measures that they get harder)."""

from __future__ import annotations

import json
import re

import pytest

import racbench
from racbench.tasks import FAMILIES, OWN_CONFIG
from racbench.training.levels import LAB_LEVELS, LEVELS, level_config

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
    rows = racbench.stream("projection@science/boil", seed=1, level=level).rows(
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


def test_planning_at_hard_has_no_true_row_on_chemistry_mix_or_find_living_thing():
    """Why hard and expert (three, four commands) do not ask planning on chemistry-mix
    and find-living-thing (docs/training.md): the gold path's last three commands
    complete the task but the row's context cannot name them (the salt water the mix
    makes is not there yet; the kitchen is another room), while its last one can."""
    from racbench.worlds.science.lab import ScienceLab

    for task in ("chemistry-mix", "find-living-thing"):
        world = ScienceLab(task, 0, "")
        gold = world.gold()
        assert world.carry_out(gold[:-3], gold[-3:]) == (None, True), task
        assert not world.askable(gold[:-3], gold[-3:]), task
        assert world.askable(gold[:-1], gold[-1:]), task
    assert ScienceLab("chemistry-mix", 0, "").gold()[-1] == "focus on salt water"


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
