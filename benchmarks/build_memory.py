"""Which process of `racbench build RECIPE` holds its peak memory, and while building what.

Runs the build as benchmarks/build_recipe.py does (the real console script in a
subprocess) and samples every process of it (the build's main process, the driver,
and all its descendants: the workers of each pool) from /proc every `--every`
seconds: its resident memory (VmRSS; VmHWM, the kernel's own peak, where a process
lives long enough to be read) and its anonymous part (RssAnon: what is the process's
own, not pages shared with its parent by fork or read from files). Each sample is
charged to the configs being written at that moment (their `NAME.tmp` folders in the
unfinished build folder; "probe/load" when none is), so the table tells which config,
and which process, peaks.

    python benchmarks/build_memory.py RECIPE [--configs PATTERNS] [--scale 1.0]
                                      [--workers N] [--every 0.1] [--top 10]
                                      [--timeout SECONDS]

Prints the largest process's peak by role (driver, worker), the build's summed peak
(all its processes at one sample) and the configs with the largest peaks.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_recipe import DRIVER  # noqa: E402 (the same build as build_recipe.py's)

FIELDS = ("VmRSS", "VmHWM", "RssAnon")


def status(pid: int) -> dict[str, int] | None:
    """The process's memory fields in KiB (FIELDS), or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    out = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key in FIELDS:
            out[key] = int(value.split()[0])
    return out if "VmRSS" in out else None


def children(pid: int) -> list[int]:
    """Every descendant of `pid` (read from /proc/PID/task/*/children)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for t in tasks:
            try:
                kids = Path(f"/proc/{p}/task/{t}/children").read_text().split()
            except OSError:
                continue
            for k in map(int, kids):
                found.append(k)
                todo.append(k)
    return found


def building(partial: Path) -> str:
    """The configs being written now (their NAME.tmp folders), else what the build is
    doing between them: "probe/load" before any config is finished, "after N configs"
    (committing, loading the next run's worlds, writing the card) once N are."""
    try:
        names = sorted(p.name[:-4] for p in partial.iterdir()
                       if p.name.endswith(".tmp") and p.is_dir())
        done = sum(1 for p in (partial / ".state").iterdir()
                   if p.name.endswith(".stats.json")) if not names else 0
    except OSError:
        names, done = [], 0
    return ",".join(names) or (f"after {done} configs" if done else "probe/load")


def sample_build(recipe: str, out: Path, scale: float, workers: int, configs: str | None,
                 every: float, timeout: float | None = None) -> dict:
    """Build `recipe` into `out`, sampling its processes; what was seen (see main).
    A build still running after `timeout` seconds is stopped (Ctrl-C) and what was
    seen until then is reported."""
    driver_cpu = out.parent / "driver-cpu"
    cmd = [sys.executable, "-c", DRIVER, str(driver_cpu), "build", recipe, "--out", str(out),
           "--scale", str(scale), "--workers", str(workers), "--quiet"]
    if configs:
        cmd += ["--configs", configs]
    partial = out.parent / f".{out.name}.partial"
    peak = {"driver": defaultdict(int), "worker": defaultdict(int)}  # field -> KiB
    by_config: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    total_peak, pids, samples, stopped = 0, set(), 0, False
    start = time.perf_counter()
    proc = subprocess.Popen(cmd)
    while proc.poll() is None:
        now = building(partial)
        total = 0
        for pid, role in [(proc.pid, "driver")] + [(k, "worker") for k in children(proc.pid)]:
            st = status(pid)
            if st is None:
                continue
            pids.add(pid)
            total += st["VmRSS"]
            for key, value in st.items():
                peak[role][key] = max(peak[role][key], value)
            for key in ("VmRSS", "RssAnon"):
                slot = f"{role} {key}"
                by_config[now][slot] = max(by_config[now][slot], st.get(key, 0))
        total_peak = max(total_peak, total)
        by_config[now]["all VmRSS"] = max(by_config[now]["all VmRSS"], total)
        samples += 1
        if timeout is not None and time.perf_counter() - start > timeout and not stopped:
            proc.send_signal(signal.SIGINT)
            stopped = True
        time.sleep(every)
    wall = time.perf_counter() - start
    if proc.returncode and not stopped:
        raise SystemExit(f"{recipe}: racbench build exited with {proc.returncode}")
    return {"peak": peak, "by_config": by_config, "total": total_peak, "wall": wall,
            "processes": len(pids), "samples": samples, "stopped": stopped}


def mib(kib: int) -> str:
    return f"{kib / 1024:,.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("recipe")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--workers", type=int, default=os.cpu_count())
    parser.add_argument("--configs", help="only the configs matching these shell patterns")
    parser.add_argument("--every", type=float, default=0.1, help="seconds between samples")
    parser.add_argument("--timeout", type=float,
                        help="stop the build after this many seconds and report what was seen")
    parser.add_argument("--top", type=int, default=10, help="configs to list")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="racbench-mem-"))
    try:
        r = sample_build(args.recipe, root / "built", args.scale, args.workers, args.configs,
                         args.every, args.timeout)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"{args.recipe} ({args.configs or 'all configs'}), scale {args.scale}, "
          f"{args.workers} workers: {r['wall']:.1f} s wall, {r['processes']} processes, "
          f"{r['samples']} samples" + (" (stopped at --timeout)" if r["stopped"] else ""))
    print("| role | peak RSS MiB (VmHWM) | peak sampled RSS MiB | peak own (anon) MiB |")
    print("|---|---:|---:|---:|")
    for role in ("driver", "worker"):
        p = r["peak"][role]
        print(f"| {role} | {mib(p['VmHWM'])} | {mib(p['VmRSS'])} | {mib(p['RssAnon'])} |")
    print(f"all processes at one sample: {mib(r['total'])} MiB (shared pages counted in each)")
    print("| configs being written | driver RSS | driver anon | worker RSS | worker anon "
          "| all RSS |")
    print("|---|---:|---:|---:|---:|---:|")
    ranked = sorted(r["by_config"].items(),
                    key=lambda kv: -max(kv[1]["driver VmRSS"], kv[1]["worker VmRSS"]))
    for name, p in ranked[:args.top]:
        shown = name if len(name) <= 60 else name[:57] + "..."
        print(f"| {shown} | {mib(p['driver VmRSS'])} | {mib(p['driver RssAnon'])} | "
              f"{mib(p['worker VmRSS'])} | {mib(p['worker RssAnon'])} | {mib(p['all VmRSS'])} |")
    print("peak MiB by role: the largest process of that role; the build's peak as "
          "build_recipe.py reports it is the larger of the two VmHWM figures")


if __name__ == "__main__":
    main()
