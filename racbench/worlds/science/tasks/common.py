"""Moves every oracle shares: walking the house, opening what hides a thing, fetching it."""

from __future__ import annotations

from collections import deque

from racbench.worlds.science.data import load
from racbench.worlds.science.house import build_house, rng_for
from racbench.worlds.science.naming import command
from racbench.worlds.science.tasks.base import start_room
from racbench.worlds.science.world import AGENT, ROOM

MAX_WAIT_STEPS = 200


def default_living(rng):
    """Two animals and two plants for the house (outside and in the greenhouse)."""
    vocab = load("vocab")
    return rng.sample(vocab["animals"], 2), rng.sample(vocab["plants"], 2)


def task_house(spec, variation: int, layout, rooms=()):
    """(world, rng, start room) of a variation: the house with the rooms a task needs kept (when a
    layout drops rooms), default living things, and ScienceWorld's start room."""
    rng = rng_for(spec.name, variation)
    start = start_room(spec.name, variation)
    animals, plants = default_living(rng)
    world = build_house(rng, layout, required={start, *rooms}, animals=animals, plants=plants)
    return world, rng, start


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
