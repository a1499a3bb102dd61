"""Topic 9, forces: time a block down two inclined planes and focus on the one with the shallowest
or steepest angle (inclined-plane-determine-angle), or the most or least friction, of named or
unknown surfaces (inclined-plane-friction-*). Variation v holds ScienceWorld's two planes of
group v // 3, its block v % 3 and its question v % 2; angles and unknown frictions are drawn."""

from __future__ import annotations

from racbench.worlds.science import mechanics, naming
from racbench.worlds.science.data import load
from racbench.worlds.science.house import Layout, add_agent, build_house, furniture, make, rng_for, settle
from racbench.worlds.science.naming import command
from racbench.worlds.science.text import say
from racbench.worlds.science.tasks.base import Episode, Flags, TaskSpec
from racbench.worlds.science.tasks.common import fetch, go_to, wait_until
from racbench.worlds.science.tasks.matter import default_living

WORKSHOP = "workshop"


def _spread(rng, low, high, ok):
    """Two values drawn from [low, high] (rounded) until `ok(a, b)`; draws are few."""
    while True:
        a, b = round(rng.uniform(low, high), 2), round(rng.uniform(low, high), 2)
        if ok(a, b):
            return a, b


def _setup(spec: TaskSpec, variation: int, flags: Flags, layout: Layout, kind: str) -> Episode:
    table = load("planes")
    pair = table[f"{kind}_pairs"][variation // 3]
    rng = rng_for(spec.name, variation)
    ratio = table["min_ratio"]

    def apart(a1, a2):
        return a1 > 0 and a2 > 0 and max(a1, a2) >= ratio * min(a1, a2)

    if kind == "angle":
        names = [naming.plane(letter=x) for x in pair]
        angles = _spread(rng, *table["angle_range"], lambda a, b: apart(
            mechanics.acceleration(a, table["angle_friction"]), mechanics.acceleration(b, table["angle_friction"])))
        frictions = (table["angle_friction"],) * 2
        labels = pair
    else:
        angles = (table["friction_angle"],) * 2
        if kind == "named":
            labels = pair
            frictions = tuple(table["friction"][m] for m in pair)
        else:
            labels = [naming.unknown_material(x) for x in pair]
            frictions = _spread(rng, *table["unknown_friction_range"], lambda a, b: apart(
                mechanics.acceleration(angles[0], a), mechanics.acceleration(angles[0], b)))
        names = [naming.plane(surface=x) for x in labels]
    start = rng.choice(load("tasks")["start_rooms"])
    animals, plants = default_living(rng)
    world = build_house(rng, layout, required={start, WORKSHOP}, animals=animals, plants=plants)
    room = world.rooms[WORKSHOP]
    planes = []
    for name, angle, friction in zip(names, angles, frictions):
        plane = make(world, "inclined plane", name=name, temp=room.temp)
        plane.angle, plane.friction = angle, friction
        planes.append(plane)
    for plane in rng.sample(planes, 2):
        world.place(plane, room)
    world.planes = planes
    block = make(world, table["blocks"][variation % 3], temp=room.temp)
    world.place(block, room)
    watch = make(world, "stopwatch", temp=room.temp)
    world.place(watch, furniture(world, WORKSHOP, "table"))
    world.timers.append(watch)
    question = table[f"{'angle' if kind == 'angle' else 'friction'}_questions"][variation % 2]
    key = {"shallowest": lambda p: p.angle, "steepest": lambda p: -p.angle,
           "most": lambda p: -p.friction, "least": lambda p: p.friction}[question]
    answer = min(planes, key=key)
    add_agent(world, start)
    settle(world, flags.open_doors, flags.open_containers)
    template = "task_plane_angle" if kind == "angle" else "task_plane_friction"
    return Episode(
        world=world, description=say(template, planes=list(labels), question=question),
        required=[lambda ep: ep.focused(answer)],
        optional=[lambda ep: world.agent_room() is room, lambda ep: block.parent is planes[0],
                  lambda ep: block.parent is planes[1]],
        on_focus=lambda ep, thing: thing is answer,
        failure=lambda ep: block.parent is None,
        hints={"planes": planes, "block": block, "watch": watch, "answer": answer},
    )


def oracle(env):
    """Time the block down each plane with the stopwatch, watching the plane; focus on the answer
    (what the timings show: the faster plane is the steeper, or the one with less friction)."""
    h = env.episode.hints
    block, watch = h["block"], h["watch"]
    yield from fetch(env, watch)
    yield from go_to(env, env.world.room_of(h["planes"][0]))
    for plane in h["planes"]:
        yield command("move", env.canon(block), env.canon(plane))
        yield command("activate", env.canon(watch))
        yield from wait_until(env, lambda: mechanics.share_down(block) >= 1.0,
                              lambda: command("look_at", env.canon(plane)))
        yield command("look_at", env.canon(plane))          # at the bottom now
        yield command("deactivate", env.canon(watch))
        yield command("look_at", env.canon(watch))
    yield command("focus", env.canon(h["answer"]))


def _spec(name, n, kind) -> TaskSpec:
    # drawn angles and unknown frictions show only in the timings (named surfaces: common
    # knowledge); the stopwatch shows the last timing alone
    return TaskSpec(name, "forces", n, lambda s, v, f, lay: _setup(s, v, f, lay, kind), oracle,
                    decided_by_reading=kind != "named")


SPECS = [
    _spec("inclined-plane-determine-angle", 168, "angle"),
    _spec("inclined-plane-friction-named-surfaces", 1386, "named"),
    _spec("inclined-plane-friction-unnamed-surfaces", 162, "unnamed"),
]
