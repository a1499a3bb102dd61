"""Verify coverage per domain: rows checked by each engine (unified-planning, Fast
Downward's search, the finite-domain stepper over Fast Downward's translation), rows
left unchecked, mismatches, and the time verification took (rows are built first, and
their build is not timed).

    python benchmarks/verify_coverage.py                       # the competition test files
    python benchmarks/verify_coverage.py --rows 4 --families projection,landmarks
    python benchmarks/verify_coverage.py --domain-dir tests/data/adl/elevator

A domain folder holds ``domain.pddl`` and ``p01.pddl`` (or ``problems/*.pddl``, the
first is used). Families a problem cannot pose (GenerationError) are listed apart.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

import racbench
from racbench.checks.verify import verify_row
from racbench.errors import GenerationError

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DIRS = [ROOT / "tests" / "data" / "competition" / d
                for d in ("citycar", "openstacks", "scanalyzer")]
FAMILIES = ("applicability", "progression", "projection", "executability", "validation",
            "planning", "goal_recognition", "reachability", "action_reachability",
            "landmarks", "next_action", "justification")
ENGINES = ("unified-planning", "fd-search", "fd-stepper")


def problem_of(folder: Path) -> Path:
    problems = sorted((folder / "problems").glob("*.pddl")) or [folder / "p01.pddl"]
    return problems[0]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=2, help="bool rows per family (even: labels are 50/50)")
    ap.add_argument("--families", default=",".join(FAMILIES))
    ap.add_argument("--domain-dir", action="append", default=[],
                    help="a domain folder (repeatable; default: the competition test files)")
    ap.add_argument("--fd-timeout", type=float, default=120.0)
    args = ap.parse_args()
    folders = [Path(d) for d in args.domain_dir] or DEFAULT_DIRS
    families = [f for f in args.families.split(",") if f]
    print(f"{'domain':<12} {'rows':>5} " + " ".join(f"{e:>16}" for e in ENGINES)
          + f" {'unchecked':>9} {'mismatch':>8} {'verify s':>9}  refused families")
    for folder in folders:
        engines: Counter = Counter()
        rows = unchecked = mismatching = 0
        seconds = 0.0
        refused = []
        for family in families:
            try:
                made = racbench.generate(family, domain_file=folder / "domain.pddl",
                                         problem=[problem_of(folder)], n=args.rows,
                                         form="bool", seed=11)
            except GenerationError:
                refused.append(family)
                continue
            start = time.perf_counter()
            for row in made:
                check = verify_row(row, optimal=True, fd_timeout=args.fd_timeout)
                rows += 1
                engines.update(check.engines)
                unchecked += bool(check.unchecked)
                mismatching += not check.ok
            seconds += time.perf_counter() - start
        print(f"{folder.name:<12} {rows:>5} " + " ".join(f"{engines[e]:>16}" for e in ENGINES)
              + f" {unchecked:>9} {mismatching:>8} {seconds:>9.1f}  {','.join(refused) or '-'}",
              flush=True)


if __name__ == "__main__":
    main()
