"""Valid-action enumeration for the current state, from the things in scope only.

Lists the actions whose arguments make sense by kind (a portable thing into an open container,
a device to switch...), in canonical wording that parses back to exactly that action.
"""

from __future__ import annotations

from racbench.worlds.science.naming import command as cmd, command_of, terminal
from racbench.worlds.science.scope import Scope, has_terminals, terminal_names
from racbench.worlds.science.world import AGENT, DOOR, SWITCHED, moves_with_its_vessel

ALWAYS = ("look", "inventory", "task", "wait", "wait1")


_SAY = {verb: command_of(verb) for verb in (
    "look_at", "focus", "open", "close", "look_in", "mix", "activate", "deactivate", "flush", "read",
    "eat", "use_on", "put_down", "pick_up")}


def valid_actions(world, scope: Scope, teleport_ok: bool, electric_ok: bool) -> list[str]:
    canon = scope.canon
    out = [cmd(v) for v in ALWAYS]
    add = out.append
    say = _SAY
    look_at, focus, look_in, use_on = say["look_at"], say["focus"], say["look_in"], say["use_on"]
    here = scope.room
    holders = []     # open containers things can be moved into
    movable = []
    terminals = []
    for t in scope.things:
        c = canon[t.uid]
        add(look_at(c))
        if t.kind == AGENT:
            continue
        add(focus(c))
        if t.openable:
            add(say["close" if t.is_open else "open"](c))
        if t.kind == DOOR:
            continue
        if t.container:
            if t.is_open:
                holders.append(t)
            add(look_in(c))
            if len(t.contents) > 1:
                add(say["mix"](c))
        if t.device in SWITCHED:
            add(say["deactivate" if t.is_on else "activate"](c))
        if t.device == "toilet":
            add(say["flush"](c))
        if t.readable:
            add(say["read"](c))
        if t.edible:
            add(say["eat"](c))
        if t.tool == "shovel":
            out.extend(use_on(c, canon[o.uid]) for o in scope.things if o.base == "ground")
        if t.tool == "thermometer":
            out.extend(use_on(c, canon[o.uid]) for o in scope.things
                       if o.kind not in (AGENT, DOOR) and o is not t)
        if (t.portable or t.movable) and not moves_with_its_vessel(t):
            movable.append(t)
            if t.parent.kind == AGENT:
                add(say["put_down"](c))
            else:
                add(say["pick_up"](c))
        if electric_ok and has_terminals(t):
            terminals.append(t)
    move = command_of("move")
    for t in movable:
        c = canon[t.uid]
        for h in holders:
            if h is t or t.parent is h:
                continue
            if h.parent is t or (h.parent is not None and world.inside(h, t)):
                continue
            out.append(move(c, canon[h.uid]))
    wet = [h for h in holders if any(x.is_substance and x.state == "liquid" for x in h.contents)]
    for h in wet:
        for d in holders:
            if d is h or world.inside(d, h) or world.inside(h, d):
                continue
            if h.portable:
                out.append(cmd("pour", canon[h.uid], canon[d.uid]))
            if d.portable:
                out.append(cmd("dunk", canon[d.uid], canon[h.uid]))
    if electric_ok and terminals:
        links = world.links
        free = []
        for t in terminals:
            names = terminal_names(t)
            for i in (0, 1):
                if (t.uid, i) not in links:
                    free.append((t, terminal(canon[t.uid], names[i])))
            if (t.uid, 0) in links or (t.uid, 1) in links:
                out.append(cmd("disconnect", canon[t.uid]))
        connect = command_of("connect")
        for i, (ta, na) in enumerate(free):
            for tb, nb in free[i + 1:]:
                if ta is not tb:
                    out.append(connect(na, nb))
    for door, other in world.doors_of(here):
        if door.is_open:
            out.append(cmd("go", other.name))
    if teleport_ok:
        out.extend(cmd("teleport", name) for name in world.rooms if world.rooms[name] is not here)
    return sorted(set(out))
