"""Time `racbench build RECIPE` end to end: wall time, CPU time, rows per CPU-second, peak memory.

Runs the real console script in a subprocess (as a user would), one build per recipe
named, and reads from the OS what each build used: its CPU time (the build's process and
its worker processes, user and system), that of its main process alone (the driver: it
loads worlds, joins probes, writes and deduplicates, while the workers may wait) and
the peak resident memory of its largest process. Rows per CPU-second is what to compare
on a shared machine, where wall time depends on the neighbours; on 2 idle cores a build
takes about (CPU - driver) / 2 + driver seconds at most, CPU / 2 at best. With --audit, also runs the question-only and options-only
probes on each result and prints their summary.

    python benchmarks/build_recipe.py [RECIPE ...] [--scale 1.0] [--workers N] [--audit]
                                      [--configs PATTERNS] [--keep DIR]

RECIPE: built-in names (trac, acp, dynamics, trajectories, ...) or YAML files; default
trac, acp, dynamics and trajectories in one run.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq

DEFAULT = ["trac", "acp", "dynamics", "trajectories"]


def timed_build(recipe: str, out: Path, scale: float, workers: int,
                configs: str | None = None) -> dict:
    """Build `recipe` into `out` in a subprocess; its rows, wall and CPU seconds (its
    own and its reaped workers') and peak memory (largest process, MiB)."""
    driver = out.parent / "driver-cpu"
    cmd = [sys.executable, "-c", DRIVER, str(driver), "build", recipe, "--out", str(out),
           "--scale", str(scale), "--workers", str(workers), "--quiet"]
    if configs:
        cmd += ["--configs", configs]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=same_racbench_env())
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{recipe}: racbench build exited with {proc.returncode}")
    rows = sum(pq.read_metadata(f).num_rows for f in out.rglob("*.parquet"))
    return {"recipe": recipe, "rows": rows, "wall": wall,
            "cpu": usage.ru_utime + usage.ru_stime, "driver": float(driver.read_text()),
            "peak": usage.ru_maxrss / 1024}


def same_racbench_env() -> dict:
    """This process's environment, with the folder racbench is imported from here first on
    PYTHONPATH: `python -c` puts its working directory first, so run from one checkout
    with PYTHONPATH naming another (a worktree to compare), the build would time the
    working directory's racbench, not the one this script names."""
    root = Path(importlib.util.find_spec("racbench").origin).parents[1]
    path = os.environ.get("PYTHONPATH")
    return dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(root), path])))


# the console script's main, then the CPU of this process alone (not its workers) to a file
DRIVER = """import resource, sys
from racbench.cli import run
path = sys.argv.pop(1)
try:
    run()
finally:
    used = resource.getrusage(resource.RUSAGE_SELF)
    open(path, "w").write(str(used.ru_utime + used.ru_stime))
"""


def audit(out: Path) -> str:
    proc = subprocess.run([sys.executable, "-m", "racbench.cli", "audit", str(out), "--no-card"],
                          capture_output=True, text=True)
    rows = [[c.strip() for c in line.strip("|").split("|")]
            for line in proc.stdout.splitlines() if line.endswith(("| pass |", "| **FAIL** |"))]
    worst = max(rows, key=lambda r: float(r[6].rstrip("%")), default=None)
    failed = [r[0] for r in rows if "FAIL" in r[-1]]
    return (f"probes (question-only, options-only): {len(rows)} configs, {len(failed)} above "
            f"chance" + (f" ({', '.join(failed)})" if failed else "")
            + (f"; highest {worst[6]} ({worst[0]}, adjusted p={worst[8]})" if worst else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("recipes", nargs="*", default=DEFAULT, metavar="RECIPE")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--audit", action="store_true")
    parser.add_argument("--keep", type=Path,
                        help="move the built datasets here afterwards (one folder each)")
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--configs", help="only the configs matching these shell patterns")
    args = parser.parse_args()
    print(f"cores: {os.cpu_count()}  workers: {args.workers}  scale: {args.scale}")
    print("| recipe | rows | wall s | CPU s | driver CPU s | rows/s (wall) | rows per CPU-s "
          "| peak MiB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for recipe in args.recipes:
        root = Path(tempfile.mkdtemp(prefix="racbench-bench-"))
        out = root / "built"
        try:
            r = timed_build(recipe, out, args.scale, args.workers, args.configs)
            print(f"| {r['recipe']} | {r['rows']:,} | {r['wall']:.1f} | {r['cpu']:.1f} | "
                  f"{r['driver']:.1f} | {r['rows'] / r['wall']:,.0f} | {r['rows'] / max(r['cpu'], 1e-9):,.0f} | "
                  f"{r['peak']:.0f} |", flush=True)
            if args.audit:
                print(f"  {recipe}: {audit(out)}", flush=True)
            if args.keep is not None:
                args.keep.mkdir(parents=True, exist_ok=True)
                shutil.move(str(out), str(args.keep / Path(recipe).stem))
        finally:
            shutil.rmtree(root, ignore_errors=True)
    print("peak MiB: the largest process of the build; rows/s (wall) depends on the "
          "machine's other load, rows per CPU-s does not")


if __name__ == "__main__":
    main()
