"""Plants (topic 5): seeds grow in watered soil, die dry, and bear fruit once bees cross-pollinate
them; played through the environment as an agent would."""

import pytest

from racbench.worlds.science import TASKS, ScienceEnv, gold_trajectory
from racbench.worlds.science.life import THIRST_TICKS

PLANT_TASKS = ["grow-plant", "grow-fruit"]


@pytest.mark.parametrize("task", PLANT_TASKS)
def test_every_variation_has_a_gold_path_at_full_score(task):
    for v in range(TASKS[task].n_variations):
        steps = gold_trajectory(task, v, "")
        assert steps[-1]["score"] == 1.0 and all(s["score"] < 1.0 for s in steps[:-1]), (task, v)


def test_variations_follow_scienceworlds_plants_and_seed_rooms():
    def described(task, v):
        return ScienceEnv(task, v).reset()[1]["task_description"]
    assert described("grow-plant", 0).startswith("Your task is to grow a apple plant from seed. "
                                                 "Seeds can be found in the kitchen.")
    assert "cherry plant" in described("grow-plant", 60) and "living room" in described("grow-plant", 60)
    assert "grow a peach." in described("grow-fruit", 125) and "greenhouse" in described("grow-fruit", 125)


def _planted(v=0, simplifications="teleport"):
    """grow-plant with its first seed focused and planted in the first pot (soil there, v % 3 == 0)."""
    env = ScienceEnv("grow-plant", v, simplifications)
    env.reset()
    h = env.episode.hints
    seed, pot = h["seeds"][0], h["pots"][0]
    env.step(f"teleport to {env.world.room_of(seed).name}")
    if not env.world.room_of(seed).name == "greenhouse" and h["jar"].parent.openable:
        env.step(f"open {env.canon(h['jar'].parent)}")
    env.step(f"focus on {env.canon(seed)}")
    env.step(f"pick up {env.canon(h['jar'])}")
    env.step("teleport to greenhouse")
    env.step(f"move {env.canon(seed)} to {env.canon(pot)}")
    return env, seed, pot


def test_a_seed_in_dry_soil_waits_and_a_watered_one_grows():
    env, seed, pot = _planted()
    assert env.episode.memory.get("seed") == seed.uid
    env.step("wait 20")
    assert seed.stage == 0 and seed.alive
    env.step(f"move {env.canon(pot)} to sink")
    env.step("turn on sink")
    env.step("wait 20")
    assert seed.stage >= 2 and seed.alive


def test_a_plant_left_dry_dies_and_the_episode_fails():
    """As ScienceWorld's (a pot looked at every tick): watered once, a seed becomes a seedling 9
    ticks after the water came and drinks it all; the dry seedling dies 20 ticks later."""
    env, seed, pot = _planted()
    env.step(f"move {env.canon(pot)} to sink")
    env.step("turn on sink")          # the water runs in at this tick
    env.step("turn off sink")
    ticks = 1
    while seed.stage < 1:
        env.step(f"look at {env.canon(pot)}")
        ticks += 1
    assert ticks == 9 and not any(c.name == "water" for c in pot.contents)
    for dry in range(1, 40):
        _, _, terminated, _, info = env.step(f"look at {env.canon(pot)}")
        if terminated:
            break
    assert dry == THIRST_TICKS[1] == 20
    assert not seed.alive and seed.name == "dead apple plant"
    assert terminated and info["score"] == 0.0


def test_a_seedling_grows_only_while_watered():
    """A seed or seedling counts only the ticks its pot holds water; an adult grows on without."""
    env, seed, pot = _planted()
    env.step(f"move {env.canon(pot)} to sink")
    env.step("turn on sink")
    env.step("turn off sink")
    while seed.stage < 1:
        env.step("wait1")
    env.step("wait 10")
    assert seed.stage == 1 and seed.alive      # dry: no older
    env.step("turn on sink")
    env.step("turn off sink")
    env.step("wait 9")
    assert seed.stage == 2 and not any(c.name == "water" for c in pot.contents)
    env.step("wait 4")
    assert seed.stage == 3


def test_self_watering_pots_need_no_tap():
    env, seed, pot = _planted(simplifications="teleport,selfWateringFlowerPots")
    for _ in range(60):
        env.step("wait1")
    assert seed.alive and seed.stage == len(seed.stages) - 1
    assert not any(c.name == "water" for c in pot.contents)


def test_a_shovel_digs_soil_from_the_ground_outside():
    env = ScienceEnv("grow-plant", 2, "teleport")        # soil must be dug outside
    env.reset()
    shovel = env.episode.hints["shovel"]
    env.step(f"teleport to {env.world.room_of(shovel).name}")   # ScienceWorld's room of it in this variation
    env.step(f"pick up {env.canon(shovel)}")
    env.step("teleport to outside")
    obs, *_ = env.step("use shovel on ground")     # as in ScienceWorld, the soil lands beside the hole
    outside = env.world.rooms["outside"]
    assert "soil" in obs and any(t.name == "soil" for t in outside.contents)
    assert not any(t.name == "soil" for t in env.world.agent.contents)
    assert env.step("pick up soil")[0].startswith("You move")


def test_fruit_needs_free_bees_and_two_reproducing_plants():
    steps = [s["action"] for s in gold_trajectory("grow-fruit", 0, "teleport")]
    opened = steps.index(next(a for a in steps if a.startswith("open bee hive") or a.startswith("open hive")))
    env = ScienceEnv("grow-fruit", 0, "teleport")
    env.reset()
    for action in steps[:opened]:
        env.step(action)
    h = env.episode.hints
    n = len(env.world.things)
    env.step("wait 30")
    assert len([t for t in env.world.things[n:] if t.base == "apple"]) == 0      # bees shut in
    env.step(f"open {env.canon(h['hive'])}")
    env.step("wait 10")
    assert not [t for t in env.world.things[h["n_start"]:] if t.base == "apple"]   # not yet: 13 ticks
    env.step("wait 2")
    fruits = [t for t in env.world.things[h["n_start"]:] if t.base == "apple" and t.parent is not None]
    assert fruits and all(f.parent in h["pots"] for f in fruits)
    obs, _, terminated, _, info = env.step(f"focus on {env.canon(fruits[0])}")
    assert terminated and info["score"] == 1.0


def test_scienceworld_score_sums_goals_as_scienceworld_does():
    """grow-fruit's 28 optional goals are worth 1/56 each; 21 of them met sum, goal by goal in
    floating point, to 37.4999...: ScienceWorld shows 37 (its gold path, grow-fruit v0), not 38;
    and an exact 12.5 as 12 (its gold path of use-thermometer 360, at 'pick up thermometer')."""
    env = ScienceEnv("grow-fruit", 0)
    env.reset()
    ep = env.episode
    assert len(ep.optional) == 28 and len(ep.required) == 1
    ep.opt_done = [True] * 21 + [False] * 7
    assert ep.score == 0.375 and ep.scienceworld_score == 37
    ep.opt_done = [True] * 19 + [False] * 9
    assert ep.scienceworld_score == 34
    env = ScienceEnv("use-thermometer", 360)        # 8 optional goals worth 1/32 each
    env.reset()
    ep = env.episode
    ep.opt_done = [True] * 4 + [False] * 4        # exactly 12.5: ScienceWorld shows 12 (half to even)
    assert ep.scienceworld_score == 12
