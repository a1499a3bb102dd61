"""The simulator's fast paths give what the plain ones give, over many seeded steps.

Saving and loading look only at the things written since the last save or load
(world.Tracked); these tests walk every task at random, saving and going back to saved
states, and compare each restored world slot by slot with a plain copy of every thing
taken when the state was saved, so a write the tracking missed shows up.
"""

from __future__ import annotations

import random

import pytest

from racbench.worlds.science.env import ScienceEnv
from racbench.worlds.science.registry import TASKS
from racbench.worlds.science.world import Thing

SLOTS = tuple(s for s in Thing.__slots__ if s not in ("_marks", "contents"))   # contents apart, as a tuple


def plain_copy(world) -> tuple:
    """Every slot of every thing (contents as the things they hold), the world's bookkeeping."""
    return (tuple((tuple(getattr(t, s) for s in SLOTS), tuple(t.contents)) for t in world.things),
            world.version, world.ticks, dict(world.thermal_active), dict(world.links),
            tuple(world.phase_log), tuple(world.growers))


def walk(task: str, seed: int, steps: int):
    """(env, [(saved, plain copy at saving)]) after a seeded walk of `steps` commands that
    goes back to a saved state a third of the time."""
    env = ScienceEnv(task, 1)
    env.reset()
    rng = random.Random(f"{task}-{seed}")
    saved = [(env.save(), plain_copy(env.world))]
    for _ in range(steps):
        if rng.random() < 1 / 3 or env.finished:
            state, copy = rng.choice(saved)
            env.restore(state)
            assert plain_copy(env.world) == copy
            continue
        commands = [c for c in env.valid_actions() if not c.startswith(("look", "read"))]
        env.act(rng.choice(commands))
        if rng.random() < 1 / 2:
            saved.append((env.save(), plain_copy(env.world)))
    return env, saved


@pytest.mark.parametrize("task", sorted(TASKS))
def test_loading_a_saved_state_writes_back_every_slot_the_walk_changed(task):
    env, saved = walk(task, 0, 60)
    for state, copy in reversed(saved):   # every saved state, from wherever the walk ended
        env.restore(state)
        assert plain_copy(env.world) == copy
