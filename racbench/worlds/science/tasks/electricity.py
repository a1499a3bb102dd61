"""Topic 3, electricity: power a component; power it from a renewable or a non-renewable source;
test whether a named or an unknown substance conducts. Oracles wire series circuits by terminal."""

from __future__ import annotations

from racbench.worlds.science import naming
from racbench.worlds.science.naming import command
from racbench.worlds.science.data import load
from racbench.worlds.science.house import Layout, add_agent, build_house, furniture, make, make_substance, rng_for, settle
from racbench.worlds.science.materials import Material
from racbench.worlds.science.scope import terminal_names
from racbench.worlds.science.text import say
from racbench.worlds.science.tasks.base import Episode, Flags, TaskSpec, pool_slot
from racbench.worlds.science.tasks.common import deliver, fetch, go_to, visit
from racbench.worlds.science.tasks.matter import default_living
from racbench.worlds.science.tasks.measurement import unknown_label

WORKSHOP = "workshop"


def _component(world, arch_color, temp):
    arch, color = arch_color
    name = naming.colored(color, arch) if color else arch
    return make(world, arch, name=name, color=color, temp=temp)


def _workshop(world, rng, loads, battery=True, solar=False, gas=False):
    """Lay the electrical kit on the workshop furniture; returns (battery or None, wires)."""
    room = world.rooms[WORKSHOP]
    spots = [furniture(world, WORKSHOP, "workbench"), furniture(world, WORKSHOP, "table")]
    colors = rng.sample(load("electric")["wire_colors"], 3)
    kit = []
    bat = None
    if battery:
        bat = make(world, "battery", temp=room.temp)
        kit.append(bat)
    wires = [make(world, "wire", name=naming.wire(c), color=c, temp=room.temp) for c in colors]
    kit += wires + list(loads) + [make(world, "switch", temp=room.temp)]
    if solar:
        kit.append(make(world, "solar panel", temp=room.temp))
    for t in kit:
        world.place(t, rng.choice(spots))
    if gas:
        world.place(make(world, "gas generator", temp=room.temp), room)
    return bat, wires


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
    tables = load("electric")
    comp_spec, q, _ = pool_slot(spec, variation, tables["components"]["train"],
                                tables["components"]["heldout"])
    rng = rng_for(spec.name, variation)
    start = rng.choice(load("tasks")["start_rooms"])
    animals, plants = default_living(rng)
    world = build_house(rng, layout, required={start, WORKSHOP, "outside"}, animals=animals, plants=plants)
    temp = world.rooms[WORKSHOP].temp
    comp = _component(world, comp_spec, temp)
    others = [c for c in tables["test_loads"] if c != comp_spec]
    loads = [comp, _component(world, rng.choice(others), temp)]
    wanted = None if kind is None else (q % 2 == 0)
    bat, wires = _workshop(world, rng, loads, battery=kind is None, solar=kind is not None, gas=kind is not None)
    if kind is not None and "outside" in world.rooms:
        world.place(make(world, "wind generator", temp=world.rooms["outside"].temp), world.rooms["outside"])
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
    return Episode(
        world=world, description=description,
        required=[lambda ep: ep.focused(comp), powered_right],
        optional=[lambda ep: (comp.uid, 0) in world.links or (comp.uid, 1) in world.links,
                  lambda ep: world.agent_room().name == WORKSHOP],
        on_focus=lambda ep, thing: thing is comp,
        failure=lambda ep: comp.parent is None or powered_wrong(ep),
        hints={"component": comp, "battery": bat, "wires": wires, "renewable": wanted, "q": q},
    )


