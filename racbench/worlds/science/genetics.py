"""Mendelian inheritance of one trait: a plant carries two alleles, shows the dominant value when
either allele is it, and passes one allele, drawn at random, to each seed it makes with a partner
(a Punnett square, one draw per parent). A seed's name shows the value it will express."""

from __future__ import annotations

import random

from racbench.worlds.science.data import load
from racbench.worlds.science.house import seed_for
from racbench.worlds.science.life import organism


def phenotype(genes: tuple) -> str:
    a, b, dominant = genes
    return dominant if dominant in (a, b) else a


def plant_with(world, name: str, genes: tuple, temp: float, stage: int = 0):
    """A plant (seed by default) of `name` carrying `genes`, named by what it shows: 'tall pea seed'."""
    t = organism(world, "plant", name, load("life")["plant_stages"], temp, stage=stage)
    shown = phenotype(genes)
    t.genes = genes
    t.stages = tuple(load("vocab")["names"]["trait"].format(value=shown, name=s) for s in t.stages)
    t.referents = t.referents + (shown,)
    return t


def offspring(world, mother, father, n: int) -> list:
    """`n` seeds of a cross, each with one allele of each parent, drawn from a stream seeded by
    the parents and the clock (so a replay makes the same seeds)."""
    rng = random.Random(seed_for("genes", mother.uid, father.uid, world.ticks))
    dominant = mother.genes[2]
    return [plant_with(world, mother.base, (rng.choice(mother.genes[:2]), rng.choice(father.genes[:2]), dominant),
                       mother.temp) for _ in range(n)]
