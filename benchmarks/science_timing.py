"""The lab's clock against ScienceWorld's: how many actions after the same start a change takes.

Each probe plays a start sequence, then one action per tick (a thermometer reading, a look at a
pot, a wait) until the change shows: the task's score reaching a mark (water boiled, frozen, ice
melted, the seed in its next stage, the bulb lit) or a name appearing in the room (the hatchling).
It prints the count for racbench's lab and the count recorded from ScienceWorld 1.2.3 by the same
sequence; with --scienceworld (the `scienceworld` extra, Java 17) it plays ScienceWorld live too.
ScienceWorld's own counts for the blast furnace (5 or 6) and the bulb (0 or 1) differ from run to
run of it; the recorded ones are the first seen.

    python benchmarks/science_timing.py [--probes boil-on-stove,freeze-in-freezer] [--scienceworld]
"""

from __future__ import annotations

import argparse
import re
import sys
import time

from racbench.worlds.science import ScienceEnv

TO_KITCHEN_WITH_WATER = ["teleport to kitchen", "pick up thermometer", "pick up metal pot",
                         "move metal pot to sink", "activate sink", "deactivate sink", "pick up metal pot",
                         "focus on water"]
FROZEN = TO_KITCHEN_WITH_WATER + ["move metal pot to freezer"] + ["wait1"] * 22 + ["pick up metal pot"]
GROW = ["open door to kitchen", "go to kitchen", "focus on apple seed", "pick up seed jar",
        "open door to outside", "go to outside", "open door to greenhouse", "go to greenhouse",
        "move apple seed to flower pot 1", "move flower pot 1 to sink", "activate sink"]
WIRED = ["open door to workshop", "go to workshop", "focus on red light bulb",
         "connect battery anode to black wire terminal 1",
         "connect black wire terminal 2 to red light bulb cathode",
         "connect red light bulb anode to blue wire terminal 1",
         "connect blue wire terminal 2 to battery cathode"]
WALK_OUT = ["open door to greenhouse", "go to greenhouse", "open door to outside", "go to outside"]
TO_FOUNDRY_WITH_CAESIUM = ["open door to kitchen", "go to kitchen", "open cupboard", "pick up metal pot",
                           "open door to hallway", "go to hallway", "open door to workshop", "go to workshop",
                           "focus on caesium", "move caesium to metal pot", "go to hallway", "go to kitchen",
                           "go to outside", "open door to foundry", "go to foundry", "open blast furnace",
                           "move metal pot to blast furnace", "activate blast furnace"]
TREES_FROM_ART_STUDIO = ["open door to kitchen", "go to kitchen", "open door to outside", "go to outside"]
TELEPORT = "teleportAction,openContainers,openDoors"

# name: (task, variation, simplifications, start, action each tick, until, ScienceWorld's count)
# until is ("score", mark) on ScienceWorld's 0-100 scale, ("sees", words after a look around) or
# ("count", words, n): the words exactly n times in a look around (a stage the potted trees leave),
# or ("at most", degrees): the tick's thermometer reading that low (a fridge, which freezes nothing);
# the recorded counts were read from ScienceWorld 1.2.3 with these very sequences.
PROBES = {
    "boil-on-stove": ("boil", 0, TELEPORT, TO_KITCHEN_WITH_WATER + ["move metal pot to stove", "activate stove"],
                      "use thermometer on water", ("score", 100), 20),
    "freeze-in-freezer": ("freeze", 0, TELEPORT, TO_KITCHEN_WITH_WATER + ["move metal pot to freezer"],
                          "use thermometer on water", ("score", 100), 20),
    "ice-melts-on-counter": ("melt", 0, TELEPORT, FROZEN + ["move metal pot to counter"],
                             "use thermometer on ice", ("score", 100), 30),
    "ice-melts-on-stove": ("melt", 0, TELEPORT, FROZEN + ["move metal pot to stove", "activate stove"],
                           "use thermometer on ice", ("score", 100), 3),
    "caesium-boils-in-blast-furnace": ("boil", 29, "", TO_FOUNDRY_WITH_CAESIUM, "wait1", ("score", 100), 6),
    "seed-to-seedling": ("grow-plant", 0, "", GROW, "look at flower pot 1", ("score", 60), 9),
    "seed-to-adult": ("grow-plant", 0, "", GROW, "look at flower pot 1", ("score", 85), 19),
    "seed-to-reproducing": ("grow-plant", 0, "", GROW, "look at flower pot 1", ("score", 100), 24),
    "egg-to-hatchling": ("identify-life-stages-1", 0, "", WALK_OUT, "wait1", ("sees", "hatchling turtle"), 8),
    "hatchling-to-juvenile": ("identify-life-stages-1", 0, "", WALK_OUT, "wait1", ("sees", "juvenile turtle"), 18),
    "egg-to-hatchling-teleported": ("identify-life-stages-1", 8, "teleportAction", ["teleport to outside"],
                                    "wait1", ("sees", "hatchling blue jay"), 10),
    "tree-seed-to-seedling": ("identify-life-stages-2", 0, "", TREES_FROM_ART_STUDIO, "wait1",
                              ("count", "apple seed", 0), 3),
    "tree-adult-to-reproducing": ("identify-life-stages-2", 0, "", TREES_FROM_ART_STUDIO, "wait1",
                                  ("count", "reproducing stage", 2), 1),
    "tree-seedling-to-reproducing": ("identify-life-stages-2", 0, "", TREES_FROM_ART_STUDIO, "wait1",
                                     ("count", "reproducing stage", 3), 6),
    "tree-seed-to-reproducing": ("identify-life-stages-2", 0, "", TREES_FROM_ART_STUDIO, "wait1",
                                 ("count", "reproducing stage", 4), 11),
    "boil-in-oven": ("boil", 0, TELEPORT, TO_KITCHEN_WITH_WATER + ["move metal pot to oven", "activate oven"],
                     "use thermometer on water", ("score", 100), 10),
    "fridge-cools-water-to-5": ("boil", 0, TELEPORT, TO_KITCHEN_WITH_WATER + ["move metal pot to fridge"],
                                "use thermometer on water", ("at most", 5), 33),
    "freeze-in-ultra-low-freezer": ("freeze", 0, TELEPORT, TO_KITCHEN_WITH_WATER + [
        "teleport to workshop", "move metal pot to ultra low temperature freezer"],
        "use thermometer on water", ("score", 100), 7),
    "boil-on-fire-pit": ("boil", 0, TELEPORT, TO_KITCHEN_WITH_WATER + [
        "pick up lighter", "teleport to outside", "move wood to fire pit", "use lighter on wood",
        "move metal pot to fire pit"], "use thermometer on water", ("score", 100), 16),
    "bulb-lights-after-wiring": ("power-component", 0, "", WIRED, "wait1", ("score", 100), 1),
}


