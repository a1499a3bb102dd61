"""Topic 6, chemistry: make a substance by mixing what a recipe lists (chemistry-mix), or mix
primary paints into a secondary colour, then a tertiary one (chemistry-mix-paint-*)."""

from __future__ import annotations

from racbench.worlds.science.chemistry import RECIPES, ingredient
from racbench.worlds.science.data import load
from racbench.worlds.science.house import Layout, add_agent, furnish_after, furniture, make, make_substance, settle
from racbench.worlds.science.naming import command
from racbench.worlds.science.plumbing import WATER
from racbench.worlds.science.world import moves_with_its_vessel
from racbench.worlds.science.text import say
from racbench.worlds.science.tasks.base import Episode, Flags, TaskSpec
from racbench.worlds.science.tasks.common import deliver, fetch, go_to, in_agent_room, in_room, left, task_house, visit

ART_STUDIO = "art studio"


def _paint_cups(holder):
    """The house's cups of paint standing in `holder` (the art studio, its large cupboard)."""
    return [c for c in holder.contents if c.base == "wood cup" and any(x.is_substance for x in c.contents)]


def _made(world, name):
    """The first thing in the house made of `name` (a product of mixing), or None."""
    for t in world.things:
        if t.parent is not None and ingredient(t) == name:
            return t
    return None


def _near(world, name):
    """The agent is in a room that holds `name` (ScienceWorld's 'be in same location as')."""
    return in_agent_room(world, lambda t: ingredient(t) == name)


def _alone(world, names):
    """Some container holds exactly the ingredients `names`, nothing else."""
    wanted = sorted(names)
    return lambda ep: any(t.container and sorted(ingredient(c) for c in t.contents) == wanted
                          for t in world.things if t.parent is not None)


# ---- chemistry-mix ------------------------------------------------------------------------------
def _setup_mix(spec: TaskSpec, variation: int, flags: Flags, layout: Layout) -> Episode:
    table = load("chemistry")
    product, room_name = table["mix_variations"][variation]
    needs = RECIPES[product]
    world, rng, start = task_house(spec, variation, layout, {room_name, "kitchen", ART_STUDIO})
    room = world.rooms[room_name]
    # as in ScienceWorld, the recipe and the missing ingredients lie on the room's floor, and the
    # mixing is done in a cup of the kitchen's (no cup is added)
    recipe = make(world, "recipe", temp=room.temp)
    recipe.readable = ("recipe", product)
    world.place(recipe, room)
    vessels = load("tasks")["substance_vessels"]
    vessel = next(t for t in world.subtree(world.rooms["kitchen"])
                  if t.base in vessels and t.portable and not t.contents)
    here = world.subtree(room)
    for name in needs:
        if name == WATER or name in table["primaries"] or any(ingredient(t) == name for t in here):
            continue                       # from a tap, the art studio's cups of paint, or the house's own
        if name in table["liquids"]:      # a puddle of it on the floor, as ScienceWorld has it
            world.place(make_substance(world, name, room.temp), room)
        else:
            world.place(make(world, name, temp=room.temp), room)
    add_agent(world, start)
    settle(world, flags.open_doors, flags.open_containers)

    def on_focus(ep, thing):
        if ingredient(thing) == product:
            ep.memory["focused"] = True
            return True
        return False

    return Episode(
        world=world, description=say("task_chemistry_mix", product=product, room=room_name),
        # as in ScienceWorld, the focus on the product alone is required; the rest is partial credit
        required=[lambda ep: ep.memory.get("focused", False)],
        optional=[left(world, start), *(_near(world, n) for n in needs), _alone(world, needs), _near(world, product),
                  lambda ep: ep.did("read", recipe)],
        on_focus=on_focus,
        hints={"product": product, "recipe": recipe, "vessel": vessel, "needs": needs},
    )


def _add_to(env, vessel, name):
    """Get one ingredient into `vessel` (carried): a thing (or a liquid lying on the floor) moved
    in, a liquid poured from its cup or jar, water from the nearest tap."""
    world = env.world
    if name == WATER:
        tap = min(world.taps, key=lambda t: (world.room_of(t) is not world.agent_room(), t.uid))
        yield from visit(env, tap)
        yield command("move", env.canon(vessel), env.canon(tap))
        yield command("activate", env.canon(tap))
        yield command("deactivate", env.canon(tap))
        yield command("pick_up", env.canon(vessel))
        return
    thing = next(t for t in world.things if t.parent is not None and ingredient(t) == name
                 and not world.inside(t, vessel))
    if moves_with_its_vessel(thing):
        source = thing.parent
        yield from visit(env, thing)          # a closed jar is opened before pouring from it
        yield command("pour", env.canon(source), env.canon(vessel))
    else:
        yield from deliver(env, thing, vessel)


