"""Topic 8, life stages: focus on an animal at each of its stages as it grows (identify-life-stages-1),
or on plants standing at each stage of their life (identify-life-stages-2), earliest first."""

from __future__ import annotations

from racbench.worlds.science.data import load
from racbench.worlds.science.house import Layout, add_agent, build_house, make_substance, rng_for, settle
from racbench.worlds.science.life import DRINKS_AT, SELF_WATERING_POT, organism
from racbench.worlds.science.naming import command
from racbench.worlds.science.text import say
from racbench.worlds.science.tasks.base import SW_STEPS, Episode, Flags, TaskSpec, scienceworld_draw, start_room
from racbench.worlds.science.tasks.common import go_to, in_room, left, visit, wait_until
from racbench.worlds.science.tasks.plants import numbered_pots

TOPIC = "life stages"  # the tasks' topic (TaskSpec.topic)
OUTSIDE = "outside"
DEAD = "dead"   # the stage ScienceWorld's stage_pots give a dead tree
N_OTHER_ANIMALS = (2, 4)


def _stage_rules(stage_of):
    """(on_focus, saw): focus on stage 0, then 1, ... of the organism, where `stage_of(thing)` is
    the stage a focused thing shows now, or None when it is not the organism. Focusing a stage
    already seen is harmless; skipping one or focusing anything else fails. saw(k) is the goal
    'stage k seen'."""

    def on_focus(ep, thing):
        seen = ep.memory.setdefault("stages", [])
        stage = stage_of(thing)
        if stage is None:
            return False
        if stage < len(seen):
            return True
        if stage == len(seen):
            ep.memory["stages"] = seen + [stage]
            return True
        return False

    def saw(k):
        return lambda ep: len(ep.memory.get("stages", ())) > k

    return on_focus, saw


# ScienceWorld's 'stay in goal location for 10, 20, 30 steps' come, as played there, 4, 8 and 13 of
# its steps after the step that arrives (a wait of N ticks counting N + 1 steps; SW_STEPS)
STAYS = (4, 8, 13)


def _visit_goals(world, start: str, excused: bool = True) -> list:
    """ScienceWorld's optional goals here: leave the start room (unless it is outside, where
    `excused`: identify-life-stages-2 does not excuse a start outside, read off its goal
    progress on variation 3), be outside, and stay there (STAYS)."""
    def stayed(n):
        def goal(ep):
            if world.agent_room().name != OUTSIDE:
                ep.memory.pop("arrived", None)
                return False
            now = ep.memory.get(SW_STEPS, 0)
            # a start outside counts as arriving at the first step (ScienceWorld's variation 3 of both tasks)
            return now - ep.memory.setdefault("arrived", max(now, 1)) >= n
        return goal

    return [left(world, start, OUTSIDE if excused else None), in_room(world, OUTSIDE), *(stayed(n) for n in STAYS)]


def _setup_animal(spec: TaskSpec, variation: int, flags: Flags, layout: Layout) -> Episode:
    life = load("life")
    name = life["identify_animals"][variation]
    rng = rng_for(spec.name, variation)
    start = start_room(spec.name, variation)
    world = build_house(rng, layout, required={start, OUTSIDE}, variation=variation)
    world.stage_ticks = life["stage_ticks"]
    room = world.rooms[OUTSIDE]
    # never one that shows the same name (ScienceWorld's moth shows 'butterfly': life.json shown_as)
    shown = life["shown_as"].get(name, name)
    others = [a for a in life["identify_animals"] if a != name and life["shown_as"].get(a, a) != shown]
    names = [name] + rng.sample(others, rng.randint(*N_OTHER_ANIMALS))
    animals = [organism(world, "animal", n, life["animals"][n], room.temp) for n in names]
    for a in rng.sample(animals, len(animals)):
        world.place(a, room)
    world.growers = animals
    target = animals[0]
    add_agent(world, start)
    settle(world, flags.open_doors, flags.open_containers)
    n_stages = len(target.stages)
    on_focus, saw = _stage_rules(lambda t: t.stage if t is target else None)
    return Episode(
        world=world, description=say("task_life_stages_animal", n=n_stages, name=name),
        required=[saw(k) for k in range(n_stages)],
        optional=_visit_goals(world, start),
        on_focus=on_focus,
        failure=lambda ep: target.parent is None,
        hints={"room": room, "order": [target] * n_stages},
    )


def _setup_plant(spec: TaskSpec, variation: int, flags: Flags, layout: Layout) -> Episode:
    life = load("life")
    name = life["identify_plants"][variation]
    rng = rng_for(spec.name, variation)
    start = start_room(spec.name, variation)
    world = build_house(rng, layout, required={start, OUTSIDE}, variation=variation)
    room = world.rooms[OUTSIDE]
    stages = life["plant_stages"]
    plants = [organism(world, "plant", name, stages, room.temp, stage=k, names="tree_stage_names") for k in range(len(stages))]
    # ScienceWorld's pots: numbered, watering themselves, and one more holding a dead tree; its
    # trees grow on through their stages at their own pace, the young ones' water still in the pot
    world.growers = plants
    world.plant_stage_ticks = tuple(life["tree_stage_ticks"])
    for number, stage, self_watering in scienceworld_draw("stage_pots", spec.name, variation):
        pot = numbered_pots(world, room, 1, [number], SELF_WATERING_POT if self_watering else "flower pot")[0]
        world.place(pot, room)
        world.place(make_substance(world, "soil", room.temp), pot)
        if stage == DEAD:
            plant = organism(world, "plant", name, [DEAD], room.temp, names="tree_stage_names")
            plant.alive = False
        else:
            plant = plants[stages.index(stage)]
        world.place(plant, pot)
        if stage == DEAD or stages.index(stage) < DRINKS_AT:
            world.place(make_substance(world, "water", room.temp), pot)
    add_agent(world, start)
    settle(world, flags.open_doors, flags.open_containers)
    on_focus, saw = _stage_rules(lambda t: t.stage if t in plants else None)
    return Episode(
        world=world, description=say("task_life_stages_plant", name=name, room=OUTSIDE),
        required=[saw(k) for k in range(len(stages))],
        optional=_visit_goals(world, start, excused=False),
        on_focus=on_focus,
        failure=lambda ep: any(p.parent is None for p in plants),
        hints={"room": room, "order": plants},
    )


def oracle(env):
    """Go to the organisms; focus on each stage in turn, on the youngest one standing at that stage
    (waiting, when none is, for one to grow into it: the trees grow on as the animal does)."""
    h = env.episode.hints
    yield from go_to(env, h["room"])
    kin = list(dict.fromkeys(h["order"]))
    for k in range(len(h["order"])):
        yield from wait_until(env, lambda: any(t.stage == k for t in kin))
        if env.finished:
            return
        thing = min((t for t in kin if t.stage == k), key=lambda t: t.age)
        yield from visit(env, thing)
        yield command("focus", env.canon(thing))


SPECS = [
    TaskSpec("identify-life-stages-1", TOPIC, 14, _setup_animal, oracle),
    TaskSpec("identify-life-stages-2", TOPIC, 10, _setup_plant, oracle),
]
