"""Life stages: living things that grow from their first stage to their last as ticks pass.

Only things a task registers in `world.growers` grow. An animal spends `world.stage_ticks` ticks
in each stage from the start of the episode, wherever the agent is, as ScienceWorld's do. A plant
grows in soil: a seed or seedling only while its pot holds water, which it drinks on reaching its
next stage; past its seed stage it dies after `thirst_ticks` dry ticks (per stage), unless pots
water themselves (the selfWateringFlowerPots simplification, or a self watering flower pot). A reproducing plant that shares its room with free bees and
another reproducing plant of its kind is pollinated and, `pollination_ticks` later, bears a fruit.
"""

from __future__ import annotations

import random

from racbench.worlds.science.data import load
from racbench.worlds.science.house import make, seed_for
from racbench.worlds.science import bees
from racbench.worlds.science.world import BEE, LIQUID, World

_LIFE = load("life")
PLANT_STAGE_TICKS = _LIFE["plant_stage_ticks"]
THIRST_TICKS, POLLINATION_TICKS = _LIFE["thirst_ticks"], _LIFE["pollination_ticks"]
SOIL, WATER = "soil", "water"
SELF_WATERING_POT = "self watering flower pot"
DRINKS_AT = _LIFE["plant_stages"].index("adult")
TREE = "tree"   # the last word of the plants that ScienceWorld names as trees


def organism(world: World, kind: str, name: str, stages: list[str], temp: float, stage: int = 0,
             names: str | None = None):
    """An animal or plant called by its stage ('turtle egg', 'adult apple plant', or by the
    `names` patterns of life.json; a moth's stages show 'butterfly' as ScienceWorld's do:
    life.json `shown_as`); it also answers to its own name and to the stage's word."""
    patterns = _LIFE[names or ("stage_names" if kind == "animal" else "plant_stage_names")]
    t = make(world, kind, name=name, temp=temp)
    shown = _LIFE["shown_as"].get(name, name) if kind == "animal" else name
    t.stages = tuple(patterns[s].format(name=shown, traits="{traits}") for s in stages)
    t.stage = stage
    t.referents = (name,) + tuple(dict.fromkeys(stages))
    return t


def found_plant(world: World, plant: str, stage: str, trait: str | None, temp: float):
    """A grown plant as the find tasks pot it ('apple tree' at its 'adult' stage): called by its
    stage as ScienceWorld calls it ('apple tree in the adult stage' for a tree, 'adult pea plant'
    for the rest), and answering to ScienceWorld's other names for it."""
    stages = _LIFE["plant_stages"]
    names = "tree_stage_names" if plant.split()[-1] == TREE else None
    t = organism(world, "plant", plant.split()[0], stages, temp, stage=stages.index(stage), names=names)
    extra = [p.format(plant=plant, stage=stage) for p in _LIFE["potted_plant_names"]]
    if trait is not None:
        extra.append(_LIFE["potted_trait_name"].format(trait=trait, plant=plant))
    t.referents = t.referents + tuple(extra)
    return t


def in_soil(plant) -> bool:
    pot = plant.parent
    return pot is not None and any(c.is_substance and c.mat.name == SOIL for c in pot.contents)


def _water_in(pot):
    return next((c for c in pot.contents if c.is_substance and c.mat.name == WATER and c.state == LIQUID), None)


def _waters_itself(pot) -> bool:
    return pot.referents[:1] == (SELF_WATERING_POT,)    # its archetype, whatever its number


def _bees_free(world: World, room) -> bool:
    """A bee in the room, not shut in a closed container."""
    return any(t.base == BEE and t.living and bees.reach(t) is room for t in world.subtree(room))


def _grow_plant(world: World, t) -> None:
    """One tick of a potted plant, as ScienceWorld's grow (observed by looking at a pot every
    tick): a seed or seedling ages only while its pot holds water and drinks it all on reaching
    its next stage; an adult grows on without; a plant past its seed stage with no water in its
    pot counts dry ticks and dies at its stage's `thirst_ticks`."""
    if not in_soil(t):
        return
    water = _water_in(t.parent)
    self_watering = world.self_watering or _waters_itself(t.parent)
    dry = water is None and not self_watering
    if dry and t.stage > 0:
        t.clock += 1    # dry ticks
        if t.clock >= THIRST_TICKS[min(t.stage, len(THIRST_TICKS) - 1)]:
            t.alive = False
            t.label = _LIFE["dead_plant"].format(name=t.base)
            world.changed()
            return
    elif not dry:
        t.clock = 0
    if t.stage < len(t.stages) - 1:
        if dry and t.stage < DRINKS_AT:
            return      # a dry seed or seedling waits
        t.age += 1
        if t.age >= (world.plant_stage_ticks or PLANT_STAGE_TICKS)[t.stage]:
            t.stage += 1
            t.age = 0
            if water is not None and (t.stage == DRINKS_AT if _waters_itself(t.parent)
                                      else t.stage <= DRINKS_AT and not world.self_watering):
                world.remove(water)     # it drinks all its pot holds on growing up
            world.changed()