def _oracle_power(env):
    ep = env.episode
    h = ep.hints
    comp, wires = h["component"], h["wires"]
    world = env.world
    yield from visit(env, comp)
    yield command("focus", env.canon(comp))
    if h["renewable"] is None:
        source = h["battery"]
    elif h["renewable"]:
        use_solar = (h["q"] // 2) % 2 == 0
        source = next(t for t in world.things if t.source == ("solar" if use_solar else "wind"))
        for t in (comp, *wires[:2]) + ((source,) if use_solar else ()):
            yield from fetch(env, t)
        yield from go_to(env, world.rooms["outside"])
    else:
        source = next(t for t in world.things if t.source == "gas")
        if not source.is_on:
            yield command("activate", env.canon(source))
    yield from _wire_loop(env, source, wires, [comp])
    if not env.finished:
        yield command("wait1")


# ---- conductivity ----------------------------------------------------------------------------------
def _setup_conductivity(spec: TaskSpec, variation: int, flags: Flags, layout: Layout, unknown: bool) -> Episode:
    tables = load("electric")
    rng = rng_for(spec.name, variation)
    start = rng.choice(load("tasks")["start_rooms"])
    where = WORKSHOP if unknown else rng.choice(load("tasks")["substance_rooms"])
    animals, plants = default_living(rng)
    world = build_house(rng, layout, required={start, WORKSHOP, where}, animals=animals, plants=plants)
    temp = world.rooms[where].temp
    if unknown:
        label = unknown_label(variation, spec, rng)
        melting = rng.randint(80, 900)
        mat = Material(f"{label} [{spec.name}:{variation}]", melting, melting + rng.randint(300, 900), None,
                       0.5, rng.random() < 0.5, {"solid": label, "liquid": label, "gas": label})
        target = make_substance(world, "water", temp, label=label, mat=mat)
    else:
        name, _, _ = pool_slot(spec, variation, tables["conductivity_objects"]["train"],
                               tables["conductivity_objects"]["heldout"])
        target = make(world, name, temp=temp)
    spots = [f for f in world.rooms[where].contents if f.container and f.heat is None and f.device is None]
    world.place(target, rng.choice(spots))
    load_thing = _component(world, rng.choice(tables["test_loads"]), world.rooms[WORKSHOP].temp)
    bat, wires = _workshop(world, rng, [load_thing])
    colors = load("vocab")["colors"]
    i = variation % len(colors)
    yes_c, no_c = colors[i], colors[(i + 1 + rng.randrange(len(colors) - 1)) % len(colors)]
    boxes = []
    for c in (yes_c, no_c):
        box = make(world, "box", name=naming.box(c), color=c, temp=world.rooms[WORKSHOP].temp)
        world.place(box, world.rooms[WORKSHOP])
        boxes.append(box)
    right, wrong = (boxes[0], boxes[1]) if target.mat.conductive else (boxes[1], boxes[0])
    add_agent(world, start)
    settle(world, flags.open_doors, flags.open_containers)
    description = say("task_conductivity", name=target.name, room=where, yes=boxes[0].name, no=boxes[1].name)
    return Episode(
        world=world, description=description,
        required=[lambda ep: ep.focused(target), lambda ep: world.inside(target, right)],
        optional=[lambda ep: (target.uid, 0) in world.links or (target.uid, 1) in world.links,
                  lambda ep: world.room_of(target).name == WORKSHOP],
        on_focus=lambda ep, thing: thing is target,
        failure=lambda ep: target.parent is None or world.inside(target, wrong),
        hints={"target": target, "battery": bat, "wires": wires, "load": load_thing, "box": right},
    )


def _oracle_conductivity(env):
    """Put the thing in series with a battery and a load, look at the load, then box the thing."""
    ep = env.episode
    h = ep.hints
    target, load_thing = h["target"], h["load"]
    yield from visit(env, target)
    yield command("focus", env.canon(target))
    yield from fetch(env, target)
    yield from go_to(env, env.world.room_of(h["battery"]))
    yield from _wire_loop(env, h["battery"], h["wires"], [target, load_thing])
    yield command("wait1")
    yield command("look_at", env.canon(load_thing))
    yield from deliver(env, target, h["box"])


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
