"""Topic 5, plants: grow a plant from seed to its reproducing stage (grow-plant), or grow several
and let bees cross-pollinate them until one bears fruit (grow-fruit). Variation v holds
ScienceWorld's plant (v // 18) and seed room ((v // 3) % 6); soil is in the pots, one heap of it on
the greenhouse floor (the rest dug outside, as there), or outside to be dug with a shovel (v % 3)."""

from __future__ import annotations

from racbench.worlds.science import naming
from racbench.worlds.science.data import load
from racbench.worlds.science.house import (Layout, add_agent, build_house, furniture, make, make_substance,
                                          rng_for, settle)
from racbench.worlds.science.life import SOIL, WATER, in_soil, organism
from racbench.worlds.science.materials import LIQUID
from racbench.worlds.science.naming import command
from racbench.worlds.science.text import say
from racbench.worlds.science.tasks.base import Episode, Flags, TaskSpec, start_room
from racbench.worlds.science.tasks.common import (carried, deliver, fetch, go_to, held, in_agent_room, in_room, left, near,
                                                  visit, wait_until)
from racbench.worlds.science.world import BEE

GREENHOUSE, OUTSIDE = "greenhouse", "outside"
N_POTS = 3
N_SEEDS = 5


def numbered_pots(world, room, n: int, numbers=None, kind: str = "flower pot") -> list:
    """Flower pots 1 to n, or numbered as ScienceWorld draws them (`numbers`), named as its
    rooms name them for good ('flower pot 3', 'self watering flower pot 4')."""
    return [make(world, kind, name=naming.twin(kind, k), temp=room.temp) for k in (numbers or range(1, n + 1))]


def _in_pot(world, pot, wanted):
    """In the agent's room, something `wanted` lies directly in `pot` (a missing pot: never)."""
    return lambda ep: (pot is not None and world.room_of(pot) is world.agent_room()
                       and any(wanted(c) for c in pot.contents))


def garden_goals(world, start: str, jar, pots, n_pots: int, growers, soil_work: bool) -> list:
    """ScienceWorld's optional goals of the greenhouse tasks: near the seed jar and holding it
    (the shovel, soil held, near soil: when `soil_work`), out of the start room, in the
    greenhouse (and there after holding the jar), soil, water and a seed in each of its
    `n_pots` numbered flower pots (ours, when fewer, leave the rest unmet)."""
    def after_jar(ep):
        if jar.parent is world.agent:
            ep.memory["had jar"] = True
        return ep.memory.get("had jar", False) and world.agent_room().name == GREENHOUSE

    pots = list(pots) + [None] * (n_pots - len(pots))
    out = [near(world, jar), carried(world, lambda ep: jar)]
    if soil_work:
        out += [held(world, "shovel"), lambda ep: any(t.is_substance and t.mat.name == SOIL for t in world.agent.contents),
                in_agent_room(world, lambda t: t.is_substance and t.mat.name == SOIL)]
    out += [left(world, start), in_room(world, GREENHOUSE), after_jar]
    out += [_in_pot(world, p, lambda c: c.is_substance and c.mat.name == SOIL) for p in pots]
    out += [_in_pot(world, p, lambda c: c.is_substance and c.mat.name == WATER and c.state == LIQUID) for p in pots]
    out += [_in_pot(world, p, lambda c: c in growers) for p in pots]
    return out


def stage_counts(world, most: int) -> list:
    """'At least n plants in stage s' in the agent's room, for n up to `most`, every stage."""
    def met(n, stage):
        def at_least(ep):
            room = world.agent_room()
            return sum(g.stage == stage and g.parent is not None and world.room_of(g) is room
                       for g in world.growers) >= n
        return at_least
    return [met(n, s) for n in range(1, most + 1) for s in range(4)]


def pollination_goals(world, hive) -> list:
    """The hive open once a plant reproduces; near the bees once two do."""
    def reproducing(ep) -> int:
        return sum(g.parent is not None and g.stage == 3 for g in world.growers)
    bees_near = in_agent_room(world, lambda t: t.base == BEE)
    return [lambda ep: hive.is_open and reproducing(ep) >= 1,
            lambda ep: reproducing(ep) >= 2 and bees_near(ep)]


def _setup(spec: TaskSpec, variation: int, flags: Flags, layout: Layout, fruit: bool) -> Episode:
    life = load("life")
    name = life["grow_plants"][variation // 18]
    seed_room = life["grow_seed_rooms"][(variation // 3) % 6]
    soil_at = life["grow_soil"][variation % 3]
    rng = rng_for(spec.name, variation)
    start = start_room(spec.name, variation)
    world = build_house(rng, layout, required={start, seed_room, GREENHOUSE, OUTSIDE}, variation=variation)
    world.self_watering = flags.self_watering
    house = world.rooms[GREENHOUSE]
    jar = make(world, "seed jar", temp=world.rooms[seed_room].temp)
    world.place(jar, world.rooms[seed_room])     # on the floor, as ScienceWorld's, with its five seeds
    seeds = [organism(world, "plant", name, life["plant_stages"], jar.temp) for _ in range(N_SEEDS)]
    for seed in seeds:
        world.place(seed, jar)
    world.growers = seeds
    pots = numbered_pots(world, house, N_POTS)
    for pot in pots:
        world.place(pot, house)
        if soil_at == "pot":
            world.place(make_substance(world, "soil", house.temp), pot)
    if soil_at == "room":   # one heap on the floor, as ScienceWorld's greenhouse has
        world.place(make_substance(world, "soil", house.temp), house)
    shovel = next(t for t in world.things if t.tool == "shovel") if soil_at != "pot" else None
    hive = furniture(world, GREENHOUSE, "bee hive") if fruit else None
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

        return Episode(
            world=world, description=say("task_grow_fruit", name=name, room=seed_room),
            # as in ScienceWorld, focusing on a grown fruit alone is required; growing earns partial credit
            required=[lambda ep: any(ep.focused(t) for t in world.things[n_start:] if grown_fruit(t))],
            optional=garden_goals(world, start, jar, pots, N_POTS, seeds, True) + stage_counts(world, 2)
            + pollination_goals(world, hive)
            + [in_agent_room(world, lambda t: t.base == name and t.living is None)],
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
        # ScienceWorld's: the focused plant in each life stage in turn
        required=[(lambda k: lambda ep: chosen(ep) is not None and chosen(ep).alive and chosen(ep).stage >= k)(k)
                  for k in range(last + 1)],
        optional=garden_goals(world, start, jar, pots, N_POTS, seeds, True),
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
    heaps = [t for t in world.subtree(house) if t.is_substance and t.mat.name == "soil" and t.parent not in pots]
    bare = [pot for pot, seed in zip(pots, seeds) if not in_soil(seed)
            and not any(c.is_substance and c.mat.name == "soil" for c in pot.contents)]
    if len(bare) > len(heaps):     # the soil the greenhouse lacks is dug outside
        yield from fetch(env, h["shovel"])
        yield from go_to(env, world.rooms[OUTSIDE])
        ground = next(t for t in world.rooms[OUTSIDE].contents if t.base == "ground")
        for _ in range(len(bare) - len(heaps)):
            yield command("use_on", env.canon(h["shovel"]), env.canon(ground))
            dug = next(t for t in world.agent_room().contents if t.is_substance and t.mat.name == "soil")
            yield command("pick_up", env.canon(dug))
    yield from go_to(env, house)
    loose = [t for t in world.subtree(house) if t.is_substance and t.mat.name == "soil"
             and t.parent not in h["pots"]] + \
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
    seeds = seeds[:len(pots)]
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
