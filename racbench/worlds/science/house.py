"""Builds the house for one variation: the fixed ten-room map or a generated layout (complexity knob)."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from racbench.worlds.science import naming
from racbench.worlds.science.data import load
from racbench.worlds.science.tasks.base import TaskError
from racbench.worlds.science.text import say
from racbench.worlds.science.thermo import conducts
from racbench.worlds.science.world import AGENT, BEE, SPRING, THING, World


def seed_for(*parts) -> int:
    """A 64-bit seed hashed from its parts (never `seed + index`), stable across processes."""
    key = "\x1f".join(str(p) for p in parts).encode("utf-8")
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big")


def rng_for(*parts) -> random.Random:
    return random.Random(seed_for(*parts))


MAX_DISTRACTORS = 12


@dataclass(frozen=True)
class Layout:
    """Complexity knob. Defaults reproduce the fixed house; set n_rooms to generate a map instead.

    n_rooms: how many rooms (rooms a task needs are always kept); doors form a random tree.
    n_distractors: distractor things per room, drawn from the room's pool in house.json, besides
        ScienceWorld's furnishings (None or 0: none).
    closed_doors: whether doors start closed (the openDoors simplification overrides).
    """
    n_rooms: int | None = None
    n_distractors: int | None = None
    closed_doors: bool = True

    def validate(self) -> None:
        total = len(load("house")["rooms"])
        if self.n_rooms is not None and not 1 <= self.n_rooms <= total:
            raise TaskError(say("bad_layout", field="n_rooms", low=1, high=total, value=self.n_rooms))
        if self.n_distractors is not None and not 0 <= self.n_distractors <= MAX_DISTRACTORS:
            raise TaskError(say("bad_layout", field="n_distractors", low=0, high=MAX_DISTRACTORS,
                                value=self.n_distractors))


def make(world: World, archetype: str, name: str | None = None, temp: float = 25.0,
         color: str | None = None, material_name: str | None = None):
    """A new thing from an archetype in things.json; a custom name keeps the archetype as a referent."""
    arch = load("things")[archetype]
    t = world.new(THING, name or archetype, material_name or arch["material"], temp)
    t.container = arch.get("container", False)
    t.surface = arch.get("surface", False)
    t.openable = arch.get("openable", False)
    t.is_open = not t.openable or arch.get("open", False)
    t.portable = arch.get("portable", False)
    t.movable = arch.get("movable", False)
    t.device = arch.get("device")
    t.heat = arch.get("heat")
    t.rate = arch.get("rate", 0.0)
    t.is_on = arch.get("on", False)
    t.living = arch.get("living")
    t.alive = t.living is not None
    t.elec = arch.get("elec")
    t.polarized = arch.get("polarized", False)
    t.source = arch.get("source")
    t.renewable = arch.get("renewable", False)
    t.edible = arch.get("edible", False)
    t.readable = load("vocab")["readable"].get(arch.get("readable")) if arch.get("readable") else None
    t.tool = arch.get("tool")
    t.color = color
    t.style = arch.get("style")
    t.see_through = arch.get("see_through", False)
    refs = list(arch.get("referents", ()))
    if name and name != archetype and archetype not in ("animal", "plant", "unknown"):
        refs.insert(0, archetype)
    t.referents = tuple(refs)
    return t


def make_substance(world: World, material_name: str, temp: float, label: str | None = None, mat=None):
    """A portion of substance, named by its state of matter (or by a masked label).

    `mat` passes a generated Material (unknown substances) that is not in the material table.
    """
    t = world.new(THING, material_name, "water" if mat is not None else material_name, temp)
    if mat is not None:
        t.mat = mat
        t.state = mat.state_at(temp)
    t.is_substance = True
    t.label = label
    t.portable = True
    return t


def furniture(world: World, room_name: str, base: str):
    """The first piece of furniture called `base` in a room (None when absent)."""
    for t in world.rooms[room_name].contents:
        if t.base == base:
            return t
    return None


FLOOR = "floor"   # in a distractor spec: the room itself
AIR = "air"       # the material of a room's air, which starts at the room's ambient temperature


def _furnish(world: World, item: dict, parent, temp: float) -> None:
    """One entry of the house data, with whatever it holds: an archetype ('a', with its own 'name'
    and 'color' if given) or a portion of a material ('substance'); all at `temp`, a cooler's
    contents too (they cool from there, as in ScienceWorld)."""
    if "substance" in item:
        world.place(make_substance(world, item["substance"], temp), parent)
        return
    t = make(world, item["a"], name=item.get("name"), temp=temp, color=item.get("color"))
    world.place(t, parent)
    for sub in item.get("contents", ()):
        _furnish(world, sub, t, temp)


def furnish_after(world: World, item: dict, room_name: str, after: str):
    """A house-data entry (with what it holds) added to a room right after its furniture called
    `after`, where ScienceWorld lists it; nothing when the layout dropped the room."""
    room = world.rooms.get(room_name)
    if room is None:
        return
    _furnish(world, item, room, room.temp)
    t = room.contents.pop()
    before = furniture(world, room_name, after)
    room.contents.insert(room.contents.index(before) + 1 if before is not None else len(room.contents), t)


def _put(world: World, room_name: str, archetype: str, into: str | None = None, **kw):
    """A new thing in a room (on or in its furniture `into`), when the layout kept the room."""
    room = world.rooms.get(room_name)
    if room is None:
        return None
    t = make(world, archetype, temp=room.temp, **kw)
    world.place(t, room if into is None else furniture(world, room_name, into))
    return t


def furnish_variation(world: World, variation: int) -> None:
    """What ScienceWorld draws for variation number `variation` in every task (data/science/houses.json):
    the art in five rooms, the thing on the art studio's table, the shovel, a desk or a table in the
    living room, the wires and light bulbs on the workshop table, and book shelves."""
    houses = load("houses")
    slots = houses["house"][variation]
    art_rooms, shelf_rooms = houses["art_rooms"], houses["shelf_rooms"]
    art, (studio, shovel, desk, wires, bulbs), shelves = (slots[:len(art_rooms)], slots[len(art_rooms):-len(shelf_rooms)],
                                                         slots[-len(shelf_rooms):])
    for room, piece in zip(art_rooms, art):
        _put(world, room, piece)
    _put(world, "art studio", studio, into="table")
    _put(world, shovel, "shovel")
    if desk:
        d = _put(world, "living room", "desk")
        if d is not None:
            world.place(make(world, "drawer", temp=d.temp), d)
    else:
        _put(world, "living room", "table")
    for c in wires:
        _put(world, "workshop", "wire", into="table", name=naming.wire(c), color=c)
    for c in bulbs:
        _put(world, "workshop", "light bulb", into="table", name=naming.colored(c, "light bulb"), color=c)
    for room, books in zip(shelf_rooms, shelves):
        if books is not None:
            shelf = _put(world, room, "book shelf")
            for title in books if shelf is not None else ():
                world.place(make(world, "book", name=naming.book(title), temp=shelf.temp), shelf)


def build_house(rng: random.Random, layout: Layout = Layout(), required=(), variation: int = 0) -> World:
    """Rooms, doors, furniture and ScienceWorld's furnishings of variation number `variation`
    (plus a Layout's distractors); the agent is placed by the task."""
    house = load("house")
    names = list(house["rooms"])
    if layout.n_rooms is not None:
        keep = [n for n in names if n in required]
        others = [n for n in names if n not in required]
        rng.shuffle(others)
        keep += others[: max(0, layout.n_rooms - len(keep))]
        names = [n for n in names if n in keep]
    world = World()
    for name in names:
        spec = house["rooms"][name]
        start = house["start_temp"]     # things start here whatever the room; its air at the room's own
        room = world.add_room(name, start)
        for item in spec["furniture"]:
            _furnish(world, item, room, spec["ambient"] if item.get("substance") == AIR else start)
    furnish_variation(world, variation)
    world.taps = [t for t in world.things if t.device == "tap"]
    world.springs = [t for t in world.things if t.device == SPRING]
    if layout.n_rooms is None:
        pairs = [tuple(p) for p in house["doors"] if p[0] in world.rooms and p[1] in world.rooms]
    else:
        order = list(names)
        rng.shuffle(order)
        pairs = [(order[i], order[rng.randrange(i)]) for i in range(1, len(order))]
    for a, b in pairs:
        world.add_door(world.rooms[a], world.rooms[b], not layout.closed_doors)
    for name in names if layout.n_distractors else ():
        spec = house["rooms"][name]["distractors"]
        room = world.rooms[name]
        pool = list(spec["pool"])
        picks = rng.sample(pool, min(layout.n_distractors, len(pool)))
        targets = []
        for base in spec["into"]:
            targets += [room] if base == FLOOR else [f for f in room.contents if f.base == base]
        for base in picks:
            world.place(make(world, base, temp=room.temp), rng.choice(targets))
    world.timers = [t for t in world.things if t.tool == "stopwatch"]
    world.bees = [t for t in world.things if t.base == BEE]
    return world


def add_agent(world: World, room_name: str) -> None:
    """The agent in its start room, carrying what ScienceWorld's agent carries (house.json 'agent')."""
    room = world.rooms[room_name]
    agent = world.new(AGENT, "agent", "flesh", room.temp)
    agent.container = True
    world.agent = agent
    world.place(agent, room)
    for item in load("house")["agent"]:
        _furnish(world, item, agent, room.temp)


def settle(world: World, open_doors: bool, open_containers: bool) -> None:
    """Apply start-of-episode simplifications and wake what lies inside active devices (it starts
    at its own temperature and moves toward theirs tick by tick, as in ScienceWorld) and what
    starts at a temperature of its own (a task's frozen or heated substance)."""
    if open_doors:
        for d in world.doors:
            d.is_open = True
    start = load("house")["start_temp"]
    for t in world.things:
        if open_containers and t.openable and t.kind == THING:
            t.is_open = True
        if (t.heat is not None and t.is_on) or (t.temp != start and conducts(t)):
            world.touch(t)
    world.changed()
