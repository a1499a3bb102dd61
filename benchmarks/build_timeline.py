"""Where a build's wall time goes: each pool job's and each driver phase's start and end,
and the core-seconds left idle, phase by phase.

Runs `racbench build RECIPE` in this process (the workers are its forks, so they
inherit the marks set here): every job a pool worker runs is logged with its start,
end and CPU, and every phase of the driver (a world batch's load-ahead, warm, probe,
join and row pools, the card) with its own; then prints, phase by phase, the wall
seconds, the worker jobs' CPU and the core-seconds no one used (`workers` x wall -
busy), and the longest jobs, so a tail (a long last job) or a serial stretch shows.
On a loaded machine the idle figures count the neighbours' share too: compare runs.

    python benchmarks/build_timeline.py acp [--workers 2] [--scale 1.0] [--configs PATTERNS]
                                            [--log FILE] [--top 15]
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import tempfile
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

_LOG: dict = {"fd": None, "phase": "start"}


def _note(kind: str, label: str, start: float, end: float, cpu: float) -> None:
    line = f"{os.getpid()}\t{kind}\t{label}\t{start:.6f}\t{end:.6f}\t{cpu:.6f}\n"
    os.write(_LOG["fd"], line.encode())  # O_APPEND: whole lines from every process


def _label(args) -> str:
    """A job's config (and its kind) from its arguments, as the pools pass them."""
    if isinstance(args, tuple) and len(args) == 2 and args[0] in ("shard", "chunk"):
        kind, job = args
        name = job.name if kind == "shard" else job[0]
        return f"{kind}:{name}"
    if isinstance(args, tuple) and args and isinstance(args[0], str):
        return args[0]
    if isinstance(args, tuple) and len(args) == 3:  # warm_job: (part, task, config)
        return f"warm:{args[2]}"
    return type(args).__name__


def _patch() -> None:
    from racbench.export import build, pool

    def call(self, item, _old=pool._Marked.__call__):
        start, cpu = time.monotonic(), time.thread_time()
        try:
            return _old(self, item)
        finally:
            _note(f"job:{getattr(self.job, '__name__', '?')}", _label(item[1]), start,
                  time.monotonic(), time.thread_time() - cpu)

    pool._Marked.__call__ = call

    def phased(name, fn, batch_of=None):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            outer = _LOG["phase"]
            batch = batch_of(*args) if batch_of else outer.split("|")[0]
            _LOG["phase"] = f"{batch}|{name}"
            start, cpu = time.monotonic(), time.process_time()  # the pool's threads too
            try:
                return fn(*args, **kwargs)
            finally:
                _note("phase", _LOG["phase"], start, time.monotonic(),
                      time.process_time() - cpu)
                _LOG["phase"] = outer
        return wrapper

    world = lambda recipe, *a: str(recipe.configs[0].task.worlds_key)[:40]  # noqa: E731
    build.prepare = phased("prepare", build.prepare, world)
    build._load_ahead = phased("load_ahead", build._load_ahead)
    build._probe_jobs = phased("probe_pool", build._probe_jobs)
    build._join = phased("join", build._join)
    build._checked = phased("checked", build._checked)
    build._remake = phased("remake", build._remake, world)
    build._release = phased("release", build._release)
    build._build_in_workers = phased("rows", build._build_in_workers,
                                     lambda pool, batch, *a: world(batch))
    build.card_job = phased("card", build.card_job, lambda *a: "end")


def run(argv: list[str], log: Path) -> float:
    _LOG["fd"] = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND)
    _patch()
    from racbench.cli import run as cli

    start, cpu = time.monotonic(), time.process_time()
    _note("phase", "all|build", start, start, 0.0)
    sys.argv = ["racbench", *argv]
    try:
        cli()
    except SystemExit as exc:
        if exc.code:
            raise
    end = time.monotonic()
    _note("phase", "all|build", start, end, time.process_time() - cpu)
    return end - start


