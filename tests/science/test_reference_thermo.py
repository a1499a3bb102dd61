"""racbench's heat and cold against ScienceWorld itself (the `scienceworld` extra, Java 17).

The same action sequences are played in both worlds, then one action a tick; after every tick the
temperatures and states of matter of the things watched are read, ScienceWorld's off its object
tree, ours off the world, and must agree (the rules these follow are in the science README's
"Timing against ScienceWorld's"). The matter tasks' draws that decide where heat goes (broken
devices, where the substance starts and at what temperature) are compared too.
"""

from __future__ import annotations

import pytest

scienceworld = pytest.importorskip("scienceworld")

from racbench.worlds.science import ScienceEnv  # noqa: E402
from racbench.worlds.science.tasks.base import scienceworld_facts  # noqa: E402
from scienceworld_env import reference_env  # noqa: E402

TELEPORT = "teleportAction,openContainers,openDoors"
WATER = ["teleport to kitchen", "pick up thermometer", "pick up metal pot", "move metal pot to sink",
         "activate sink", "deactivate sink", "pick up metal pot", "focus on water"]
FROZEN = WATER + ["move metal pot to freezer"] + ["wait1"] * 11 + ["pick up metal pot"]
# name: (task, variation, start, action each tick, ticks, [(thing, the thing holding it)], tolerance
# in degrees). Heating is watched in a freezing task and cooling in a boiling one, so that no
# episode ends on the way. The worlds agree to the hundredth where only containers and what
# they hold take part, and by tenths of a degree beside a few things: ScienceWorld's order among
# things side by side changes from run to run (a hot pot dropped among the kitchen's furniture,
# or set beside burning wood, reads degrees apart from one run of it to the next), and its
# potato and stopwatch take no heat where ours do.
SEQUENCES = {
    "water on the lit stove boils": ("freeze", 0, WATER + ["move metal pot to stove", "activate stove"],
                                     "look at stove", 30, [("metal pot", "stove"), ("water", "metal pot")], 0.05),
    "water in the lit oven": ("freeze", 0, WATER + ["move metal pot to oven", "activate oven"],
                              "look at oven", 20, [("metal pot", "oven"), ("water", "metal pot")], 0.05),
    "water in the freezer freezes": ("boil", 0, WATER + ["move metal pot to freezer"], "look at freezer", 30,
                                     [("metal pot", "freezer"), ("water", "metal pot")], 0.05),
    "water in the ultra low freezer": ("boil", 0, WATER + ["teleport to workshop",
                                                          "move metal pot to ultra low temperature freezer"],
                                       "look at ultra low temperature freezer", 12,
                                       [("metal pot", "ultra low temperature freezer"), ("water", "metal pot")], 0.05),
    "water in the fridge beside a cup of orange juice": (
        "boil", 0, WATER + ["move metal pot to fridge"], "look at fridge", 12,
        [("metal pot", "fridge"), ("water", "metal pot")], 0.3),
    "ice warms on the counter beside a bowl and a drawer": (
        "boil", 0, FROZEN + ["move metal pot to counter"], "look at counter", 15,
        [("metal pot", "counter"), ("water", "metal pot"), ("bowl", "counter")], 0.5),
}


def _sw_tree_things(node, holder=None):
    for child in node.get("contents", {}).values():
        yield child, holder
        yield from _sw_tree_things(child, child["name"])


def _sw_reading(sw, name: str, holder: str):
    """(temperature, state) of the thing called `name` held by `holder` in ScienceWorld (the agent's
    inventory counts as the agent)."""
    for thing, held_by in _sw_tree_things(sw.getObjectTree()):   # 1.2.3 has no snake_case name for it
        held_by = "agent" if held_by == "inventory" else held_by
        mat = thing.get("propMaterial")
        if mat and held_by == holder and (thing["name"] == name or mat["substanceName"] == name):
            return mat["temperatureC"], mat["stateOfMatter"]
    raise AssertionError(f"ScienceWorld has no {name} in the {holder}")


def _our_reading(env, name: str, holder: str):
    for t in env.world.things:
        p = t.parent
        if p is not None and p.name == holder and (t.base == name or t.mat.name == name):
            return t.temp, t.state
    raise AssertionError(f"racbench has no {name} in the {holder}")


def _step_sw(sw, action: str) -> None:
    obs, *_ = sw.step(action)
    if obs.startswith("Ambiguous request"):
        sw.step("0")


def _step_ours(env, action: str) -> None:
    env.step(action)
    if env.pending:       # several things fit: the first, as ScienceWorld's agents answer
        env.step("0")


@pytest.fixture(scope="module")
def sw():
    env = reference_env(300)  # ScienceWorld's, its steps' valid-action lists not fetched
    yield env
    env.close()


@pytest.mark.parametrize("name", sorted(SEQUENCES))
def test_temperatures_follow_scienceworlds_tick_by_tick(sw, name):
    task, variation, start, each, ticks, watched, tolerance = SEQUENCES[name]
    sw.load(task, variation, TELEPORT)
    sw.reset()
    env = ScienceEnv(task, variation, simplifications=TELEPORT)
    env.reset()
    for action in start:
        _step_sw(sw, action)
        _step_ours(env, action)
    for tick in range(ticks + 1):
        if tick:
            _step_sw(sw, each)
            _step_ours(env, each)
        for thing, holder in watched:
            theirs, their_state = _sw_reading(sw, thing, holder)
            ours, our_state = _our_reading(env, thing, holder)
            assert abs(ours - theirs) <= tolerance, (name, tick, thing, ours, theirs)
            if their_state in ("solid", "liquid", "gas"):   # ScienceWorld settles a state at its next tick
                assert our_state == their_state or tick == 0, (name, tick, thing, our_state, their_state)


def test_matter_tasks_break_place_and_start_their_substances_as_scienceworld_does(sw):
    """Every variation of boil (freeze, melt and change-the-state draw alike on a sample): the kitchen
    devices that are broken, and the holder and starting temperature of the named substance."""
    sample = [("boil", v) for v in range(30)] + [(t, v) for t in ("melt", "freeze", "change-the-state-of-matter-of")
                                                 for v in (3, 13, 14, 16, 17)]
    for task, v in sample:
        sw.load(task, v, "")
        tree = list(_sw_tree_things(sw.getObjectTree()))
        theirs_broken = sorted(t["name"] for t, holder in tree
                               if holder == "kitchen" and (t.get("propDevice") or {}).get("isBroken"))
        env = ScienceEnv(task, v)
        env.reset()
        world = env.world
        ours_broken = sorted(t.base for t in world.rooms["kitchen"].contents if t.broken)
        assert ours_broken == theirs_broken, (task, v)
        name = scienceworld_facts(task, v)
        sub = env.episode.hints["substance"]
        if sub is None:      # water, from a tap
            continue
        material = sub.mat.name
        found = [(holder, t["propMaterial"]["temperatureC"]) for t, holder in tree
                 if (t.get("propMaterial") or {}).get("substanceName") == material
                 and holder not in ("kitchen", "toilet")]     # the house's own soap; the toilet's water
        assert (sub.parent.base if sub.parent.kind == "thing" else sub.parent.name, sub.temp) in found, (task, v, name)
