"""ADL domains (tests/data/adl/): reading and grounding times, six families' rows/s and
their verification, and what unified-planning and the `pddl` library read of the files.

    python benchmarks/adl_domains.py [--rows 20] [--repeat 20] [--no-verify]
                                     [--domains elevator,...] [--families projection,...]

Per problem: racbench's read (domain + problem) and ground times (best of --repeat),
ground actions (how many keep alternative preconditions or conditional effects),
reachable states; then whether unified-planning's PDDLReader and the `pddl` library
(pddl.parse_domain / parse_problem) read the same files, with their read times (after
one warm-up read) or the first words of their refusal. Per domain and family (bool, mc
and open forms): rows/s of racbench.generate over the domain's problems and, unless --no-verify, how
many rows `racbench verify` (unified-planning + Fast Downward) agrees with.
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import racbench
from racbench.checks.verify import verify_row
from racbench.worlds.strips.grounding import ground
from racbench.worlds.strips.pddl_reader import load_domain, load_problem
from racbench.worlds.strips.search import StateSpace
from racbench.worlds.strips.task import AdlAction

ADL = Path(__file__).resolve().parents[1] / "tests" / "data" / "adl"
DOMAINS = ("elevator", "scheduling", "assembly", "household")
FAMILIES = ("projection", "executability", "planning", "applicability", "progression",
            "validation")
FORMS = ("bool", "mc", "open")


def best(fn, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def other_reader(read) -> str:
    """'ok 12.3 ms' or 'refused: <first words of the error>'."""
    try:
        t = time.perf_counter()
        read()
        return f"ok {1000 * (time.perf_counter() - t):.1f} ms"
    except Exception as exc:  # any refusal is a finding, printed
        return f"refused: {type(exc).__name__}: {' '.join(str(exc).split())[:70]}"


def read_and_ground(repeat: int, domains) -> None:
    from pddl import parse_domain as pddl_domain
    from pddl import parse_problem as pddl_problem
    from unified_planning.io import PDDLReader

    first = ADL / domains[0]
    other_reader(lambda: PDDLReader().parse_problem(str(first / "domain.pddl"),
                                                    str(first / "problems" / "p01.pddl")))
    print(f"{'problem':<22}{'read ms':>9}{'ground ms':>10}{'actions':>9}{'adl':>5}"
          f"{'states':>8}  unified-planning | pddl library")
    for domain in domains:
        dfile = ADL / domain / "domain.pddl"
        for pfile in sorted((ADL / domain / "problems").glob("*.pddl")):
            def read():
                dom = load_domain(dfile)
                return dom, load_problem(pfile, dom)

            t_read, (dom, prob) = best(read, repeat)
            t_ground, task = best(lambda: ground(dom, prob), repeat)
            adl = sum(isinstance(a, AdlAction) for a in task.actions)
            states = len(StateSpace(task, task.init, 200_000))
            up = other_reader(lambda: PDDLReader().parse_problem(str(dfile), str(pfile)))
            lib = other_reader(lambda: (pddl_domain(dfile), pddl_problem(pfile)))
            print(f"{domain + ':' + pfile.stem:<22}{1000 * t_read:>9.2f}{1000 * t_ground:>10.2f}"
                  f"{len(task.actions):>9}{adl:>5}{states:>8}  {up} | {lib}")


def families(rows: int, verify: bool, domains, names) -> None:
    print(f"\n{'domain':<12}{'family':<15}" + "".join(f"{f + ' rows/s':>14}" for f in FORMS)
          + ("   verify (agree/rows, unchecked)" if verify else ""))
    for domain in domains:
        problems = sorted((ADL / domain / "problems").glob("*.pddl"))
        for family in names:
            speeds, agree, total, unchecked = [], 0, 0, 0
            for form in FORMS:
                t = time.perf_counter()
                made = racbench.generate(family, domain_file=ADL / domain / "domain.pddl",
                                         problem=problems, n=rows, form=form, seed=0)
                speeds.append(len(made) / (time.perf_counter() - t))
                if verify:
                    for row in made:
                        check = verify_row(row, optimal=True)
                        total += 1
                        agree += check.ok and not check.unchecked
                        unchecked += bool(check.unchecked)
            line = f"{domain:<12}{family:<15}" + "".join(f"{s:>14.0f}" for s in speeds)
            if verify:
                line += f"   {agree}/{total}, {unchecked}"
            print(line)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=20, help="rows per family and form (even)")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--no-verify", action="store_true")
    ap.add_argument("--domains", default=",".join(DOMAINS))
    ap.add_argument("--families", default=",".join(FAMILIES))
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    domains = args.domains.split(",")
    read_and_ground(args.repeat, domains)
    families(args.rows, not args.no_verify, domains, args.families.split(","))


if __name__ == "__main__":
    main()
