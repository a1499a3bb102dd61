"""The public interface the rest of racbench calls."""

import pytest

from racbench.worlds.science import SIMPLIFICATIONS, TASKS, ScienceEnv, TaskError, task_names, variation_split

EXPECTED = {
    "boil": 30, "melt": 30, "freeze": 30, "change-the-state-of-matter-of": 30,
    "use-thermometer": 540, "measure-melting-point-known-substance": 436,
    "measure-melting-point-unknown-substance": 300,
    "power-component": 20, "power-component-renewable-vs-nonrenewable-energy": 20,
    "test-conductivity": 900, "test-conductivity-of-unknown-substances": 600,
    "find-living-thing": 300, "find-non-living-thing": 300, "find-plant": 300, "find-animal": 300,
    "grow-plant": 126, "grow-fruit": 126,
    "chemistry-mix": 32, "chemistry-mix-paint-secondary-color": 36,
    "chemistry-mix-paint-tertiary-color": 36,
    "lifespan-longest-lived": 125, "lifespan-shortest-lived": 125,
    "lifespan-longest-lived-then-shortest-lived": 125,
    "identify-life-stages-1": 14, "identify-life-stages-2": 10,
    "inclined-plane-determine-angle": 168, "inclined-plane-friction-named-surfaces": 1386,
    "inclined-plane-friction-unnamed-surfaces": 162,
    "mendelian-genetics-known-plant": 120, "mendelian-genetics-unknown-plant": 480,
}


def test_tasks_in_topic_order_with_scienceworld_variation_counts():
    assert task_names() == list(EXPECTED) and sum(EXPECTED.values()) == 7207
    for name, n in EXPECTED.items():
        assert TASKS[name].n_variations == n


def test_errors_name_the_accepted_values():
    with pytest.raises(ValueError, match="accepted: boil"):
        ScienceEnv("bake", 0)
    with pytest.raises(ValueError, match="0 to 29"):
        ScienceEnv("boil", 30)
    with pytest.raises(ValueError, match="0 to 29"):
        variation_split("boil", -1)
    with pytest.raises(TaskError, match="teleportAction, teleport, openDoors, openContainers, "
                                        "selfWateringFlowerPots, noElectricalAction, easy"):
        ScienceEnv("boil", 0, "fly")
    assert SIMPLIFICATIONS == ("teleportAction", "teleport", "openDoors", "openContainers",
                               "selfWateringFlowerPots", "noElectricalAction", "easy")


def test_reset_and_step_follow_the_gym_shape():
    env = ScienceEnv("melt", 4, "teleport,openContainers")
    obs, info = env.reset(seed=7)
    assert set(info) >= {"look", "inventory", "score", "valid_actions", "task_description", "moves"}
    assert obs == info["look"] and info["moves"] == 0 and info["score"] == 0.0
    assert info["valid_actions"] == sorted(info["valid_actions"])
    assert "teleport to kitchen" in info["valid_actions"] or "teleport to hallway" in info["valid_actions"]
    obs, reward, terminated, truncated, info = env.step("inventory")
    assert "inventory" in obs and reward == 0.0 and not terminated and not truncated and info["moves"] == 1


def test_no_electrical_action_is_refused_by_electrical_tasks_and_hides_connect_elsewhere():
    with pytest.raises(TaskError, match="noElectricalAction cannot be used on an electrical task"):
        ScienceEnv("test-conductivity", 0, "noElectricalAction,teleport")
    env = ScienceEnv("test-conductivity", 0, "easy")          # easy leaves it out there
    env.reset()
    env.step("teleport to workshop")
    assert any(a.startswith("connect ") for a in env._info()["valid_actions"])
    for simplifications in ("noElectricalAction", "easy"):
        env = ScienceEnv("boil", 0, simplifications)
        _, info = env.reset()
        assert not any(a.startswith(("connect ", "disconnect ")) for a in info["valid_actions"])
        obs, *_ = env.step("connect agent to agent")
        assert "switched off" in obs


def test_scienceworld_simplification_names_are_accepted_and_easy_means_what_it_means_there():
    env = ScienceEnv("melt", 0, "teleportAction,selfWateringFlowerPots")
    _, info = env.reset()
    assert env.flags.teleport and env.flags.self_watering and not env.flags.open_containers
    assert any(a.startswith("teleport to ") for a in info["valid_actions"])
    easy = ScienceEnv("melt", 0, "easy").flags
    assert easy.teleport and easy.open_doors and easy.self_watering and easy.no_electrical
    assert not easy.open_containers                            # openContainers is not part of easy


def test_variation_accepts_numpy_integers_and_rejects_other_types():
    import numpy as np
    assert variation_split("boil", np.int64(29)) == "test"
    for bad in (True, 1.5, "3", None):
        with pytest.raises(ValueError, match="0 to 29"):
            ScienceEnv("boil", bad)
