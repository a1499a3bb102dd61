"""Life stages: living things that grow from their first stage to their last as ticks pass.

A grower spends `world.stage_ticks` ticks in each stage and stops at its last (adult) stage. Only
things a task registers in `world.growers` grow, and only while the agent shares their room: an
agent who walks a long way to them does not arrive to find a stage already gone.
"""

from __future__ import annotations

from racbench.worlds.science.data import load
from racbench.worlds.science.house import make
from racbench.worlds.science.world import World


def organism(world: World, kind: str, name: str, stages: list[str], temp: float, stage: int = 0):
    """An animal or plant called by its stage ('turtle egg', 'adult apple plant'); it also answers
    to its own name and to the stage's word."""
    table = load("life")
    patterns = table["stage_names"] if kind == "animal" else table["plant_stage_names"]
    t = make(world, kind, name=name, temp=temp)
    t.stages = tuple(patterns[s].format(name=name) for s in stages)
    t.stage = stage
    t.referents = (name,) + tuple(dict.fromkeys(stages))
    return t


def tick(world: World) -> None:
    here = world.agent.parent
    for t in world.growers:
        if t.stage >= len(t.stages) - 1 or t.parent is None or world.room_of(t) is not here:
            continue
        t.age += 1
        if t.age >= world.stage_ticks:
            t.stage += 1
            t.age = 0
            world.changed()
