"""Topic 1, changes of state: boil, melt, freeze, change-the-state-of-matter-of (with oracles).

Variation k names ScienceWorld's substance of variation k (water, ice, orange juice, ..., caesium)
and starts the agent in its room. Any portion of that substance may be the one focused on (water
from a tap, the toilet or the fountain alike); the goals then follow the portion chosen."""

from __future__ import annotations

from racbench.worlds.science.data import load
from racbench.worlds.science.house import Layout, add_agent, furniture, make, make_substance, settle
from racbench.worlds.science.materials import GAS, LIQUID, SOLID, material
from racbench.worlds.science.naming import command
from racbench.worlds.science.text import say
from racbench.worlds.science.tasks.base import Episode, Flags, TaskSpec, scienceworld_draw, scienceworld_facts
from racbench.worlds.science.tasks.common import (alone_in_container, cooling_goals, deliver, fetch, heating_goals,
                                                  near_material, task_house, temp_change, visit, wait_until)

MARGIN = 40        # a heater must run this much hotter than the transition it is used for
COLD_MARGIN = 10   # and a cooler this much colder
KITCHEN = "kitchen"
GOOD_CONDUCTOR = 0.5   # a vessel conducting less than this (ceramic) would keep its contents from a heater for ages
POT = "metal pot"  # the kitchen's pot, which carries a substance to a heater or a cooler


def _working(world, device: str, room: str) -> bool:
    if world is None:
        return True
    found = furniture(world, room, device) if room in world.rooms else None
    return found is not None and not found.broken


def pick_heater(need: float, world=None) -> tuple[str, str]:
    """(heater, its room): the first one that runs hot enough for `need` degrees (and, given the
    world, is not broken)."""
    things = load("things")
    return next((d, r) for d, r in load("tasks")["heaters"]
                if things[d]["heat"] >= need + MARGIN and _working(world, d, r))


def pick_cooler(need: float, world=None) -> tuple[str, str]:
    things = load("things")
    return next((d, r) for d, r in load("tasks")["coolers"]
                if things[d]["heat"] <= need - COLD_MARGIN and _working(world, d, r))


def break_devices(world, variation: int) -> None:
    """The kitchen devices ScienceWorld's variation of a matter task has broken (tasks.json
    `matter_broken`: the stove on odd variations, the sink on two of water's)."""
    for device, variations in load("tasks")["matter_broken"].items():
        if variation in variations:
            furniture(world, KITCHEN, device).broken = True


def place_substance(world, home: dict, variation: int | None = None):
    """The named substance where ScienceWorld keeps it (the house's own portion when one is
    there already); None for water, which comes from a tap. `in` names the furniture, or maps
    variations to it ('default' for the rest; none: the room's floor)."""
    room_name = home.get("room")
    if room_name is None:
        return None
    where = home.get("in")
    if isinstance(where, dict):
        where = where.get(str(variation), where.get("default"))
    room = world.rooms[room_name]
    holder = furniture(world, room_name, where) if where else room
    for t in world.subtree(holder)[1:]:
        if t.is_substance and t.mat.name == home["material"]:
            return t
    temp = home.get("temp", room.temp)    # ScienceWorld's own start for what it keeps frozen
    if home.get("vessel"):
        vessel = make(world, home["vessel"], temp=temp)
        world.place(vessel, holder)
        holder = vessel
    sub = make_substance(world, home["material"], temp)
    world.place(sub, holder)
    return sub


# the states ScienceWorld's goals ask for after the focus, in order ("change": any state, then another)
STATES = {"melt": (SOLID, LIQUID), "boil": (LIQUID, GAS), "freeze": (LIQUID, SOLID)}


def _burnt(sub) -> bool:
    return bool(sub.burning) or sub.mat.name == "ash"


def _in_state(i: int, mode: str):
    """Required goal i after the focus: the chosen portion is in the i-th state the task asks
    for (the first may have been passed within a tick); burning counts as a gas, as in
    ScienceWorld."""
    def reached(ep) -> bool:
        sub = ep.memory.get("chosen")
        if sub is None:
            return False
        if mode == "change":
            if i == 0:
                ep.memory.setdefault("first_state", sub.state)
                return True
            return sub.state != ep.memory["first_state"] or _burnt(sub)
        want = STATES[mode][i]
        if sub.state == want or (want == GAS and _burnt(sub)):
            return True
        # a state passed within one tick (lead from solid to gas in the blast furnace)
        return i == 0 and any(new == want or (old, new) == (SOLID, GAS) for old, new in ep.transitions_since_focus(sub))
    return reached


def _changed(mode: str):
    """The task's change is done (the last required goal)."""
    return _in_state(1, mode)


