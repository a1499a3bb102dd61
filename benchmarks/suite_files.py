"""Where the test suite's time goes: each test file run on its own (``-n 0``), one after
another, with its CPU time (the pytest process and every child it waited for: CLI
subprocesses, Fast Downward, ScienceWorld's JVM) and wall time, and its slowest phases
(setup / call / teardown, from ``--durations``).

    python benchmarks/suite_files.py                   # every file under tests/
    python benchmarks/suite_files.py tests/test_docs.py tests/acp --top 5

Then, from the per-file CPU times, the suite's wall time on N workers under
``--dist loadfile`` (a file to a worker, longest first): the longest file bounds it.
Each file's figure includes pytest's own start and imports (about 2 CPU s), which a
worker of the real run pays once. Run it on an idle machine for wall times that mean
something; on a shared one, CPU time is the figure to compare.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PHASE = re.compile(r"^\s*([0-9.]+)s (setup|call|teardown)\s+(\S+)")


def test_files(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for p in paths or ["tests"]:
        path = (ROOT / p) if not Path(p).is_absolute() else Path(p)
        files += sorted(path.rglob("test_*.py")) if path.is_dir() else [path]
    return files


def run_file(path: Path) -> dict:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", str(path), "-n", "0", "--durations=0",
         "-p", "no:cacheprovider"],
        cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    phases = [(float(s), phase, name) for s, phase, name in
              (m.groups() for m in map(PHASE.match, proc.stdout.splitlines()) if m)]
    summary = next((line for line in reversed(proc.stdout.splitlines())
                    if re.search(r"\d+ (passed|failed|error)", line)), "(no summary)")
    return {"file": path.relative_to(ROOT).as_posix(), "cpu": cpu, "wall": wall,
            "phases": sorted(phases, reverse=True), "summary": summary,
            "ok": proc.returncode == 0}


def loadfile_wall(cpus: list[float], workers: int) -> float:
    """Longest-first assignment of whole files to the least loaded worker."""
    loads = [0.0] * workers
    for c in sorted(cpus, reverse=True):
        loads[loads.index(min(loads))] += c
    return max(loads)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", help="test files or folders (default: tests)")
    ap.add_argument("--top", type=int, default=3, help="slowest phases shown per file")
    ap.add_argument("--workers", type=int, default=2, help="workers for the wall estimate")
    args = ap.parse_args()

    results = []
    for path in test_files(args.paths):
        r = run_file(path)
        results.append(r)
        print(f"{r['cpu']:8.1f} CPU s {r['wall']:8.1f} wall s  {r['file']}  [{r['summary']}]",
              flush=True)
        for seconds, phase, name in r["phases"][:args.top]:
            print(f"{'':30}{seconds:7.2f}s {phase:8} {name.split('::', 1)[-1]}", flush=True)

    print("\nslowest files (CPU s, wall s):")
    for r in sorted(results, key=lambda r: -r["cpu"])[:20]:
        print(f"{r['cpu']:8.1f} {r['wall']:8.1f}  {r['file']}")
    cpus = [r["cpu"] for r in results]
    total = sum(cpus)
    print(f"\n{len(results)} files, {total:.0f} CPU s in all; "
          f"estimated wall on {args.workers} workers (--dist loadfile): "
          f"{loadfile_wall(cpus, args.workers):.0f} s (the longest file: {max(cpus):.0f} s)")
    if not all(r["ok"] for r in results):
        print("failed: " + ", ".join(r["file"] for r in results if not r["ok"]))
        sys.exit(1)


if __name__ == "__main__":
    main()
