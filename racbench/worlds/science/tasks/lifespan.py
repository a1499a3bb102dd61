"""Topic 7, life spans: focus on the longest-lived, the shortest-lived, or the longest- then the
shortest-lived of three animals outside (a long-, a medium- and a short-lived one)."""

from __future__ import annotations

from racbench.worlds.science.data import load
from racbench.worlds.science.house import Layout, add_agent, build_house, rng_for, settle
from racbench.worlds.science.life import organism
from racbench.worlds.science.naming import command
from racbench.worlds.science.text import say
from racbench.worlds.science.tasks.base import Episode, Flags, TaskSpec, start_room
from racbench.worlds.science.tasks.common import default_living, go_to

OUTSIDE = "outside"


def _setup(spec: TaskSpec, variation: int, flags: Flags, layout: Layout, order: tuple) -> Episode:
    life = load("life")
    names = life["lifespan_variations"][variation]         # long, medium, short
    rng = rng_for(spec.name, variation)
    start = start_room(spec.name, variation)
    _, plants = default_living(rng)
    world = build_house(rng, layout, required={start, OUTSIDE}, plants=plants)
    room = world.rooms[OUTSIDE]
    animals = [organism(world, "animal", n, life["animals"][n], room.temp) for n in names]
    for a in rng.sample(animals, len(animals)):
        world.place(a, room)
    add_agent(world, start)
    settle(world, flags.open_doors, flags.open_containers)
    by_role = {"longest": animals[0], "shortest": animals[2]}
    wanted = [by_role[role] for role in order]

    def on_focus(ep, thing):
        """The wanted animals, in the task's order; focusing one again is harmless."""
        done = [w for w in wanted if ep.memory.get(w.uid)]
        if thing in done:
            return True
        if len(done) < len(wanted) and thing is wanted[len(done)]:
            ep.memory[thing.uid] = True
            return True
        return False

    return Episode(
        world=world, description=say("task_lifespan", order=list(order), room=OUTSIDE),
        required=[(lambda w: lambda ep: bool(ep.memory.get(w.uid)))(w) for w in wanted],
        optional=[lambda ep: world.agent_room() is room],
        on_focus=on_focus,
        hints={"wanted": wanted, "room": room},
    )


def oracle(env):
    """Walk outside and focus on the wanted animals in order (their life spans are in the data)."""
    h = env.episode.hints
    yield from go_to(env, h["room"])
    for animal in h["wanted"]:
        yield command("focus", env.canon(animal))


def _spec(name, order) -> TaskSpec:
    return TaskSpec(name, "lifespan", 125, lambda s, v, f, lay: _setup(s, v, f, lay, order), oracle)


SPECS = [
    _spec("lifespan-longest-lived", ("longest",)),
    _spec("lifespan-shortest-lived", ("shortest",)),
    _spec("lifespan-longest-lived-then-shortest-lived", ("longest", "shortest")),
]
