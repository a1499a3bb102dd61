"""Moves every oracle shares: walking the house, opening what hides a thing, fetching it."""

from __future__ import annotations

from collections import deque

from racbench.worlds.science.house import build_house, rng_for
from racbench.worlds.science.naming import command
from racbench.worlds.science.tasks.base import LAST_ACTION, start_room
from racbench.worlds.science.world import AGENT, ROOM

MAX_WAIT_STEPS = 200


def task_house(spec, variation: int, layout, rooms=()):
    """(world, rng, start room) of a variation: ScienceWorld's house of that variation number with
    the rooms a task needs kept (when a layout drops rooms), and ScienceWorld's start room."""
    rng = rng_for(spec.name, variation)
    start = start_room(spec.name, variation)
    world = build_house(rng, layout, required={start, *rooms}, variation=variation)
    return world, rng, start


# optional goals many tasks share, as ScienceWorld's tasks share them
def left(world, start: str, task_room: str | None = None):
    """The agent has been somewhere other than its start room (met from the start when it starts
    in `task_room`, as ScienceWorld's 'unless starting in task location' goals are)."""
    if start == task_room:
        return lambda ep: True
    return lambda ep: world.agent_room().name != start


def in_room(world, name: str):
    """The agent has been in the room `name` (the task's room, its answer boxes' room)."""
    return lambda ep: world.agent_room().name == name


def by_open_door(world):
    """The agent has stood in a room with an open door."""
    return lambda ep: any(door.is_open for door, _ in world.doors_of(world.agent_room()))


def route(world, start, goal) -> list:
    """[(door, next room), ...] along a shortest door path (breadth first, data order)."""
    prev = {start.uid: None}
    queue = deque([start])
    while queue:
        room = queue.popleft()
        if room is goal:
            break
        for door, other in world.doors_of(room):
            if other.uid not in prev:
                prev[other.uid] = (door, room, other)
                queue.append(other)
    steps = []
    node = goal
    while prev.get(node.uid) is not None:
        door, back, _ = prev[node.uid]
        steps.append((door, node))
        node = back
    return steps[::-1]


def go_to(env, room):
    """Walk (or teleport) to `room`, opening closed doors on the way."""
    world = env.world
    if world.agent_room() is room:
        return
    if env.teleport_ok:
        yield command("teleport", room.name)
        return
    for door, nxt in route(world, world.agent_room(), room):
        if not door.is_open:
            yield command("open", env.canon(door))
        yield command("go", nxt.name)


def uncover(env, thing):
    """Open every closed container between the room and `thing`, outermost first."""
    chain = []
    p = thing.parent
    while p.kind not in (ROOM, AGENT):
        chain.append(p)
        p = p.parent
    for c in reversed(chain):
        if c.openable and not c.is_open:
            yield command("open", env.canon(c))


def visit(env, thing):
    """Go to the room holding `thing` and uncover it."""
    world = env.world
    if thing.parent is world.agent or world.inside(thing, world.agent):
        return
    yield from go_to(env, world.room_of(thing))
    yield from uncover(env, thing)


def fetch(env, thing):
    """Get `thing` into the inventory."""
    yield from visit(env, thing)
    if thing.parent is not env.world.agent:
        yield command("pick_up", env.canon(thing))


def deliver(env, thing, dest):
    """Carry `thing` (fetched already or not) and move it into `dest`."""
    yield from fetch(env, thing)
    yield from visit(env, dest)
    if dest.openable and not dest.is_open:
        yield command("open", env.canon(dest))
    yield command("move", env.canon(thing), env.canon(dest))


def wait_until(env, done, action=None):
    """Repeat `action` (a callable returning a command; default wait1) until `done()` or the end."""
    for _ in range(MAX_WAIT_STEPS):
        if done() or env.finished:
            return
        yield action() if action is not None else command("wait1")


