"""Turns world state into the plain view dicts the look templates render."""

from __future__ import annotations

from racbench.worlds.science import mechanics
from racbench.worlds.science.data import load
from racbench.worlds.science.text import say
from racbench.worlds.science.world import AGENT, SWITCHED, World


class View:
    """What the look templates may know about a thing (attribute access keeps jinja fast)."""

    __slots__ = ("name", "agent", "substance", "burning", "broken", "device", "load", "on", "container",
                 "open", "surface", "contents", "timer", "reading", "style")

    def __init__(self, t):
        is_container = (t.container and t.kind != AGENT) or (t.living == "plant" and bool(t.contents))   # seeds on a plant
        self.name = t.name
        self.agent = t.kind == AGENT
        self.substance = t.is_substance
        self.burning = t.burning > 0
        self.broken = t.broken
        self.device = t.device in SWITCHED
        self.load = t.elec == "load"
        self.on = t.is_on
        self.container = is_container
        self.open = t.is_open or t.see_through   # a see-through jar is listed as an open one is
        self.surface = t.surface
        self.contents = [View(c) for c in _in_order(t.contents)] if is_container and (t.is_open or t.see_through) else []
        self.timer = t.clock if t.tool == "stopwatch" else None
        self.reading = round(t.temp) if t.tool == "thermometer" else None   # what its scale shows
        self.style = t.style


def _in_order(things) -> list:
    """Things as a look lists them, by name as ScienceWorld lists them (the agent first)."""
    return sorted(things, key=lambda c: (c.kind != AGENT, c.name))


def view(t) -> View:
    return View(t)


def look_around(world: World) -> str:
    room = world.agent_room()
    items = [view(c) for c in _in_order(room.contents)]
    doors = sorted((other.name, door.is_open) for door, other in world.doors_of(room))
    outdoor = load("house")["rooms"].get(room.name, {}).get("outdoor", False)
    return say("room", name=room.name, items=items, doors=doors, outdoor=outdoor)


def inventory(world: World) -> str:
    return say("inventory", items=[view(c) for c in _in_order(world.agent.contents)])


def look_at(world: World, t) -> str:
    if t.angle is not None:
        blocks = [(b.name, int(100 * share), share >= 1.0)
                  for b, share in ((b, mechanics.share_down(b)) for b in t.contents)]
        return say("look_plane", name=t.name, blocks=blocks)
    if t.kind == "door":
        here = world.agent_room()
        other = t.rooms[1] if t.rooms[0] is here else t.rooms[0]
        return say("look_door", other=other.name, open=t.is_open)
    return say("look_at", v=view(t))


def look_in(world: World, t) -> str:
    if not t.container or t.kind == AGENT:
        return say("not_container", name=t.name)
    return say("look_in", v=view(t))