def _pollinate(world: World, plants: list) -> None:
    """Reproducing plants that share a room with free bees and a reproducing plant of their kind
    count pollinated ticks in `age`; the count reaching POLLINATION_TICKS makes the fruit."""
    by_room: dict[int, list] = {}
    for t in plants:
        by_room.setdefault(world.room_of(t).uid, []).append(t)
    for group in by_room.values():
        room = world.room_of(group[0])
        for t in group:
            kin = [o for o in group if o.base == t.base]
            if len(kin) < 2 or not _bees_free(world, room):
                continue
            t.age += 1
            if t.age == POLLINATION_TICKS:
                _fruit(world, t, kin)


def _fruit(world: World, t, kin: list) -> None:
    """A fruit of the plant's kind beside it, or for a plant carrying genes the seeds of a cross
    with the next reproducing plant of its kind in the room, hanging on the plant as
    ScienceWorld's do ('pea seed in pea plant')."""
    if t.genes is None:
        world.move(make(world, t.base, temp=t.temp), t.parent)
        return
    partner = kin[(kin.index(t) + 1) % len(kin)]
    for seed in offspring(world, t, partner, load("genetics")["pod_seeds"]):
        world.growers.append(seed)
        world.move(seed, t)


def tick(world: World) -> None:
    ripe = []
    for t in world.growers:
        if t.parent is None or not t.alive:
            continue
        if t.living == "plant":
            last = t.stage == len(t.stages) - 1
            _grow_plant(world, t)
            if last and t.alive and in_soil(t):
                ripe.append(t)
            continue
        if t.stage >= len(t.stages) - 1:
            continue
        t.age += 1
        if t.age >= world.stage_ticks:
            t.stage += 1
            t.age = 0
            world.changed()
    if ripe:
        _pollinate(world, ripe)


# -- Mendelian inheritance ---------------------------------------------------------------
# Mendelian inheritance: a plant carries two alleles of each trait it has genes for (the trait
# studied first, then the other seed traits), shows the dominant value when either allele is it,
# and passes one allele of each, drawn at random, to each seed it makes with a partner (a Punnett
# square, one draw per parent and trait). A seed's name shows every seed trait it carries.

def phenotype(locus: tuple) -> str:
    """The value a locus (allele, allele, dominant value, trait) shows."""
    a, b, dominant = locus[:3]
    return dominant if dominant in (a, b) else a


def seed_name(name: str, values: list[str]) -> str:
    """'round green pea seed': a seed named by the seed-trait values it shows, in their order."""
    seed = load("life")["plant_stage_names"]["seed"].format(name=name)
    for value in reversed(values):
        seed = load("vocab")["names"]["trait"].format(value=value, name=seed)
    return seed


def plant_with(world, name: str, genes: tuple, temp: float, stage: int = 0):
    """A plant (seed by default) of `name` carrying `genes` (loci, the trait studied first), named
    as ScienceWorld names its own: a seed by every seed trait it has genes for ('round green pea
    seed', but 'pea seed' for a plant without any), a grown plant by its stage and the plant
    traits it shows ('pea plant in the adult stage with a tall height'), which it also answers
    to before its name ('tall height pea plant': `traits`)."""
    life = load("life")
    t = organism(world, "plant", name, life["plant_stages"], temp, stage=stage, names="genetic_stage_names")
    t.genes = genes
    table = load("genetics")
    on_seed = [phenotype(locus) for trait in table["seed_traits"] for locus in genes if locus[3] == trait]
    phrases = [life["trait_phrases"][trait].format(value=phenotype(locus))
               for trait in table["plant_traits"] for locus in genes if locus[3] == trait]
    shown = life["traits_shown"].format(traits=load("vocab")["names"]["list_joiner"].join(phrases)) if phrases else ""
    t.traits = shown.strip().removeprefix(life["trait_name_drops"]) or None
    t.stages = (seed_name(name, on_seed),) + tuple(s.format(traits=shown) for s in t.stages[1:])
    t.referents = t.referents + tuple(dict.fromkeys(v for v in on_seed if v not in t.referents))
    return t


def offspring(world, mother, father, n: int) -> list:
    """`n` seeds of a cross, each with one allele of each parent for every trait, drawn from
    streams seeded by the parents and the clock (so a replay makes the same seeds): the trait
    studied from one stream, the other seed traits from another."""
    rng = random.Random(seed_for("genes", mother.uid, father.uid, world.ticks))
    more = random.Random(seed_for("seed genes", mother.uid, father.uid, world.ticks))
    seeds = []
    for _ in range(n):
        genes = [(rng.choice(mother.genes[0][:2]), rng.choice(father.genes[0][:2]), *mother.genes[0][2:])]
        genes += [(more.choice(m[:2]), more.choice(f[:2]), *m[2:]) for m, f in zip(mother.genes[1:], father.genes[1:])]
        seeds.append(plant_with(world, mother.base, tuple(genes), mother.temp))
    return seeds
