"""Topic 10, Mendelian genetics: find whether a trait is dominant or recessive by crossing a plant
that shows it with one that shows the other value and looking at the seeds they make (all show the
dominant value), in the pea plant or in an unknown plant. Variation v holds ScienceWorld's plant, trait, answer
boxes and answer (whether the trait is dominant)."""

from __future__ import annotations

from racbench.worlds.science import naming
from racbench.worlds.science.data import load
from racbench.worlds.science.life import plant_with
from racbench.worlds.science.house import (Layout, add_agent, build_house, furniture, make, make_substance,
                                          rng_for, settle)
from racbench.worlds.science.naming import command
from racbench.worlds.science.text import say
from racbench.worlds.science.tasks.base import (Episode, Flags, TaskSpec, scienceworld_draw, scienceworld_facts,
                                               start_room)
from racbench.worlds.science.tasks.common import fetch, go_to, wait_until
from racbench.worlds.science.tasks.plants import garden_goals, numbered_pots, pollination_goals, stage_counts

GREENHOUSE = "greenhouse"
N_POTS = 6    # ScienceWorld's greenhouse holds six pots of soil, and its partial credit counts them
USED_POTS = 4   # the oracle's: two parents, two of their seeds


def _parents(world, plant: str, values: list[str], dominant: str, category: str, shown: list[list[str]],
             temp: float, grown: dict) -> list:
    """The two parent seeds, pure-bred for the trait studied (`values`), named as ScienceWorld's
    variation names its two seeds: by every seed trait value it drew for each ('round green pea
    seed'), the seed whose values hold a parent's value of the trait asked about going to that
    parent (in the drawn order when seeds do not show it). Each other seed trait is a gene of its
    own, dominant in its pair's first value: a parent showing that value carries the other one too
    (ScienceWorld's round parent has wrinkly offspring), one showing the second value is pure-bred.
    The plant traits a grown plant shows besides the one studied (its height, its leaves) are
    pure-bred, with the values ScienceWorld's parent of the same studied value shows once grown
    (`grown`: genetics_parents.json, read by tools/harvest_genetics_traits.py; ScienceWorld draws
    them per variation, and shows them only once its plants grow)."""
    pairs = load("genetics")["pairs"][plant]
    if category in load("genetics")["seed_traits"]:
        shown = sorted(shown, key=lambda drawn: [v in drawn for v in values].index(True))
    parents = []
    for v, drawn in zip(values, shown):
        loci = [(v, v, dominant, category)]
        for trait in load("genetics")["seed_traits"]:
            pair = pairs.get(trait)
            value = next((d for d in drawn if pair and d in pair), None)
            if trait != category and value is not None:
                loci.append((value, pair[1], pair[0], trait))
        for trait in load("genetics")["plant_traits"]:
            pair = pairs.get(trait)
            if trait != category and pair:
                value = grown[v][trait]
                loci.append((value, value, pair[0], trait))
        parents.append(plant_with(world, plant, tuple(loci), temp))
    return parents


def _setup(spec: TaskSpec, variation: int, flags: Flags, layout: Layout, unknown: bool) -> Episode:
    table = load("genetics")
    plant, trait, dominant_c, recessive_c, is_dominant = scienceworld_facts(spec.name, variation)
    value, category = trait.split(" ", 1)
    pair = table["pairs"][plant][category]
    other = next(v for v in pair if v != value)
    rng = rng_for(spec.name, variation)
    dominant = value if is_dominant else other
    start = start_room(spec.name, variation)
    world = build_house(rng, layout, required={start, GREENHOUSE}, variation=variation)
    world.self_watering = flags.self_watering
    house = world.rooms[GREENHOUSE]
    jar = make(world, "seed jar", temp=house.temp)
    world.place(jar, house)
    parents = _parents(world, plant, rng.sample(pair, 2), dominant, category,
                       scienceworld_draw("genetics_seeds", spec.name, variation), house.temp,
                       load("genetics_parents")[spec.name][str(variation)])
    for seed in parents:
        world.place(seed, jar)
    world.growers = list(parents)
    pots = numbered_pots(world, house, N_POTS, scienceworld_draw("genetics_pots", spec.name, variation))
    for pot in pots:
        world.place(pot, house)
        world.place(make_substance(world, "soil", house.temp), pot)
    hive = furniture(world, GREENHOUSE, "bee hive")
    colors = (dominant_c, recessive_c)
    boxes = []
    for c in colors:
        box = make(world, "box", name=naming.box(c), color=c, temp=house.temp)
        world.place(box, house)
        boxes.append(box)
    answer = boxes[0] if value == dominant else boxes[1]
    add_agent(world, start)
    settle(world, flags.open_doors, flags.open_containers)
    n_start = len(world.things)

    def offspring_near(ep):
        room = world.agent_room()
        return any(t.genes is not None and t.parent is not None and world.room_of(t) is room
                   for t in world.things[n_start:])

    return Episode(
        world=world,
        description=say("task_genetics", trait=trait, plant=plant, dominant=boxes[0].name, recessive=boxes[1].name),
        # as in ScienceWorld, the answer alone decides; the experiment earns partial credit
        required=[lambda ep: ep.focused(answer)],
        optional=garden_goals(world, start, jar, pots, N_POTS, world.growers, False) + stage_counts(world, N_POTS)
        + pollination_goals(world, hive) + [offspring_near],
        on_focus=lambda ep, thing: thing is answer,
        failure=lambda ep: any(not p.alive or p.parent is None for p in parents),
        hints={"jar": jar, "parents": parents, "pots": pots, "hive": hive, "answer": answer,
               "n_start": n_start, "other": other},
    )


def oracle(env):
    """Plant the two parents, water them under the running tap, free the bees, and when seeds
    hang on a parent look at them in its pot, plant two and see what they show; the value every seed of the
    cross shows is the dominant one."""
    h = env.episode.hints
    world = env.world
    yield from fetch(env, h["jar"])
    yield from go_to(env, world.rooms[GREENHOUSE])
    sink = next(t for t in world.taps if world.room_of(t) is world.rooms[GREENHOUSE])
    for seed, pot in zip(h["parents"], h["pots"]):
        yield command("move", env.canon(seed), env.canon(pot))
    for pot in h["pots"][:USED_POTS]:
        yield command("move", env.canon(pot), env.canon(sink))
    if not world.self_watering:
        yield command("activate", env.canon(sink))
    yield command("open", env.canon(h["hive"]))

    def bearing():
        return [p for p in h["parents"] if p.contents]
    yield from wait_until(env, lambda: bool(bearing()))
    parent = bearing()[0]
    yield command("look_at", env.canon(parent.parent))   # the pot shows the seeds on the plant
    children = list(parent.contents)[:2]
    for seed, pot in zip(children, h["pots"][2:USED_POTS]):
        yield command("move", env.canon(seed), env.canon(pot))
    yield from wait_until(env, lambda: all(c.stage >= 1 for c in children))
    yield command("focus", env.canon(h["answer"]))


SPECS = [
    TaskSpec("mendelian-genetics-known-plant", "genetics", 120,
             lambda s, v, f, lay: _setup(s, v, f, lay, False), oracle),
    TaskSpec("mendelian-genetics-unknown-plant", "genetics", 480,
             lambda s, v, f, lay: _setup(s, v, f, lay, True), oracle),
]
