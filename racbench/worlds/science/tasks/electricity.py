"""Topic 3, electricity: power a component; power it from a renewable or a non-renewable source;
test whether a named or an unknown substance conducts. Oracles wire series circuits by terminal.

Variation k holds ScienceWorld's component (and the kind of source asked for), or its object, the
object's room, the two boxes and whether the object conducts; the workshop holds what ScienceWorld's
variation k holds (wires, light bulbs, other components, sources)."""

from __future__ import annotations

from dataclasses import replace

from racbench.worlds.science import naming
from racbench.worlds.science.data import load
from racbench.worlds.science.house import Layout, add_agent, make, make_substance, settle
from racbench.worlds.science.naming import command
from racbench.worlds.science.scope import terminal_names
from racbench.worlds.science.text import say
from racbench.worlds.science.tasks.base import Episode, Flags, TaskSpec, scienceworld_facts
from racbench.worlds.science.tasks.common import deliver, fetch, go_to, in_agent_room, left, near, task_house, visit
from racbench.worlds.science.tasks.measurement import boxes, solid_unknown

WORKSHOP = "workshop"
PROBE = "conductor"   # the kind of electrical thing a conductivity test makes of its object
BULB = "light bulb"


def _component(world, name: str, temp: float):
    """A component or source by its name ('red light bulb', 'electric motor', 'solar panel')."""
    if name in load("things"):
        return make(world, name, temp=temp)
    color = name[: -len(BULB) - 1]
    return make(world, BULB, name=naming.colored(color, BULB), color=color, temp=temp)


def _workshop(world, task: str, variation: int, wanted: str | None = None):
    """The electrical kit as ScienceWorld's variation lays it: on the table the house's battery,
    switch, wires and light bulbs; on the floor the task's components and sources
    (data/science/houses.json). Returns (battery, wires, components), the one named `wanted`
    first."""
    room = world.rooms[WORKSHOP]
    for name in load("houses")[task][variation]:
        world.place(_component(world, name, room.temp), room)
    kit = world.subtree(room)
    bat = next(t for t in kit if t.source == "battery")
    wires = [t for t in kit if t.elec == "wire"]
    loads = [t for t in kit if t.elec == "load"]
    loads.sort(key=lambda t: t.name != wanted)
    return bat, wires, loads


def _term(env, thing, i) -> str:
    return naming.terminal(env.canon(thing), terminal_names(thing)[i])


def _wire_loop(env, source, wires, middle):
    """Connect source anode -> wire -> middle things (each entered by its cathode side) -> wire -> source."""
    chain = [source, wires[0], *middle, wires[1]]
    for a, b in zip(chain, chain[1:] + [source]):
        out_term = 0 if a is source else (0 if a.elec == "load" else 1)
        in_term = 1 if (b is source or b.elec == "load") else 0
        if env.finished:
            return
        yield command("connect", _term(env, a, out_term), _term(env, b, in_term))


def _wired_to(world, thing, wanted, terminals=(0, 1)) -> bool:
    """A terminal of `thing` reaches, through one wire or more, a thing for which `wanted` holds
    (one side of a circuit is enough: ScienceWorld's 'at least partially connected'); with
    `wanted` None, the terminal's far side is any wire."""
    seen = set()
    todo = [(thing.uid, i) for i in terminals]
    while todo:
        other = world.links.get(todo.pop())
        if other is None or other in seen:
            continue
        seen.add(other)
        t = world.things[other[0]]
        if t.elec == "wire":
            if wanted is None:
                return True
            todo.append((t.uid, 1 - other[1]))
        elif t is not thing and wanted is not None and wanted(t) and len(seen) > 1:
            return True
    return False


def _wiring_goals(world, start: str, part) -> list:
    """ScienceWorld's optional goals of a circuit task: out of the start room, near the part,
    each of its terminals wired, and the part wired towards a power source."""
    return [left(world, start), near(world, part),
            lambda ep: _wired_to(world, part, None, (0,)), lambda ep: _wired_to(world, part, None, (1,)),
            lambda ep: _wired_to(world, part, lambda t: t.source is not None)]


