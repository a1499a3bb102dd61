"""The world as sorted symbolic facts, for rows that carry their proof and for tests.

Things are named `name#uid` so twins stay apart; temperatures are rounded to whole degrees.
"""

from __future__ import annotations

from racbench.worlds.science.scope import terminal_names
from racbench.worlds.science.world import AGENT, DOOR, ROOM, SWITCHED, World


def thing_id(t) -> str:
    return f"{t.name}#{t.uid}"


def facts(world: World) -> list[tuple]:
    return sorted(iter_facts(world), key=lambda f: tuple(str(x) for x in f))


def iter_facts(world: World, measures: bool = True):
    """The facts in no set order (the lab keeps them as sets: sorting is half the cost).
    Without `measures`, none of the kinds no lab question asks (door, room, material,
    temperature, alive or dead): a survey reads a state's facts thousands of times."""
    for t in world.things:
        if t.parent is None and t.kind not in (ROOM, DOOR):
            continue
        me = thing_id(t)
        if t.kind == DOOR:
            if measures:
                yield ("door", me, thing_id(t.rooms[0]), thing_id(t.rooms[1]))
            yield ("open" if t.is_open else "closed", me)
            continue
        if t.kind == ROOM:
            if measures:
                yield ("room", me, round(t.temp))
            continue
        yield ("in", me, thing_id(t.parent))
        if t.kind == AGENT:
            continue
        if measures:
            yield ("material", me, t.mat.name)
            yield ("temperature", me, round(t.temp))
        if t.is_substance:
            yield ("state", me, t.state)
        if t.openable:
            yield ("open" if t.is_open else "closed", me)
        if t.device in SWITCHED or t.elec == "load":
            yield ("on" if t.is_on else "off", me)
        if t.broken:
            yield ("broken", me)
        if t.burning:
            yield ("burning", me)
        if t.living and measures:
            yield (t.living, me, "alive" if t.alive else "dead")
    for (uid, i), (uid2, j) in world.links.items():
        if (uid, i) < (uid2, j):
            a, b = world.things[uid], world.things[uid2]
            yield ("connected", thing_id(a), terminal_names(a)[i], thing_id(b), terminal_names(b)[j])
