"""What each action does to the world, and which answer template reports it.

`run(ctx, action)` mutates `ctx.world` and returns the observation text; `ctx` is the environment
(world, simplification flags, task). Ticking happens in the environment, not here.
"""

from __future__ import annotations

from racbench.text import sayer
from racbench.worlds.science import chemistry, describe, thermo
from racbench.worlds.science.house import make_substance
from racbench.worlds.science.naming import terminal
from racbench.worlds.science.parser import Action
from racbench.worlds.science.scope import terminal_names
from racbench.worlds.science.text import say
from racbench.worlds.science.world import AGENT, DOOR, LIQUID, GAS, SWITCHED, moves_with_its_vessel

_say_fault = sayer("cli", ("internal.j2",))  # faults of racbench's own code

WAIT_TICKS = 10
MAX_WAIT = 100


def _name(ctx, t) -> str:
    return ctx.canon(t)


def _called(ctx, t) -> str:
    """How a sentence names a thing: a door by the room it leads to ('the door to the kitchen')."""
    if t.kind == DOOR:
        here = ctx.world.agent_room()
        return say("door_called", room=(t.rooms[1] if t.rooms[0] is here else t.rooms[0]).name)
    return _name(ctx, t)


def _open(ctx, t):
    if not t.openable:
        return say("not_openable", name=_called(ctx, t))
    if t.is_open:
        return say("already_open", name=_called(ctx, t))
    t.is_open = True
    ctx.world.changed()
    return say("opened", name=_called(ctx, t))


def _close(ctx, t):
    if not t.openable:
        return say("not_openable", name=_called(ctx, t))
    if not t.is_open:
        return say("already_closed", name=_called(ctx, t))
    t.is_open = False
    ctx.world.changed()
    return say("closed", name=_called(ctx, t))


def _activate(ctx, t):
    w = ctx.world
    if t.elec == "load":
        return say("load_needs_power", name=_name(ctx, t))
    if t.device not in SWITCHED:
        return say("not_device", name=_name(ctx, t))
    if t.broken:
        return say("broken", name=_name(ctx, t))
    if t.is_on:
        return say("already_on", name=_name(ctx, t))
    t.is_on = True
    if t.tool == "stopwatch":
        t.clock = 0
    if t.heat is not None:
        t.temp = t.heat
        for inner in t.contents:
            w.touch(inner)
    if t.elec is not None:
        w.elec_dirty = True
    w.changed()
    return say("activated", name=_name(ctx, t))


def _deactivate(ctx, t):
    w = ctx.world
    if t.elec == "load":
        return say("load_needs_power", name=_name(ctx, t))
    if t.device not in SWITCHED:
        return say("not_device", name=_name(ctx, t))
    if not t.is_on:
        return say("already_off", name=_name(ctx, t))
    t.is_on = False
    if t.heat is not None:
        w.touch(t)
    if t.elec is not None:
        w.elec_dirty = True
    w.changed()
    return say("deactivated", name=_name(ctx, t))


def _movable(ctx, t):
    """None when `t` may be carried, else the refusal text."""
    if moves_with_its_vessel(t):
        return say("fluid_needs_container", name=_name(ctx, t))
    if not (t.portable or t.movable):
        return say("not_portable", name=_name(ctx, t))
    return None


def _move(ctx, t, dest):
    w = ctx.world
    refusal = _movable(ctx, t)
    if refusal:
        return refusal
    if dest.kind == AGENT:
        return _pick_up(ctx, t)
    if not dest.container or dest.kind == DOOR:
        return say("not_container", name=_name(ctx, dest))
    if not dest.is_open:
        return say("container_closed", name=_name(ctx, dest))
    if dest is t or w.inside(dest, t):
        return say("into_itself", name=_name(ctx, t))
    if t.parent is dest:
        return say("already_there", name=_name(ctx, t), dest=_name(ctx, dest))
    name, dest_name = _name(ctx, t), _name(ctx, dest)
    linked = (t.uid, 0) in w.links or (t.uid, 1) in w.links
    w.move(t, dest)
    if dest.angle is not None:      # on an inclined plane: at rest at the top
        t.clock = 0
    return say("moved_disconnect" if linked else "moved", name=name, dest=dest_name, surface=dest.surface)


