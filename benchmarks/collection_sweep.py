"""Sweep a folder of competition domains: every family built at 20 true/false rows.

    python benchmarks/collection_sweep.py /work/fd_collection [--rows 20] [--timeout 30]
                                          [--domains satellite,scanalyzer] [--families ...]
                                          [--forms bool,mc,open] [--cpu-timeout 60]

The folder holds one sub-folder per domain: ``domain.pddl`` and its problems (``*.pddl``,
or ``problems/*.pddl``). The first problem (sorted by name) is the domain's first one;
where there are more, the last should be the problem a quarter of the way up the
domain's list (p05 of 20, p09 of 36). The collection is not stored in the repository:
gather such folders from public copies of it (tests/data/competition/README.md names
the ones its few stored files come from).

Per domain: the read time (domain + first problem) and the ground time, ground actions
and fluent atoms, or the reader's refusal. Then per family and problem, each build of
`--rows` rows of each form of `--forms` the family has (bool by default;
racbench.generate, seed 0) in a process of its own, stopped after `--timeout` seconds
(or `--cpu-timeout` seconds of its CPU):

- ``built`` (with its seconds, and the CPU seconds of its process: the machine may be
  shared),
- ``refused: <reason>``, a GenerationError naming a reason of the question (no subject
  whose answer depends on the state, an unreachable goal...), shortened to its kind,
- ``OURS: <message>``, a GenerationError that is a limit of ours, not of the question
  ("ask for fewer rows" at a number of rows any mid-size problem should give),
- ``failed: <message>``, any other exception (a construct we cannot read, a crash),
- ``timeout``.

The last lines sum each outcome and list the builds that were ours or failed.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import queue
import re
import resource
import time
from collections import Counter
from pathlib import Path

import racbench
import racbench.api  # noqa: F401  (imported once, before the builds' processes fork)
import racbench.export.build  # noqa: F401
from racbench.errors import GenerationError
from racbench.tasks import FAMILIES, OWN_CONFIG
from racbench.worlds.strips.grounding import ground
from racbench.worlds.strips.pddl_reader import load_domain, load_problem

BOOL_FAMILIES = tuple(name for name, f in FAMILIES.items()
                      if "bool" in f.forms and name not in OWN_CONFIG)

# GenerationError messages, by the reason they give: (pattern, short name, ours?)
REASONS = (
    (r"offer at most \d+ distinct", "the problem holds fewer distinct rows", False),
    (r"ask for (fewer|at most)", "too few distinct rows", True),
    (r"could not sample", "could not sample a row", True),
    (r"cannot be reached from the initial state", "goal unreachable", False),
    (r"whose answer depends on the state", "no subject whose answer depends on the state",
     False),
    (r"multiple-choice", "no balanced options", False),
    (r"search.budget|--search-budget", "beyond the search budget", False),
)


def problems_of(folder: Path) -> list[Path]:
    where = folder / "problems" if (folder / "problems").is_dir() else folder
    found = sorted(p for p in where.glob("*.pddl") if p.name != "domain.pddl")
    return found[:1] + found[-1:] if len(found) > 1 else found


def reason(message: str) -> tuple[str, bool]:
    """A GenerationError's short reason and whether it is a limit of ours."""
    for pattern, name, ours in REASONS:
        if re.search(pattern, message):
            return name, ours
    return " ".join(message.split())[:70], True


def _build(family, form, domain_file, problem, rows, out, cpu_limit):
    if cpu_limit:  # the kernel stops the build past this much CPU (SIGXCPU)
        resource.setrlimit(resource.RLIMIT_CPU, (int(cpu_limit), int(cpu_limit) + 1))
    start = time.perf_counter()
    try:
        racbench.generate(family, domain_file=domain_file, problem=[problem], n=rows,
                          form=form, seed=0)
        out.put(("built", f"{time.process_time():.1f} s CPU", time.perf_counter() - start))
    except GenerationError as exc:
        out.put(("generation", str(exc), time.perf_counter() - start))
    except Exception as exc:  # a crash is a finding, reported
        out.put(("failed", f"{type(exc).__name__}: {' '.join(str(exc).split())[:100]}",
                 time.perf_counter() - start))