def report(log: Path, workers: int, top: int) -> str:
    rows = [line.split("\t") for line in log.read_text().splitlines()]
    driver = min(int(r[0]) for r in rows if r[1] == "phase")
    jobs = [(r[1], r[2], float(r[3]), float(r[4]), float(r[5])) for r in rows
            if r[1].startswith("job:")]
    phases = [(r[2], float(r[3]), float(r[4]), float(r[5])) for r in rows
              if r[1] == "phase" and int(r[0]) == driver]
    whole = next((p for p in phases if p[0] == "all|build" and p[2] > p[1]), None)
    if whole is None:  # a build still running (or stopped): up to its last phase
        whole = ("all|build", phases[0][1], max(p[2] for p in phases),
                 sum(p[3] for p in phases if p[0].split("|")[1] in
                     ("load_ahead", "probe_pool", "rows")))
    t0, t1 = whole[1], whole[2]
    # the outermost phases that own the time: pools and the serial stretches between
    leaves = sorted((p for p in phases if p[0].split("|")[1] in
                     ("load_ahead", "probe_pool", "rows")), key=lambda p: p[1])
    out = [f"wall {t1 - t0:.1f} s; worker jobs {len(jobs)}, their CPU "
           f"{sum(j[4] for j in jobs):.1f} s, busy {sum(j[3] - j[2] for j in jobs):.1f} s; "
           f"driver CPU {whole[3]:.1f} s"]
    idle = defaultdict(float)
    wall = defaultdict(float)
    last = t0
    for name, start, end, _ in leaves:
        if start > last:  # the driver alone between pools (loads, joins, checks, releases)
            idle["serial (driver alone)"] += (start - last) * (workers - 1)
            wall["serial (driver alone)"] += start - last
        busy = sum(max(0.0, min(end, j[3]) - max(start, j[2])) for j in jobs)
        kind = name.split("|")[1]
        idle[kind] += workers * (end - start) - busy
        wall[kind] += end - start
        last = max(last, end)
    if t1 > last:
        idle["serial (driver alone)"] += (t1 - last) * (workers - 1)
        wall["serial (driver alone)"] += t1 - last
    out.append("| stretch | wall s | idle core-s |")
    out.append("|---|---:|---:|")
    out += [f"| {k} | {wall[k]:.1f} | {idle[k]:.1f} |" for k in sorted(wall, key=wall.get,
                                                                      reverse=True)]
    out.append(f"| all | {t1 - t0:.1f} | {sum(idle.values()):.1f} |")
    out.append("")
    out.append("pools with the most idle core-seconds (tails: the last jobs alone):")
    worst = []
    for name, start, end, _ in leaves:
        busy = sum(max(0.0, min(end, j[3]) - max(start, j[2])) for j in jobs)
        inside = [j for j in jobs if j[2] >= start and j[3] <= end]
        longest = max(inside, key=lambda j: j[3] - j[2], default=None)
        worst.append((workers * (end - start) - busy, name, end - start, len(inside), longest))
    for gap, name, span, n, longest in sorted(worst, reverse=True)[:top]:
        lj = f"{longest[1]} {longest[3] - longest[2]:.1f} s" if longest else "-"
        out.append(f"  {gap:6.1f} idle of {span:6.1f} s  {name}  ({n} jobs; longest {lj})")
    out.append("")
    out.append("longest jobs:")
    for kind, label, start, end, cpu in sorted(jobs, key=lambda j: j[2] - j[3])[:top]:
        out.append(f"  {end - start:6.1f} s wall {cpu:6.1f} CPU  at {start - t0:6.1f}  "
                   f"{kind} {label}")
    out.append("")
    out += simulated(jobs, leaves, phases, whole, workers)
    serial = sorted((p for p in phases if p[0].split("|")[1] in
                     ("prepare", "remake", "release", "join", "checked")),
                    key=lambda p: p[3], reverse=True)
    total = defaultdict(float)
    for name, _, _, cpu in serial:
        total[name.split("|")[1]] += cpu
    out.append("")
    out.append("driver CPU by phase (prepare includes its pools' waits, not their CPU): "
               + ", ".join(f"{k} {v:.1f} s" for k, v in sorted(total.items())))
    return "\n".join(out)


def makespan(costs: list[float], workers: int) -> float:
    """The wall of jobs of these CPU costs handed out in this order to `workers` idle
    workers, each taking the next job as it is free (as Pool.imap gives them out)."""
    free = [0.0] * workers
    for cost in costs:
        free.sort()
        free[0] += cost
    return max(free)


def simulated(jobs: list, leaves: list, phases: list, whole: tuple, workers: int) -> list:
    """The build's wall on `workers` idle cores, from CPU alone (load-free): each pool's
    jobs by their CPU, in the order given out and longest first, plus the driver's CPU
    outside the pools (its CPU inside them overlaps its workers')."""
    pools, longest_first, inside = 0.0, 0.0, 0.0
    per = []
    for name, start, end, cpu in leaves:
        costs = [j[4] for j in sorted(jobs, key=lambda j: j[2]) if start <= j[2] <= end]
        now, best = makespan(costs, workers), makespan(sorted(costs, reverse=True), workers)
        pools, longest_first, inside = pools + now, longest_first + best, inside + cpu
        per.append((now - sum(costs) / workers, name, now, best))
    serial = whole[3] - inside
    lines = [f"on {workers} idle cores (from CPU alone): pools {pools:.1f} s (perfectly "
             f"shared {sum(j[4] for j in jobs) / workers:.1f}; longest first "
             f"{longest_first:.1f}), driver outside pools {serial:.1f} s: about "
             f"{pools + serial:.1f} s wall ({longest_first + serial:.1f} longest first)",
             "pools' tails (makespan - CPU / workers, s):"]
    lines += [f"  {tail:5.1f}  {name}  (makespan {now:.1f}, longest first {best:.1f})"
              for tail, name, now, best in sorted(per, reverse=True)[:10]]
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("recipe")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--configs")
    ap.add_argument("--log", type=Path, help="keep the timeline here (tab-separated)")
    ap.add_argument("--report", type=Path, help="only report on a timeline kept before")
    ap.add_argument("--top", type=int, default=15)
    args = ap.parse_args()
    if args.report:
        print(report(args.report, args.workers, args.top))
        return
    with tempfile.TemporaryDirectory() as tmp:
        log = args.log or Path(tmp) / "timeline.tsv"
        argv = ["build", args.recipe, "--out", str(Path(tmp) / "out"), "--scale",
                str(args.scale), "--workers", str(args.workers), "--quiet"]
        if args.configs:
            argv += ["--configs", args.configs]
        run(argv, log)
        print(report(log, args.workers, args.top))


if __name__ == "__main__":
    main()
