"""Time `racbench build RECIPE` end to end and print rows/s and peak memory.

Runs the real console script in a subprocess (as a user would) and reads the peak
resident memory of it and its worker processes from the OS; with --audit, also runs
the question-only and options-only probes on the result and prints their summary.

    python benchmarks/build_recipe.py [trac|acp|science-gold|FILE] [--scale 1.0]
                                      [--workers N] [--configs PATTERNS] [--audit] [--keep DIR]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("recipe", nargs="?", default="trac")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--audit", action="store_true")
    parser.add_argument("--keep", type=Path, help="move the built dataset here afterwards")
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--configs", help="only the configs matching these shell patterns")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="racbench-bench-"))
    out = root / "built"
    cmd = [sys.executable, "-m", "racbench.cli", "build", args.recipe, "--out", str(out),
           "--scale", str(args.scale), "--workers", str(args.workers), "--quiet"]
    if args.configs:
        cmd += ["--configs", args.configs]
    start = time.perf_counter()
    subprocess.run(cmd, check=True)
    seconds = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    rows = sum(pq.read_metadata(f).num_rows for f in out.rglob("*.parquet"))
    print(f"recipe: {args.recipe}  cores: {os.cpu_count()}  workers: {args.workers}  "
          f"scale: {args.scale}")
    cpu = usage.ru_utime + usage.ru_stime
    print(f"rows: {rows}  time: {seconds:.1f} s  rate: {rows / seconds:,.0f} rows/s  "
          f"CPU: {cpu:.1f} s ({rows / cpu:,.0f} rows per CPU-second)")
    print(f"peak memory (largest process): {usage.ru_maxrss / 1024:.0f} MiB")
    if args.audit:
        audit = subprocess.run([sys.executable, "-m", "racbench.cli", "audit", str(out),
                                "--no-card"], capture_output=True, text=True)
        rows = [[c.strip() for c in line.strip("|").split("|")]
                for line in audit.stdout.splitlines() if line.endswith(("| pass |", "| **FAIL** |"))]
        worst = max(rows, key=lambda r: float(r[6].rstrip("%")), default=None)
        failed = [r[0] for r in rows if "FAIL" in r[-1]]
        print(f"probes (question-only, options-only): {len(rows)} configs, {len(failed)} above chance"
              + (f" ({', '.join(failed)})" if failed else "")
              + (f"; highest {worst[6]} ({worst[0]}, adjusted p={worst[8]})" if worst else ""))
    if args.keep is not None:
        shutil.move(str(out), str(args.keep))
    shutil.rmtree(root)


if __name__ == "__main__":
    main()
