"""Speed of the science lab's imitation rows (racbench/tasks/gold_trajectories.py) and of
a build of the `trajectories-imitation` recipe.

First, on one core in this process, for a sample of variations: rows/s of each row kind
(gold trajectories, behaviour cloning, return-conditioned; valid actions and history 5 as
the recipe: the oracle lists them at every step for the first two only), with the time
split between playing the oracle (the simulator) and making the rows, and the time to
write them as Parquet. Then a real `racbench build` of the recipe (the configs
matching --configs, or all of it with --full) in a subprocess: rows, wall time, rows/s,
CPU time and peak memory of the largest process.

    python benchmarks/imitation.py [--tasks boil,melt] [--every 10] [--workers 2]
                                   [--configs 'bc-boil,rc-boil'] [--full] [--no-build]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq

from racbench.export.parquet import write_table
from racbench.tasks.gold_trajectories import (FEATURES, STEP_FEATURES, gold_items, gold_row,
                                              play_gold, step_rows)

HISTORY = 5
RECIPE = "trajectories-imitation"


def rates(items: list, tmp: Path) -> None:
    """Rows/s per kind on one core (CPU time), the oracle's share, Parquet writing."""
    start = time.process_time()
    plays = [(item, play_gold(*item, True)) for item in items]
    play_s = time.process_time() - start
    n_steps = sum(len(p.steps) for _, p in plays)
    print(f"sample: {len(items)} trajectories, {n_steps} gold steps; oracle with valid actions "
          f"{play_s:.2f} s ({n_steps / play_s:,.0f} steps/s)")
    start = time.process_time()
    bare = [(item, play_gold(*item)) for item in items]
    bare_s = time.process_time() - start
    print(f"  oracle without them (return-conditioned, science-gold) {bare_s:.2f} s "
          f"({n_steps / bare_s:,.0f} steps/s)")
    start = time.process_time()
    gold = [gold_row(*item, True) for item in items]
    gold_s = time.process_time() - start
    kinds = {"trajectory": (gold, FEATURES, gold_s, 0.0)}
    for kind in STEP_FEATURES:  # valid actions as the recipe: behaviour cloning only
        listed = kind == "behaviour_cloning"
        start = time.process_time()
        rows = [r for item, p in (plays if listed else bare)
                for r in step_rows(kind, p, *item, HISTORY, listed)]
        make_s = time.process_time() - start
        kinds[kind] = (rows, STEP_FEATURES[kind], (play_s if listed else bare_s) + make_s,
                       make_s)
    for kind, (rows, features, seconds, make_s) in kinds.items():
        start = time.process_time()
        write_table(tmp / f"{kind}.parquet", rows, features)
        write_s = time.process_time() - start
        size = (tmp / f"{kind}.parquet").stat().st_size
        made = f" (rows from plays {len(rows) / make_s:,.0f}/s)" if make_s else ""
        print(f"  {kind:20s} {len(rows):7d} rows  {len(rows) / seconds:8,.0f} rows/s on one "
              f"core{made}; Parquet {len(rows) / write_s:,.0f} rows/s, "
              f"{size / len(rows) / 1024:.1f} KiB a row")


def build(configs: str | None, workers: int, tmp: Path) -> None:
    out = tmp / "built"
    cmd = [sys.executable, "-m", "racbench.cli", "build", RECIPE, "--out", str(out),
           "--workers", str(workers), "--quiet"]
    if configs:
        cmd += ["--configs", configs]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    peak = usage.ru_maxrss / 1024
    cpu = (usage.ru_utime + usage.ru_stime) - (before.ru_utime + before.ru_stime)
    per_kind: dict[str, int] = {}
    for f in out.rglob("*.parquet"):
        kind = f.parent.name.split("-", 1)[0]
        per_kind[kind] = per_kind.get(kind, 0) + pq.read_metadata(f).num_rows
    rows = sum(per_kind.values())
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    print(f"build {RECIPE} --configs {configs or '(all)'} --workers {workers}: "
          + ", ".join(f"{k} {n}" for k, n in sorted(per_kind.items())))
    print(f"  rows: {rows}  time: {seconds:.1f} s  rate: {rows / seconds:,.0f} rows/s  "
          f"size: {size / 2**20:.0f} MiB  peak memory (largest process): {peak:.0f} MiB")
    print(f"  CPU time of the build and its workers: {cpu:.0f} s ({rows / cpu:,.0f} rows per "
          f"CPU second; on {workers} idle cores about {cpu / workers:.0f} s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", default="", help="comma-separated tasks (default: all)")
    ap.add_argument("--every", type=int, default=20, help="every k-th variation of each task")
    ap.add_argument("--workers", type=int, default=os.cpu_count())
    ap.add_argument("--configs", default="bc-boil,rc-boil,gold-boil,bc-find-plant,"
                    "rc-find-plant,gold-find-plant,bc-grow-fruit,rc-grow-fruit,gold-grow-fruit",
                    help="configs of the recipe to build (shell patterns)")
    ap.add_argument("--full", action="store_true", help="build the whole recipe")
    ap.add_argument("--no-build", action="store_true", help="only the one-core rates")
    args = ap.parse_args()
    tasks = [t for t in args.tasks.split(",") if t] or None
    items = [it for it in gold_items(tasks, ("", "easy")) if it[1] % args.every == 0]
    tmp = Path(tempfile.mkdtemp(prefix="racbench-imitation-"))
    try:
        rates(items, tmp)
        if not args.no_build:
            build(None if args.full else args.configs, args.workers, tmp)
    finally:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
