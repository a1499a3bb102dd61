"""Where the test suite's time goes: each test file run on its own (``-n 0``), one after
another, with its CPU time (the pytest process and every process it started, however
deep: CLI subprocesses, Fast Downward, ScienceWorld's JVM, and Ray's raylet and worker
processes) and wall time, and its slowest phases (setup / call / teardown, from
``--durations``). Where this process may make a cgroup (Linux, as root: cgroup v1's
cpuacct or v2), each run goes in one of its own and its CPU is the cgroup's: Ray's raylet
ignores SIGCHLD, so the kernel reaps its workers without handing their CPU to anyone's
RUSAGE_CHILDREN, and they were once left out (test_ray_engine counted 34-39 CPU s, 85 by
a cgroup). Elsewhere it counts what reaches RUSAGE_CHILDREN, processes that leave
pytest's tree included (this script is their subreaper and collects them when they
end), and says that Ray's workers are missing.

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


PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h


def become_subreaper() -> bool:
    """Make this process the one an orphaned descendant is handed to (Linux), instead of
    init: Ray's raylet starts its workers and is killed at ray.shutdown(), so they leave
    pytest's tree, and their CPU reaches RUSAGE_CHILDREN only if this process reaps them."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def children() -> list[int]:
    """The pids of this process's living children (from /proc)."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[-1].split()
        except OSError:  # ended meanwhile
            continue
        if fields[1] == str(os.getpid()):
            pids.append(int(stat.parent.name))
    return pids


def reap_orphans(deadline: float = 30.0) -> int:
    """Wait for the descendants handed to this process (those still ending after pytest
    ended), up to `deadline` seconds; returns how many are still running (not counted)."""
    end = time.monotonic() + deadline
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return 0
        if pid:
            continue
        if time.monotonic() > end:
            return len(children())
        time.sleep(0.05)


CGROUP_ROOTS = (  # where a new cgroup goes, the file of its CPU use, that file's unit in s
    (Path("/sys/fs/cgroup/cpuacct"), "cpuacct.usage", 1e-9),  # v1
    (Path("/sys/fs/cgroup/unified"), "cpu.stat", 1e-6),  # v2 beside v1 (hybrid)
    (Path("/sys/fs/cgroup"), "cpu.stat", 1e-6),  # v2 alone
)


class CpuGroup:
    """A cgroup of its own for one run: every process started in it stays in it, and its
    CPU use counts theirs however they end (see the module's text)."""

    def __init__(self, path: Path, usage: str, unit: float):
        self.path, self.usage, self.unit = path, usage, unit

    @classmethod
    def make(cls) -> CpuGroup | None:
        """A new cgroup, or None where none can be made (not Linux, not allowed)."""
        for root, usage, unit in CGROUP_ROOTS:
            if not (root / "cgroup.procs").exists():
                continue
            path = root / f"suite_files-{os.getpid()}-{time.monotonic_ns()}"
            try:
                path.mkdir()
            except OSError:
                continue
            group = cls(path, usage, unit)
            if (path / usage).exists():
                return group
            group.remove()
        return None

    def join(self) -> None:
        """Put the calling process in the group (the child, before its exec)."""
        (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def seconds(self) -> float:
        text = (self.path / self.usage).read_text()
        if self.usage == "cpu.stat":
            text = dict(line.split() for line in text.splitlines())["usage_usec"]
        return int(text) * self.unit

    def running(self) -> int:
        return len((self.path / "cgroup.procs").read_text().split())

    def remove(self) -> None:
        try:
            self.path.rmdir()
        except OSError:  # processes left in it (named by the caller)
            pass


def pytest_cpu(*args: str) -> tuple[float, float, subprocess.CompletedProcess]:
    """CPU and wall seconds of a pytest run in a process of its own and every process it
    started: by a cgroup of its own where one can be made, else what reaches
    RUSAGE_CHILDREN (those orphaned included, when this process is their subreaper)."""
    group = CpuGroup.make()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "pytest", *args, "-n", "0",
                           "-p", "no:cacheprovider"], cwd=ROOT, capture_output=True, text=True,
                          preexec_fn=group.join if group else None)
    wall = time.perf_counter() - start
    left = reap_orphans()
    if group:
        end = time.monotonic() + 30
        while group.running() and time.monotonic() < end:
            time.sleep(0.05)
        left = group.running()
    if left:
        print(f"({left} processes pytest started were still running 30 s after it ended; "
              "their CPU is not counted)", flush=True)
    if group:
        cpu = group.seconds()
        group.remove()
        return cpu, wall, proc
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall, proc


