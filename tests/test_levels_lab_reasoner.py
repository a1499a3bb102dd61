"""The levels benchmark's lab reasoner takes commands under the rules it learned on the
easy rows, whatever rules the row's history was replayed under
(benchmarks/difficulty_levels.py: `learned_rules`)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from racbench.checks.verify.replay import Replay
from racbench.worlds.science.env import ScienceEnv

ROOT = Path(__file__).resolve().parents[1]


def benchmark():
    spec = importlib.util.spec_from_file_location("difficulty_levels",
                                                  ROOT / "benchmarks" / "difficulty_levels.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("difficulty_levels", module)
    spec.loader.exec_module(module)
    return module


def test_learned_rules_apply_to_a_state_the_history_passed_under_the_rows_rules():
    # freeze has no circuits: its easy rules leave electrical actions out. A medium row
    # (teleport,openDoors: electrical actions in) replays its history under its own
    # rules, listing the commands valid in each view it passes; a wait changes no view,
    # so the state shown after it is a view listed under the row's rules
    replay = Replay({"task": "freeze", "variation": 0, "simplifications": "teleport,openDoors",
                     "history": ["wait1"]})
    assert any(c.startswith("connect ") for c in replay.valid())
    benchmark().learned_rules(replay.env, "easy")
    easy = ScienceEnv("freeze", 0, "easy")
    easy.reset()
    easy.step("wait1")
    assert replay.valid() == easy.valid_actions()
    assert not any(c.startswith("connect ") for c in replay.valid())


def test_learned_teleport_is_at_hand_in_a_state_replayed_without_it():
    replay = Replay({"task": "freeze", "variation": 0, "simplifications": "",
                     "history": ["wait1"]})
    assert not any(c.startswith("teleport ") for c in replay.valid())
    benchmark().learned_rules(replay.env, "easy")
    assert any(c.startswith("teleport ") for c in replay.valid())


def test_a_lone_task_is_measured_at_the_levels_that_ask_it():
    """chemistry-mix-paint-tertiary-color asks planning at easy, medium and hard, not at
    expert (four commands from the end the second paint's cup is in the closed large
    cupboard, which neither the state shown nor the task names): measured alone, its
    three levels are measured and expert says why it is not; among several tasks it is
    left out, as their rows are pooled a level."""
    levels = benchmark()
    out, asked = levels.measure_lab("planning", ["chemistry-mix-paint-tertiary-color"], 4,
                                    seed=0, variations=1)
    assert asked == 1
    by_level = {level: (acc, why) for level, acc, _, why in out}
    assert [by_level[lv][0] is None for lv in levels.LEVELS] == [False, False, False, True]
    assert by_level["easy"][0] == 1.0
    assert "has no bool questions at level expert" in by_level["expert"][1]
