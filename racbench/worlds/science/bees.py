"""Bees fly, as ScienceWorld's do (observed there): a bee does not stay where it is put. One in an
open hive, in the agent's inventory or in any other open container leaves it for the floor of the
room it is in a tick after it got there; one shut in a closed container stays. So a bee cannot be
carried about or kept in a box for long, and the find tasks' oracles choose other animals, as
ScienceWorld's gold paths do. ScienceWorld's bees also wander through open doors and in and out of
flowers, by an unseeded random draw each tick (the README's "When bees pollinate"); ours stay on
their room's floor, and life.py makes the fruit at a fixed tick."""

from __future__ import annotations

from racbench.worlds.science.world import AGENT, ROOM, World


def reach(bee):
    """The room or the agent a bee can fly to from where it is; None when it is shut in."""
    p = bee.parent
    while p.kind not in (ROOM, AGENT):
        if not p.is_open:
            return None
        p = p.parent
    return p


def tick(world: World) -> None:
    """Bees off the floor rest one tick (`clock`), then fly out to their room's floor."""
    for bee in world.bees:
        if bee.parent is None or not bee.alive or bee.parent.kind == ROOM or reach(bee) is None:
            if bee.clock:   # a write marks the bee for the next save and load (world.Tracked)
                bee.clock = 0
        elif bee.clock:
            bee.clock = 0
            world.move(bee, world.room_of(bee))
        else:
            bee.clock = 1
