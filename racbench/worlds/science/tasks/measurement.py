"""Topic 2, measurement: use a thermometer; measure the melting point of a known or an unknown
substance (forced choice between two answer boxes). Oracles beside the tasks.

Variation k holds ScienceWorld's object or substance, its room, the threshold, the two boxes and
their room, and ScienceWorld's answer: the object starts on that side of the threshold, the
unknown substance melts on that side. The thermometer is the kitchen's, as in ScienceWorld."""

from __future__ import annotations

from racbench.worlds.science import naming
from racbench.worlds.science.data import load
from racbench.worlds.science.house import Layout, add_agent, furniture, make, make_substance, settle
from racbench.worlds.science.materials import SOLID, Material, material
from racbench.worlds.science.naming import command
from racbench.worlds.science.text import say
from racbench.worlds.science.tasks.base import Episode, Flags, TaskSpec, scienceworld_draw, scienceworld_facts
from racbench.worlds.science.tasks.common import (alone_in_container, carried, deliver, fetch, go_to, heating_goals,
                                                  in_room, left, near, task_house, used_on, visit, wait_until)
from racbench.worlds.science.tasks.matter import KITCHEN, pick_cooler, pick_heater, place_substance, take

DEVICE_ROOMS = ("workshop", "foundry")   # the ultra-low freezer and the blast furnace
HEATER_ROOMS = ("kitchen", "outside", "foundry")   # rooms with a heater, which ScienceWorld credits visiting
NEAR = 5           # a starting temperature at least this far from the threshold, on the answer's side
HEATED = "heated by 20 degrees"      # Episode.memory key: the tick the substance's 20-degree rise was credited at
REACHED = "object's room reached"   # Episode.memory key: the task's object's room was visited
FAR = 25           # and at most this far when the room's own temperature is on the wrong side


def spots(world, room_name):
    """Furniture a task may put things in or on (not a device, not a portable vessel)."""
    return [f for f in world.rooms[room_name].contents
            if f.container and not f.portable and f.heat is None and f.device is None] or [world.rooms[room_name]]


def boxes(world, room_name, colors):
    """One answer box per colour, on the room's floor."""
    out = []
    for c in colors:
        box = make(world, "box", name=naming.box(c), color=c, temp=world.rooms[room_name].temp)
        world.place(box, world.rooms[room_name])
        out.append(box)
    return out


def _house(spec, variation, layout, rooms):
    """The variation's house and the kitchen's thermometer."""
    world, rng, start = task_house(spec, variation, layout, {KITCHEN, *rooms})
    thermometer = next(t for t in world.subtree(world.rooms[KITCHEN]) if t.tool == "thermometer")
    return world, rng, start, thermometer


def unknown_material(name: str, melting: float, boiling: float, conductive: bool, prefixed: bool) -> Material:
    """An unknown substance's material; `prefixed` names each state ('solid unknown substance C')."""
    if prefixed:
        names = {s: naming.state_material(w, name) for s, w in (("solid", "solid"), ("liquid", "liquid"),
                                                                 ("gas", "gaseous"))}
    else:
        names = {"solid": name, "liquid": name, "gas": name}
    return Material(name, melting, boiling, None, 1.0, conductive, names)   # ScienceWorld's conduct perfectly


def solid_unknown(name: str, conductive: bool = False) -> Material:
    """An unknown substance that stays solid short of a blast furnace (ScienceWorld's are picked
    up and carried like things)."""
    return unknown_material(name, 1500, 3000, conductive, False)


def _instrument_goals(world, thermometer, start: str, where: str, box_room: str) -> list:
    """ScienceWorld's optional goals of every thermometer task: near the thermometer, holding it,
    out of the start room, in the object's room (noted in the episode's memory as REACHED), in
    the boxes' room after that."""
    there = in_room(world, where)

    def reached(ep):
        if there(ep):
            ep.memory[REACHED] = True
        return ep.memory.get(REACHED, False)
    boxes_room = in_room(world, box_room)
    # the boxes' room counts once the object's room was reached, as ScienceWorld counts it
    # (use-thermometer 360 and 450 start in the boxes' room: credited only on coming back)
    return [near(world, thermometer), lambda ep: thermometer.parent is world.agent, left(world, start),
            reached, lambda ep: ep.memory.get(REACHED, False) and boxes_room(ep)]


def _heater_room(world, name: str):
    """In the room `name`, which holds a heater, once the object's room was reached (at this step
    or before): ScienceWorld credits no heater's room before, the start room included (observed
    playing measure-melting-point-known-substance 163 and 218, which start outside and in the
    foundry)."""
    here = in_room(world, name)
    return lambda ep: ep.memory.get(REACHED, False) and here(ep)


