"""Mendelian genetics (topic 10): alleles, dominance and crosses, played as an agent would."""

import pytest

from racbench.worlds.science import TASKS, ScienceEnv, gold_trajectory
from racbench.worlds.science.life import offspring, phenotype, plant_with


@pytest.mark.parametrize("task,every", [("mendelian-genetics-known-plant", 1), ("mendelian-genetics-unknown-plant", 3)])
def test_gold_paths_reach_full_score(task, every):
    for v in range(0, TASKS[task].n_variations, every):
        steps = gold_trajectory(task, v, "")
        assert steps[-1]["score"] == 1.0 and all(s["score"] < 1.0 for s in steps[:-1]), (task, v)


def test_variations_follow_scienceworlds_traits_plants_and_boxes():
    def described(task, v):
        return ScienceEnv(task, v).reset()[1]["task_description"]
    assert described("mendelian-genetics-known-plant", 0) == (
        "Your task is to determine whether tall plant height is a dominant or recessive trait in the pea plant. "
        "If the trait is dominant, focus on the red box. If the trait is recessive, focus on the green box.")
    assert "focus on the green box. If the trait is recessive, focus on the blue box" in \
        described("mendelian-genetics-known-plant", 1)
    assert "short plant height" in described("mendelian-genetics-known-plant", 15)
    assert "blue seed color is a dominant or recessive trait in the unknown E plant" in \
        described("mendelian-genetics-unknown-plant", 0)
    assert "red flower color" in described("mendelian-genetics-unknown-plant", 479)


def _world():
    env = ScienceEnv("mendelian-genetics-known-plant", 0)
    env.reset()
    return env.world


def test_a_cross_of_pure_lines_shows_only_the_dominant_value_and_the_next_one_three_to_one():
    world = _world()
    tall = plant_with(world, "pea", (("tall", "tall", "tall", "plant height"),), 25.0)
    short = plant_with(world, "pea", (("short", "short", "tall", "plant height"),), 25.0)
    assert (tall.name, short.name) == ("pea seed", "pea seed")   # a seed does not show its height
    tall.stage = short.stage = 2
    assert (tall.name, short.name) == ("pea plant in the adult stage with a tall height",
                                       "pea plant in the adult stage with a short height")
    round_ = plant_with(world, "pea", (("round", "round", "round", "seed shape"),), 25.0)
    assert round_.name == "round pea seed"
    first = offspring(world, tall, short, 20)
    assert all(sorted(s.genes[0][:2]) == ["short", "tall"] and phenotype(s.genes[0]) == "tall" for s in first)
    second = []
    for k in range(100):
        world.ticks = k                          # a new draw each time, as crosses happen at new ticks
        second += offspring(world, first[0], first[1], 8)
    shown_short = sum(phenotype(s.genes[0]) == "short" for s in second) / len(second)
    assert 0.18 < shown_short < 0.32             # a quarter, as a Punnett square says


def test_offspring_seeds_inherit_and_show_every_seed_trait_as_scienceworlds_do():
    """ScienceWorld's seeds of a cross studied for plant height are named by their shape and colour
    ('wrinkly green pea seed'), its round parent having wrinkly offspring: so do ours, and the gold
    path moves them by those names."""
    env = ScienceEnv("mendelian-genetics-known-plant", 0)
    env.reset()
    parents = env.episode.hints["parents"]
    assert sorted(p.name for p in parents) == ["round green pea seed", "wrinkly green pea seed"]
    seen = set()
    for action in env.task_spec.oracle(env):
        obs, _, _, _, info = env.step(action)
        if action.startswith("look at flower pot"):
            seen = {name for name in ("round green pea seed", "wrinkly green pea seed") if name in obs}
    assert info["score"] == 1.0 and seen == {"round green pea seed", "wrinkly green pea seed"}
    children = [t for t in env.world.things if t.genes is not None and t not in parents]
    assert {tuple(locus[3] for locus in c.genes) for c in children} == {("plant height", "seed shape", "seed color")}
    assert {c.stages[0] for c in children} <= {"round green pea seed", "wrinkly green pea seed"}


def test_seeds_of_a_cross_hang_on_both_parents_named_as_scienceworld_names_them():
    """As in ScienceWorld (issue 28): each pollinated parent bears the seeds on itself ('pea seed
    in pea plant', asked about when several fit), a grown plant shows its height and leaves ('pea
    plant in the reproducing stage with a tall height', 'tall height pea plant', 'reproducing
    tall height pea plant'; unknown C 'with a short height and pointed leaves', called 'short
    height and pointed leaves unknown C plant'), and a seed answers to 'pea in the seed stage'."""
    from racbench.worlds.science.parser import parse
    env = ScienceEnv("mendelian-genetics-known-plant", 0)
    env.reset()
    parents = env.episode.hints["parents"]
    for action in env.task_spec.oracle(env):
        env.step(action)
        if all(p.contents for p in parents):
            break
    assert all(len(p.contents) == 4 and all(c.stage == 0 for c in p.contents) for p in parents)
    look = env.step("look around")[0]
    heights = sorted(p.traits for p in parents)
    assert heights == ["short height", "tall height"]   # the height studied: one parent each
    assert "a pea plant in the reproducing stage with a tall height (containing" in look

    def named(text):
        return {id(a.args[0]) for a in parse(text, env.scope).candidates}
    tall = next(p for p in parents if p.traits == "tall height")
    assert named("look at reproducing tall height pea plant") == named("look at tall height pea plant") == {id(tall)}
    assert named("look at tall height pea plant in the reproducing stage") == {id(tall)}
    assert named("look at pea seed in tall height pea plant") == {id(c) for c in tall.contents}
    assert named("look at pea in the seed stage on reproducing plant") == {id(c) for p in parents for c in p.contents}
    _, _, _, _, info = env.step("move pea seed in tall height pea plant to seed jar")
    assert env.pending is not None     # four fit: a numbered question, as there
    env = ScienceEnv("mendelian-genetics-unknown-plant", 240)   # unknown C, short plant height studied
    env.reset()
    grown = plant_with(env.world, "unknown C", (("short", "short", "tall", "plant height"),
                                                ("pointed", "pointed", "round", "leaf shape")), 25.0, stage=3)
    assert grown.name == "unknown C plant in the reproducing stage with a short height and pointed leaves"
    assert grown.traits == "short height and pointed leaves"


def test_focusing_on_the_wrong_box_fails():
    env = ScienceEnv("mendelian-genetics-known-plant", 0, "teleport")   # tall is dominant: the red box
    env.reset()
    env.step("teleport to greenhouse")
    _, _, terminated, _, info = env.step("focus on green box")
    assert terminated and info["score"] == 0.0


def test_seeds_made_during_play_grow_and_survive_a_restore():
    steps = [s["action"] for s in gold_trajectory("mendelian-genetics-unknown-plant", 5, "")]
    looked = next(i for i, a in enumerate(steps) if a.startswith("look at flower pot"))
    env = ScienceEnv("mendelian-genetics-unknown-plant", 5)
    env.reset()
    for action in steps[:looked]:
        env.step(action)
    saved, growers = env.save(), len(env.world.growers)
    for action in steps[looked:]:
        env.step(action)
    assert env.episode.score == 1.0
    env.restore(saved)
    assert len(env.world.growers) == growers and env.episode.score < 1.0
    for action in steps[looked:]:
        obs, _, _, _, info = env.step(action)
    assert info["score"] == 1.0
