"""Every task's oracle reaches 1.0 on sampled variations (train, validation, test) and settings.

The exhaustive run over all variations is benchmarks/science_gold.py.
"""

import pytest

from racbench.worlds.science import TASKS, Layout, gold_trajectory, variation_split
from racbench.worlds.science.registry import accepts

SETTINGS = ["", "easy", "teleport", "openDoors,openContainers", "noElectricalAction"]


def _sample(task):
    n = TASKS[task].n_variations
    return sorted({0, n // 2, (3 * n) // 4, n - 1, (n * 7) // 13})


@pytest.mark.parametrize("task", list(TASKS))
def test_oracle_solves_sampled_variations_in_every_setting(task):
    for v in _sample(task):
        for s in SETTINGS:
            if not accepts(TASKS[task], s):
                continue
            steps = gold_trajectory(task, v, s)
            scores = [st["score"] for st in steps]
            assert scores[-1] == 1.0, (task, v, s)
            assert all(0.0 <= x <= 1.0 for x in scores)
            assert all(x < 1.0 for x in scores[:-1])
    assert {variation_split(task, v) for v in _sample(task)} == {"train", "validation", "test"}


@pytest.mark.parametrize("layout", [Layout(n_rooms=3, n_distractors=5), Layout(n_rooms=10, closed_doors=False),
                                    Layout(n_distractors=0)])
def test_oracles_solve_generated_layouts(layout):
    for task in TASKS:
        assert gold_trajectory(task, 1, "", layout=layout)[-1]["score"] == 1.0


def test_layout_rejects_bad_sizes():
    with pytest.raises(ValueError, match="between 1 and 10"):
        gold_trajectory("boil", 0, layout=Layout(n_rooms=0))


def test_generated_layout_has_the_requested_rooms_joined_as_a_tree():
    from racbench.worlds.science import ScienceEnv
    from racbench.worlds.science.tasks.common import route
    env = ScienceEnv("find-animal", 7, layout=Layout(n_rooms=5, n_distractors=4))
    env.reset()
    w = env.world
    rooms = list(w.rooms.values())
    assert len(rooms) == 5 and len(w.doors) == 4
    assert {"outside", "greenhouse", "kitchen"} <= set(w.rooms)
    start = w.agent_room()
    assert all(room is start or route(w, start, room) for room in rooms)
    assert all(not d.is_open for d in w.doors)
