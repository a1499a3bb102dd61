"""Turns world state into the plain view dicts the look templates render.

A view's `key` holds everything the templates read of it, so a text rendered once is
kept (`_said`) and given again for any look that shows the same: a room whose
thermometer moved a degree, or another variation's room alike, renders nothing anew."""

from __future__ import annotations

from racbench.worlds.science import mechanics
from racbench.worlds.science.data import load
from racbench.worlds.science.text import say
from racbench.worlds.science.world import AGENT, SWITCHED, World


class View:
    """What the look templates may know about a thing (attribute access keeps jinja fast)."""

    __slots__ = ("name", "agent", "substance", "burning", "broken", "device", "load", "on", "container",
                 "open", "surface", "contents", "timer", "reading", "style", "key")

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
        self.key = (self.name, self.agent, self.substance, self.burning, self.broken, self.device,
                    self.load, self.on, is_container, self.open, self.surface,
                    tuple([c.key for c in self.contents]), self.timer, self.reading, self.style)


# texts rendered, by macro and the key of what they were rendered from (views' keys, names):
# the templates read nothing else, so a text is the same whenever its key is
_SAID: dict = {}
SAID_KEPT = 1 << 14   # more and they are all dropped


def _said(macro: str, key: tuple, **kw) -> str:
    text = _SAID.get((macro, key))
    if text is None:
        if len(_SAID) >= SAID_KEPT:
            _SAID.clear()
        text = _SAID[(macro, key)] = say(macro, **kw)
    return text


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
    key = (room.name, tuple([v.key for v in items]), tuple(doors), outdoor)
    return _said("room", key, name=room.name, items=items, doors=doors, outdoor=outdoor)


def look_elsewhere(room) -> tuple[str, tuple[str, ...]]:
    """A room the agent is not in, its things listed as a look there lists them (a task
    names it: the animals are in the 'outside' location), and the names the list shows
    (in what is open, as a look shows them)."""
    items = [view(c) for c in _in_order(room.contents)]
    names: list[str] = []
    todo = list(items)
    while todo:
        v = todo.pop()
        names.append(v.name)
        todo.extend(v.contents)
    return (_said("place", (room.name, tuple([v.key for v in items])), name=room.name,
                  items=items), tuple(sorted(set(names))))


def inventory(world: World) -> str:
    items = [view(c) for c in _in_order(world.agent.contents)]
    return _said("inventory", tuple([v.key for v in items]), items=items)


def look_at(world: World, t) -> str:
    if t.angle is not None:
        blocks = [(b.name, int(100 * share), share >= 1.0)
                  for b, share in ((b, mechanics.share_down(b)) for b in t.contents)]
        return say("look_plane", name=t.name, blocks=blocks)
    if t.kind == "door":
        here = world.agent_room()
        other = t.rooms[1] if t.rooms[0] is here else t.rooms[0]
        return say("look_door", other=other.name, open=t.is_open)
    v = view(t)
    return _said("look_at", v.key, v=v)


def look_in(world: World, t) -> str:
    if not t.container or t.kind == AGENT:
        return say("not_container", name=t.name)
    v = view(t)
    return _said("look_in", v.key, v=v)
