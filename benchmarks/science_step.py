"""What one step of the science lab costs: the simulator's own step, and what the callers
ask of it after each (the scope a command is read in, the valid actions, the look and the
inventory, saving the state and loading it back), in CPU time on one core.

Each sampled variation's gold commands are typed in a fresh environment; after every
command the script asks what imitation rows ask (valid actions, look, inventory) and what
the lab's surveys do (save the state, then load it back), timing each kind of call
apart. Run it against two checkouts (PYTHONPATH) to compare before and after:

    python benchmarks/science_step.py [--tasks boil,melt] [--every 10] [--settings ,easy]

Measured on a shared 2-core machine (CPU time, all tasks, every 25th variation, '' and
'easy': 600 trajectories, 20,137 steps), before the fast paths (save and load of the
things written since, world.Tracked; one scope and valid-action list per view,
scope.view_key; texts kept by what they show, describe._said; names kept per what they
depend on) and after:

    call             before (us)   after (us)
    step                  96           77
    scope                101           68
    valid actions        106           50
    look                  87           54
    inventory             17            7
    save                 158           21
    load                 105           14
    all, steps/s       1,433        3,058

It prints steps/s (the step alone, as `act`), scopes/s (what is in view and its names,
worked out once a state), valid-action listings/s, looks/s,
inventories/s, saves/s and loads/s, their share of the time, and steps/s with all of them.
"""

from __future__ import annotations

import argparse
import time

from racbench.tasks.gold_trajectories import gold_items
from racbench.worlds.science import ScienceEnv
from racbench.worlds.science.trajectory import gold_trajectory

KINDS = ("step", "scope", "valid actions", "look", "inventory", "save", "load")


def play(item, commands, spent: dict, counts: dict) -> None:
    clock = time.process_time
    env = ScienceEnv(*item)
    env.reset()
    for command in commands:
        t0 = clock()
        env.act(command)
        t1 = clock()
        env.scope
        ts = clock()
        env.valid_actions()
        t2 = clock()
        env.look()
        t3 = clock()
        env.inventory()
        t4 = clock()
        saved = env.save()
        t5 = clock()
        env.restore(saved)
        t6 = clock()
        for kind, a, b in zip(KINDS, (t0, t1, ts, t2, t3, t4, t5), (t1, ts, t2, t3, t4, t5, t6)):
            spent[kind] += b - a
            counts[kind] += 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", default="", help="comma-separated tasks (default: all)")
    ap.add_argument("--every", type=int, default=25, help="every k-th variation of each task")
    ap.add_argument("--settings", default=",easy", help="simplification settings, comma-separated")
    args = ap.parse_args(argv)
    tasks = [t for t in args.tasks.split(",") if t] or None
    items = [it for it in gold_items(tasks, tuple(args.settings.split(","))) if it[1] % args.every == 0]
    plays = [(item, [s["action"] for s in gold_trajectory(*item)]) for item in items]
    spent = dict.fromkeys(KINDS, 0.0)
    counts = dict.fromkeys(KINDS, 0)
    start = time.process_time()
    for item, commands in plays:
        play(item, commands, spent, counts)
    total = time.process_time() - start
    steps = counts["step"]
    print(f"{len(items)} gold trajectories, {steps} steps, {total:.2f} s CPU in all "
          f"(with resets: {steps / total:,.0f} steps/s asking everything after each)")
    for kind in KINDS:
        s = spent[kind]
        print(f"  {kind:14s} {counts[kind] / s:10,.0f} /s  {1e6 * s / counts[kind]:7.1f} us a call  "
              f"{100 * s / total:5.1f} % of the time")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
