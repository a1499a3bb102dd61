"""Life spans and life stages (topics 7 and 8), played through the environment as an agent would."""

import pytest

from racbench.worlds.science import TASKS, ScienceEnv, gold_trajectory
from racbench.worlds.science.data import load

LIFE_TASKS = ["lifespan-longest-lived", "lifespan-shortest-lived",
              "lifespan-longest-lived-then-shortest-lived", "identify-life-stages-1", "identify-life-stages-2"]


@pytest.mark.parametrize("task", LIFE_TASKS)
def test_every_variation_has_a_gold_path_at_full_score(task):
    for v in range(TASKS[task].n_variations):
        steps = gold_trajectory(task, v, "")
        assert steps[-1]["score"] == 1.0 and all(s["score"] < 1.0 for s in steps[:-1]), (task, v)


def test_lifespan_variations_hold_scienceworld_animals_one_of_each_span():
    life = load("life")
    rows = life["lifespan_variations"]
    spans = life["lifespans"]
    assert len(rows) == 125 and len({tuple(r) for r in rows}) == 125
    assert rows[0] == ["brown bear", "wolf", "mouse"]   # ScienceWorld's variation 0
    groups = [{r[k] for r in rows} for k in range(3)]
    assert all(len(g) == 5 for g in groups)
    assert min(spans[a] for a in groups[0]) > max(spans[a] for a in groups[1])
    assert min(spans[a] for a in groups[1]) > max(spans[a] for a in groups[2])


def _outside(task, v):
    env = ScienceEnv(task, v, "teleport")
    env.reset()
    env.step("teleport to outside")
    return env


def test_focusing_on_the_longest_lived_animal_completes_and_on_another_fails():
    env = _outside("lifespan-longest-lived", 0)
    obs, _, terminated, _, info = env.step("focus on brown bear")
    assert terminated and info["score"] == 1.0
    env = _outside("lifespan-longest-lived", 0)
    obs, _, terminated, _, info = env.step("focus on wolf")
    assert terminated and info["score"] == 0.0


def test_longest_then_shortest_must_come_in_that_order():
    env = _outside("lifespan-longest-lived-then-shortest-lived", 0)
    obs, _, terminated, _, info = env.step("focus on mouse")
    assert terminated and info["score"] == 0.0
    env = _outside("lifespan-longest-lived-then-shortest-lived", 0)
    _, _, terminated, _, info = env.step("focus on brown bear")
    assert not terminated and 0.0 < info["score"] < 1.0
    _, _, terminated, _, info = env.step("focus on mouse")
    assert terminated and info["score"] == 1.0


def test_an_animal_grows_through_its_stages_as_time_passes_and_is_named_by_its_stage():
    env = ScienceEnv("identify-life-stages-1", 0, "teleport")     # the turtle
    env.reset()
    turtle = env.episode.hints["order"][0]
    env.step("wait 10")
    assert turtle.stage == 0 and turtle.name == "turtle egg"
    env.step("wait 10")
    assert turtle.stage == 1                   # 22 ticks: it hatched with nobody there, as in ScienceWorld
    env = ScienceEnv("identify-life-stages-1", 0, "teleport")
    env.reset()
    turtle = env.episode.hints["order"][0]
    obs, *_ = env.step("teleport to outside")
    assert "turtle egg" in obs
    names = []
    for _ in range(35):
        names.append(turtle.name)
        env.step("wait1")
    assert list(dict.fromkeys(names)) == ["turtle egg", "hatchling turtle", "juvenile turtle", "adult turtle"]


def test_life_stages_are_focused_earliest_first_and_a_skipped_stage_fails():
    env = ScienceEnv("identify-life-stages-1", 1, "teleport")     # the wolf: baby, juvenile, adult
    env.reset()
    env.step("teleport to outside")
    _, _, terminated, _, info = env.step("focus on baby wolf")
    assert not terminated and info["score"] > 0
    while "juvenile wolf" not in env.look():
        env.step("wait1")
    _, _, terminated, _, first = env.step("focus on wolf")
    assert not terminated and first["score"] > info["score"]
    env = ScienceEnv("identify-life-stages-1", 1, "teleport")
    env.reset()
    env.step("teleport to outside")
    env.step("wait 20")
    _, _, terminated, _, info = env.step("focus on juvenile wolf")   # the baby stage was skipped
    assert terminated and info["score"] == 0.0


