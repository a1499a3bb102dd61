"""Throughput of the Ray engine against the local one on this machine: rows/s of each,
Ray's overhead in %, with and without starting Ray, and a check that the bytes agree.

The same recipe is built in this process with the local engine (a fork pool), then on a
Ray instance started here with as many CPUs as workers (its start timed apart), with the
Ray engine; both builds must be byte-identical. Ray listens on loopback only.

    python benchmarks/ray_engine.py [trac|acp|FILE] [--configs PATTERNS] [--scale 0.05]
                                    [--workers 2]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import shutil
import tempfile
import time
from pathlib import Path

os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")  # loopback, before ray

import pyarrow.parquet as pq  # noqa: E402

import racbench  # noqa: E402
from racbench.suites.recipe import load_recipe  # noqa: E402


def digest(root: Path) -> str:
    h = hashlib.blake2b(digest_size=16)
    for p in sorted(root.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(root)).encode() + p.read_bytes())
    return h.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("recipe", nargs="?", default="trac")
    parser.add_argument("--configs", default=None, help="only the configs matching these")
    parser.add_argument("--scale", type=float, default=0.05)
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    args = parser.parse_args()
    recipe = load_recipe(args.recipe)
    if args.configs:
        recipe = recipe.select(args.configs)
    root = Path(tempfile.mkdtemp(prefix="racbench-ray-bench-"))
    try:
        measure(recipe, root, args)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def measure(recipe, root: Path, args) -> None:
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    racbench.build(recipe, root / "local", scale=args.scale, workers=args.workers)
    local = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    driver, workers = ((a.ru_utime + a.ru_stime) - (b.ru_utime + b.ru_stime)
                       for a, b in zip(after, before))

    import ray

    start = time.perf_counter()
    ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    startup = time.perf_counter() - start
    try:
        start = time.perf_counter()
        racbench.build(recipe, root / "ray", scale=args.scale, workers=args.workers,
                       engine="ray")
        on_ray = time.perf_counter() - start
    finally:
        ray.shutdown()

    rows = sum(pq.read_metadata(f).num_rows for f in (root / "local").rglob("*.parquet"))
    same = digest(root / "local") == digest(root / "ray")
    print(f"recipe: {args.recipe}  configs: {len(recipe.configs)}  scale: {args.scale}  "
          f"rows: {rows}  workers: {args.workers}  cores: {os.cpu_count()}")
    print(f"local engine: {local:6.1f} s  {rows / local:8,.0f} rows/s")
    print(f"ray engine:   {on_ray:6.1f} s  {rows / on_ray:8,.0f} rows/s  "
          f"(overhead {100 * (on_ray / local - 1):+.0f}%)")
    print(f"ray start:    {startup:6.1f} s  (with it: {rows / (on_ray + startup):,.0f} rows/s, "
          f"overhead {100 * ((on_ray + startup) / local - 1):+.0f}%)")
    print(f"byte-identical: {'yes' if same else 'NO'}")
    # what bounds scaling out: the driver's share of the CPU (planning, redraws, Parquet,
    # card) stays on one machine whatever the number of nodes
    share = driver / (driver + workers) if driver + workers else 1.0
    print(f"driver CPU share (local build): {100 * share:.0f}% of {driver + workers:.1f} s "
          f"of CPU; Ray's speed-up over one core is bounded by about {1 / share:.1f}x")
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
