"""Speed of gold trajectories with valid actions listed at every step, over every variation of the
fifteen science tasks (or a sample with --quick).

Prints trajectories/s, steps/s, total wall time and peak memory (largest worker RSS, and
tracemalloc's peak for one sampled trajectory).

    python benchmarks/science_gold.py [--quick] [--workers 2] [--simplifications easy]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import resource
import time
import tracemalloc

from racbench.simulator.science import TASKS, gold_trajectory
from racbench.simulator.science.gold import gold_items


def _run(chunk):
    steps = 0
    for task, variation, simp in chunk:
        traj = gold_trajectory(task, variation, simp, with_valid_actions=True)
        assert traj[-1]["score"] == 1.0
        steps += len(traj)
    return len(chunk), steps


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="every 20th variation of each task")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--simplifications", default="", help="one setting, e.g. 'easy' (default: none)")
    args = ap.parse_args(argv)
    items = gold_items(simplification_settings=(args.simplifications,))
    if args.quick:
        items = [it for it in items if it[1] % 20 == 0]
    chunks = [items[i:i + 25] for i in range(0, len(items), 25)]

    tracemalloc.start()
    gold_trajectory("test-conductivity", 0, args.simplifications, with_valid_actions=True)
    _, traced_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    start = time.perf_counter()
    if args.workers > 1:
        with mp.get_context("fork").Pool(args.workers) as pool:
            results = pool.map(_run, chunks, chunksize=1)
    else:
        results = [_run(c) for c in chunks]
    elapsed = time.perf_counter() - start
    n_traj = sum(r[0] for r in results)
    n_steps = sum(r[1] for r in results)
    rss_self = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rss_children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"tasks: {len(TASKS)}  trajectories: {n_traj}  steps: {n_steps}  workers: {args.workers}")
    print(f"trajectories/s: {n_traj / elapsed:.1f}")
    print(f"steps/s (valid actions listed every step): {n_steps / elapsed:.0f}")
    print(f"total time: {elapsed:.1f} s")
    print(f"peak RSS: {max(rss_self, rss_children):.0f} MiB  (parent {rss_self:.0f}, largest worker {rss_children:.0f})")
    print(f"tracemalloc peak for one trajectory: {traced_peak / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
