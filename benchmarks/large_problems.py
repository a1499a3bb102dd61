"""Every family, in every form, on problems too big to enumerate (issue 12's figures).

    python benchmarks/large_problems.py                      # the default problem set
    python benchmarks/large_problems.py --rows 40 --problems ferry:p14,satellite:p15
    python benchmarks/large_problems.py --families projection,landmarks --forms bool

A problem is `domain:pNN` (a shipped problem) or `DOMAIN_FILE:PROBLEM_FILE`. Each is
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
import resource
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
           f"{PDDL}/logistics00/domain.pddl:{PDDL}/logistics00/probLOGISTICS-6-0.pddl")


def problem_files(spec: str) -> tuple[str, str]:
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
    for spec in args.problems.split(","):
        domain_file, problem_file = problem_files(spec)
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
