"""Series circuits through explicit terminal links.

Every thing has two terminals (index 0 and 1: anode/cathode when polarized, terminal 1/2 otherwise);
each terminal links to at most one other, so a circuit is a chain we can simply follow. Current
leaves a working source by its anode and must come back to its cathode; a polarized load conducts
only when entered at its cathode; a switch conducts when on; a plain thing conducts if its material
does. Every load on a closed loop is powered.

A change to a circuit (a link, a switch, a part moved) reaches its loads at the tick after the one
it was made in, as in ScienceWorld: a bulb wired by an action is still off after that action and on
after the next.
"""

from __future__ import annotations

from racbench.worlds.science.world import World

OUTSIDE = "outside"
WAITING = 2     # `world.elec_dirty` after the tick a change was made in: current flows at the next


def producing(world: World, src) -> bool:
    """Whether a source can drive current now (solar and wind only work outside; a generator
    with a switch must be on)."""
    if src.broken:
        return False
    if src.source in ("solar", "wind"):
        return world.room_of(src).base == OUTSIDE
    if src.device is not None:
        return src.is_on
    return True


def _conducts(thing, enter: int) -> bool:
    kind = thing.elec
    if kind == "wire":
        return True
    if kind == "switch":
        return thing.is_on
    if kind == "load":
        return enter == 1 if thing.polarized else True
    if kind == "source":
        return False
    return thing.mat.conductive


def loop_through(world: World, src) -> list | None:
    """Things on the closed loop leaving `src`'s anode, or None when the loop is open."""
    links = world.links
    things = world.things
    path = []
    seen = {src.uid}
    here = (src.uid, 0)
    while True:
        nxt = links.get(here)
        if nxt is None:
            return None
        uid, term = nxt
        if uid == src.uid:
            return path if term == 1 else None
        if uid in seen:
            return None
        thing = things[uid]
        if thing.parent is None or not _conducts(thing, term):
            return None
        seen.add(uid)
        path.append(thing)
        here = (uid, 1 - term)


def tick(world: World) -> None:
    """The engine's step: a change made since the last tick waits one tick, then `update`."""
    if world.elec_dirty is True:
        world.elec_dirty = WAITING
    elif world.elec_dirty:
        update(world)


def update(world: World) -> None:
    """Recompute which loads are powered, and by which source, when links or switches changed."""
    if not world.elec_dirty:
        return
    world.elec_dirty = False
    fed: dict[int, object] = {}
    for src in world.things:
        if src.elec != "source" or src.parent is None or not producing(world, src):
            continue
        path = loop_through(world, src)
        if path:
            for thing in path:
                if thing.elec == "load":
                    fed.setdefault(thing.uid, src)
    world.power_source = fed
    for thing in world.things:
        if thing.elec == "load":
            now = thing.uid in fed
            if now != thing.powered:
                thing.powered = now
                thing.is_on = now
                world.changed()