def _oracle_mix(env):
    """Read the recipe, carry a cup, put each ingredient in it (water last), mix, focus."""
    h = env.episode.hints
    yield from fetch(env, h["recipe"])
    yield command("read", env.canon(h["recipe"]))
    yield from fetch(env, h["vessel"])
    for name in sorted(h["needs"], key=lambda n: n == WATER):
        yield from _add_to(env, h["vessel"], name)
    yield command("mix", env.canon(h["vessel"]))
    yield command("focus", env.canon(_made(env.world, h["product"])))


# ---- paints -------------------------------------------------------------------------------------
def _setup_paint(spec: TaskSpec, variation: int, flags: Flags, layout: Layout, tertiary: bool) -> Episode:
    table = load("chemistry")
    if tertiary:
        goal = table["tertiary"][variation // 6]
        secondary, extra = RECIPES[goal]
    else:
        goal = secondary = table["secondary"][variation // 12]
        extra = None
    world, rng, start = task_house(spec, variation, layout, {ART_STUDIO})
    room = world.rooms[ART_STUDIO]
    vessel = furniture(world, ART_STUDIO, "table").contents[0]   # a bowl, a jug or a glass cup, as the house draws
    cups = _paint_cups(room)
    spare = _paint_cups(furniture(world, ART_STUDIO, "large cupboard"))
    cupboard = table["paint_cupboard"]
    with_cupboard = variation % cupboard["every"] == 0
    if with_cupboard:   # its empty cups hold no paint: the spare paints stay in the large cupboard
        furnish_after(world, cupboard, ART_STUDIO, "large cupboard")
    add_agent(world, start)
    settle(world, flags.open_doors, flags.open_containers)
    steps = [secondary, goal] if tertiary else [goal]

    def on_focus(ep, thing):
        """The paints of the task, in order: the secondary colour first (tertiary task)."""
        done = ep.memory.get("focused", 0)
        name = ingredient(thing)
        if name in steps[:done]:
            return True
        if done < len(steps) and name == steps[done]:
            ep.memory["focused"] = done + 1
            return True
        return False

    # a paint focused on, in order (focusing needs the paint made), as ScienceWorld's goals are
    required = [(lambda n: lambda ep: ep.memory.get("focused", 0) >= n)(k + 1) for k in range(len(steps))]
    # the tertiary task's 'location of the paint' is, in ScienceWorld, the art studio in the first
    # half of each block of variations and the workshop in the second (its goal progress on all
    # 36): being there is credited, and leaving the start room too, from the start when it is there
    if tertiary:
        where = table["paint_location"][variation % len(table["paint_location"])]
        optional = [left(world, start, where), in_room(world, where)]
    else:
        optional = [left(world, start)]
    for k, paint in enumerate(steps):
        parts = RECIPES[paint]
        goals = [*(_near(world, p) for p in parts), _alone(world, parts), _near(world, paint)]
        if k > 0:   # the tertiary colour's goals count once the agent has been near the secondary
            gate = len(optional) - 1
            goals = [(lambda g: lambda ep: ep.opt_done[gate] and g(ep))(g) for g in goals]
        optional += goals
    description = (say("task_paint_tertiary", paint=goal, secondary=steps[0]) if tertiary else say("task_paint_secondary", paint=goal))
    return Episode(
        world=world, description=description, required=required,
        optional=optional,
        on_focus=on_focus,
        hints={"vessel": vessel, "cups": cups, "spare": spare, "steps": steps, "extra": extra},
    )


def _pour_paint(env, cups, paint, vessel):
    cup = next(c for c in cups if any(ingredient(x) == paint for x in c.contents))
    yield from visit(env, cup)
    yield command("pour", env.canon(cup), env.canon(vessel))


def _oracle_paint(env):
    """Pour two primaries into the mixing vessel, mix, focus; for a tertiary colour pour a third
    primary from the cupboard's cups onto the secondary, mix and focus again."""
    h = env.episode.hints
    vessel, steps = h["vessel"], h["steps"]
    yield from go_to(env, env.world.room_of(vessel))
    for paint in RECIPES[steps[0]]:
        yield from _pour_paint(env, h["cups"], paint, vessel)
    yield command("mix", env.canon(vessel))
    yield command("focus", env.canon(_made(env.world, steps[0])))
    if h["extra"] is not None:
        yield from _pour_paint(env, h["spare"], h["extra"], vessel)
        yield command("mix", env.canon(vessel))
        yield command("focus", env.canon(_made(env.world, steps[1])))


SPECS = [
    TaskSpec("chemistry-mix", "chemistry", 32, _setup_mix, _oracle_mix),
    TaskSpec("chemistry-mix-paint-secondary-color", "chemistry", 36,
             lambda s, v, f, lay: _setup_paint(s, v, f, lay, False), _oracle_paint),
    TaskSpec("chemistry-mix-paint-tertiary-color", "chemistry", 36,
             lambda s, v, f, lay: _setup_paint(s, v, f, lay, True), _oracle_paint),
]
