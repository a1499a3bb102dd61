"""The twin check's replays (racbench/tasks/lab_twins.py) are verify's, made cheaper: one
fresh episode a variation, stepped once along the histories asked and resumed there,
and goal recognition's distances to done worked out once per state. Before, every
look-alike asked re-ran a fresh episode from its reset (a third to a half of a lab
row's twin check) and every goal-recognition question re-tried every command there."""

from __future__ import annotations

import pytest

from racbench.checks.verify import replay
from racbench.checks.verify.replay import Replay, check_science_row
from racbench.checks.verify.report import Claims
from racbench.tasks import lab_twins
from racbench.worlds.science.env import ScienceEnv
from racbench.worlds.science.lab import ScienceLab

TASK = "find-plant"  # a short gold path (8 commands) and few commands a state (60)


def _fresh(sym: dict) -> bool:
    claims = Claims()
    check_science_row({}, sym, claims)
    return not claims.problems


def _planning(history, actions, answer: bool) -> dict:
    return {"world": "science", "task": TASK, "variation": 0, "simplifications": "",
            "family": "planning", "form": "bool", "history": list(history),
            "actions": [[a] for a in actions], "answer": answer}


@pytest.fixture
def resets(monkeypatch):
    counted = []
    reset = ScienceEnv.reset

    def counting(self, *args, **kwargs):
        counted.append(self)
        return reset(self, *args, **kwargs)

    monkeypatch.setattr(ScienceEnv, "reset", counting)
    return counted


def test_look_alikes_are_re_derived_in_one_episode_as_verify_re_derives_them(resets):
    world = ScienceLab(TASK, 0, "")
    gold = world.gold()
    asked = [_planning(gold[:n], gold[n:], answer) for n in (len(gold) - 3, len(gold) - 1)
             for answer in (True, False)]
    asked.append(_planning(gold[:-3], ("wait1",), True))  # a plan that does not finish
    resets.clear()
    found = [lab_twins._holds(world, sym) for sym in asked]
    assert len(resets) == 1  # one episode for the variation (before: one per question)
    assert found == [True, False, True, False, False]
    assert found == [_fresh(sym) for sym in asked]


def test_a_history_the_simulator_refuses_holds_as_before():
    world = ScienceLab(TASK, 0, "")
    sym = _planning(("fly to the moon",), ("wait1",), True)
    assert lab_twins._holds(world, sym)
    with pytest.raises(ValueError):
        Replay(sym)


def test_goal_recognition_works_out_a_state_s_distance_once(monkeypatch):
    world = ScienceLab(TASK, 0, "")
    gold = world.gold()
    worked_out = []
    distance = Replay._distance

    def counting(self, witness):
        worked_out.append(self.at)
        return distance(self, witness)

    monkeypatch.setattr(Replay, "_distance", counting)
    asked = [{**_planning(gold[:-2], [c], answer), "family": "goal_recognition",
              "subject": [[c]]} for c, answer in ((gold[-2], True), ("wait1", False))]
    assert [lab_twins._holds(world, sym) for sym in asked] == [True, True]
    # the state's distance (2) once for both questions, then one after each observed
    assert sorted(worked_out) == sorted([tuple(gold[:-2]), tuple(gold[:-1]),
                                         tuple(gold[:-2]) + ("wait1",)])
    assert [_fresh(sym) for sym in asked] == [True, True]


def test_a_fault_in_a_look_alike_s_replay_is_raised_not_taken_for_holds(monkeypatch):
    world = ScienceLab(TASK, 0, "")
    gold = world.gold()
    sym = _planning(gold[:-1], gold[-1:], True)
    assert lab_twins._holds(world, sym)

    def broken(*args, **kwargs):
        raise ValueError("a fault of the checker")

    monkeypatch.setattr(replay, "check_science_row", broken)
    with pytest.raises(ValueError, match="a fault of the checker"):
        lab_twins._holds(world, sym)
