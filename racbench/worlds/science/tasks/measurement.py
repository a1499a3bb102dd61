"""Topic 2, measurement: use a thermometer; measure the melting point of a known or an unknown
substance (forced choice between two answer boxes). Oracles beside the tasks."""

from __future__ import annotations

from racbench.worlds.science import naming
from racbench.worlds.science.naming import command
from racbench.worlds.science.data import load
from racbench.worlds.science.house import Layout, add_agent, build_house, furniture, make, make_substance, rng_for, settle
from racbench.worlds.science.materials import LIQUID, SOLID, Material, material
from racbench.worlds.science.text import say
from racbench.worlds.science.tasks.base import Episode, Flags, TaskSpec, pool_slot
from racbench.worlds.science.tasks.common import deliver, fetch, go_to, visit, wait_until
from racbench.worlds.science.tasks.matter import default_living, pick_heater



def _spots(world, room_name):
    return [f for f in world.rooms[room_name].contents if f.container and f.heat is None and f.device is None]


def _boxes(world, rng, room_name, variation):
    colors = load("vocab")["colors"]
    i = variation % len(colors)
    above, below = colors[i], colors[(i + 1 + rng.randrange(len(colors) - 1)) % len(colors)]
    boxes = []
    for c in (above, below):
        box = make(world, "box", name=naming.box(c), color=c, temp=world.rooms[room_name].temp)
        world.place(box, world.rooms[room_name])
        boxes.append(box)
    return boxes


def _base_world(spec, variation, rng, layout, extra_rooms):
    tables = load("tasks")
    start = rng.choice(tables["start_rooms"])
    box_room = rng.choice(tables["measure_box_rooms"])
    tool_room = rng.choice(tables["substance_rooms"])
    animals, plants = default_living(rng)
    world = build_house(rng, layout, required={start, box_room, tool_room, "kitchen", *extra_rooms},
                        animals=animals, plants=plants)
    thermometer = make(world, "thermometer", temp=world.rooms[tool_room].temp)
    world.place(thermometer, rng.choice(_spots(world, tool_room)))
    return world, start, box_room, thermometer


