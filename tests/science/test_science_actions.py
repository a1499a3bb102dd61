"""Actions through the parser: containers hide contents, carrying, pouring, reading, eating, waiting."""

from racbench.worlds.science import ScienceEnv
from racbench.worlds.science.house import furniture, make, make_substance


def _kitchen_env(simp="teleport"):
    env = ScienceEnv("boil", 0, simp)
    env.reset()
    env.step("teleport to kitchen")
    return env


def test_closed_containers_hide_their_contents_until_opened():
    env = _kitchen_env()
    cupboard = furniture(env.world, "kitchen", "cupboard")
    assert not cupboard.is_open
    assert "ceramic cup" not in env._info()["look"]
    obs, *_ = env.step("pick up ceramic cup")
    assert "no" in obs.lower() and env._info()["moves"] == 1
    obs, *_ = env.step("look in cupboard")
    assert "closed" in obs
    env.step("open cupboard")
    assert "ceramic cup" in env._info()["look"]
    obs, *_ = env.step("take ceramic cup")
    assert "inventory" in obs and "ceramic cup" in env._info()["inventory"]
    assert "pick up ceramic cup" not in env._info()["valid_actions"]
    assert "put down ceramic cup" in env._info()["valid_actions"]


def test_pour_moves_liquid_and_refuses_solids():
    env = _kitchen_env()
    w = env.world
    jug = make(w, "jug")
    w.place(jug, furniture(w, "kitchen", "table"))
    bowl = make(w, "wooden bowl")
    w.place(bowl, furniture(w, "kitchen", "table"))
    w.place(make_substance(w, "milk", 25.0), jug)
    w.changed()
    obs, *_ = env.step("pour jug into wooden bowl")
    assert "pour" in obs and [c.name for c in bowl.contents] == ["milk"]
    obs, *_ = env.step("pour jug into wooden bowl")
    assert "no liquid" in obs
    obs, *_ = env.step("pick up milk")
    assert "not solid" in obs
    # ScienceWorld's gold paths pour a vessel into itself ('pour jug in jug'): it is answered
    # as what it is, and nothing moves; the action runs (a tick) as it does there
    moves = env._info()["moves"]
    for text in ("pour wooden bowl in wooden bowl", "pour jug into jug"):
        obs, *_ = env.step(text)
        assert "inside itself" in obs, (text, obs)
    assert [c.name for c in bowl.contents] == ["milk"] and env._info()["moves"] == moves + 2


def test_read_eat_flush_and_refusals():
    env = _kitchen_env()
    w = env.world
    book = make(w, "book")
    peach = make(w, "peach")
    for t in (book, peach):
        w.place(t, furniture(w, "kitchen", "table"))
    w.changed()
    assert "field guide" in env.step("read book")[0]
    assert "not edible" in env.step("eat book")[0]
    assert "You eat" in env.step("eat peach")[0] and peach.parent is None
    assert "cannot be flushed" in env.step("flush stove")[0]
    env.step("teleport to bathroom")
    assert "flushes" in env.step("flush toilet")[0]


def test_a_wait_is_its_own_tick_and_the_ticks_it_waits_as_in_scienceworld():
    env = _kitchen_env()
    t0 = env.world.ticks
    env.step("wait")
    assert env.world.ticks == t0 + 11
    env.step("wait1")
    assert env.world.ticks == t0 + 13
    env.step("wait 3")
    assert env.world.ticks == t0 + 17


def test_doors_must_be_open_to_walk_through():
    env = ScienceEnv("boil", 0, "")
    env.reset()
    here = env.world.agent_room()
    door, other = env.world.doors_of(here)[0]
    assert "closed" in env.step(f"go to {other.name}")[0]
    env.step(f"open door to {other.name}")
    assert f"go to {other.name}" in env._info()["valid_actions"]
    env.step(f"go to {other.name}")
    assert env.world.agent_room() is other
    assert "only possible" in env.step(f"teleport to {here.name}")[0]


def test_thermometer_reads_the_temperature_of_a_frozen_thing():
    env = ScienceEnv("boil", 14, "easy,openContainers")   # variation 14: ice cream, in the freezer
    env.reset()
    env.step("teleport to kitchen")
    env.step("pick up thermometer")
    ice_cream = next(t for t in env.world.things if t.is_substance and t.mat.name == "ice cream")
    obs, *_ = env.step(f"use thermometer on {env.canon(ice_cream)}")
    assert f"{round(ice_cream.temp)} degrees" in obs and ice_cream.temp < 0


def test_scores_rise_through_optional_and_required_subgoals():
    env = ScienceEnv("melt", 2, "easy")
    env.reset()
    scores = []
    for action in env.task_spec.oracle(env):
        scores.append(env.step(action)[4]["score"])
    assert scores == sorted(scores) and scores[-1] == 1.0 and len(set(scores)) >= 3
