"""Topic 3, electricity: power a component; power it from a renewable or a non-renewable source;
test whether a named or an unknown substance conducts. Oracles wire series circuits by terminal.

Variation k holds ScienceWorld's component (and the kind of source asked for, and the pair of
sources in the workshop), or its object, the object's room, the two boxes and whether the
object conducts."""

from __future__ import annotations

from dataclasses import replace

from racbench.worlds.science import naming
from racbench.worlds.science.data import load
from racbench.worlds.science.house import Layout, add_agent, furniture, make, make_substance, settle
from racbench.worlds.science.naming import command
from racbench.worlds.science.scope import terminal_names
from racbench.worlds.science.text import say
from racbench.worlds.science.tasks.base import Episode, Flags, TaskSpec, scienceworld_facts
from racbench.worlds.science.tasks.common import deliver, fetch, go_to, task_house, visit
from racbench.worlds.science.tasks.measurement import boxes, solid_unknown, spots

WORKSHOP = "workshop"
PROBE = "conductor"   # the kind of electrical thing a conductivity test makes of its object
N_LOADS = 4        # components in the workshop, the task's among them


def _component(world, arch_color, temp):
    arch, color = arch_color
    name = naming.colored(color, arch) if color else arch
    return make(world, arch, name=name, color=color, temp=temp)


def _workshop(world, rng, wanted=None, sources=()):
    """The electrical kit, as ScienceWorld lays it: on the table a battery, three wires, a switch
    and light bulbs; on the floor the other components and `sources`. `wanted` (archetype,
    colour) is among the components; returns (battery, wires, components)."""
    room = world.rooms[WORKSHOP]
    table = furniture(world, WORKSHOP, "table")
    tables = load("electric")
    kinds = [tuple(c) for c in tables["test_loads"] if wanted is None or tuple(c) != tuple(wanted)]
    picks = rng.sample(kinds, N_LOADS - (wanted is not None))
    loads = [_component(world, c, room.temp) for c in ([tuple(wanted)] if wanted else []) + picks]
    bat = make(world, "battery", temp=room.temp)
    wires = [make(world, "wire", name=naming.wire(c), color=c, temp=room.temp)
             for c in rng.sample(tables["wire_colors"], 3)]
    for t in [bat, *wires, make(world, "switch", temp=room.temp)]:
        world.place(t, table)
    for t in loads:
        world.place(t, table if t.base == "light bulb" and rng.random() < 0.5 else room)
    for s in sources:
        world.place(make(world, s, temp=room.temp), room)
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


# ---- power-component and renewable vs non-renewable -----------------------------------------------
def _setup_power(spec: TaskSpec, variation: int, flags: Flags, layout: Layout, kind: str | None) -> Episode:
    facts = scienceworld_facts(spec.name, variation)
    world, rng, start = task_house(spec, variation, layout, {WORKSHOP, "outside"})
    wanted = None if kind is None else facts[2]
    pairs = load("electric")["source_pairs"]
    sources = () if kind is None else pairs[facts[3]]
    bat, wires, loads = _workshop(world, rng, facts[:2], sources)
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
        required=[lambda ep: ep.focused(comp), powered_right],
        optional=[lambda ep: (comp.uid, 0) in world.links or (comp.uid, 1) in world.links,
                  lambda ep: world.agent_room().name == WORKSHOP],
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
def _thing_to_test(world, rng, name, where, unknown, conducts):
    """The object (the house's own when its room has one), conducting as ScienceWorld says."""
    room = world.rooms[where]
    if unknown:
        mat = solid_unknown(name, conducts)
        target = make_substance(world, "water", room.temp, label=name, mat=mat)
        target.elec = PROBE
        world.place(target, rng.choice(spots(world, where)))
        return target
    found = next((t for t in world.subtree(room)[1:] if t.name == name), None)
    if found is None:
        if name in load("materials"):
            found = make_substance(world, name, room.temp)
            cup = make(world, "glass cup", temp=room.temp)
            world.place(cup, rng.choice(spots(world, where)))
            world.place(found, cup)
        else:
            found = make(world, name, temp=room.temp)
            world.place(found, rng.choice(spots(world, where)))
    if found.mat.conductive != conducts:
        found.mat = replace(found.mat, conductive=conducts)
    if found.elec is None:
        found.elec = PROBE   # terminals even on a jar or a liquid ('water terminal 1', as in ScienceWorld)
    return found


def _setup_conductivity(spec: TaskSpec, variation: int, flags: Flags, layout: Layout, unknown: bool) -> Episode:
    name, where, yes_c, no_c, conducts = scienceworld_facts(spec.name, variation)
    world, rng, start = task_house(spec, variation, layout, {WORKSHOP, where})
    target = _thing_to_test(world, rng, name, where, unknown, conducts)
    bat, wires, loads = _workshop(world, rng)
    yes_box, no_box = boxes(world, WORKSHOP, (yes_c, no_c))
    right, wrong = (yes_box, no_box) if conducts else (no_box, yes_box)
    add_agent(world, start)
    settle(world, flags.open_doors, flags.open_containers)
    description = say("task_conductivity", name=name, room=where, yes=yes_box.name, no=no_box.name)
    return Episode(
        world=world, description=description,
        required=[lambda ep: ep.focused(target), lambda ep: world.inside(target, right)],
        optional=[lambda ep: (target.uid, 0) in world.links or (target.uid, 1) in world.links,
                  lambda ep: world.room_of(target).name == WORKSHOP],
        on_focus=lambda ep, thing: thing is target,
        failure=lambda ep: target.parent is None or world.inside(target, wrong),
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