# ---- use-thermometer ---------------------------------------------------------------------------
def _target(world, base: str, temp: float):
    """The object to measure: a substance when the material table knows it (wood), an unknown
    substance by its label, else a thing of that archetype."""
    if base.startswith(load("vocab")["unknown_name"]):
        mat = solid_unknown(base)
        return make_substance(world, "water", temp, label=base, mat=mat)
    if base in load("materials"):
        return make_substance(world, base, temp)
    return make(world, base, temp=temp)


def starting_temperature(rng, room_temp: float, threshold: float, above: bool) -> float:
    """The room's temperature when it is on the answer's side of the threshold, else a
    temperature a little past the threshold on that side (kept until the thing is touched)."""
    if (room_temp >= threshold + NEAR) if above else (room_temp <= threshold - NEAR):
        return room_temp
    d = rng.randint(NEAR, FAR)
    return threshold + d if above else threshold - d


def _setup_thermometer(spec: TaskSpec, variation: int, flags: Flags, layout: Layout) -> Episode:
    base, where, threshold, above_c, below_c, box_room, above = scienceworld_facts(spec.name, variation)
    world, rng, start, thermometer = _house(spec, variation, layout, (where, box_room))
    room_temp = world.rooms[where].temp
    target = _target(world, base, starting_temperature(rng, room_temp, threshold, above))
    world.place(target, rng.choice(spots(world, where)))
    above_box, below_box = boxes(world, box_room, (above_c, below_c))
    add_agent(world, start)
    settle(world, flags.open_doors, flags.open_containers)
    start_temp = target.temp

    def reading():
        """The first thermometer reading of the target decides the answer (its starting
        temperature, on ScienceWorld's side, if it was never read)."""
        for _, uid, temp, _ in world.measurements:
            if uid == target.uid:
                return temp
        return start_temp

    def correct_box():
        return above_box if reading() > threshold else below_box

    def on_focus(ep, thing):
        if thing is thermometer:
            return True
        return thing is target and ep.focused(thermometer)

    description = say("task_thermometer", name=target.name, room=where, threshold=threshold,
                      above=above_box.name, below=below_box.name, box_room=box_room)
    return Episode(
        world=world, description=description,
        required=[lambda ep: ep.focused(thermometer), lambda ep: ep.focused(target),
                  lambda ep: world.inside(target, correct_box())],
        optional=_instrument_goals(world, thermometer, start, where, box_room)
        + [carried(world, lambda ep: target), used_on(world, thermometer, lambda ep: target),
           used_on(world, thermometer, lambda ep: target, room=box_room)],
        on_focus=on_focus,
        failure=lambda ep: target.parent is None or world.inside(
            target, below_box if correct_box() is above_box else above_box),
        hints={"thermometer": thermometer, "target": target, "box": correct_box,
               "decided": lambda env: len(read_sides(world, target, threshold)) == 1},
    )


def read_sides(world, target, threshold: float) -> set[bool]:
    """The sides of the threshold (above: True) the target's readings so far lie on: one
    tells its box (the first decides; later ones on the other side, after heating or
    cooling it, would leave a reader unsure which counts), none or two do not."""
    return {temp > threshold for _, uid, temp, _ in world.measurements if uid == target.uid}


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
def _unknown_melting(rng, name: str, threshold: float, above: bool, room_temp: float) -> Material:
    """An unknown substance that starts in the state its name gives and melts on the answer's
    side of the threshold, at a temperature drawn from the variation's seed."""
    solid = name.startswith("solid")
    low, high = (room_temp + NEAR, 400) if solid else (-60, room_temp - NEAR)
    if above:
        low = max(low, threshold + NEAR)
    else:
        high = min(high, threshold - NEAR)
    melting = rng.randint(int(low), int(high))
    label = name.split(" ", 1)[1]   # 'solid unknown substance C' -> 'unknown substance C'
    return unknown_material(label, melting, melting + rng.randint(300, 900), rng.random() < 0.5, True)


