"""Thermodynamics, one tick at a time, at elementary-science fidelity.

Each live thing moves a share of the way toward the temperature of what touches it: an active heat
source or sink it sits in or on, else the container it is in together with everything else inside
that container (conduction), else the room air (ambient exchange; a thing on a table or counter is
in the room's air). The share is the contact rate times the material's thermal conductivity. Only things in
`world.thermal_active` are visited; a thing leaves that set once it has settled at room temperature,
so a quiet house costs nothing per tick.
"""

from __future__ import annotations

from racbench.worlds.science.materials import material
from racbench.worlds.science.world import AGENT, ROOM, World

# Rates fitted so that tick counts match ScienceWorld's, read by observation (thermometer readings
# each tick; benchmarks/science_timing.py): tap water on a lit stove boils 20 actions after the
# stove goes on, in the freezer it freezes in 20, ice from the freezer melts on a counter in about 30
# (counted in actions that take one tick each: a thermometer reading, a look at a thing).
AMBIENT_RATE = 0.035
CONTACT_RATE = 0.1
FIRE_TEMP = 800.0
FIRE_RATE = 0.3
BURN_TICKS = 4
SETTLE = 0.05


def _environment(t):
    """(target temperature, rate, room temperature) for thing `t`."""
    p = t.parent
    if p.kind == AGENT:
        p = p.parent
    if p.kind == ROOM:
        return p.temp, AMBIENT_RATE, p.temp
    room = p.parent
    while room.kind != ROOM:      # up through containers and the agent carrying them
        room = room.parent
    if p.surface and p.device is None:      # on a table or counter: in the room's air
        return room.temp, AMBIENT_RATE, room.temp
    if p.heat is not None and p.is_on and not p.broken:
        return p.heat, p.rate, room.temp
    if p.burning:
        return FIRE_TEMP, FIRE_RATE, room.temp
    siblings = p.contents
    if len(siblings) == 1:
        return p.temp, CONTACT_RATE, room.temp
    # in contact with the container and with everything else inside it
    total = p.temp
    for s in siblings:
        if s is not t:
            total += s.temp
    return total / len(siblings), CONTACT_RATE, room.temp


def _depth(t) -> int:
    d = 0
    while t.parent is not None:
        t = t.parent
        d += 1
    return d


def tick(world: World) -> None:
    active = world.thermal_active
    if not active:
        return
    order = sorted(active.values(), key=lambda t: (_depth(t), t.uid))
    for t in order:
        if t.parent is None:
            del active[t.uid]
            continue
        target, rate, room_temp = _environment(t)
        if t.burning:
            target, rate = FIRE_TEMP, FIRE_RATE
        share = rate * t.mat.thermal
        if share > 1.0:
            share = 1.0
        gap = target - t.temp
        before = t.temp
        if -SETTLE < gap < SETTLE:
            t.temp = target
            if target == room_temp and not t.burning:
                del active[t.uid]
        else:
            t.temp += gap * share
        if t.tool == "thermometer" and round(before) != round(t.temp):
            world.changed()    # its reading shows in look text
        if t.is_substance:
            new = t.mat.state_at(t.temp)
            if new != t.state:
                world.set_state(t, new)
        comb = t.mat.combustion
        if comb is not None:
            if t.burning:
                t.burning -= 1
                if t.burning == 0:
                    _to_ash(world, t)
            elif t.temp >= comb:
                t.burning = BURN_TICKS
                world.changed()


def _to_ash(world: World, t) -> None:
    """A burnt thing becomes ash; whatever it held falls into its container."""
    parent = t.parent
    for inner in list(t.contents):
        world.move(inner, parent)
    t.mat = material("ash")
    t.base = "ash"
    t.label = None
    t.is_substance = False
    t.state = "solid"
    t.alive = False
    t.living = None
    t.container = False
    t.elec = None
    t.referents = ()
    world.disconnect_all(t)
    world.changed()
