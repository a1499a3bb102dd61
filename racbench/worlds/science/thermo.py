"""Thermodynamics, one tick at a time, after ScienceWorld's rules (read off its object tree tick
by tick; racbench/worlds/science/README.md, "Timing against ScienceWorld's").

Every thing that conducts takes its turn, each before what it holds (a pot before the water in it), and
moves toward each thing it touches in turn, by CONTACT times the lesser of the two materials'
conductivities of the gap: its container, every other thing in that container, and every thing
inside it. A thing in or on a switched-on heater or cooler moves toward the device's temperature
by the device's rate instead of toward the device (devices, rooms, the agent, the air and a
material of conductivity 0 do not conduct: a room's things touch one another, the inventory's
likewise). A thing past its combustion point catches fire and burns BURN_TICKS ticks, at least
FLAME_ABOVE degrees above that point, then turns to ash. Only things in `world.thermal_active` are
visited: a thing that moved by SETTLE or more wakes what it touches, one that moved less sleeps,
so a quiet house costs nothing per tick.
"""

from __future__ import annotations

from racbench.worlds.science.materials import material
from racbench.worlds.science.world import THING, World

CONTACT = 0.1       # share of a gap closed per tick between perfect conductors
FLAME_ABOVE = 200.0   # a burning thing is at least this much hotter than its combustion point
BURN_TICKS = 100      # ticks a thing burns before it is ash
SETTLE = 1e-3       # a move smaller than this puts a thing to sleep
AIR = "air"


def conducts(t) -> bool:
    """Takes part in heat exchange: a thing, not a heater or cooler, not the air, of a material
    that conducts at all."""
    return t.kind == THING and t.heat is None and t.mat.thermal > 0 and t.mat.name != AIR


def _touching(t):
    """What `t` exchanges heat with besides a device holding it: the container (if it conducts),
    the things beside it, the things inside it."""
    p = t.parent
    if conducts(p):
        yield p
    for s in p.contents:
        if s is not t and conducts(s):
            yield s
    for c in t.contents:
        if conducts(c):
            yield c


def _place_key(t) -> list:
    """Where `t` comes in a walk of the house that visits each thing before what it holds, and
    what a container holds in the order it arrived: the order ScienceWorld's things tick in
    (a thermometer held before a hot pot was picked up warms toward the pot's heat before the
    pot loses any to it)."""
    key = []
    while t.parent is not None:
        key.append(t.parent.contents.index(t))
        t = t.parent
    key.append(t.uid)
    key.reverse()
    return key


def tick(world: World) -> None:
    active = world.thermal_active
    if not active:
        return
    order = sorted(active.values(), key=_place_key)
    for t in order:
        p = t.parent
        if p is None or not conducts(t):
            del active[t.uid]
            continue
        before = temp = t.temp
        k = t.mat.thermal
        if p.heat is not None and p.is_on and not p.broken:
            temp += p.rate * (p.heat - temp)
        for o in _touching(t):
            ko = o.mat.thermal
            temp += CONTACT * (k if k < ko else ko) * (o.temp - temp)
        comb = t.mat.combustion
        if comb is not None and (t.burning or temp >= comb) and temp < comb + FLAME_ABOVE:
            temp = comb + FLAME_ABOVE      # catching fire, or burning: the flame's heat
        if temp != before:   # a write marks the thing for the next save and load (world.Tracked)
            t.temp = temp
        if -SETTLE < temp - before < SETTLE and not t.burning:
            del active[t.uid]
        else:
            for o in _touching(t):
                active[o.uid] = o
        if t.tool == "thermometer" and round(before) != round(temp):
            world.changed()    # its reading shows in look text
        if t.is_substance:
            new = t.mat.state_at(temp)
            if new != t.state:
                world.set_state(t, new)
        if comb is not None:
            if t.burning:
                t.burning -= 1
                if t.burning == 0:
                    _to_ash(world, t)
            elif temp >= comb:
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
