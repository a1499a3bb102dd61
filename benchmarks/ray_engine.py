"""The Ray engine against the local one on this machine: CPU and wall time of each, the
driver's share of the CPU (what caps a cluster), Ray's overhead, and the bytes check.

The same recipe is built in this process with the local engine (a fork pool of
`--workers` processes), then on a Ray instance started here with as many CPUs (its
start timed apart), with the Ray engine; both builds must be byte-identical. CPU is
counted per process: the driver (this process), the local build's forked workers, and
every process Ray runs (workers, raylet, GCS), read with psutil before Ray shuts down.
On a cluster the driver's CPU stays on one core while the rest spreads over the
nodes, so its share sets the cap on the speed-up: with driver CPU D and the rest R,
N cores finish in at least max(D, R / N), a speed-up over one core of at most
(D + R) / max(D, R / N). Ray listens on loopback only.

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

import psutil  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

import racbench  # noqa: E402
from racbench.suites.recipe import load_recipe  # noqa: E402


def digest(root: Path) -> str:
    h = hashlib.blake2b(digest_size=16)
    for p in sorted(root.rglob("*")):
        if p.is_file():
            h.update(str(p.relative_to(root)).encode() + p.read_bytes())
    return h.hexdigest()


def own_cpu() -> tuple[float, float]:
    """CPU seconds of this process, and of its children waited for (a fork pool's)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime


def descendants_cpu() -> dict[int, tuple[str, float]]:
    """pid -> (role, CPU seconds) of every live descendant of this process (Ray's), with
    what each has collected of its own exited children (a raylet's finished workers)."""
    out = {}
    for proc in psutil.Process().children(recursive=True):
        try:
            t = proc.cpu_times()
            name = " ".join(proc.cmdline()[:1]) or proc.name()
        except psutil.Error:
            continue
        role = "ray worker" if "default_worker" in " ".join(proc.cmdline()[:3]) or \
            proc.name().startswith("ray::") else os.path.basename(name)
        out[proc.pid] = (role, t.user + t.system + t.children_user + t.children_system)
    return out


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


def cap(driver: float, rest: float, cores: int) -> float:
    return (driver + rest) / max(driver, rest / cores, 1e-9)


def measure(recipe, root: Path, args) -> None:
    start, (me0, kids0) = time.perf_counter(), own_cpu()
    racbench.build(recipe, root / "local", scale=args.scale, workers=args.workers,
                   progress=False)
    local_wall = time.perf_counter() - start
    me1, kids1 = own_cpu()
    local_driver, local_workers = me1 - me0, kids1 - kids0
    local_cpu = local_driver + local_workers

    import ray

    start = time.perf_counter()
    ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    startup = time.perf_counter() - start
    try:
        from racbench.export.ray_engine import TASKS

        tasks0 = TASKS.copy()
        before, (me0, _) = descendants_cpu(), own_cpu()
        start = time.perf_counter()
        racbench.build(recipe, root / "ray", scale=args.scale, workers=args.workers,
                       engine="ray", progress=False)
        tasks = TASKS - tasks0
        ray_wall = time.perf_counter() - start
        after, (me1, _) = descendants_cpu(), own_cpu()
    finally:
        ray.shutdown()
    ray_driver = me1 - me0
    roles: dict[str, float] = {}
    for pid, (role, cpu) in after.items():
        roles[role] = roles.get(role, 0.0) + cpu - before.get(pid, (role, 0.0))[1]
    ray_rest = sum(roles.values())
    ray_cpu = ray_driver + ray_rest

    rows = sum(pq.read_metadata(f).num_rows for f in (root / "local").rglob("*.parquet"))
    same = digest(root / "local") == digest(root / "ray")
    print(f"recipe: {args.recipe}  configs: {len(recipe.configs)}  scale: {args.scale}  "
          f"rows: {rows}  workers: {args.workers}  cores: {os.cpu_count()}")
    print(f"local engine: {local_wall:6.1f} s wall  {local_cpu:7.1f} s CPU "
          f"(driver {local_driver:.1f}, workers {local_workers:.1f})  "
          f"{rows / local_cpu:7,.0f} rows per CPU-second")
    print(f"ray engine:   {ray_wall:6.1f} s wall  {ray_cpu:7.1f} s CPU "
          f"(driver {ray_driver:.1f}, Ray's processes {ray_rest:.1f}: "
          + ", ".join(f"{k} {v:.1f}" for k, v in sorted(roles.items(), key=lambda kv: -kv[1])
                      if v >= 0.05) + f")  {rows / ray_cpu:7,.0f} rows per CPU-second")
    print(f"ray overhead vs local: CPU {100 * (ray_cpu / local_cpu - 1):+.0f}%  "
          f"wall {100 * (ray_wall / local_wall - 1):+.0f}%  (Ray's start, apart: "
          f"{startup:.1f} s wall)")
    print(f"ray tasks: {sum(tasks.values()):,} ("
          + ", ".join(f"{k} {v:,}" for k, v in sorted(tasks.items())) + "), "
          f"{1000 * ray_driver / max(1, sum(tasks.values())):.1f} ms of driver CPU a task")
    share = ray_driver / ray_cpu if ray_cpu else 1.0
    local_share = local_driver / local_cpu if local_cpu else 1.0
    print(f"driver CPU share: ray {100 * share:.1f}% of the CPU  (local engine: "
          f"{100 * local_share:.1f}%)")
    print(f"speed-up over one core the driver allows: at most {1 / max(share, 1e-9):.0f}x; "
          f"on 64 cores at most {cap(ray_driver, ray_rest, 64):.1f}x "
          f"(local engine's driver: {cap(local_driver, local_workers, 64):.1f}x)")
    print(f"byte-identical: {'yes' if same else 'NO'}")
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
