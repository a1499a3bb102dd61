"""A saved episode, restored, is the episode that replaying its commands gives: the lab
branches from saved states instead of replaying, so any state a step changes and `save`
forgot would make its labels wrong."""

from __future__ import annotations

import random

import pytest

from racbench.worlds.science.env import ScienceEnv
from racbench.worlds.science.registry import TASKS
from racbench.worlds.science.trajectory import gold_trajectory


@pytest.mark.parametrize("task", sorted(TASKS))
def test_restoring_a_saved_state_equals_replaying_its_commands(task):
    env, fresh = ScienceEnv(task, 1), ScienceEnv(task, 1)
    env.reset()
    rng = random.Random(task)
    saved = {(): env.save()}
    for _ in range(12):
        history = rng.choice(sorted(saved))
        env.restore(saved[history])
        for _ in range(rng.randint(1, 5)):
            commands = [c for c in env.valid_actions() if not c.startswith(("look", "read"))]
            if env.finished or not commands:
                break
            command = rng.choice(commands)
            env.act(command)
            history += (command,)
            saved[history] = env.save()
        info = fresh.reset()[1]
        for command in history:
            info = fresh.step(command)[4]
        assert env.facts() == fresh.facts(), history
        assert env.valid_actions() == info["valid_actions"], history
        assert (env.look(), env.inventory()) == (info["look"], info["inventory"]), history
        assert (env.episode.score, env.finished) == (info["score"], fresh.finished), history


def test_a_saved_state_stays_in_its_episode():
    env = ScienceEnv("boil", 0)
    env.reset()
    saved = env.save()
    env.reset()
    with pytest.raises(ValueError, match="episode that saved it"):
        env.restore(saved)


def test_restoring_a_state_before_a_mix_drops_the_product_and_mixing_again_remakes_it():
    steps = [s["action"] for s in gold_trajectory("chemistry-mix", 0, "easy")]
    mix_at = next(i for i, a in enumerate(steps) if a.startswith("mix "))
    env = ScienceEnv("chemistry-mix", 0, "easy")
    env.reset()
    for action in steps[:mix_at]:
        env.step(action)
    before, n_things = env.save(), len(env.world.things)
    facts_before = env.facts()
    env.step(steps[mix_at])
    assert len(env.world.things) > n_things and any("salt water" in str(f) for f in env.facts())
    env.restore(before)
    assert len(env.world.things) == n_things and env.facts() == facts_before
    for action in steps[mix_at:]:
        obs, _, _, _, info = env.step(action)
    assert info["score"] == 1.0
