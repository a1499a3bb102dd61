"""The science lab through gymnasium: registered ids, check_env, gold episodes, spaces, errors."""

from __future__ import annotations

import string
import warnings
from pathlib import Path

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env

import racbench
from racbench.envs import SCIENCE_IDS, ScienceLabEnv
from racbench.errors import InputError
from racbench.worlds.science import TASKS, TaskError, gold_trajectory

PACKAGE = Path(racbench.__file__).parent


def test_every_task_has_an_id():
    assert SCIENCE_IDS == tuple(f"racbench/science-{t}-v0" for t in TASKS)
    assert set(SCIENCE_IDS) <= set(gymnasium.registry)


@pytest.mark.parametrize("task, variation, simplifications", [
    ("boil", 0, ""), ("test-conductivity", 3, "easy"), ("find-animal", 150, "teleport")])
def test_check_env_passes(strict_warnings, task, variation, simplifications):
    env = gymnasium.make(f"racbench/science-{task}-v0", variation=variation,
                         simplifications=simplifications)
    check_env(env.unwrapped)
    env.close()


@pytest.mark.parametrize("task, variation, simplifications",
                         [("boil", 3, ""), ("freeze", 1, "easy"), ("power-component", 2, "")])
def test_a_gold_episode_reaches_score_one(strict_warnings, task, variation, simplifications):
    env = gymnasium.make(f"racbench/science-{task}-v0", variation=variation,
                         simplifications=simplifications)
    obs, info = env.reset(seed=7)
    assert obs in env.observation_space and info["score"] == 0.0
    assert info["goal"].startswith("Your task is to") and info["valid_actions"]
    total, steps = 0.0, gold_trajectory(task, variation, simplifications)
    for k, gold in enumerate(steps):
        assert gold["action"] in env.action_space
        obs, reward, terminated, truncated, info = env.step(gold["action"])
        assert obs == gold["observation"] and obs in env.observation_space
        total += reward
        assert terminated == (k == len(steps) - 1) and not truncated
    assert total == pytest.approx(1.0) and info["score"] == 1.0 and info["moves"] == len(steps)
    assert set(info) == {"valid_actions", "score", "scienceworld_score", "goal", "moves", "look", "inventory"}


@pytest.mark.parametrize("task", list(TASKS))
def test_the_spaces_hold_every_gold_observation_and_command(task):
    env = ScienceLabEnv(task)
    for variation in (0, TASKS[task].n_variations - 1):
        for simplifications in ("", "easy"):
            for step in gold_trajectory(task, variation, simplifications, with_valid_actions=True):
                for text in (step["observation"], step["look"], step["inventory"]):
                    assert text in env.observation_space, text
                for command in step["valid_actions"] + [step["action"]]:
                    assert command in env.action_space, command


def test_the_observation_charset_covers_what_the_lab_can_say():
    """Observations are made of templates and science data only; both are printable ASCII."""
    allowed = set(string.printable) - set("\r\x0b\x0c")
    files = [*(PACKAGE / "templates" / "science").glob("*.j2"),
             *(PACKAGE / "data" / "science").glob("*.json")]
    assert files
    for path in files:
        assert set(path.read_text("utf-8")) <= allowed, path
    assert ScienceLabEnv("boil").observation_space.character_set == allowed


def test_reset_options_switch_variation():
    env = gymnasium.make("racbench/science-melt-v0", variation=0)
    _, first = env.reset()
    _, other = env.reset(options={"variation": 7})
    assert other["goal"] != first["goal"]
    for gold in gold_trajectory("melt", 7):
        _, _, terminated, _, info = env.step(gold["action"])
    assert terminated and info["score"] == 1.0
    with pytest.raises(InputError, match="'level'.*accepted: variation"):
        env.reset(options={"level": 2})
    with pytest.raises(TaskError, match="0 to 29"):
        env.reset(options={"variation": 30})


def test_every_step_counts_toward_max_steps():
    env = gymnasium.make("racbench/science-boil-v0", max_steps=2)
    env.reset()
    assert env.step("xyzzy")[3] is False
    obs, reward, terminated, truncated, info = env.step("xyzzy")
    assert truncated and not terminated and info["moves"] == 0


def test_render_shows_the_last_observation(capsys):
    env = gymnasium.make("racbench/science-boil-v0", render_mode="ansi")
    obs, _ = env.reset()
    assert env.render() == obs
    obs, *_ = env.step("inventory")
    assert env.render() == obs and "inventory" in obs.lower()
    human = gymnasium.make("racbench/science-boil-v0", render_mode="human")
    obs, _ = human.reset()
    assert capsys.readouterr().out == obs + "\n"
    obs, *_ = human.step("look around")
    assert capsys.readouterr().out == obs + "\n" and human.render() is None


@pytest.mark.parametrize("kwargs, error, words", [
    ({"variaton": 3}, InputError, ("'variaton'", "accepted: variation, simplifications")),
    ({"variation": 30}, TaskError, ("0 to 29",)),
    ({"variation": "3"}, TaskError, ("0 to 29",)),
    ({"simplifications": "fly"}, TaskError, ("'fly'", "teleport")),
    ({"max_steps": 0}, InputError, ("max_steps", "positive integer")),
    ({"render_mode": "rgb_array"}, InputError, ("'rgb_array'", "ansi, human")),
])
def test_bad_arguments_are_refused_by_name(kwargs, error, words):
    with pytest.raises(error) as caught, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # gymnasium's own warning about an unknown render_mode
        gymnasium.make("racbench/science-boil-v0", **kwargs)
    for word in words:
        assert word in str(caught.value)
