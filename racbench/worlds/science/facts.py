"""The world as sorted symbolic facts, for rows that carry their proof and for tests.

Things are named `name#uid` so twins stay apart; temperatures are rounded to whole degrees.
"""

from __future__ import annotations

from racbench.worlds.science.scope import terminal_names
from racbench.worlds.science.world import AGENT, DOOR, ROOM, World


def thing_id(t) -> str:
    return f"{t.name}#{t.uid}"


def facts(world: World) -> list[tuple]:
    out: list[tuple] = []
    for t in world.things:
        if t.parent is None and t.kind not in (ROOM, DOOR):
            continue
        me = thing_id(t)
        if t.kind == DOOR:
            out.append(("door", me, thing_id(t.rooms[0]), thing_id(t.rooms[1])))
            out.append(("open" if t.is_open else "closed", me))
            continue
        if t.kind == ROOM:
            out.append(("room", me, round(t.temp)))
            continue
        out.append(("in", me, thing_id(t.parent)))
        if t.kind == AGENT:
            continue
        out.append(("material", me, t.mat.name))
        out.append(("temperature", me, round(t.temp)))
        if t.is_substance:
            out.append(("state", me, t.state))
        if t.openable:
            out.append(("open" if t.is_open else "closed", me))
        if t.device in ("heater", "cooler", "switchable") or t.elec == "load":
            out.append(("on" if t.is_on else "off", me))
        if t.broken:
            out.append(("broken", me))
        if t.burning:
            out.append(("burning", me))
        if t.living:
            out.append((t.living, me, "alive" if t.alive else "dead"))
    for (uid, i), (uid2, j) in world.links.items():
        if (uid, i) < (uid2, j):
            a, b = world.things[uid], world.things[uid2]
            out.append(("connected", thing_id(a), terminal_names(a)[i], thing_id(b), terminal_names(b)[j]))
    return sorted(out, key=lambda f: tuple(str(x) for x in f))
