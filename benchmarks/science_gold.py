"""Speed of gold trajectories with valid actions listed at every step, over every variation of the
science tasks (or a sample with --quick), and which tasks the oracles solve everywhere.

Prints trajectories/s, steps/s, total wall time, peak memory (largest worker RSS, and
tracemalloc's peak for one sampled trajectory) and, per task, how many trajectories reached 1.0
and its steps/s on one core (steps over the CPU time its trajectories took, so other
processes sharing the machine do not lower it).

    python benchmarks/science_gold.py [--quick | --every K] [--tasks boil,melt] [--workers 2]
                                      [--simplifications easy | all]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import resource
import time
import tracemalloc

from racbench.worlds.science import TASKS, OracleError, gold_trajectory
from racbench.tasks.gold_trajectories import gold_items

ALL_SETTINGS = ("", "teleport", "openDoors", "openContainers", "noElectricalAction", "easy")


def _run(chunk):
    """(task, trajectories, steps, failures, seconds) rows for one chunk of items."""
    rows = {}
    for task, variation, simp in chunk:
        row = rows.setdefault(task, [task, 0, 0, 0, 0.0])
        row[1] += 1
        start = time.process_time()   # CPU time: other processes sharing the cores do not count
        try:
            row[2] += len(gold_trajectory(task, variation, simp, with_valid_actions=True))
        except OracleError:
            row[3] += 1
        row[4] += time.process_time() - start
    return list(rows.values())


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="every 20th variation of each task")
    ap.add_argument("--every", type=int, default=1, help="every k-th variation of each task")
    ap.add_argument("--tasks", default="", help="comma-separated tasks (default: all)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--simplifications", default="",
                    help="one setting such as 'easy' or 'teleport,openDoors'; 'all' runs the six settings")
    args = ap.parse_args(argv)
    settings = ALL_SETTINGS if args.simplifications == "all" else (args.simplifications,)
    tasks = [t for t in args.tasks.split(",") if t] or None
    items = gold_items(tasks, simplification_settings=settings)
    every = 20 if args.quick else args.every
    items = [it for it in items if it[1] % every == 0]
    chunks = [items[i:i + 25] for i in range(0, len(items), 25)]

    tracemalloc.start()
    gold_trajectory("test-conductivity", 0, settings[0], with_valid_actions=True)
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    start = time.perf_counter()
    if args.workers > 1:
        with mp.get_context("fork").Pool(args.workers) as pool:
            results = pool.map(_run, chunks, chunksize=1)
    else:
        results = [_run(c) for c in chunks]
    elapsed = time.perf_counter() - start
    per_task = {name: [0, 0, 0, 0.0] for name in TASKS}
    for rows in results:
        for task, n, steps, failed, seconds in rows:
            for i, x in enumerate((n, steps, failed, seconds)):
                per_task[task][i] += x
    n_traj = sum(v[0] for v in per_task.values())
    n_steps = sum(v[1] for v in per_task.values())
    rss_self = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rss_children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"settings: {', '.join(repr(s) for s in settings)}  workers: {args.workers}")
    for task, (n, steps, failed, seconds) in per_task.items():
        if n:
            print(f"  {task:50s} {n - failed:5d}/{n:<5d} reach 1.0   {steps / n:6.1f} steps each"
                  f"   {steps / seconds:6.0f} steps/s on one core")
    print(f"trajectories: {n_traj}  steps: {n_steps}")
    print(f"trajectories/s: {n_traj / elapsed:.1f}")
    print(f"steps/s (valid actions listed every step): {n_steps / elapsed:.0f}")
    print(f"total time: {elapsed:.1f} s")
    print(f"peak RSS: {max(rss_self, rss_children):.0f} MiB  (parent {rss_self:.0f}, largest worker {rss_children:.0f})")
    print(f"tracemalloc peak for one trajectory: {traced_peak / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
