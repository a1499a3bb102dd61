"""Topic 9, forces: time a block down two inclined planes and focus on the one with the shallowest
or steepest angle (inclined-plane-determine-angle), or the most or least friction, of named or
unknown surfaces (inclined-plane-friction-*). Variation v holds ScienceWorld's two planes, its
question and its answer, and the block v % 3; angles and unknown frictions are drawn from the
variation's seed and given to the planes so that the answer is ScienceWorld's."""

from __future__ import annotations

from racbench.worlds.science import mechanics, naming
from racbench.worlds.science.data import load
from racbench.worlds.science.house import Layout, add_agent, build_house, furniture, make, rng_for, settle
from racbench.worlds.science.naming import command
from racbench.worlds.science.text import say
from racbench.worlds.science.tasks.base import Episode, Flags, TaskSpec, scienceworld_facts, start_room
from racbench.worlds.science.tasks.common import default_living, fetch, go_to, wait_until

WORKSHOP = "workshop"


def _spread(rng, low, high, ok):
    """Two values drawn from [low, high] (rounded) until `ok(a, b)`; draws are few."""
    while True:
        a, b = round(rng.uniform(low, high), 2), round(rng.uniform(low, high), 2)
        if ok(a, b):
            return a, b


def named_frictions() -> dict[str, float]:
    """Each named surface's friction: our coefficients, least first, given to the surfaces in
    the order ScienceWorld's answers rank them."""
    return dict(zip(load("variations")["friction_order"], load("planes")["named_frictions"]))


def _ordered(pair, answer, low_high, answer_low: bool):
    """The two values given to the two planes so that the answer's is the low one or the high one."""
    lo, hi = sorted(low_high)
    mine, other = (lo, hi) if answer_low else (hi, lo)
    return tuple(mine if x == answer else other for x in pair)


def _setup(spec: TaskSpec, variation: int, flags: Flags, layout: Layout, kind: str) -> Episode:
    table = load("planes")
    first, second, question, answer_label = scienceworld_facts(spec.name, variation)
    pair = (first, second)
    rng = rng_for(spec.name, variation)
    ratio = table["min_ratio"]

    def apart(a1, a2):
        return a1 > 0 and a2 > 0 and max(a1, a2) >= ratio * min(a1, a2)

    if kind == "angle":
        names = [naming.plane(letter=x) for x in pair]
        angles = _ordered(pair, answer_label, _spread(rng, *table["angle_range"], lambda a, b: apart(
            mechanics.acceleration(a, table["angle_friction"]), mechanics.acceleration(b, table["angle_friction"]))),
            question == "shallowest")
        frictions = (table["angle_friction"],) * 2
    else:
        angles = (table["friction_angle"],) * 2
        if kind == "named":
            frictions = tuple(named_frictions()[m] for m in pair)
        else:
            frictions = _ordered(pair, answer_label, _spread(rng, *table["unknown_friction_range"], lambda a, b: apart(
                mechanics.acceleration(angles[0], a), mechanics.acceleration(angles[0], b))), question == "least")
        names = [naming.plane(surface=x) for x in pair]
    labels = pair
    start = start_room(spec.name, variation)
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
    return TaskSpec(name, "forces", n, lambda s, v, f, lay: _setup(s, v, f, lay, kind), oracle)


SPECS = [
    _spec("inclined-plane-determine-angle", 168, "angle"),
    _spec("inclined-plane-friction-named-surfaces", 1386, "named"),
    _spec("inclined-plane-friction-unnamed-surfaces", 162, "unnamed"),
]
