"""Every family, in every form, on problems too big to enumerate (issue 12's figures).

    python benchmarks/large_problems.py                      # the whole set, one table
    python benchmarks/large_problems.py --rows 40 --problems ferry:p14,satellite:p15
    python benchmarks/large_problems.py --families projection,landmarks --forms bool

The whole set (the default, `--problems all`): the largest shipped problem of each of
the 13 shipped domains (most objects, then most ground actions, then the later file),
satellite p15 (the slowest in earlier figures), the largest file of each domain in
../shared/pddl (planning-competition files nobody here wrote), and two problems written
here with more than 10^8 reachable states.

A problem is `domain:pNN` (a shipped problem), `domain:largest`, `DOMAIN_FILE:PROBLEM_FILE`,
or `generated:gripper-N` / `generated:blocksworld-N` (N objects, written here: gripper
with N-4 balls has over 10^8 reachable states from N = 25, blocksworld from N = 13).
Each is loaded once (enumeration is tried up to the limit, then the problem is an
implicit world: answers by bounded search, see racbench/worlds/strips/world.py); then
each family and form runs in a process forked from there, so it starts from the loaded
world and nothing another family computed: a one-config generator is built (its
problem surveyed: "setup", CPU seconds) and `--rows` rows are made ("cpu rows/s": this
process's CPU time only, the figure to read on a machine others are using). "dropped"
counts questions given up because a search ran out of budget (what the card reports:
while drawing rows; "+N" more while surveying). An mc config whose survey found no exact
option sets (balance.pick_weighted) also prints how many of its surveyed situations
offered four options seen both right and wrong: a row draws fresh situations until one
does, so a rare share makes its rows slow whatever the search costs (justification on
swap p14, about 1 in 250, made 1.3 rows a CPU-second before the build refused it: see
racbench/tasks/balance.py). "peak MiB" is the forked process's
resident maximum, the loaded world included. "distinct" counts the different problems
among the rows (a build redraws repeats, and refuses a config whose world offers too
few: a config here with fewer distinct problems than rows may not build at that size).
A config that takes more than `--timeout` seconds (wall) is stopped and reported as
such; refusals print their reason.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import resource
import tempfile
import time
from pathlib import Path

for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")  # as the CLI does: one core, no BLAS threads

from racbench.errors import GenerationError  # noqa: E402
from racbench.tasks import FAMILIES  # noqa: E402
from racbench.tasks.config import TaskConfig  # noqa: E402
from racbench.tasks.next_observation import NAME as NEXT_OBSERVATION  # noqa: E402
from racbench.tasks.next_observation import NextObservationConfig  # noqa: E402
from racbench.tasks.rows import ConfigRows  # noqa: E402
from racbench.worlds.strips import limits  # noqa: E402
from racbench.worlds.strips.budget import take_dropped  # noqa: E402
from racbench.worlds.strips.grounding import ground  # noqa: E402
from racbench.worlds.strips.pddl_reader import parse_problem, read_pddl_text  # noqa: E402
from racbench.worlds.strips.shipped import (shipped_domains, shipped_files,  # noqa: E402
                                            shipped_problem_names)
from racbench.worlds.strips.world import domain_text, world_for  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "pddl"
# the largest file of each domain in ../shared/pddl
SHARED_LARGEST = ("blocks/probBLOCKS-8-0.pddl", "depot/p03.pddl", "gripper/prob03.pddl",
                  "logistics00/probLOGISTICS-6-0.pddl")
GENERATED = ("generated:gripper-30", "generated:blocksworld-30")
EXTRA = ("satellite:p15",)  # not the largest satellite problem, but the slowest before


def whole_set() -> list[str]:
    shipped = [f"{d}:largest" for d in sorted(shipped_domains()) if shipped_domains()[d]["problems"]]
    shared = [f"{SHARED / f.split('/')[0] / 'domain.pddl'}:{SHARED / f}" for f in SHARED_LARGEST
              if (SHARED / f).exists()]
    return shipped + list(EXTRA) + shared + list(GENERATED)


def largest(domain: str) -> str:
    """The shipped problem of `domain` with the most objects, then the most ground
    actions, then the later file."""
    domain_file, problems = shipped_files(domain, shipped_problem_names(domain))
    _, parsed = domain_text(domain_file)

    def size(path: str) -> tuple[int, int, str]:
        problem = parse_problem(read_pddl_text(path), parsed, path)
        return len(problem.objects), len(ground(parsed, problem).actions), path

    return max(problems, key=size)


def _gripper(n: int, rng: random.Random) -> str:
    balls = [f"ball{i}" for i in range(1, n - 3)]
    init = [f"(at {b} {rng.choice(['room1', 'room2'])})" for b in balls]
    goal = [f"(at {b} {rng.choice(['room1', 'room2'])})" for b in balls]
    return (f"(define (problem gripper-{n}) (:domain gripper)\n"
            f"(:objects room1 room2 - room left right - gripper {' '.join(balls)} - ball)\n"
            f"(:init (robot-at room1) (free left) (free right) {' '.join(init)})\n"
            f"(:goal (and {' '.join(goal)})))\n")


def _blocksworld(n: int, rng: random.Random) -> str:
    def towers() -> list[list[str]]:
        blocks = [f"b{i}" for i in range(1, n + 1)]
        rng.shuffle(blocks)
        out: list[list[str]] = []
        for b in blocks:
            if not out or rng.random() < 0.3:
                out.append([b])
            else:
                out[-1].append(b)
        return out
    start, end = towers(), towers()
    init = ([f"(on-table {t[0]})" for t in start] + [f"(clear {t[-1]})" for t in start] +
            [f"(on {t[i]} {t[i - 1]})" for t in start for i in range(1, len(t))])
    goal = [f"(on {t[i]} {t[i - 1]})" for t in end for i in range(1, len(t))]
    return (f"(define (problem blocksworld-{n}) (:domain blocksworld)\n"
            f"(:objects {' '.join(f'b{i}' for i in range(1, n + 1))} - block)\n"
            f"(:init (hand-empty) {' '.join(init)})\n(:goal (and {' '.join(goal)})))\n")


def generated(spec: str, folder: Path) -> tuple[str, str]:
    """A problem written here from `generated:DOMAIN-N`, of a shipped domain."""
    domain, n = spec.split(":", 1)[1].rsplit("-", 1)
    text = {"gripper": _gripper, "blocksworld": _blocksworld}[domain](
        int(n), random.Random(spec))
    problem = folder / f"{domain}-{n}.pddl"
    problem.write_text(text)
    domain_file, _ = shipped_files(domain, [])
    return domain_file, str(problem)


def problem_files(spec: str, folder: Path) -> tuple[str, str]:
    if spec.startswith("generated:"):
        return generated(spec, folder)
    first, second = spec.rsplit(":", 1)
    if first.endswith(".pddl"):
        return first, second
    if second == "largest":
        return shipped_files(first, [])[0], largest(first)
    domain_file, (problem_file,) = shipped_files(first, [second])
    return str(domain_file), str(problem_file)


def problem_name(domain_file: str, problem_file: str) -> str:
    return f"{Path(domain_file).parent.name} {Path(problem_file).stem}"


def shipped_name(domain_file: str, problem_file: str) -> tuple[str, str] | None:
    """(domain, pNN) if the files are a shipped problem's, else None."""
    for domain in shipped_domains():
        first, (second,) = shipped_files(domain, [Path(problem_file).stem])
        if Path(first) == Path(domain_file) and Path(second) == Path(problem_file):
            return domain, Path(problem_file).stem
    return None


