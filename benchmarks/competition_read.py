"""Read time per domain: every folder under tests/data/{pddl,adl,competition} and
racbench/data/domains, its domain file and its first problem (sorted by name).

    python benchmarks/competition_read.py [--repeat 5]

Per folder: the read time (domain + first problem, best of --repeat), the ground time,
ground actions and fluent atoms, derived predicates (their ground rules) and actions
keeping alternatives; a refusal prints its one-line message instead. The last line
sums the read times.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from racbench.worlds.strips.grounding import ground
from racbench.worlds.strips.pddl_reader import load_domain, load_problem

ROOT = Path(__file__).resolve().parents[1]
COLLECTIONS = ("tests/data/pddl", "tests/data/adl", "tests/data/competition",
               "racbench/data/domains")


def folders():
    for collection in COLLECTIONS:
        for folder in sorted((ROOT / collection).iterdir()):
            if (folder / "domain.pddl").is_file():
                yield collection, folder


def first_problem(folder: Path) -> Path | None:
    where = folder / "problems" if (folder / "problems").is_dir() else folder
    problems = sorted(p for p in where.glob("*.pddl") if p.name != "domain.pddl")
    return problems[0] if problems else None


def best(fn, repeat: int):
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    total = 0.0
    print(f"{'folder':44} {'read ms':>8} {'ground ms':>9} {'actions':>8} {'atoms':>6} "
          f"{'rules':>6} {'alt':>4}")
    for collection, folder in folders():
        name = f"{collection.split('/')[-1]}/{folder.name}"
        problem = first_problem(folder)
        if problem is None:
            print(f"{name:44} no problem file")
            continue

        def read():
            domain = load_domain(folder / "domain.pddl")
            return domain, load_problem(problem, domain)

        try:
            seconds, (domain, prob) = best(read, args.repeat)
            total += seconds
            ground_s, task = best(lambda: ground(domain, prob), 1)
        except Exception as exc:  # a refusal is a finding, printed
            print(f"{name:44} refused: {' '.join(str(exc).split())[:90]}")
            continue
        rules = len(task.axioms.rules) if task.axioms else 0
        alternatives = sum(1 for a in task.actions if len(a.clauses) > 1)
        print(f"{name:44} {1000 * seconds:8.1f} {1000 * ground_s:9.1f} "
              f"{len(task.actions):8d} {len(task.atoms):6d} {rules:6d} {alternatives:4d}")
    print(f"read time, all folders: {total:.2f} s")


if __name__ == "__main__":
    main()