def _setup(spec: TaskSpec, variation: int, flags: Flags, layout: Layout, mode: str) -> Episode:
    name = scienceworld_facts(spec.name, variation)
    home = dict(load("tasks")["matter_substances"][name], vessel=scienceworld_draw("vessels", spec.name, variation))
    mat = material(home["material"])
    world, _, start = task_house(spec, variation, layout, {KITCHEN, "workshop", "foundry", home.get("room") or KITCHEN})
    sub = place_substance(world, home, variation)
    break_devices(world, variation)
    add_agent(world, start)
    settle(world, flags.open_doors, flags.open_containers)

    def on_focus(ep, thing):
        chosen = ep.memory.get("chosen")
        if chosen is not None:
            return thing is chosen
        if thing.is_substance and thing.mat is mat and thing.label is None:
            ep.memory["chosen"] = thing
            ep.memory["start_temp"] = thing.temp
            return True
        return False

    chosen = lambda ep: ep.memory.get("chosen")   # noqa: E731
    start_temp = lambda ep: ep.memory.get("start_temp")   # noqa: E731
    # ScienceWorld's optional goals: near the substance, a portion alone in a vessel, then the
    # heating goals (melt, boil, change) and the cooling goals (freeze, change)
    optional = [near_material(world, mat), alone_in_container(world, mat)]
    if mode == "freeze":
        optional += cooling_goals(world, chosen) + [temp_change(chosen, start_temp, -5)]
    elif mode == "change":
        optional += (heating_goals(world, chosen, start_temp, 0) + cooling_goals(world, chosen)
                     + [temp_change(chosen, start_temp, 10), temp_change(chosen, start_temp, -10)])
    else:
        optional += heating_goals(world, chosen, start_temp, 20)
    return Episode(
        world=world, description=say(f"task_{mode}", name=name),
        required=[lambda ep: ep.memory.get("chosen") is not None, _in_state(0, mode), _in_state(1, mode)],
        optional=optional,
        on_focus=on_focus,
        failure=lambda ep: ep.memory.get("chosen") is not None and ep.memory["chosen"].parent is None,
        hints={"substance": sub, "material": mat, "mode": mode},
    )


def _steps(mode: str, state: str) -> list[str]:
    """The temperature changes that make the transition the task asks for, from `state`:
    'heat' (to the next state up, or fire) and 'cool' (down to a solid)."""
    if mode == "boil":
        return ["boil"]
    if mode == "melt":
        return ["melt"] if state == SOLID else ["cool", "melt"]
    if mode == "freeze":
        return ["cool"] if state != SOLID else ["melt", "cool"]
    return ["cool"] if state != SOLID else ["melt"]


def tap_water(env):
    """Fill the kitchen's pot at the kitchen sink; returns (via the world) the water in it."""
    world = env.world
    pot = next(t for t in world.subtree(world.rooms[KITCHEN]) if t.base == POT)
    working = [t for t in world.taps if not t.broken]
    sink = next((t for t in working if world.room_of(t).name == KITCHEN), working[0])
    yield from deliver(env, pot, sink)
    yield command("activate", env.canon(sink))
    yield command("deactivate", env.canon(sink))
    yield command("pick_up", env.canon(pot))


def carrier(env, sub):
    """A vessel that can go onto a stove or into a furnace with the substance in it: its own
    container when that is portable, does not burn and conducts heat well (not a ceramic cup),
    else the kitchen's pot (filled there)."""
    world = env.world
    p = sub.parent
    if p.container and p.portable and p.mat.combustion is None and p.mat.thermal >= GOOD_CONDUCTOR:
        return p
    return next(t for t in world.subtree(world.rooms[KITCHEN]) if t.base == POT)


def take(env, sub, mat):
    """Focus on the substance (water from the kitchen tap when `sub` is None) and get it into a
    vessel that can go on a heater (fetched first); returns (substance, vessel)."""
    world = env.world
    if sub is None:
        yield from tap_water(env)
        sub = next(t for t in world.things if t.is_substance and t.mat is mat and t.parent is not None
                   and world.inside(t, world.agent))
        yield command("focus", env.canon(sub))
        return sub, sub.parent
    vessel = carrier(env, sub)
    if sub.parent is not vessel:
        yield from fetch(env, vessel)
    yield from visit(env, sub)
    yield command("focus", env.canon(sub))
    if sub.parent is not vessel:
        if sub.state == SOLID:
            yield command("move", env.canon(sub), env.canon(vessel))
        else:
            yield command("pour", env.canon(sub.parent), env.canon(vessel))
    return sub, vessel


def oracle(env):
    """Focus on a portion of the substance, then heat or cool it in the right device (a stove
    or the blast furnace; the freezer or the ultra-low freezer) until it changes as asked."""
    ep = env.episode
    world = env.world
    mat, mode = ep.hints["material"], ep.hints["mode"]
    sub = ep.hints["substance"]
    sub, vessel = yield from take(env, sub, mat)
    goal = _changed(mode)
    for step in _steps(mode, sub.state):
        if step == "cool":
            device_name, room = pick_cooler(mat.melting, world)
            done = (lambda: sub.state == SOLID)
        else:
            need = mat.melting if step == "melt" else (mat.boiling if mat.boiling is not None else mat.combustion)
            device_name, room = pick_heater(need, world)
            done = (lambda: sub.state != SOLID) if step == "melt" else (lambda: goal(ep))
        device = furniture(world, room, device_name)
        yield from deliver(env, vessel, device)
        if not device.is_on:
            yield command("activate", env.canon(device))
        yield from wait_until(env, lambda: done() or ep.complete)
        if ep.complete or env.finished:
            return
        if device.heat is not None and device.heat > 100 and device.is_on:
            yield command("deactivate", env.canon(device))
        yield command("pick_up", env.canon(vessel))


def _spec(name, n, mode) -> TaskSpec:
    return TaskSpec(name, "matter", n, lambda spec, v, f, lay: _setup(spec, v, f, lay, mode), oracle)


SPECS = [
    _spec("boil", 30, "boil"),
    _spec("melt", 30, "melt"),
    _spec("freeze", 30, "freeze"),
    _spec("change-the-state-of-matter-of", 30, "change"),
]