def generator(family: str, form: str, domain_file: str, problem_file: str, prefix: str):
    """A one-config generator of `family` in `form` over one problem's test split
    (next_observation, configured apart from the other families, names a shipped
    problem by name, other files as `domain_file`; three distractors, as its own
    benchmark asks)."""
    if family == NEXT_OBSERVATION:
        shipped = shipped_name(domain_file, problem_file)
        world = ({"domain": shipped[0], "problems": {"test": (shipped[1],)}} if shipped else
                 {"domain_file": str(domain_file), "problems": {"test": (str(problem_file),)}})
        cfg = NextObservationConfig(form=form, distractors=3, **world).validate()
        return cfg.rows(f"{prefix}_{family}_{form}", 0, ("test",))
    cfg = TaskConfig(family=family, domain_file=domain_file, form=form,
                     lengths=(2,), problems={"test": [problem_file]})
    return ConfigRows(f"{prefix}_{family}_{form}", cfg, 0, ("test",))


def _measure(family: str, form: str, domain_file: str, problem_file: str, rows: int,
             out) -> None:
    """In a forked process: build one config's generator, make its rows, send figures."""
    cpu0 = time.process_time()
    try:
        gen = generator(family, form, domain_file, problem_file, "large")
        setup = time.process_time() - cpu0
        setup_dropped = take_dropped()
        dropped, keys = 0, set()
        cpu = time.process_time()
        for i in range(rows):
            row = gen.row("test", i, i)
            dropped += row.dropped
            keys.add(row.key)
        cpu = time.process_time() - cpu
    except GenerationError as exc:
        out.send({"refused": " ".join(str(exc).split())})
        return
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    weighted = [s for s in getattr(gen, "_world_survey", {}).values() if not s.exact]
    out.send({"setup": setup, "cpu_rate": rows / max(cpu, 1e-9), "dropped": dropped,
              "setup_dropped": setup_dropped, "peak": peak, "distinct": len(keys),
              "usable": [sum(s.usable for s in weighted), sum(len(s.right) for s in weighted)]
              if weighted else None})


