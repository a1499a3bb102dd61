"""Topic 4, classification: find a living thing, a non-living thing, a plant, an animal (with oracles).
Variation k holds ScienceWorld's answer box (its colour and room), start room, and the animals and
potted plants its variation k places outside and in the greenhouse."""

from __future__ import annotations

from racbench.worlds.science import naming
from racbench.worlds.science.naming import command
from racbench.worlds.science.data import load
from racbench.worlds.science.house import Layout, add_agent, make, make_substance, settle
from racbench.worlds.science.life import SOIL, found_plant, organism
from racbench.worlds.science.text import say
from racbench.worlds.science.world import BEE, THING
from racbench.worlds.science.tasks.base import Episode, Flags, TaskSpec, scienceworld_facts
from racbench.worlds.science.tasks.common import by_open_door, deliver, in_room, left, route, task_house, visit

CATEGORIES = {
    "living": lambda t: t.living is not None and t.alive,
    "non-living": lambda t: t.kind == THING and t.living is None,   # ScienceWorld takes air too
    "plant": lambda t: t.living == "plant" and t.alive,
    "animal": lambda t: t.living == "animal" and t.alive,
}


def _living_things(world, task: str, variation: int) -> None:
    """ScienceWorld's animals outside (at their first life stage) and flower pots in the
    greenhouse (some holding a plant in soil), as its variation holds them (data/science/houses.json)."""
    life = load("life")
    animals, pots = load("houses")[task][variation]
    outside, greenhouse = world.rooms.get("outside"), world.rooms.get("greenhouse")
    for name, stage in animals if outside is not None else ():
        stages = life["animals"][name]
        world.place(organism(world, "animal", name, stages, outside.temp, stage=stages.index(stage)), outside)
    for number, plant in pots if greenhouse is not None else ():
        pot = make(world, "flower pot", name=naming.twin("flower pot", number), temp=greenhouse.temp)
        world.place(pot, greenhouse)
        if plant is not None:
            world.place(make_substance(world, SOIL, greenhouse.temp), pot)
            world.place(found_plant(world, *plant, greenhouse.temp), pot)


def _setup(spec: TaskSpec, variation: int, flags: Flags, layout: Layout, category: str) -> Episode:
    color, box_room = scienceworld_facts(spec.name, variation)
    world, rng, start = task_house(spec, variation, layout, {box_room, "outside", "greenhouse", "kitchen"})
    _living_things(world, spec.name, variation)
    box = make(world, "box", name=naming.box(color), color=color, temp=world.rooms[box_room].temp)
    world.place(box, world.rooms[box_room])
    add_agent(world, start)
    settle(world, flags.open_doors, flags.open_containers)
    member = CATEGORIES[category]

    def chosen(ep):
        """The thing the first accepted focus chose, or None (kept in the episode's
        `memory`, so that a saved episode restores it)."""
        return ep.memory.get("chosen")

    def on_focus(ep, thing):
        if chosen(ep) is None and member(thing) and (thing.portable or thing.movable) and thing is not box:
            ep.memory["chosen"] = thing                # it must go into the box
            return True
        if category == "non-living":
            # as in ScienceWorld, only a living thing fails this task; a focus on a thing that
            # cannot be carried, or on a second thing, passes without credit
            return not CATEGORIES["living"](thing)
        return thing is chosen(ep)

    def in_box(ep):
        return chosen(ep) is not None and world.inside(chosen(ep), box)

    return Episode(
        world=world, description=say("task_find", category=category, box=box.name, room=box_room),
        required=[lambda ep: chosen(ep) is not None, in_box],
        optional=[lambda ep: chosen(ep) is not None and world.inside(chosen(ep), world.agent),
                  by_open_door(world), left(world, start), in_room(world, box_room)],
        on_focus=on_focus,
        failure=lambda ep: chosen(ep) is not None and chosen(ep).parent is None,
        hints={"box": box, "member": member},
    )


def _pick_target(env, member, box):
    """The closest candidate by door distance, then by the order things are seen."""
    world = env.world
    here = world.agent_room()
    best = None
    for room in world.rooms.values():
        dist = len(route(world, here, room)) if room is not here else 0
        for t in world.subtree(room)[1:]:
            if t is box or not t.portable or not member(t) or world.inside(t, world.agent):
                continue
            if t.is_substance or t.base == BEE:   # a loose thing that stays put: not the air, not a bee
                continue
            key = (dist, t.uid)
            if best is None or key < best[0]:
                best = (key, t)
    return best[1]


def oracle(env):
    ep = env.episode
    box = ep.hints["box"]
    target = _pick_target(env, ep.hints["member"], box)
    yield from visit(env, target)
    yield command("focus", env.canon(target))
    pot = target.parent
    yield from deliver(env, pot if target.living == "plant" and pot.portable else target, box)   # a plant in its pot


def _spec(name, category) -> TaskSpec:
    return TaskSpec(name, "classification", 300,
                    lambda spec, v, f, lay: _setup(spec, v, f, lay, category), oracle)


SPECS = [
    _spec("find-living-thing", "living"),
    _spec("find-non-living-thing", "non-living"),
    _spec("find-plant", "plant"),
    _spec("find-animal", "animal"),
]
