"""The forces experiment: blocks sliding down inclined planes, and stopwatches that time them.

A block put on a plane starts at rest at the top and slides with constant acceleration
g * (sin(angle) - friction * cos(angle)), one tick being one second; a plane too shallow for
its friction holds the block still. A stopwatch counts the ticks it runs, from zero at each start.
"""

from __future__ import annotations

import math

from racbench.worlds.science.data import load
from racbench.worlds.science.world import World

_TABLE = load("planes")
GRAVITY, LENGTH = _TABLE["gravity"], _TABLE["length"]


def acceleration(angle: float, friction: float) -> float:
    rad = math.radians(angle)
    return max(0.0, GRAVITY * (math.sin(rad) - friction * math.cos(rad)))


def share_down(block) -> float:
    """How far down its plane a block is, 0 (top) to 1 (bottom)."""
    plane = block.parent
    a = acceleration(plane.angle, plane.friction)
    return min(1.0, 0.5 * a * block.clock * block.clock / LENGTH)


def ticks_to_bottom(angle: float, friction: float) -> int | None:
    a = acceleration(angle, friction)
    return math.ceil(math.sqrt(2 * LENGTH / a)) if a > 0 else None


def tick(world: World) -> None:
    for plane in world.planes:
        for block in plane.contents:
            if share_down(block) < 1.0:
                block.clock += 1
                world.changed()
    for watch in world.timers:
        if watch.is_on:
            watch.clock += 1
            world.changed()