def measure(family: str, form: str, domain_file: str, problem_file: str, rows: int,
            timeout: float) -> dict:
    """`_measure` in a process forked from here (the world already loaded), stopped
    after `timeout` seconds of wall clock."""
    receive, send = multiprocessing.Pipe(duplex=False)
    worker = multiprocessing.get_context("fork").Process(
        target=_measure, args=(family, form, domain_file, problem_file, rows, send))
    worker.start()
    send.close()
    found = receive.poll(timeout)
    result = receive.recv() if found else {"timeout": timeout}
    worker.kill() if not found else None
    worker.join()
    if found is False or result is None:
        return result or {"timeout": timeout}
    return result


def warm_up(families: list[str], forms: list[str]) -> None:
    """A row of each family and form on a small problem, here before any fork: templates
    are compiled once per process, and no config's figures should pay for that."""
    domain_file, (problem_file,) = shipped_files("gripper", ["p01"])
    for family in families:
        for form in forms:
            if form in FAMILIES[family].forms:
                try:
                    generator(family, form, domain_file, problem_file, "warm").row("test", 0, 0)
                except GenerationError:
                    pass


def cell(result: dict) -> str:
    if "refused" in result:
        return f"refused: {result['refused'][:110]}"
    if "timeout" in result:
        return f"stopped after {result['timeout']:.0f} s (wall)"
    extra = f"+{result['setup_dropped']}" if result["setup_dropped"] else ""
    return (f"{result['setup']:8.1f} {result['cpu_rate']:10.1f} "
            f"{str(result['dropped']) + extra:>8} {result['peak']:8.0f} {result['distinct']:>8}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--problems", default="all",
                    help="comma-separated problems (see above), or 'all' (the whole set)")
    ap.add_argument("--families", default="")
    ap.add_argument("--forms", default="bool,mc,open")
    ap.add_argument("--rows", type=int, default=20)
    ap.add_argument("--timeout", type=float, default=900.0,
                    help="seconds (wall) one config may take, setup and rows")
    ap.add_argument("--json", default="", help="also write one JSON line per config here")
    ap.add_argument("--max-enumerated-states", type=int, default=None,
                    help="lower the enumeration limit (e.g. 10: small problems go implicit)")
    args = ap.parse_args()
    limits.set_limits(max_enumerated_states=args.max_enumerated_states)
    planning = [f for f in FAMILIES if "strips" in FAMILIES[f].worlds]
    families = args.families.split(",") if args.families else planning
    if not set(families) <= set(planning):  # rule-world families, typos: refused by name
        ap.error(f"--families: {', '.join(sorted(set(families) - set(planning)))} not "
                 f"families of planning problems; accepted: {', '.join(planning)}")
    forms = args.forms.split(",")
    specs = whole_set() if args.problems == "all" else args.problems.split(",")
    folder = Path(tempfile.mkdtemp(prefix="racbench-large-"))
    warm_up(families, forms)
    log = open(args.json, "a") if args.json else None
    slowest: tuple[float, str] = (float("inf"), "")
    print(f"{'problem':24} {'family':20} {'form':5} {'setup s':>8} {'cpu rows/s':>10} "
          f"{'dropped':>8} {'peak MiB':>8} {'distinct':>8}")
    for spec in specs:
        domain_file, problem_file = problem_files(spec, folder)
        name = problem_name(domain_file, problem_file)
        start = time.process_time()
        world = world_for(domain_file, problem_file, implicit=True)
        kind = (f"{world.n_states} states, enumerated" if world.explicit
                else "implicit: more states than the enumeration limit")
        print(f"-- {name}: {len(world.objects)} objects, {len(world.task.atoms)} atoms, "
              f"{len(world.task.actions)} ground actions; {kind}; loaded in "
              f"{time.process_time() - start:.1f} s CPU", flush=True)
        for family in families:
            for form in forms:
                if form not in FAMILIES[family].forms:
                    continue
                result = measure(family, form, domain_file, problem_file, args.rows,
                                 args.timeout)
                print(f"{name:24} {family:20} {form:5} {cell(result)}", flush=True)
                if result.get("usable"):
                    usable, drawn = result["usable"]
                    print(f"{'':24} mc options by weighted draws: {usable} of {drawn} surveyed "
                          f"situations offer four (a row draws until one does)", flush=True)
                if log:
                    log.write(json.dumps({"problem": name, "family": family, "form": form,
                                          "explicit": world.explicit, **result}) + "\n")
                    log.flush()
                if "cpu_rate" in result:
                    slowest = min(slowest, (result["cpu_rate"], f"{family} {form} on {name}"))
                elif "timeout" in result:
                    slowest = (0.0, f"{family} {form} on {name} (stopped)")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    speed = (f"slowest: {slowest[1]} at {slowest[0]:.1f} rows/s of CPU" if slowest[1]
             else "no config built")
    print(f"\n{speed}; peak memory of any config {peak:.0f} MiB")


if __name__ == "__main__":
    main()