def _pick_up(ctx, t):
    w = ctx.world
    refusal = _movable(ctx, t)
    if refusal:
        return refusal
    if t.parent is w.agent:
        return say("already_held", name=_name(ctx, t))
    name = _name(ctx, t)
    w.move(t, w.agent)
    return say("picked_up", name=name)


def _put_down(ctx, t):
    w = ctx.world
    if t.parent is not w.agent:
        return say("not_held", name=_name(ctx, t))
    name = _name(ctx, t)
    w.move(t, w.agent_room())
    return say("put_down", name=name, room=w.agent_room().name)


def _go(ctx, room, teleport=False):
    w = ctx.world
    here = w.agent_room()
    if room is here:
        return say("here_already", room=room.name)
    if teleport:
        if not ctx.teleport_ok:
            return say("teleport_disabled")
    else:
        door = next((d for d, other in w.doors_of(here) if other is room), None)
        if door is None:
            return say("no_way", room=room.name)
        if not door.is_open:
            return say("door_closed", room=room.name)
    w.move(w.agent, room)
    if w.links:
        w.elec_dirty = True
    text = say("teleport" if teleport else "go", room=room.name)
    return text + "\n" + ctx.look()


def _use_on(ctx, tool, target):
    if tool.tool == "thermometer":
        temp = round(target.temp)
        ctx.world.measurements.append((ctx.world.ticks, target.uid, temp, target.state))
        return say("thermometer", tool=_name(ctx, tool), name=_name(ctx, target), temp=temp)
    if tool.tool == "shovel" and target.base == "ground":    # dig: a portion of soil beside the hole
        soil = make_substance(ctx.world, "soil", target.temp)
        ctx.world.move(soil, ctx.world.agent_room())
        return say("dug", tool=_name(ctx, tool), name=_name(ctx, target))
    if tool.tool == "lighter" and target.mat.combustion is not None and not target.burning:
        target.temp = max(target.temp, target.mat.combustion + thermo.FLAME_ABOVE)
        target.burning = thermo.BURN_TICKS
        ctx.world.touch(target)
        ctx.world.changed()
        return say("lit", tool=_name(ctx, tool), name=_name(ctx, target))
    return say("use_on_nothing", name=_name(ctx, tool), other=_name(ctx, target))


def _connect(ctx, a, b):
    w = ctx.world
    if not ctx.electric_ok:
        return say("no_electrical")
    (ta, ia), (tb, ib) = a, b
    if ta is tb:
        return say("same_thing", name=_name(ctx, ta))
    if ia is None:
        ia = 0 if (ta.uid, 0) not in w.links else 1
    if ib is None:
        ib = 0 if (tb.uid, 0) not in w.links else 1
    term_a = terminal(_name(ctx, ta), terminal_names(ta)[ia])
    term_b = terminal(_name(ctx, tb), terminal_names(tb)[ib])
    for term, key in ((term_a, (ta.uid, ia)), (term_b, (tb.uid, ib))):
        if key in w.links:
            return say("terminal_busy", term=term)
    w.connect((ta.uid, ia), (tb.uid, ib))
    return say("connected", a=term_a, b=term_b)


def _disconnect(ctx, t):
    if not ctx.electric_ok:
        return say("no_electrical")
    if ctx.world.disconnect_all(t):
        return say("disconnected", name=_name(ctx, t))
    return say("nothing_connected", name=_name(ctx, t))


def _fluids(t):
    return [c for c in t.contents if c.is_substance and c.state in (LIQUID, GAS)]


