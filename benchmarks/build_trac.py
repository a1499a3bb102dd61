"""Time `racbench build trac` end to end and print rows/s and peak memory.

Runs the real console script in a subprocess (as a user would) and reads the peak
resident memory of it and its worker processes from the OS.

    python benchmarks/build_trac.py [--scale 1.0] [--workers N]
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
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="racbench-bench-"))
    out = root / "trac"
    cmd = [sys.executable, "-m", "racbench.cli", "build", "trac", "--out", str(out),
           "--scale", str(args.scale), "--workers", str(args.workers), "--quiet"]
    start = time.perf_counter()
    subprocess.run(cmd, check=True)
    seconds = time.perf_counter() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    rows = sum(pq.read_metadata(f).num_rows for f in out.rglob("*.parquet"))
    print(f"cores: {os.cpu_count()}  workers: {args.workers}  scale: {args.scale}")
    print(f"rows: {rows}  time: {seconds:.1f} s  rate: {rows / seconds:,.0f} rows/s")
    print(f"peak memory (largest process): {usage.ru_maxrss / 1024:.0f} MiB")
    shutil.rmtree(root)


if __name__ == "__main__":
    main()