def test_plant_stages_stand_in_pots_outside_and_wrong_order_fails():
    env = _outside("identify-life-stages-2", 0)                    # the apple plant
    for name in ("apple seed", "apple tree in the seedling stage", "apple tree in the adult stage"):  # ScienceWorld's names
        _, _, terminated, _, info = env.step(f"focus on {name}")
        assert not terminated
    _, _, terminated, _, info = env.step("focus on apple tree in the reproducing stage")
    assert terminated and info["score"] == 1.0
    env = _outside("identify-life-stages-2", 0)
    _, _, terminated, _, info = env.step("focus on apple tree in the adult stage")
    assert terminated and info["score"] == 0.0


def _pots(obs):
    return [line.strip() for line in obs.splitlines() if "flower pot" in line]


def test_potted_trees_grow_on_in_their_self_watering_pots_and_the_grown_drink_the_water():
    """ScienceWorld's life-stage trees keep growing (seed 10, seedling 10, adult 5 ticks), watered
    by their pots for good; water shows in a pot until its tree is adult; the dead tree stays dead."""
    env = _outside("identify-life-stages-2", 0)       # pots 4 seed, 5 dead, 6 seedling, 7 adult, 9 reproducing
    pots = _pots(env.look())
    assert pots[0] == "a self watering flower pot 4 (containing an apple seed, a substance called soil, a substance called water)"
    assert pots[3] == "a self watering flower pot 7 (containing an apple tree in the adult stage, a substance called soil)"
    env.step("wait 3")                                 # 1 + 4 ticks: the adult is reproducing
    assert "apple tree in the adult stage" not in env.look()
    env.step("wait 4")                                 # 10 ticks: the seed sprouted, the seedling grew
    pots = _pots(env.look())
    assert "flower pot 4 (containing an apple tree in the seedling stage, a substance called soil, a substance" in pots[0]
    assert pots[2] == "a self watering flower pot 6 (containing an apple tree in the adult stage, a substance called soil)"
    env.step("wait 50")                                # never watered by hand, none wilts
    pots = _pots(env.look())
    assert [p.count("reproducing stage") for p in pots] == [1, 0, 1, 1, 1] and "dead apple tree" in pots[1]
    # the focus follows the stage a tree shows now: the grown seedling can not stand for the seedling
    env = _outside("identify-life-stages-2", 0)
    env.step("focus on apple seed")
    env.step("wait 10")                                # 13 ticks: pot 6 holds an adult now
    _, _, terminated, _, info = env.step("focus on apple tree in the adult stage")
    assert terminated and info["score"] == 0.0


# ScienceWorld 1.2.3's gold paths of variation 3 (a start outside) and its score after each step
_STARTED_OUTSIDE = {
    "identify-life-stages-1": (
        ["look around", "focus on baby beaver in outside", "look around", *["wait1"] * 10,
         "focus on juvenile beaver in outside", "look around", *["wait1"] * 9, "focus on adult beaver in outside",
         "look around", "wait1"],
        [10, 43, 43, 48, 48, 53, 53, 53, 58, 58, 58, 58, 58, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 92, 100, 100, 100]),
    "identify-life-stages-2": (
        ["look around", "focus on plant in the seed stage in self watering flower pot 6", "look around",
         "focus on banana tree in the seedling stage in self watering flower pot 8", "look around",
         "focus on banana tree in the adult stage in self watering flower pot 9", "look around",
         "focus on banana tree in the reproducing stage in self watering flower pot 4", "look around", "wait1"],
        [4, 29, 29, 54, 58, 83, 83, 100, 100, 100]),
}


@pytest.mark.parametrize("task", sorted(_STARTED_OUTSIDE))
def test_a_start_outside_is_credited_as_scienceworld_credits_it(task):
    """Read off ScienceWorld's goal progress: a start outside counts as arriving at the first step
    for the 'stay outside' goals, and identify-life-stages-2, unlike -1, does not excuse it from
    'move to a new location'."""
    commands, theirs = _STARTED_OUTSIDE[task]
    env = ScienceEnv(task, 3)
    env.reset()
    ours = []
    for command in commands:
        env.step(command)
        ours.append(env.episode.scienceworld_score)
    assert ours == theirs
