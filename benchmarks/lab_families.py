"""Rows per second of the task families on the science lab (one process).

    python benchmarks/lab_families.py                          # boil, every lab family
    python benchmarks/lab_families.py --rows 200 --tasks boil,melt,power-component
    python benchmarks/lab_families.py --form mc --families projection

Each (task, family) is a true/false config over the task's variations of one split;
rows are timed after the generator is built (its problems surveyed), which is reported
separately, as benchmarks/acp_families.py does for the STRIPS domains.
"""

from __future__ import annotations

import argparse
import time

from racbench.tasks import FAMILIES
from racbench.tasks.config import TaskConfig
from racbench.tasks.rows import ConfigRows, GenerationError


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100)
    ap.add_argument("--split", default="test")
    ap.add_argument("--form", default="bool")
    ap.add_argument("--tasks", default="boil")
    ap.add_argument("--families", default="")
    args = ap.parse_args()
    families = (args.families.split(",") if args.families else
                [f for f, fam in FAMILIES.items() if "science" in fam.worlds])
    print(f"rows/s after setup ({args.split} variations, form {args.form}); setup s in brackets")
    for task in args.tasks.split(","):
        cells = []
        for family in families:
            cfg = TaskConfig(family, form=args.form, science=task)
            t0 = time.perf_counter()
            try:
                gen = ConfigRows(f"{task}_{family}", cfg, 0, (args.split,))
            except GenerationError as exc:
                print(f"  {task} {family}: {exc}", flush=True)
                continue
            t1 = time.perf_counter()
            for i in range(args.rows):
                gen.row(args.split, i, i)
            rate = args.rows / (time.perf_counter() - t1)
            cells.append(f"{family} {rate:.0f} rows/s ({t1 - t0:.1f} s)")
        print(f"{task}: " + ", ".join(cells), flush=True)


if __name__ == "__main__":
    main()