def build(family: str, form: str, domain_file: Path, problem: Path, rows: int,
          timeout: float, cpu_limit: float | None = None):
    """(outcome, text, seconds) of one build in a process of its own."""
    ctx = mp.get_context("fork")
    out = ctx.Queue()
    proc = ctx.Process(target=_build,
                       args=(family, form, domain_file, problem, rows, out, cpu_limit))
    start = time.perf_counter()
    proc.start()
    while True:
        try:
            kind, text, seconds = out.get(timeout=1)
            break
        except queue.Empty:
            if time.perf_counter() - start > timeout:
                kind, text, seconds = "timeout", f"over {timeout:.0f} s", timeout
                break
            if not proc.is_alive() and out.empty():  # stopped at its CPU limit
                kind, text = "timeout", f"over {cpu_limit:.0f} s CPU"
                seconds = time.perf_counter() - start
                break
    proc.join(1)
    if proc.is_alive():
        proc.kill()
        proc.join()
    if kind == "generation":
        name, ours = reason(text)
        kind, text = ("ours", " ".join(text.split())[:110]) if ours else ("refused", name)
    return kind, text, seconds


def read(folder: Path, problem: Path) -> str:
    try:
        start = time.perf_counter()
        domain = load_domain(folder / "domain.pddl")
        prob = load_problem(problem, domain)
        read_s = time.perf_counter() - start
        start = time.perf_counter()
        task = ground(domain, prob)
        ground_s = time.perf_counter() - start
    except Exception as exc:  # a refusal is a finding, printed
        return f"refused: {' '.join(str(exc).split())[:100]}"
    return (f"read {1000 * read_s:.0f} ms, ground {1000 * ground_s:.0f} ms, "
            f"{len(task.actions)} actions, {len(task.atoms)} atoms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--rows", type=int, default=20)
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds per build")
    ap.add_argument("--cpu-timeout", type=float, default=None,
                    help="CPU seconds per build (on a shared machine, where wall time says "
                         "little); --timeout still bounds its wall time")
    ap.add_argument("--domains", default="", help="comma-separated sub-folders (default: all)")
    ap.add_argument("--families", default=",".join(BOOL_FAMILIES))
    ap.add_argument("--forms", default="bool",
                    help="comma-separated forms (bool, mc, open), each where the family has it")
    args = ap.parse_args()
    wanted = [d for d in args.domains.split(",") if d]
    folders = [f for f in sorted(args.folder.iterdir())
               if (f / "domain.pddl").is_file() and (not wanted or f.name in wanted)]
    families = [f for f in args.families.split(",") if f]
    forms = [f for f in args.forms.split(",") if f]
    totals: Counter = Counter()
    findings = []
    start = time.perf_counter()
    for folder in folders:
        problems = problems_of(folder)
        if not problems:
            print(f"{folder.name}: no problem file", flush=True)
            continue
        print(f"{folder.name}: {read(folder, problems[0])}", flush=True)
        for problem in problems:
            for family, form in ((f, m) for f in families for m in forms
                                 if m in FAMILIES[f].forms):
                kind, text, seconds = build(family, form, folder / "domain.pddl", problem,
                                            args.rows, args.timeout, args.cpu_timeout)
                totals[kind] += 1
                shown = f"built ({seconds:.1f} s, {text})" if kind == "built" else \
                    f"{'OURS' if kind == 'ours' else kind}: {text}"
                print(f"  {problem.stem:>8} {family:<20} {form:<4} {shown}", flush=True)
                if kind in ("ours", "failed", "timeout"):
                    findings.append(f"{folder.name}/{problem.stem} {family} {form}: {kind}: "
                                    f"{text}")
    print(f"\n{sum(totals.values())} builds in {time.perf_counter() - start:.0f} s: "
          + ", ".join(f"{totals[k]} {k}" for k in ("built", "refused", "ours", "failed",
                                                    "timeout")))
    for line in findings:
        print(f"  {line}")


if __name__ == "__main__":
    main()
