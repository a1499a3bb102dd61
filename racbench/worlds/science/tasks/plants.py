"""Topic 5, plants: grow a plant from seed to its reproducing stage (grow-plant), or grow several
and let bees cross-pollinate them until one bears fruit (grow-fruit). Variation v holds
ScienceWorld's plant (v // 18) and seed room ((v // 3) % 6); soil is in the pots, in the greenhouse,
or outside to be dug with a shovel (v % 3)."""

from __future__ import annotations

from racbench.worlds.science.data import load
from racbench.worlds.science.house import (Layout, add_agent, build_house, furniture, make, make_substance,
                                          rng_for, settle)
from racbench.worlds.science.life import in_soil, organism
from racbench.worlds.science.naming import command
from racbench.worlds.science.text import say
from racbench.worlds.science.tasks.base import Episode, Flags, TaskSpec, start_room
from racbench.worlds.science.tasks.common import default_living, deliver, fetch, go_to, visit, wait_until

GREENHOUSE, OUTSIDE = "greenhouse", "outside"
N_POTS = 3


def _setup(spec: TaskSpec, variation: int, flags: Flags, layout: Layout, fruit: bool) -> Episode:
    life = load("life")
    name = life["grow_plants"][variation // 18]
    seed_room = life["grow_seed_rooms"][(variation // 3) % 6]
    soil_at = life["grow_soil"][variation % 3]
    rng = rng_for(spec.name, variation)
    start = start_room(spec.name, variation)
    animals, _ = default_living(rng)
    world = build_house(rng, layout, required={start, seed_room, GREENHOUSE, OUTSIDE}, animals=animals)
    world.self_watering = flags.self_watering
    house = world.rooms[GREENHOUSE]
    spots = [f for f in world.rooms[seed_room].contents if f.container and f.heat is None and f.device is None
             and f.device != "tap"] or [world.rooms[seed_room]]
    jar = make(world, "seed jar", temp=world.rooms[seed_room].temp)
    world.place(jar, rng.choice(spots))
    seeds = [organism(world, "plant", name, life["plant_stages"], jar.temp) for _ in range(N_POTS)]
    for seed in seeds:
        world.place(seed, jar)
    world.growers = seeds
    pots = [make(world, "flower pot", temp=house.temp) for _ in range(N_POTS)]
    for pot in pots:
        world.place(pot, house)
        if soil_at == "pot":
            world.place(make_substance(world, "soil", house.temp), pot)
        elif soil_at == "room":
            world.place(make_substance(world, "soil", house.temp), furniture(world, GREENHOUSE, "table"))
    shovel = None
    if soil_at == "outside":
        shovel = make(world, "shovel", temp=house.temp)
        world.place(shovel, furniture(world, GREENHOUSE, "table"))
    hive = None
    if fruit:
        hive = make(world, "bee hive", temp=house.temp)
        world.place(hive, house)
        for _ in range(3):
            world.place(make(world, "animal", name="bee", temp=house.temp), hive)
    add_agent(world, start)
    settle(world, flags.open_doors, flags.open_containers)
    n_start = len(world.things)
    last = len(life["plant_stages"]) - 1

    def chosen(ep):
        uid = ep.memory.get("seed")
        return world.things[uid] if uid is not None else None

    def grown_fruit(t) -> bool:
        return t.uid >= n_start and t.base == name and t.living is None

    if fruit:
        def on_focus(ep, thing):
            return grown_fruit(thing)

        def fruit_made(ep):
            return any(grown_fruit(t) and t.parent is not None for t in world.things[n_start:])

        return Episode(
            world=world, description=say("task_grow_fruit", name=name, room=seed_room),
            required=[lambda ep: sum(s.alive and s.stage == last for s in seeds) >= 2, fruit_made,
                      lambda ep: any(ep.focused(t) for t in world.things[n_start:] if grown_fruit(t))],
            optional=[lambda ep: sum(in_soil(s) for s in seeds) >= 2, lambda ep: hive.is_open],
            on_focus=on_focus,
            failure=lambda ep: sum(s.alive and s.parent is not None for s in seeds) < 2,
            hints={"seeds": seeds, "pots": pots, "jar": jar, "shovel": shovel, "hive": hive, "soil": soil_at,
                   "n_start": n_start, "name": name},
        )

    def on_focus(ep, thing):
        """The first seed focused on is the one to grow; as in ScienceWorld, a focus on anything
        that is not one of the seeds neither counts nor fails."""
        if thing not in seeds:
            return True
        if chosen(ep) is None and thing.stage == 0:
            ep.memory["seed"] = thing.uid
            return True
        return thing is chosen(ep)

    return Episode(
        world=world, description=say("task_grow_plant", name=name, room=seed_room),
        required=[lambda ep: chosen(ep) is not None,
                  lambda ep: chosen(ep).alive and chosen(ep).stage == last],
        optional=[lambda ep: chosen(ep) is not None and in_soil(chosen(ep)),
                  lambda ep: chosen(ep) is not None and chosen(ep).stage >= 1,
                  lambda ep: chosen(ep) is not None and chosen(ep).stage >= 2],
        on_focus=on_focus,
        failure=lambda ep: chosen(ep) is not None and (not chosen(ep).alive or chosen(ep).parent is None),
        hints={"seeds": seeds, "pots": pots, "jar": jar, "shovel": shovel, "hive": None, "soil": soil_at,
               "n_start": n_start, "name": name},
    )


def _plant(env, seeds, pots):
    """Soil into each pot (dug outside with the shovel when it must be), a seed into each pot,
    the pots into the greenhouse sink, and the tap left running."""
    h = env.episode.hints
    world = env.world
    house = world.rooms[GREENHOUSE]
    yield from fetch(env, h["jar"])
    if h["soil"] == "outside":
        yield from fetch(env, h["shovel"])
        yield from go_to(env, world.rooms[OUTSIDE])
        ground = next(t for t in world.rooms[OUTSIDE].contents if t.base == "ground")
        for _ in pots:
            yield command("use_on", env.canon(h["shovel"]), env.canon(ground))
    yield from go_to(env, house)
    loose = [t for t in world.subtree(house) if t.is_substance and t.mat.name == "soil"
             and t.parent.base != "flower pot"] + \
        [t for t in world.agent.contents if t.is_substance and t.mat.name == "soil"]
    for pot, seed in zip(pots, seeds):
        if not in_soil(seed) and not any(c.is_substance and c.mat.name == "soil" for c in pot.contents):
            yield from deliver(env, loose.pop(0), pot)
        yield command("move", env.canon(seed), env.canon(pot))
    sink = next(t for t in world.taps if world.room_of(t) is house)
    for pot in pots:
        yield command("move", env.canon(pot), env.canon(sink))
    if not world.self_watering:
        yield command("activate", env.canon(sink))


def oracle(env):
    ep = env.episode
    h = ep.hints
    seeds, pots = h["seeds"], h["pots"]
    last = len(seeds[0].stages) - 1
    if h["hive"] is None:
        seed = seeds[0]
        yield from visit(env, seed)
        yield command("focus", env.canon(seed))
        yield from _plant(env, [seed], pots[:1])
        yield from wait_until(env, lambda: seed.stage == last)
        return
    yield from _plant(env, seeds, pots)
    yield from wait_until(env, lambda: all(s.stage == last for s in seeds))
    yield command("open", env.canon(h["hive"]))
    world = env.world

    def fruits():
        return [t for t in world.things[h["n_start"]:] if t.base == h["name"] and t.living is None
                and t.parent is not None]
    yield from wait_until(env, lambda: bool(fruits()))
    yield command("focus", env.canon(fruits()[0]))


SPECS = [
    TaskSpec("grow-plant", "plants", 126, lambda s, v, f, lay: _setup(s, v, f, lay, False), oracle),
    TaskSpec("grow-fruit", "plants", 126, lambda s, v, f, lay: _setup(s, v, f, lay, True), oracle),
]