def count(step, look, probe, limit: int = 200) -> int | None:
    """Actions after the start until the change shows (None within `limit`)."""
    _task, _v, _simp, start, each, (kind, goal, *times), _ = probe
    score = 0
    for a in start:
        score, _ = step(a)
    if kind == "score" and score >= goal:       # done before the first tick's action
        return 0
    for n in range(1, limit + 1):
        score, obs = step(each)
        if kind == "score":
            reached = score >= goal
        elif kind == "at most":
            reading = re.search(r"(-?\d+) degrees", obs)
            reached = reading is not None and int(reading.group(1)) <= goal
        else:
            reached = look().count(goal) == times[0] if times else goal in look()
        if reached:
            return n
    return None


def ours(probe) -> int | None:
    task, v, simp = probe[:3]
    env = ScienceEnv(task, v, simplifications=simp)
    env.reset()

    def step(a):
        if env.finished:
            return 100, ""
        obs, _, _, _, info = env.step(a)
        if env.pending:            # several things fit: take the first, as ScienceWorld's agents do
            obs, _, _, _, info = env.step("0")
        return info["scienceworld_score"], obs
    return count(step, env.look, probe)


def theirs(sw, probe) -> int | None:
    task, v, simp = probe[:3]
    sw.load(task, v, simp)
    sw.reset()
    last = {"score": 0}

    def step(a):
        obs, _, done, info = sw.step(a)
        if obs.startswith("Ambiguous request"):
            obs, _, done, info = sw.step("0")
        last["score"] = info["score"]
        return info["score"], obs

    def look():
        return sw.step("look around")[0]     # no time passes in ScienceWorld (nor here)
    return count(step, look, probe)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--probes", default="", help="comma-separated probes (default: all)")
    ap.add_argument("--scienceworld", action="store_true", help="also play them in an installed ScienceWorld")
    args = ap.parse_args(argv)
    names = [p for p in args.probes.split(",") if p] or list(PROBES)
    unknown = [p for p in names if p not in PROBES]
    if unknown:
        print(f"--probes: unknown {', '.join(unknown)}; accepted: {', '.join(PROBES)}", file=sys.stderr)
        return 2
    sw = None
    if args.scienceworld:
        try:
            from scienceworld import ScienceWorldEnv   # the reference: an optional extra, only here
        except ImportError:
            print("ScienceWorld is not installed: pip install 'racbench[scienceworld]' (and Java 17)", file=sys.stderr)
            return 2
        sw = ScienceWorldEnv("", envStepLimit=1000)
    print(f"{'probe':31} {'racbench':>8} {'ScienceWorld (recorded)':>24}" + (f" {'(live)':>7}" if sw else ""))
    start = time.process_time()
    off = 0
    for name in names:
        probe = PROBES[name]
        n = ours(probe)
        off += n != probe[-1]
        live = f" {theirs(sw, probe)!s:>7}" if sw else ""
        print(f"{name:31} {n!s:>8} {probe[-1]:>24}{live}")
    print(f"{off} of {len(names)} probes differ from ScienceWorld's count; "
          f"{time.process_time() - start:.2f} s CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