def run_file(path: Path) -> dict:
    cpu, wall, proc = pytest_cpu(str(path), "--durations=0")
    phases = [(float(s), phase, name) for s, phase, name in
              (m.groups() for m in map(PHASE.match, proc.stdout.splitlines()) if m)]
    summary = next((line for line in reversed(proc.stdout.splitlines())
                    if re.search(r"\d+ (passed|failed|error)", line)), "(no summary)")
    tests = sum(int(n) for n in re.findall(r"(\d+) (?:passed|failed|skipped|xfailed|xpassed|"
                                           r"errors?)", summary))
    name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    return {"file": name.as_posix(), "cpu": cpu, "wall": wall,
            "tests": tests, "phases": sorted(phases, reverse=True), "summary": summary,
            "ok": proc.returncode == 0,
            # pytest's short summary of what failed (a flaky test is named, not just counted)
            "failures": [line for line in proc.stdout.splitlines()
                         if line.startswith(("FAILED ", "ERROR "))]}


def scheduled_wall(costs: list[float], workers: int) -> float:
    """Whole files handed out in this order, each to the worker free first."""
    loads = [0.0] * workers
    for c in costs:
        loads[loads.index(min(loads))] += c
    return max(loads)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", help="test files or folders (default: tests)")
    ap.add_argument("--top", type=int, default=3, help="slowest phases shown per file")
    ap.add_argument("--workers", type=int, default=2, help="workers for the wall estimate")
    ap.add_argument("--start-cpu", type=float, default=None,
                    help="pytest's start in CPU s, instead of measuring it")
    args = ap.parse_args()
    group = CpuGroup.make()
    if group:
        group.remove()
        print(f"(each run's CPU counted by a cgroup of its own, under {group.path.parent})")
    else:
        print("(no cgroup could be made here: the CPU of Ray's workers is not counted, the "
              "raylet ignoring SIGCHLD)")
    if not become_subreaper():
        print("(not Linux: processes that leave pytest's tree are not counted)")

    # what every file's process pays before its tests: pytest, racbench, pyarrow (a
    # worker of the real run pays it once)
    start = args.start_cpu
    if start is None:
        start = pytest_cpu(str(ROOT / "tests" / "test_layout.py"), "-k", "no_test_has_this")[0]
    print(f"pytest's start in a process: {start:.1f} CPU s (taken off each file below "
          f"for the estimate, counted once per worker)")
    results = []
    for path in test_files(args.paths):
        r = run_file(path)
        results.append(r)
        print(f"{r['cpu']:8.1f} CPU s {r['wall']:8.1f} wall s  {r['file']}  [{r['summary']}]",
              flush=True)
        for seconds, phase, name in r["phases"][:args.top]:
            print(f"{'':30}{seconds:7.2f}s {phase:8} {name.split('::', 1)[-1]}", flush=True)
        for line in r["failures"]:
            print(f"{'':30}{line}", flush=True)

    print("\nslowest files (CPU s, wall s, tests):")
    for r in sorted(results, key=lambda r: -r["cpu"])[:20]:
        print(f"{r['cpu']:8.1f} {r['wall']:8.1f} {r['tests']:6d}  {r['file']}")
    own = {r["file"]: max(r["cpu"] - start, 0.0) for r in results}
    # xdist's own order for --dist loadfile: files with the most tests first
    by_tests = [own[r["file"]] for r in sorted(results, key=lambda r: -r["tests"])]
    longest = sorted(own.values(), reverse=True)
    print(f"\n{len(results)} files, {sum(r['cpu'] for r in results):.0f} CPU s run one by one, "
          f"{sum(own.values()) + start * args.workers:.0f} CPU s on {args.workers} workers; "
          f"estimated wall on {args.workers} idle cores (--dist loadfile), files handed out "
          f"most tests first (xdist's default): "
          f"{start + scheduled_wall(by_tests, args.workers):.0f} s; longest first: "
          f"{start + scheduled_wall(longest, args.workers):.0f} s (the longest file: "
          f"{max(own.values()):.0f} s)")
    print("longest first, for tests/slow_files.py's SLOW_FIRST:")
    for r in sorted(results, key=lambda r: -r["cpu"])[:20]:
        print(f'    "{r["file"]}",')
    if not all(r["ok"] for r in results):
        print("failed: " + ", ".join(r["file"] for r in results if not r["ok"]))
        sys.exit(1)


if __name__ == "__main__":
    main()