# ---- power-component and renewable vs non-renewable -----------------------------------------------
def _setup_power(spec: TaskSpec, variation: int, flags: Flags, layout: Layout, kind: str | None) -> Episode:
    facts = scienceworld_facts(spec.name, variation)
    world, rng, start = task_house(spec, variation, layout, {WORKSHOP, "outside"})
    wanted = None if kind is None else facts[2]
    bat, wires, loads = _workshop(world, spec.name, variation, naming.colored(facts[1], facts[0]) if facts[1] else facts[0])
    comp = loads[0]
    add_agent(world, start)
    settle(world, flags.open_doors, flags.open_containers)

    def powered_right(ep):
        src = world.power_source.get(comp.uid)
        return src is not None and (wanted is None or src.renewable == wanted)

    def powered_wrong(ep):
        src = world.power_source.get(comp.uid)
        return wanted is not None and src is not None and src.renewable != wanted

    if kind is None:
        description = say("task_power", name=comp.name)
    else:
        description = say("task_power_source", name=comp.name, renewable=wanted)
    source = bat if kind is None else next(t for t in world.things if t.base == facts[3])
    return Episode(
        world=world, description=description,
        required=[lambda ep: ep.focused(comp), lambda ep: comp.uid in world.power_source]
        + ([] if kind is None else [powered_right]),
        optional=_wiring_goals(world, start, comp),
        on_focus=lambda ep, thing: thing is comp,
        failure=lambda ep: comp.parent is None or powered_wrong(ep),
        hints={"component": comp, "battery": bat, "wires": wires, "renewable": wanted, "source": source},
    )


def _oracle_power(env):
    """Wire the component to the source the task asks for; sun and wind work outside only, so
    the kit goes there; a generator is switched on."""
    ep = env.episode
    h = ep.hints
    comp, wires, source = h["component"], h["wires"], h["source"]
    world = env.world
    yield from visit(env, comp)
    yield command("focus", env.canon(comp))
    if source.source in ("solar", "wind"):
        for t in (comp, *wires[:2], source):
            yield from fetch(env, t)
        yield from go_to(env, world.rooms["outside"])
    elif source.device is not None and not source.is_on:
        yield command("activate", env.canon(source))
    yield from _wire_loop(env, source, wires, [comp])
    if not env.finished:
        yield command("wait1")


# ---- conductivity ----------------------------------------------------------------------------------
def _thing_to_test(world, name, where, unknown, conducts):
    """The object (the house's own when its room has one), conducting as ScienceWorld says, on
    its room's floor, in view, where ScienceWorld's lies (test-conductivity 112's apricot, 250's
    glass jar; test-conductivity-of-unknown-substances 0's unknown substance B); water, which
    ScienceWorld puts nowhere, in the bathroom's glass cup as if drawn from its tap."""
    room = world.rooms[where]
    if unknown:
        mat = solid_unknown(name, conducts)
        target = make_substance(world, "water", room.temp, label=name, mat=mat)
        target.elec = PROBE
        world.place(target, room)
        return target
    found = next((t for t in world.subtree(room)[1:] if t.name == name), None)
    drawn = load("tasks")["conductivity_drawn"].get(name)
    vessel = None if found is not None or drawn is None or drawn[0] not in world.rooms else \
        next((t for t in world.rooms[drawn[0]].contents if t.base == drawn[1] and not t.contents), None)
    if vessel is not None:   # none lies in the room: ScienceWorld's gold path fills a vessel at a tap
        found = make_substance(world, name, room.temp)
        world.place(found, vessel)
    elif found is None:
        if name in load("materials"):
            found = make_substance(world, name, room.temp)
            cup = make(world, "glass cup", temp=room.temp)
            world.place(cup, room)
            world.place(found, cup)
        else:
            found = make(world, name, temp=room.temp)
            world.place(found, room)
    if found.mat.conductive != conducts:
        found.mat = replace(found.mat, conductive=conducts)
    if found.elec is None:
        found.elec = PROBE   # terminals even on a jar or a liquid ('water terminal 1', as in ScienceWorld)
    return found


