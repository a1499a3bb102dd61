"""Taps: a sink that is turned on fills every open container standing in it with water."""

from __future__ import annotations

from racbench.worlds.science.house import make_substance
from racbench.worlds.science.world import LIQUID, World

WATER = "water"


def tick(world: World) -> None:
    for tap in world.taps:
        if not tap.is_on:
            continue
        for c in tap.contents:
            if c.container and c.is_open and not any(
                    x.is_substance and x.mat.name == WATER and x.state == LIQUID for x in c.contents):
                world.move(make_substance(world, WATER, tap.temp), c)