# ---- ScienceWorld's optional goals for heating and cooling a substance ---------------------
# (matter and melting-point tasks share them; read off its goal progress per task)
HEATERS = ("stove", "blast furnace", "oven", "hot plate")
COOLERS = ("fridge", "freezer")


def in_agent_room(world, pred):
    """Something in the agent's room (carried things included) satisfies `pred`: the
    'be in same location as' of ScienceWorld's goals, which look in that room only."""
    return lambda ep: any(pred(t) for t in world.subtree(world.agent_room()))


def near_material(world, mat):
    """The agent is in a room that holds some portion of `mat` (a tap's water once it runs)."""
    return in_agent_room(world, lambda t: t.is_substance and t.mat is mat)


def alone_in_container(world, mat):
    """In the agent's room, some portion of `mat` is the only thing in what holds it (not the
    room, not the inventory): a vessel, or a fixture such as the fountain, as ScienceWorld
    credits it (freeze 3 starts outside by the fountain's water: credited at the first tick)."""
    return in_agent_room(world, lambda t: t.is_substance and t.mat is mat and t.parent.kind not in (ROOM, AGENT)
                         and len(t.parent.contents) == 1)


def device_on(world, base: str):
    """A device `base` is on (devices are fixtures: found once, not at every update)."""
    devices = [t for t in world.things if t.base == base]
    return lambda ep: any(t.is_on for t in devices)


def held(world, tool: str):
    """A thing called `tool` is directly in the inventory."""
    return lambda ep: any(t.base == tool for t in world.agent.contents)


def wood_in_fire_pit(world, burning: bool):
    """Wood lies in the fire pit (and is on fire, when `burning`)."""
    pits = [t for t in world.things if t.base == "fire pit"]  # fixtures: found once
    return lambda ep: any(t.is_substance and t.mat.name == "wood" and (t.burning or not burning)
                          for pit in pits for t in pit.contents)


def subject_in(world, subject, base: str):
    """The subject (a callable giving the thing, or None) is somewhere inside a device `base`."""
    def met(ep):
        s = subject(ep)
        p = s.parent if s is not None else None
        while p is not None:
            if p.base == base:
                return True
            p = p.parent
        return False
    return met


def temp_change(subject, start, by: float):
    """The subject's temperature moved `by` degrees (negative: down) from `start(ep)`."""
    def met(ep):
        s, t0 = subject(ep), start(ep)
        if s is None or t0 is None:
            return False
        return (s.temp - t0 >= by) if by > 0 else (s.temp - t0 <= by)
    return met


def heating_goals(world, subject, start, rise: float) -> list:
    """Heaters on, a lighter held, wood lit in the fire pit, the subject on each heater, and
    its temperature risen by `rise`: the optional goals of ScienceWorld's heating tasks."""
    return ([device_on(world, h) for h in HEATERS]
            + [held(world, "lighter"), wood_in_fire_pit(world, False), wood_in_fire_pit(world, True)]
            + [subject_in(world, subject, h) for h in (*HEATERS, "fire pit")]
            + ([temp_change(subject, start, rise)] if rise else []))


def cooling_goals(world, subject) -> list:
    """The subject in the fridge, in the freezer."""
    return [subject_in(world, subject, c) for c in COOLERS]


def near(world, thing):
    """The agent is in the room that holds `thing` (carried things included)."""
    return lambda ep: world.room_of(thing) is world.agent_room()


def carried(world, subject):
    """The subject (a callable giving the thing) is directly in the inventory."""
    return lambda ep: (lambda s: s is not None and s.parent is world.agent)(subject(ep))


def used_on(world, tool, subject, room: str | None = None, when=None):
    """This step used `tool` on the subject (in the room `room`, and while `when(ep)` holds)."""
    def met(ep):
        s = subject(ep)
        return (s is not None and ep.memory.get(LAST_ACTION) == ("use_on", tool.uid, s.uid)
                and (room is None or world.agent_room().name == room) and (when is None or when(ep)))
    return met
