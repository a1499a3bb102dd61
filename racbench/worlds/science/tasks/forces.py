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
from racbench.worlds.science.tasks.common import fetch, go_to, in_room, left, wait_until

WORKSHOP = "workshop"
EXPERIMENT = "experiment"   # Episode.memory key: what each command of the experiment did (`_noter`)
FASTER_ANSWERS = ("steepest", "least")   # questions the faster plane answers


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
    world = build_house(rng, layout, required={start, WORKSHOP}, variation=variation)
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

    def decided(env) -> bool:
        """Both planes timed (`timings`), unequally, the faster being the answer where the
        question asks for the steeper or less rough plane (the slower elsewhere)."""
        told: dict[int, set[int]] = {}
        for plane, ticks, _ in timings(env):
            told.setdefault(plane, set()).add(ticks)
        if len(told) != 2 or any(len(t) != 1 for t in told.values()):
            return False
        (a, [ta]), (b, [tb]) = ((p, list(t)) for p, t in told.items())
        if ta == tb:
            return False
        return ((a if ta < tb else b) == answer.uid) == (question in FASTER_ANSWERS)

    return Episode(
        world=world, description=say(template, planes=list(labels), question=question),
        required=[lambda ep: ep.focused(answer)],
        optional=[left(world, start, WORKSHOP), in_room(world, WORKSHOP), *_timing_goals(block, planes, watch)],
        on_focus=lambda ep, thing: thing is answer,
        failure=lambda ep: block.parent is None,
        hints={"planes": planes, "block": block, "watch": watch, "answer": answer,
               **({"decided": decided, "readings": lambda env: shown_steps(timings(env))}
                  if kind != "named" else {})},
        on_action=_noter(block, planes, watch) if kind != "named" else None,
    )


def _noter(block, planes, watch):
    """Episode.on_action of the plane tasks: note (step, what) in the episode's memory for
    each command of the experiment: the block moved onto a plane (at its top), the watch
    started, a look at a plane (whether it showed the block at the bottom), the watch
    stopped (its ticks), a look at the stopped watch (its ticks)."""
    uids = {p.uid for p in planes}

    def note(env, action):
        if not action.args:
            return
        first = action.args[0]
        thing = first[0] if isinstance(first, tuple) else first
        verb, on = action.verb, getattr(block.parent, "uid", None)
        if verb == "move" and thing is block and on in uids and block.clock == 0:
            entry = ("moved", on)
        elif thing is watch and verb == "activate" and watch.is_on and watch.clock == 0:
            entry = ("started",)
        elif thing is watch and verb == "deactivate" and not watch.is_on:
            entry = ("stopped", watch.clock)
        elif verb == "look_at" and getattr(thing, "uid", None) in uids:
            entry = ("looked", thing.uid, on == thing.uid and mechanics.share_down(block) >= 1.0)
        elif verb == "look_at" and thing is watch and not watch.is_on:
            entry = ("read", watch.clock)
        else:
            return
        memory = env.episode.memory
        memory[EXPERIMENT] = memory.get(EXPERIMENT, ()) + ((env.moves, *entry),)
    return note


def timings(env) -> list[tuple[int, int, list[tuple[int, int]]]]:
    """(plane uid, ticks, steps a context shows) for each timing of a plane a reader can
    trust and read: the block moved onto the plane, the watch started by the next command,
    then only looks at that plane, each showing the block on its way down but the last
    (at the bottom: the watch counted the slide and no more); then the watch stopped by
    the next command and read by a look at it before it started again, or shown by the
    state (stopped since, or still running with that look the last command). The steps:
    (command index, looks before it summarized with it)."""
    notes = {step: note for step, *note in env.episode.memory.get(EXPERIMENT, ())}
    watch = env.episode.hints["watch"]
    in_view = any(t is watch for t in env.scope.things)
    starts = sorted(s for s, n in notes.items() if n == ["started"])
    found = []
    for step, note in sorted(notes.items()):
        if note[0] != "moved" or notes.get(step + 1) != ["started"]:
            continue
        plane, end = note[1], step + 2
        while notes.get(end) == ["looked", plane, False]:
            end += 1
        if notes.get(end) != ["looked", plane, True]:
            continue
        shown = [(step, 0), (step + 1, 0), (end, end - step - 2)]
        stop = notes.get(end + 1)
        if stop is not None and stop[0] == "stopped":
            again = next((s for s in starts if s > end), None)
            read = next((s for s in sorted(notes) if end + 1 < s < (again or env.moves)
                         and notes[s] == ["read", stop[1]]), None)
            if read is not None:
                found.append((plane, stop[1], shown + [(end + 1, 0), (read, 0)]))
            elif again is None and in_view:
                found.append((plane, stop[1], shown + [(end + 1, 0)]))
        elif end == env.moves - 1 and watch.is_on and in_view:
            found.append((plane, watch.clock, shown))
    return found


def shown_steps(found) -> list[tuple[int, int]]:
    """The steps `timings` found, each once, in order: what a question's context shows of
    the experiment (the lab's `readings`)."""
    return sorted(set(step for _, _, steps in found for step in steps))


def _timing_goals(block, planes, watch) -> list:
    """ScienceWorld's optional goals of a plane experiment, each met only after the one before:
    the block on a plane (the first it is put on), the stopwatch started, stopped and read; then
    the same on the other plane."""
    def on_plane(k):
        def goal(ep):
            if block.parent not in planes:
                return False
            first = ep.memory.setdefault("first plane", block.parent.uid)
            return (block.parent.uid == first) == (k == 0)
        return goal

    steps = []
    for k in (0, 1):
        steps += [on_plane(k), lambda ep: watch.is_on, lambda ep: not watch.is_on,
                  lambda ep: ep.did("look_at", watch)]
    n_before = 2   # left the start room, in the workshop

    def chained(i, cond):
        return cond if i == 0 else lambda ep: ep.opt_done[n_before + i - 1] and cond(ep)

    return [chained(i, c) for i, c in enumerate(steps)]


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
    # drawn angles and unknown frictions show only in the timings (named surfaces: common
    # knowledge); the stopwatch shows the last timing alone
    return TaskSpec(name, "forces", n, lambda s, v, f, lay: _setup(s, v, f, lay, kind), oracle,
                    decided_by_reading=kind != "named")


SPECS = [
    _spec("inclined-plane-determine-angle", 168, "angle"),
    _spec("inclined-plane-friction-named-surfaces", 1386, "named"),
    _spec("inclined-plane-friction-unnamed-surfaces", 162, "unnamed"),
]
