"""Topic 1, changes of state: boil, melt, freeze, change-the-state-of-matter-of (with oracles)."""

from __future__ import annotations

from racbench.worlds.science.naming import command
from racbench.worlds.science.data import load
from racbench.worlds.science.house import Layout, add_agent, build_house, furniture, make, make_substance, rng_for, settle
from racbench.worlds.science.materials import GAS, LIQUID, SOLID, material
from racbench.worlds.science.text import say
from racbench.worlds.science.tasks.base import Episode, Flags, TaskSpec, pool_slot
from racbench.worlds.science.tasks.common import deliver, visit, wait_until

MARGIN = 40        # a heater must run this much hotter than the transition it is used for
COLD_START = 20    # substances melting below this start in the freezer


def default_living(rng):
    vocab = load("vocab")
    return rng.sample(vocab["animals"], 2), rng.sample(vocab["plants"], 2)


def pick_heater(need: float, q: int):
    """(heater, its room, disabled heater or None): the q-th way to reach `need` degrees, where
    odd ways break the preferred heater so the oracle (and the learner) must use another."""
    capable = [(d, r) for d, r in load("tasks")["heaters"] if load("things")[d]["heat"] >= need + MARGIN]
    options = [None] + capable[:-1]
    disabled = options[q % len(options)]
    device_name, device_room = next((d, r) for d, r in capable if (d, r) != disabled)
    return device_name, device_room, disabled


def _goal_for(mode: str):
    wanted = {"melt": {(SOLID, LIQUID)}, "boil": {(LIQUID, GAS), (SOLID, GAS)},
              "freeze": {(LIQUID, SOLID)}}.get(mode)

    def reached(ep) -> bool:
        moves = ep.transitions_since_focus(ep.hints["substance"])
        return any(m in wanted for m in moves) if wanted else bool(moves)
    return reached


def _in_active_device(ep) -> bool:
    p = ep.hints["substance"].parent
    while p is not None:
        if p.heat is not None and p.is_on and not p.broken:
            return True
        p = p.parent
    return False


def _setup(spec: TaskSpec, variation: int, flags: Flags, layout: Layout, mode: str) -> Episode:
    tables = load("tasks")
    pool = tables[mode]
    mat_name, q, _ = pool_slot(spec, variation, pool["train"], pool["heldout"])
    rng = rng_for(spec.name, variation)
    mat = material(mat_name)
    cold_start = mode == "melt" and mat.melting < COLD_START
    heating = mode != "freeze"
    if heating:
        need = mat.boiling if mode == "boil" or mat.state_at(25) != SOLID else mat.melting
        device_name, device_room, disabled = pick_heater(need, q)
        winter = False
    else:
        disabled = ("freezer", "kitchen") if q % 2 else None
        device_name, device_room = ("freezer", "kitchen") if disabled is None else (None, "outside")
        winter = disabled is not None
    start = rng.choice(tables["start_rooms"])
    where = "kitchen" if cold_start else rng.choice(tables["substance_rooms"])
    animals, plants = default_living(rng)
    required_rooms = {start, where, device_room, "kitchen"}
    world = build_house(rng, layout, required=required_rooms, animals=animals, plants=plants, winter=winter)
    vessel = make(world, rng.choice(tables["substance_vessels"]), temp=world.rooms[where].temp)
    if cold_start:
        holder = furniture(world, "kitchen", "freezer")
    else:
        spots = [f for f in world.rooms[where].contents if f.container and f.heat is None and f.device is None]
        holder = rng.choice(spots)
    world.place(vessel, holder)
    sub = make_substance(world, mat_name, holder.heat if cold_start else world.rooms[where].temp)
    world.place(sub, vessel)
    if disabled is not None and disabled[1] in world.rooms:
        furniture(world, disabled[1], disabled[0]).broken = True
    device = furniture(world, device_room, device_name) if device_name else furniture(world, "outside", "ground")
    add_agent(world, start)
    settle(world, flags.open_doors, flags.open_containers)
    description = say(f"task_{mode}", name=sub.name)
    start_temp = sub.temp

    def on_focus(ep, thing):
        return thing is sub

    return Episode(
        world=world, description=description,
        required=[lambda ep: ep.focused(sub), _goal_for(mode)],
        optional=[_in_active_device if device_name else (lambda ep: world.inside(sub, device)),
                  lambda ep: abs(sub.temp - start_temp) >= 10],
        on_focus=on_focus,
        failure=lambda ep: sub.parent is None,
        hints={"substance": sub, "vessel": vessel, "device": device},
    )


def oracle(env):
    """Focus on the substance, carry its vessel to the chosen heater or cooler, switch it on, wait."""
    ep = env.episode
    sub, vessel, device = ep.hints["substance"], ep.hints["vessel"], ep.hints["device"]
    yield from visit(env, sub)
    yield command("focus", env.canon(sub))
    yield from deliver(env, vessel, device)
    if device.heat is not None and not device.is_on:
        yield command("activate", env.canon(device))
    yield from wait_until(env, lambda: ep.complete)


def _spec(name, n, mode) -> TaskSpec:
    return TaskSpec(name, "matter", n, lambda spec, v, f, lay: _setup(spec, v, f, lay, mode), oracle)


SPECS = [
    _spec("boil", 30, "boil"),
    _spec("melt", 30, "melt"),
    _spec("freeze", 30, "freeze"),
    _spec("change-the-state-of-matter-of", 30, "change"),
]
