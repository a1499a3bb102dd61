"""The house holds what ScienceWorld's rooms hold, the tasks use those things, and variation k
answers as ScienceWorld's variation k does; all played through the environment as an agent would."""

import pytest

from racbench.worlds.science import ScienceEnv, gold_trajectory
from racbench.worlds.science.data import load
from racbench.worlds.science.tasks.base import scienceworld_facts

ROOMS = ("kitchen", "bathroom", "workshop", "art studio", "greenhouse", "outside", "foundry", "bedroom",
         "living room", "hallway")
KITCHEN = ("thermometer", "lighter", "stopwatch", "a substance called soap", "sodium chloride", "freezer",
           "fridge", "stove", "oven", "sink", "orange juice")


def _look_everywhere(task, variation):
    env = ScienceEnv(task, variation, "teleport,openContainers")
    env.reset()
    looks = {}
    for room in ROOMS:
        if env.world.agent_room().name != room:
            env.step(f"teleport to {room}")
        looks[room] = env.step("look around")[0]
    return env, looks


@pytest.mark.parametrize("task,variation", [("boil", 0), ("use-thermometer", 5), ("find-animal", 200),
                                            ("chemistry-mix", 3), ("inclined-plane-determine-angle", 9)])
def test_every_task_has_scienceworlds_rooms(task, variation):
    _, looks = _look_everywhere(task, variation)
    assert all("a substance called air" in look for look in looks.values())
    assert all(name in looks["kitchen"] for name in KITCHEN), looks["kitchen"]
    assert "ultra low temperature freezer" in looks["workshop"]
    assert all(name in looks["outside"] for name in ("fountain", "a substance called wood", "axe", "fire pit", "ground"))
    assert all("sink" in looks[room] for room in ("bathroom", "greenhouse", "foundry"))
    assert looks["outside"].startswith("This outdoor place is called the outside.")


def test_measurement_tasks_use_the_kitchens_thermometer_the_only_one_in_the_house():
    for task, variation in (("use-thermometer", 0), ("measure-melting-point-known-substance", 300),
                            ("measure-melting-point-unknown-substance", 200)):
        env = ScienceEnv(task, variation, "teleport")
        env.reset()
        thermometers = [t for t in env.world.things if t.tool == "thermometer"]
        assert thermometers == [env.episode.hints["thermometer"]]
        env.step("teleport to kitchen")
        obs, _, _, _, info = env.step("focus on thermometer")
        assert obs == "You focus on the thermometer." and info["score"] > 0


def test_a_thing_of_that_very_name_wins_over_one_that_answers_to_it():
    env = ScienceEnv("find-non-living-thing", 0, "teleport")
    env.reset()
    env.step("teleport to workshop")   # a room without art of its own
    from racbench.worlds.science.house import make
    world = env.world
    for base in ("painting", "finger painting"):
        world.place(make(world, base), world.rooms["workshop"])
    world.changed()
    obs, *_ = env.step("look at painting")
    assert obs == "A painting.", obs


def test_sinks_fill_what_stands_in_them_and_the_fountain_holds_water():
    env = ScienceEnv("boil", 0, "teleport")
    env.reset()
    env.step("teleport to foundry")
    env.step("teleport to kitchen")
    for action in ("open cupboard", "pick up metal pot", "teleport to foundry", "move metal pot to sink",
                   "turn on sink", "turn off sink"):
        env.step(action)
    assert "metal pot (containing a substance called water)" in env.step("look in sink")[0]
    env.step("teleport to outside")
    assert "a fountain (containing a substance called water)" in env.look()


def test_the_lighter_sets_wood_on_fire_and_it_burns_to_ash():
    env = ScienceEnv("boil", 0, "teleport")
    env.reset()
    env.step("teleport to kitchen")
    env.step("pick up lighter")
    env.step("teleport to outside")
    obs, *_ = env.step("use lighter on wood")
    assert "catches fire" in obs
    assert "wood, which is on fire" in env.step("look around")[0]
    for _ in range(8):     # it burns 100 ticks, as ScienceWorld's does; a wait is 11
        env.step("wait")
    assert "wood, which is on fire" in env.look()
    env.step("wait")
    env.step("wait")
    assert "a substance called wood" not in env.look() and "ash" in env.look()


def test_the_thermometer_shows_its_reading_and_the_reading_follows_its_temperature():
    env = ScienceEnv("boil", 0, "teleport,openContainers")
    env.reset()
    env.step("teleport to kitchen")
    assert "thermometer, which reads 10 degrees celsius" in env.look()   # ScienceWorld's things start at 10
    env.step("pick up thermometer")
    env.step("move thermometer to freezer")
    env.step("wait 30")   # the freezer cools at ScienceWorld's pace
    reading = round(env.episode.world.things[next(t.uid for t in env.world.things if t.tool == "thermometer")].temp)
    assert reading < 0 and f"thermometer, which reads {reading} degrees celsius" in env.step("look in freezer")[0]


def test_mercury_freezes_only_in_the_ultra_low_freezer():
    steps = gold_trajectory("freeze", 24)      # mercury, in a tin cup, variation 24 as in ScienceWorld
    actions = [s["action"] for s in steps]
    assert "move tin cup to ultra low temperature freezer" in actions and steps[-1]["score"] == 1.0


def _last(steps, verb):
    return next(s["action"] for s in reversed(steps) if s["action"].startswith(verb))


@pytest.mark.parametrize("task", ["use-thermometer", "measure-melting-point-known-substance",
                                  "measure-melting-point-unknown-substance", "test-conductivity",
                                  "test-conductivity-of-unknown-substances", "inclined-plane-determine-angle",
                                  "inclined-plane-friction-named-surfaces", "inclined-plane-friction-unnamed-surfaces",
                                  "mendelian-genetics-known-plant", "mendelian-genetics-unknown-plant"])
def test_the_gold_path_gives_scienceworlds_answer(task):
    """The hidden quantity of variation k (which box, which plane) is ScienceWorld's: the oracle,
    which answers from what it measures, ends on the answer of the variation's facts."""
    n = len(load("variations")[task])
    for v in range(0, n, max(1, n // 12)):
        facts = scienceworld_facts(task, v)
        steps = gold_trajectory(task, v)
        assert steps[-1]["score"] == 1.0
        if task.startswith("inclined"):
            assert _last(steps, "focus on").endswith(facts[3]) or facts[3] in _last(steps, "focus on"), (task, v)
            continue
        if task.startswith("mendelian"):
            first, second, right = facts[2], facts[3], facts[4]
            verb = "focus on"
        elif task.startswith("test-conductivity"):
            first, second, right = facts[2], facts[3], facts[4]
            verb = "move"
        else:
            first, second, right = facts[3], facts[4], facts[6]
            verb = "move" if task == "use-thermometer" else "focus on"
        assert _last(steps, verb).endswith(f"{first if right else second} box"), (task, v, _last(steps, verb))
