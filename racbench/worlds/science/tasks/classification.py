"""Topic 4, classification: find a living thing, a non-living thing, a plant, an animal (with oracles).
Variation k holds ScienceWorld's answer box (its colour and room) and start room; living things
come from a train pool in train variations and a held-out pool otherwise."""

from __future__ import annotations

from racbench.worlds.science import naming
from racbench.worlds.science.naming import command
from racbench.worlds.science.data import load
from racbench.worlds.science.house import Layout, add_agent, build_house, make, rng_for, settle
from racbench.worlds.science.text import say
from racbench.worlds.science.world import THING
from racbench.worlds.science.tasks.base import Episode, Flags, TaskSpec, scienceworld_facts, start_room
from racbench.worlds.science.tasks.common import deliver, route, visit

CATEGORIES = {
    "living": lambda t: t.living is not None and t.alive,
    "non-living": lambda t: t.kind == THING and t.living is None and not t.is_substance,
    "plant": lambda t: t.living == "plant" and t.alive,
    "animal": lambda t: t.living == "animal" and t.alive,
}


def _split_pool(items: list, held_out: bool) -> list:
    half = (len(items) + 1) // 2
    return items[half:] if held_out else items[:half]


def _setup(spec: TaskSpec, variation: int, flags: Flags, layout: Layout, category: str) -> Episode:
    vocab = load("vocab")
    rng = rng_for(spec.name, variation)
    train, _, _ = spec.split_counts()
    held_out = variation >= train
    color, box_room = scienceworld_facts(spec.name, variation)
    animals = rng.sample(_split_pool(vocab["animals"], held_out), rng.randint(2, 4))
    plants = rng.sample(_split_pool(vocab["plants"], held_out), rng.randint(1, 3))
    start = start_room(spec.name, variation)
    world = build_house(rng, layout, required={start, box_room, "outside", "greenhouse", "kitchen"},
                        animals=animals, plants=plants)
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
        if chosen(ep) is not None:
            return thing is chosen(ep)
        if member(thing) and thing.portable and thing is not box:   # it must go into the box
            ep.memory["chosen"] = thing
            return True
        return False

    def in_box(ep):
        return chosen(ep) is not None and world.inside(chosen(ep), box)

    return Episode(
        world=world, description=say("task_find", category=category, box=box.name, room=box_room),
        required=[lambda ep: chosen(ep) is not None, in_box],
        optional=[lambda ep: chosen(ep) is not None and chosen(ep).parent is world.agent,
                  lambda ep: chosen(ep) is not None and world.room_of(chosen(ep)).name == box_room],
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
            if t.is_substance and t.state != "solid":
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
    yield from deliver(env, target, box)


def _spec(name, category) -> TaskSpec:
    return TaskSpec(name, "classification", 300,
                    lambda spec, v, f, lay: _setup(spec, v, f, lay, category), oracle)


SPECS = [
    _spec("find-living-thing", "living"),
    _spec("find-non-living-thing", "non-living"),
    _spec("find-plant", "plant"),
    _spec("find-animal", "animal"),
]