def _pour(ctx, src, dest):
    w = ctx.world
    if dest is src or w.inside(dest, src):    # 'pour jug in jug': ScienceWorld's gold paths say it
        return say("into_itself", name=_name(ctx, src))
    if not dest.container or not dest.is_open or dest.kind == DOOR:
        return say("not_container", name=_name(ctx, dest))
    if src.is_substance and src.state == LIQUID:
        items = [src]
    else:
        items = [c for c in _fluids(src) if c.state == LIQUID]
    if not items:
        return say("not_pourable", name=_name(ctx, src))
    name = _name(ctx, src)
    for c in items:
        w.move(c, dest)
    return say("poured", name=name, dest=_name(ctx, dest))


def _dunk(ctx, vessel, pool):
    w = ctx.world
    liquids = [c for c in _fluids(pool) if c.state == LIQUID]
    if not vessel.container or not vessel.portable or not liquids or w.inside(pool, vessel) or pool is vessel:
        return say("not_dunkable", name=_name(ctx, vessel))
    for c in liquids:
        w.move(c, vessel)
    return say("dunked", name=_name(ctx, vessel), dest=_name(ctx, pool))


def _eat(ctx, t):
    if not t.edible:
        return say("not_edible", name=_name(ctx, t))
    name = _name(ctx, t)
    ctx.world.remove(t)
    return say("ate", name=name)


def _mix(ctx, t):
    if not t.container or len(t.contents) < 2:
        return say("not_mixable", name=_name(ctx, t))
    made = chemistry.mix(ctx.world, t)
    if made is None:
        return say("mixed", name=_name(ctx, t))
    product, used = made
    return say("mix_made", ingredients=used, product=product.name)


def run(ctx, action: Action) -> str:
    """Apply one resolved action; returns the observation."""
    w = ctx.world
    v, args = action.verb, action.args
    if v == "look":
        return ctx.look()
    if v == "inventory":
        return describe.inventory(w)
    if v == "task":
        return say("task", description=ctx.task_description)
    if v in ("wait", "wait1", "wait_n"):
        n = WAIT_TICKS if v == "wait" else 1 if v == "wait1" else max(1, min(args[0], MAX_WAIT))
        ctx.extra_ticks = n     # the ticks waited after the action's own, as ScienceWorld counts them
        return say("waited", n=n)
    a = args[0]
    if v == "look_at":
        return describe.look_at(w, a)
    if v == "look_in":
        return describe.look_in(w, a)
    if v == "open":
        return _open(ctx, a)
    if v == "close":
        return _close(ctx, a)
    if v == "activate":
        return _activate(ctx, a)
    if v == "deactivate":
        return _deactivate(ctx, a)
    if v == "connect":
        return _connect(ctx, a, args[1])
    if v == "disconnect":
        return _disconnect(ctx, a)
    if v == "use_on":
        return _use_on(ctx, a, args[1])
    if v == "use":
        if a.device in SWITCHED and not a.is_on:
            return _activate(ctx, a)
        return say("use_nothing", name=_name(ctx, a))
    if v == "read":
        if a.readable is None:
            return say("not_readable", name=_name(ctx, a))
        if isinstance(a.readable, tuple):      # ("recipe", product)
            product = a.readable[1]
            return say("read_recipe", name=_name(ctx, a), product=product,
                       ingredients=chemistry.RECIPES[product])
        return say("read_text", name=_name(ctx, a), key=a.readable)
    if v == "move":
        return _move(ctx, a, args[1])
    if v == "pick_up":
        return _pick_up(ctx, a)
    if v == "put_down":
        return _put_down(ctx, a)
    if v == "pour":
        return _pour(ctx, a, args[1])
    if v == "dunk":
        return _dunk(ctx, a, args[1])
    if v == "mix":
        return _mix(ctx, a)
    if v == "go":
        return _go(ctx, a)
    if v == "teleport":
        return _go(ctx, a, teleport=True)
    if v == "eat":
        return _eat(ctx, a)
    if v == "flush":
        if a.device != "toilet":
            return say("not_flushable", name=_name(ctx, a))
        return say("flushed", name=_name(ctx, a))
    if v == "focus":
        return ctx.focus(a)
    raise AssertionError(_say_fault("unhandled_verb", verb=v))