def _setup_conductivity(spec: TaskSpec, variation: int, flags: Flags, layout: Layout, unknown: bool) -> Episode:
    name, where, yes_c, no_c, conducts = scienceworld_facts(spec.name, variation)
    world, rng, start = task_house(spec, variation, layout, {WORKSHOP, where})
    target = _thing_to_test(world, name, where, unknown, conducts)
    bat, wires, loads = _workshop(world, spec.name, variation)
    yes_box, no_box = boxes(world, WORKSHOP, (yes_c, no_c))
    right, wrong = (yes_box, no_box) if conducts else (no_box, yes_box)
    bulbs = [t for t in world.things if t.elec == "load" and t.base.endswith(BULB)]
    add_agent(world, start)
    settle(world, flags.open_doors, flags.open_containers)
    description = say("task_conductivity", name=name, room=where, yes=yes_box.name, no=no_box.name)
    # a task object named by its material (water, sodium chloride) is any portion of it, as in
    # ScienceWorld, whose gold path of test-conductivity 750 focuses on water it drew from a tap
    by_material = target.is_substance and not unknown

    def subject(ep):
        return ep.memory.get("chosen", target)

    def on_focus(ep, thing):
        if "chosen" in ep.memory:
            return thing is subject(ep)
        if thing is target or (by_material and thing.is_substance and thing.mat.name == target.mat.name):
            ep.memory["chosen"] = thing
            if thing.mat.conductive != conducts:
                thing.mat = replace(thing.mat, conductive=conducts)
            return True
        return False

    near_it = (in_agent_room(world, lambda t: t.is_substance and t.mat.name == target.mat.name) if by_material
               else lambda ep: world.room_of(subject(ep)) is world.agent_room())
    return Episode(
        world=world, description=description,
        required=[lambda ep: ep.focused(subject(ep)), lambda ep: world.inside(subject(ep), right)],
        optional=[left(world, start), near_it,
                  lambda ep: _wired_to(world, subject(ep), None, (0,)),
                  lambda ep: _wired_to(world, subject(ep), None, (1,)),
                  lambda ep: _wired_to(world, subject(ep), lambda t: t.source is not None),
                  lambda ep: _wired_to(world, subject(ep), lambda t: t in bulbs),
                  lambda ep: any(_wired_to(world, b, lambda t: t.source is not None) for b in bulbs)],
        on_focus=on_focus,
        failure=lambda ep: subject(ep).parent is None or world.inside(subject(ep), wrong),
        hints={"target": target, "battery": bat, "wires": wires, "load": loads[0], "box": right},
    )


def _oracle_conductivity(env):
    """Put the thing in series with a battery and a load, look at the load, then box the thing."""
    ep = env.episode
    h = ep.hints
    target, load_thing = h["target"], h["load"]
    carried = target if target.portable and target.state == "solid" else target.parent
    yield from visit(env, target)
    yield command("focus", env.canon(target))
    yield from fetch(env, carried)
    yield from go_to(env, env.world.room_of(h["battery"]))
    yield from _wire_loop(env, h["battery"], h["wires"], [target, load_thing])
    yield command("wait1")
    yield command("look_at", env.canon(load_thing))
    yield from deliver(env, carried, h["box"])


SPECS = [
    TaskSpec("power-component", "electricity", 20,
             lambda s, v, f, lay: _setup_power(s, v, f, lay, None), _oracle_power, electrical=True),
    TaskSpec("power-component-renewable-vs-nonrenewable-energy", "electricity", 20,
             lambda s, v, f, lay: _setup_power(s, v, f, lay, "source"), _oracle_power, electrical=True),
    TaskSpec("test-conductivity", "electricity", 900,
             lambda s, v, f, lay: _setup_conductivity(s, v, f, lay, False), _oracle_conductivity, electrical=True),
    TaskSpec("test-conductivity-of-unknown-substances", "electricity", 600,
             lambda s, v, f, lay: _setup_conductivity(s, v, f, lay, True), _oracle_conductivity, electrical=True),
]