# ---- use-thermometer ---------------------------------------------------------------------------
def _setup_thermometer(spec: TaskSpec, variation: int, flags: Flags, layout: Layout) -> Episode:
    pools = load("measure")["thermometer_objects"]
    base, q, _ = pool_slot(spec, variation, pools["train"], pools["heldout"])
    rng = rng_for(spec.name, variation)
    place = ("fridge", "freezer", "room")[q % 3]
    where = rng.choice(load("tasks")["substance_rooms"]) if place == "room" else "kitchen"
    world, start, box_room, thermometer = _base_world(spec, variation, rng, layout, (where,))
    if place == "room":
        holder = rng.choice(_spots(world, where))
    else:
        where, holder = "kitchen", furniture(world, "kitchen", place)
    target = make(world, base, temp=holder.heat if holder.heat is not None else world.rooms[where].temp)
    world.place(target, holder)
    offset = rng.randint(15, 60) * (1 if (q // 3) % 2 else -1)
    threshold = int(round(target.temp)) + offset
    above, below = _boxes(world, rng, box_room, variation)
    add_agent(world, start)
    settle(world, flags.open_doors, flags.open_containers)
    def reading():
        """The first thermometer reading of the target decides the answer (its temperature if unread)."""
        for _, uid, temp in world.measurements:
            if uid == target.uid:
                return temp
        return target.temp

    def correct_box():
        return above if reading() > threshold else below

    def on_focus(ep, thing):
        if thing is thermometer:
            return True
        return thing is target and ep.focused(thermometer)

    description = say("task_thermometer", name=target.name, room=where, threshold=threshold,
                      above=above.name, below=below.name, box_room=box_room)
    return Episode(
        world=world, description=description,
        required=[lambda ep: ep.focused(thermometer), lambda ep: ep.focused(target),
                  lambda ep: world.inside(target, correct_box())],
        optional=[lambda ep: thermometer.parent is world.agent,
                  lambda ep: any(uid == target.uid for _, uid, _ in world.measurements)],
        on_focus=on_focus,
        failure=lambda ep: target.parent is None or world.inside(
            target, below if correct_box() is above else above),
        hints={"thermometer": thermometer, "target": target, "box": correct_box},
    )


def _oracle_thermometer(env):
    ep = env.episode
    thermometer, target = ep.hints["thermometer"], ep.hints["target"]
    yield from fetch(env, thermometer)
    yield command("focus", env.canon(thermometer))
    yield from visit(env, target)
    yield command("focus", env.canon(target))
    yield command("use_on", env.canon(thermometer), env.canon(target))
    yield from deliver(env, target, ep.hints["box"]())


# ---- melting points ------------------------------------------------------------------------------
def _unknown_material(rng, label: str, key: str) -> Material:
    melting = rng.randint(40, 400)
    return Material(f"{label} [{key}]", melting, melting + rng.randint(300, 900), None,
                    0.5, rng.random() < 0.5, {"solid": label, "liquid": label, "gas": label})


def unknown_label(variation: int, spec: TaskSpec, rng) -> str:
    """'unknown substance X': letters from the first half of the alphabet in train, second half after."""
    letters = load("vocab")["letters"]
    train, _, _ = spec.split_counts()
    half = len(letters) // 2
    pool = letters[:half] if variation < train else letters[half:]
    return naming.unknown(pool[rng.randrange(len(pool))])


def _setup_melting(spec: TaskSpec, variation: int, flags: Flags, layout: Layout, unknown: bool) -> Episode:
    rng = rng_for(spec.name, variation)
    if unknown:
        label = unknown_label(variation, spec, rng)
        mat = _unknown_material(rng, label, f"{spec.name}:{variation}")
        q = variation
    else:
        pools = load("measure")["melting_known"]
        name, q, _ = pool_slot(spec, variation, pools["train"], pools["heldout"])
        mat, label = material(name), None
    device_name, device_room, disabled = pick_heater(mat.melting, q // 2)
    where = rng.choice(load("tasks")["substance_rooms"])
    world, start, box_room, thermometer = _base_world(spec, variation, rng, layout, (device_room, where))
    vessel = make(world, rng.choice(load("tasks")["substance_vessels"]), temp=world.rooms[where].temp)
    world.place(vessel, rng.choice(_spots(world, where)))
    sub = make_substance(world, mat.name if not unknown else "water", world.rooms[where].temp,
                         label=label, mat=mat if unknown else None)
    world.place(sub, vessel)
    if disabled is not None and disabled[1] in world.rooms:
        furniture(world, disabled[1], disabled[0]).broken = True
    offset = rng.randint(30, 120)
    threshold = int(mat.melting) + (offset if q % 2 else -offset)
    if threshold < 0:      # keep thresholds a learner would find natural: positive, answer flips
        threshold = int(mat.melting) + offset
    above, below = _boxes(world, rng, box_room, variation)
    answer = above if mat.melting > threshold else below
    add_agent(world, start)
    settle(world, flags.open_doors, flags.open_containers)
    name = sub.name

    def on_focus(ep, thing):
        if thing is thermometer:
            return True
        if thing is sub:
            return ep.focused(thermometer)
        return thing is answer and ep.focused(sub)

    description = say("task_melting_point", name=name, room=where, threshold=threshold,
                      above=above.name, below=below.name, box_room=box_room)
    return Episode(
        world=world, description=description,
        required=[lambda ep: ep.focused(thermometer), lambda ep: ep.focused(sub), lambda ep: ep.focused(answer)],
        optional=[lambda ep: any(uid == sub.uid for _, uid, _ in world.measurements),
                  lambda ep: (SOLID, LIQUID) in ep.transitions_since_focus(sub),
                  lambda ep: world.inside(sub, furniture(world, device_room, device_name))],
        on_focus=on_focus,
        failure=lambda ep: sub.parent is None,
        hints={"thermometer": thermometer, "substance": sub, "vessel": vessel, "answer": answer,
               "device": furniture(world, device_room, device_name)},
    )


def _oracle_melting(env):
    """Heat the substance while reading the thermometer; once it melts, pick the box that matches."""
    ep = env.episode
    h = ep.hints
    thermometer, sub, device = h["thermometer"], h["substance"], h["device"]
    yield from fetch(env, thermometer)
    yield command("focus", env.canon(thermometer))
    yield from visit(env, sub)
    yield command("focus", env.canon(sub))
    yield from deliver(env, h["vessel"], device)
    if not device.is_on:
        yield command("activate", env.canon(device))
    yield from wait_until(env, lambda: sub.state != SOLID,
                          lambda: command("use_on", env.canon(thermometer), env.canon(sub)))
    yield from go_to(env, env.world.room_of(h["answer"]))
    yield command("focus", env.canon(h['answer']))


SPECS = [
    TaskSpec("use-thermometer", "measurement", 540, lambda s, v, f, lay: _setup_thermometer(s, v, f, lay),
             _oracle_thermometer, decided_by_reading=True),
    TaskSpec("measure-melting-point-known-substance", "measurement", 436,
             lambda s, v, f, lay: _setup_melting(s, v, f, lay, False), _oracle_melting),
    TaskSpec("measure-melting-point-unknown-substance", "measurement", 300,
             lambda s, v, f, lay: _setup_melting(s, v, f, lay, True), _oracle_melting,
             decided_by_reading=True),
]
