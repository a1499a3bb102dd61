"""Every family, in every form, on problems too big to enumerate (issue 12's figures).

    python benchmarks/large_problems.py                      # the default problem set
    python benchmarks/large_problems.py --rows 40 --problems ferry:p14,satellite:p15
    python benchmarks/large_problems.py --families projection,landmarks --forms bool

A problem is `domain:pNN` (a shipped problem), `DOMAIN_FILE:PROBLEM_FILE`, or
`generated:gripper-N` / `generated:blocksworld-N` (N objects, written here: gripper
with N-4 balls has over 10^8 reachable states from N = 25, blocksworld from N = 13,
so these are the problems "with more than 10^8 states"). Each is
loaded once (enumeration is tried up to the limit, then the problem is an implicit
world: answers by bounded search, see racbench/worlds/strips/world.py); then for each
family and form a one-config generator is built (its problem surveyed: "setup") and
`--rows` rows are made ("rows/s", one core, wall clock; "cpu rows/s" counts this
process's CPU time only, the figure to read on a machine others are using). Refusals
are printed with their reason. Peak memory is this process's resident maximum.
"""

from __future__ import annotations

import argparse
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
from racbench.tasks.rows import ConfigRows  # noqa: E402
from racbench.worlds.strips import limits  # noqa: E402
from racbench.worlds.strips.shipped import shipped_files  # noqa: E402
from racbench.worlds.strips.world import world_for  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PDDL = ROOT / "tests" / "data" / "pddl"
DEFAULT = ("ferry:p14,floortile:p14,satellite:p15,swap:p14,"
           f"{PDDL}/depot/domain.pddl:{PDDL}/depot/p03.pddl,"
           f"{PDDL}/logistics00/domain.pddl:{PDDL}/logistics00/probLOGISTICS-6-0.pddl,"
           "generated:gripper-30,generated:blocksworld-30")


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
    domain_file, (problem_file,) = shipped_files(first, [second])
    return str(domain_file), str(problem_file)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--problems", default=DEFAULT)
    ap.add_argument("--families", default="")
    ap.add_argument("--forms", default="bool,mc,open")
    ap.add_argument("--rows", type=int, default=20)
    ap.add_argument("--max-enumerated-states", type=int, default=None,
                    help="lower the enumeration limit (e.g. 10: small problems go implicit)")
    args = ap.parse_args()
    limits.set_limits(max_enumerated_states=args.max_enumerated_states)
    families = args.families.split(",") if args.families else [
        f for f in FAMILIES if "strips" in FAMILIES[f].worlds]
    forms = args.forms.split(",")
    slowest: tuple[float, str] = (float("inf"), "")
    folder = Path(tempfile.mkdtemp(prefix="racbench-large-"))
    for spec in args.problems.split(","):
        domain_file, problem_file = problem_files(spec, folder)
        start = time.perf_counter()
        world = world_for(domain_file, problem_file, implicit=True)
        kind = (f"{world.n_states} states, enumerated" if world.explicit
                else "implicit (more states than the enumeration limit)")
        print(f"\n== {Path(problem_file).stem} of {Path(domain_file).parent.name}: "
              f"{len(world.objects)} objects, {len(world.task.atoms)} atoms, "
              f"{len(world.task.actions)} ground actions, {kind}; loaded in "
              f"{time.perf_counter() - start:.1f} s")
        print(f"{'family':22} {'form':5} {'setup s':>8} {'rows/s':>8} {'cpu rows/s':>10}")
        for family in families:
            for form in forms:
                if form not in FAMILIES[family].forms:
                    continue
                cfg = TaskConfig(family=family, domain_file=domain_file, form=form,
                                 lengths=(2,), problems={"test": [problem_file]})
                start = time.perf_counter()
                try:
                    gen = ConfigRows(f"large_{family}_{form}", cfg, 0, ("test",))
                    setup = time.perf_counter() - start
                    start, cpu = time.perf_counter(), time.process_time()
                    for i in range(args.rows):
                        gen.row("test", i, i)
                except GenerationError as exc:
                    print(f"{family:22} {form:5} refused: {str(exc)[:160]}")
                    continue
                rate = args.rows / (time.perf_counter() - start)
                cpu_rate = args.rows / max(time.process_time() - cpu, 1e-9)
                slowest = min(slowest, (cpu_rate, f"{family} {form} on {spec}"))
                print(f"{family:22} {form:5} {setup:8.1f} {rate:8.1f} {cpu_rate:10.1f}",
                      flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\nslowest: {slowest[1]} at {slowest[0]:.1f} rows/s of CPU; peak memory "
          f"{peak:.0f} MiB")


if __name__ == "__main__":
    main()
