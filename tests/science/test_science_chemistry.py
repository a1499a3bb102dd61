"""Chemistry (topic 6): taps, mixing by recipe, paints, played through the environment as an agent would."""

import pytest

from racbench.worlds.science import TASKS, ScienceEnv, gold_trajectory
from racbench.worlds.science.house import furniture

CHEMISTRY = ["chemistry-mix", "chemistry-mix-paint-secondary-color", "chemistry-mix-paint-tertiary-color"]


@pytest.mark.parametrize("task", CHEMISTRY)
def test_every_variation_has_a_gold_path_at_full_score(task):
    for v in range(TASKS[task].n_variations):
        steps = gold_trajectory(task, v, "")
        assert steps[-1]["score"] == 1.0 and all(s["score"] < 1.0 for s in steps[:-1]), (task, v)


def test_variations_ask_for_scienceworlds_products_in_its_order():
    def asks(task, v):
        env = ScienceEnv(task, v)
        return env.reset()[1]["task_description"]
    assert "'salt water'" in asks("chemistry-mix", 0) and "kitchen" in asks("chemistry-mix", 0)
    assert "'salt water'" in asks("chemistry-mix", 8) and "workshop" in asks("chemistry-mix", 8)
    assert "'smores'" in asks("chemistry-mix", 16) and "'rust'" in asks("chemistry-mix", 30)
    assert "green paint" in asks("chemistry-mix-paint-secondary-color", 11)
    assert "violet paint" in asks("chemistry-mix-paint-secondary-color", 24)
    assert "yellow-green paint" in asks("chemistry-mix-paint-tertiary-color", 6)
    assert "blue-violet paint" in asks("chemistry-mix-paint-tertiary-color", 35)


def _kitchen(task="chemistry-mix", v=0):
    env = ScienceEnv(task, v, "easy")
    env.reset()
    env.step("teleport to kitchen")
    return env


def test_a_sink_turned_on_fills_the_cup_standing_in_it_with_water():
    env = _kitchen()
    cup = env.episode.hints["vessel"]                           # a cup in the kitchen's cupboard
    env.step("open cupboard")
    env.step(f"pick up {env.canon(cup)}")
    env.step(f"move {env.canon(cup)} to sink")
    assert not cup.contents
    obs, *_ = env.step("turn on sink")
    assert [c.name for c in cup.contents] == ["water"]
    env.step("wait1")
    assert [c.name for c in cup.contents] == ["water"]          # one portion, not one a tick
    env.step("turn off sink")
    assert "sink, which is turned off" in env.look()


def test_mixing_a_recipes_ingredients_makes_its_product_and_anything_else_does_nothing():
    env = _kitchen()                                            # salt water: sodium chloride, water
    cup = env.episode.hints["vessel"]                           # a cup in the kitchen's cupboard
    env.step("open cupboard")
    env.step(f"pick up {env.canon(cup)}")
    env.step("open glass jar")                                  # closed at the start, as in ScienceWorld
    env.step("pick up sodium chloride")
    env.step(f"move sodium chloride to {env.canon(cup)}")   # named where it is now
    obs, *_ = env.step(f"mix {env.canon(cup)}")
    assert "holds nothing to mix" in obs
    env.step(f"move {env.canon(cup)} to sink")
    env.step("turn on sink")
    env.step("turn off sink")
    obs, _, _, _, info = env.step(f"mix {env.canon(cup)}")
    assert obs.startswith("Sodium chloride and water mix to produce salt water")
    assert [c.name for c in cup.contents] == ["salt water"] and info["score"] < 1.0
    obs, _, terminated, _, info = env.step("focus on salt water")
    assert terminated and info["score"] == 1.0


def test_focusing_on_something_else_than_the_product_fails():
    env = _kitchen()
    obs, _, terminated, _, info = env.step("focus on sink")
    assert terminated and info["score"] == 0.0


def test_the_recipe_names_the_ingredients():
    env = _kitchen("chemistry-mix", 2)                         # mixed nuts
    holder = env.episode.hints["recipe"].parent
    if holder.openable and not holder.is_open:
        env.step(f"open {env.canon(holder)}")
    obs, *_ = env.step("read recipe")
    assert obs == "The recipe reads: To make mixed nuts, you need to mix peanut, almond, cashew."


def test_paint_cups_are_named_by_their_paint_and_two_primaries_make_a_secondary():
    env = ScienceEnv("chemistry-mix-paint-secondary-color", 12, "teleport")   # orange paint
    env.reset()
    env.step("teleport to art studio")
    actions = env._info()["valid_actions"]
    bowl = env.episode.hints["vessel"]   # what ScienceWorld's variation stands on the table: a bowl here
    assert f"pour wood cup containing red paint into {env.canon(bowl)}" in actions
    env.step(f"pour wood cup containing red paint into {bowl.name}")
    env.step(f"pour cup containing yellow paint into {bowl.name}")
    obs, *_ = env.step(f"mix {bowl.name}")
    assert obs == "Red paint and yellow paint mix to produce orange paint."
    obs, _, terminated, _, info = env.step("focus on orange paint")
    assert terminated and info["score"] == 1.0


def test_a_tertiary_paint_wants_its_secondary_focused_first():
    steps = [s["action"] for s in gold_trajectory("chemistry-mix-paint-tertiary-color", 0, "easy")]
    skip = next(i for i, a in enumerate(steps) if a.startswith("focus"))
    env = ScienceEnv("chemistry-mix-paint-tertiary-color", 0, "easy")
    env.reset()
    for action in steps[:skip] + steps[skip + 1:-1]:
        env.step(action)
    obs, _, terminated, _, info = env.step(steps[-1])         # the tertiary, secondary never focused
    assert terminated and info["score"] == 0.0


def test_sinks_in_every_task_are_taps_now():
    env = ScienceEnv("boil", 0, "easy")
    env.reset()
    env.step("teleport to kitchen")
    assert furniture(env.world, "kitchen", "sink") in env.world.taps
    assert "activate sink" in env._info()["valid_actions"]


def test_acetic_acid_lies_on_the_floor_and_is_carried_to_the_cup_as_in_scienceworld():
    """ScienceWorld puts chemistry-mix's acetic acid on the floor as a substance, picked up and
    moved like a thing; a liquid in a cup still moves only with its cup."""
    env = ScienceEnv("chemistry-mix", 3, "teleport")   # sodium acetate, in the kitchen
    env.reset()
    obs, *_ = env.step("teleport to kitchen")
    assert "\ta substance called acetic acid\n" in obs
    acid = next(t for t in env.world.things if t.is_substance and t.mat.name == "acetic acid")
    assert acid.parent is env.world.agent_room()
    assert "pick up acetic acid" in env.valid_actions()
    obs, *_ = env.step("pick up acetic acid")
    assert acid.parent is env.world.agent, obs
    env.step("open cupboard")
    env.step("pick up ceramic cup")
    env.step("move acetic acid to ceramic cup")
    assert acid.parent.base == "ceramic cup"
    assert acid.state == "solid"   # at ScienceWorld's 10 degrees, below its melting point (17), as there
    gold = [s["action"] for s in gold_trajectory("chemistry-mix", 3)]
    assert "pick up acetic acid" in gold and not any("glass jar" in a for a in gold)
