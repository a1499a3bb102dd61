"""Taps and springs: a sink that is turned on fills every open container standing in it with
water; a spring (the fountain outside) holds water again at every tick, as ScienceWorld's
fountain does (it starts empty and fills at the first tick, and refills when emptied)."""

from __future__ import annotations

from racbench.worlds.science.data import load
from racbench.worlds.science.house import make_substance
from racbench.worlds.science.world import LIQUID, World

WATER = "water"
TAP_WATER_TEMP = load("things")["sink"]["water_temp"]


def tick(world: World) -> None:
    for tap in world.taps:
        if tap.is_on:
            for c in tap.contents:
                if c.container and c.is_open:
                    _fill(world, c, TAP_WATER_TEMP)
    for spring in world.springs:
        _fill(world, spring, spring.temp)


def _fill(world: World, vessel, temp: float) -> None:
    """Water at `temp` into `vessel`, unless it already holds liquid water."""
    if not any(x.is_substance and x.mat.name == WATER and x.state == LIQUID for x in vessel.contents):
        world.move(make_substance(world, WATER, temp), vessel)