def _setup_melting(spec: TaskSpec, variation: int, flags: Flags, layout: Layout, unknown: bool) -> Episode:
    name, where, threshold, above_c, below_c, box_room, above = scienceworld_facts(spec.name, variation)
    world, rng, start, thermometer = _house(spec, variation, layout, (where, box_room, *DEVICE_ROOMS))
    room_temp = world.rooms[where].temp
    if unknown:
        mat = _unknown_melting(rng, name, threshold, above, room_temp)
        sub = make_substance(world, "water", room_temp, mat=mat)
        sub.referents = (mat.name,)
        holder = world.rooms[where]   # on the floor, as ScienceWorld leaves it, in the vessel it draws (if any)
        vessel_name = scienceworld_draw("vessels", spec.name, variation)
        if vessel_name is not None:
            vessel = make(world, vessel_name, temp=room_temp)
            world.place(vessel, holder)
            holder = vessel
        world.place(sub, holder)
    else:
        home = load("tasks")["matter_substances"][name]
        if home.get("room") is not None:   # water comes from the kitchen's tap, as in ScienceWorld
            home = dict(home, room=where, vessel=scienceworld_draw("vessels", spec.name, variation),
                        **{"in": home.get("in") if home["room"] == where else None})
        sub = place_substance(world, home, variation)
        mat = material(home["material"])
    above_box, below_box = boxes(world, box_room, (above_c, below_c))
    answer = above_box if above else below_box
    add_agent(world, start)
    settle(world, flags.open_doors, flags.open_containers)

    def chosen(ep):
        return ep.memory.get("chosen")

    def on_focus(ep, thing):
        if thing is thermometer:
            return True
        if chosen(ep) is None and ep.focused(thermometer) and thing.is_substance and thing.mat is mat:
            ep.memory["chosen"] = thing
            ep.memory["start_temp"] = thing.temp
            return True
        if thing is chosen(ep):
            return True
        return thing is answer and chosen(ep) is not None

    def heated(ep):
        """The 20-degree rise was credited at an earlier step (ScienceWorld credits a reading
        'after it has been heated' only then: measure-melting-point-known-substance 0)."""
        return ep.memory.get(HEATED, world.ticks) < world.ticks

    heating = heating_goals(world, chosen, lambda ep: ep.memory.get("start_temp"), 20)
    risen = heating[-1]

    def noted_rise(ep):
        if risen(ep):
            ep.memory.setdefault(HEATED, world.ticks)    # the tick it was credited at
            return True
        return False
    heating[-1] = noted_rise

    description = say("task_melting_point", name=name, room=where, threshold=threshold,
                      above=above_box.name, below=below_box.name, box_room=box_room)
    return Episode(
        world=world, description=description,
        required=[lambda ep: ep.focused(thermometer), lambda ep: chosen(ep) is not None,
                  lambda ep: ep.focused(answer)],
        optional=_instrument_goals(world, thermometer, start, where, box_room)
        + [_heater_room(world, r) for r in HEATER_ROOMS] + [carried(world, chosen), used_on(world, thermometer, chosen),
           used_on(world, thermometer, chosen, when=heated), alone_in_container(world, mat)]
        + heating,
        on_focus=on_focus,
        failure=lambda ep: chosen(ep) is not None and chosen(ep).parent is None,
        hints={"thermometer": thermometer, "substance": sub, "material": mat, "answer": answer,
               **({"decided": lambda env: told_side(world, mat, threshold) == (answer is above_box)}
                  if unknown else {})},
    )


def told_side(world, mat: Material, threshold: float) -> bool | None:
    """Whether the thermometer's readings of `mat` so far tell that it melts above the
    threshold (True: solid at a reading at or above it) or below (False: melted at one at
    or below it); None if they tell neither, or both (a reading taken as it changed state:
    a reader could not tell which to believe)."""
    above = below = False
    for _, uid, temp, state in world.measurements:
        if world.things[uid].mat is mat:
            above |= state == SOLID and temp >= threshold
            below |= state != SOLID and temp <= threshold
    return above if above != below else None


def _oracle_melting(env):
    """Make the substance solid if it is not (the freezer), then heat it while reading the
    thermometer; once it melts, focus on the box that matches."""
    ep = env.episode
    world = env.world
    h = ep.hints
    thermometer, sub, mat = h["thermometer"], h["substance"], h["material"]
    yield from fetch(env, thermometer)
    yield command("focus", env.canon(thermometer))
    sub, vessel = yield from take(env, sub, mat)
    if sub.state != SOLID:
        device_name, room = pick_cooler(mat.melting)
        cooler = furniture(world, room, device_name)
        yield from deliver(env, vessel, cooler)
        yield from wait_until(env, lambda: sub.state == SOLID)
        yield command("pick_up", env.canon(vessel))
    device_name, room = pick_heater(mat.melting)
    heater = furniture(world, room, device_name)
    yield from deliver(env, vessel, heater)
    if not heater.is_on:
        yield command("activate", env.canon(heater))
    yield command("use_on", env.canon(thermometer), env.canon(sub))    # a reading as it heats
    yield from wait_until(env, lambda: sub.state != SOLID,
                          lambda: command("use_on", env.canon(thermometer), env.canon(sub)))
    yield command("deactivate", env.canon(heater))
    yield from go_to(env, world.room_of(h["answer"]))
    yield command("focus", env.canon(h["answer"]))


SPECS = [
    TaskSpec("use-thermometer", "measurement", 540, lambda s, v, f, lay: _setup_thermometer(s, v, f, lay),
             _oracle_thermometer, decided_by_reading=True),
    TaskSpec("measure-melting-point-known-substance", "measurement", 436,
             lambda s, v, f, lay: _setup_melting(s, v, f, lay, False), _oracle_melting),
    TaskSpec("measure-melting-point-unknown-substance", "measurement", 300,
             lambda s, v, f, lay: _setup_melting(s, v, f, lay, True), _oracle_melting,
             decided_by_reading=True),
]
