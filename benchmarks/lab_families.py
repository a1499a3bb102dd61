"""Rows per second of the task families on the science lab (one process).

    python benchmarks/lab_families.py                          # boil, every lab family
    python benchmarks/lab_families.py --rows 200 --tasks boil,melt,power-component
    python benchmarks/lab_families.py --form mc --families projection
    python benchmarks/lab_families.py --families planning,goal_recognition \\
        --simplifications easy --lengths 1 --tasks lifespan-longest-lived,find-animal
    python benchmarks/lab_families.py --simplifications easy --lengths 1,2 --variations 6 \\
        --families projection,executability,planning --asked 8   # surveys as a build's

Each (task, family) is a config of one form over the task's variations of one split
(`--variations N`: its first N only; planning and goal recognition ask about states
near the end of the gold trajectory, so few variations hold few distinct rows);
rows are timed after the generator is built (its problems surveyed), which is reported
separately, as benchmarks/acp_families.py does for the STRIPS domains; both in CPU time
(the machine may be shared). `--asked N`: the config asks N rows of each variation, and
its surveys are sized by them as a build's are (trajectories-questions asks 8 at scale 1,
a third of one to one at scale 0.02); without it, surveys are the full ones. The process's peak memory is printed at the end.
"""

from __future__ import annotations

import argparse
import resource
import time

from racbench.tasks import FAMILIES, OWN_CONFIG
from racbench.tasks.config import TaskConfig
from racbench.tasks.rows import ConfigRows, GenerationError
from racbench.worlds.science.registry import get_task


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100)
    ap.add_argument("--split", default="test")
    ap.add_argument("--form", default="bool")
    ap.add_argument("--tasks", default="boil")
    ap.add_argument("--families", default="")
    ap.add_argument("--simplifications", default="")
    ap.add_argument("--lengths", default="2", help="comma-separated; several mix (bool)")
    ap.add_argument("--variations", type=int, default=0, help="the split's first N (0: all)")
    ap.add_argument("--asked", type=float, default=0,
                    help="rows asked of each variation, sizing the surveys (0: not known)")
    args = ap.parse_args()
    families = (args.families.split(",") if args.families else
                [f for f, fam in FAMILIES.items() if "science" in fam.worlds and f not in OWN_CONFIG])
    lengths = tuple(int(n) for n in args.lengths.split(","))
    print(f"rows per CPU-second after setup ({args.split} variations, form {args.form}, lengths "
          f"{list(lengths)}, simplifications '{args.simplifications}'); setup CPU s in brackets")
    for task in args.tasks.split(","):
        spec = get_task(task)
        chosen = [str(v) for v in range(spec.n_variations) if spec.split_of(v) == args.split]
        problems = {args.split: chosen[:args.variations]} if args.variations else {}
        cells = []
        for family in families:
            # goal recognition asks only where the oracle proves a shortest solution
            asked = (1,) if family == "goal_recognition" else lengths
            cfg = TaskConfig(family, form=args.form, science=task, problems=problems,
                             simplifications=args.simplifications, lengths=asked)
            t0 = time.process_time()
            try:
                n = len(problems.get(args.split, chosen))
                gen = ConfigRows(f"{task}_{family}", cfg, 0, {args.split: args.asked * n}
                                 if args.asked else (args.split,))
            except GenerationError as exc:
                print(f"  {task} {family}: {exc}", flush=True)
                continue
            t1 = time.process_time()
            for i in range(args.rows):
                gen.row(args.split, i, i)
            rate = args.rows / (time.process_time() - t1)
            cells.append(f"{family} {rate:.0f} rows/s ({t1 - t0:.1f} s)")
        print(f"{task}: " + ", ".join(cells), flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MiB")


if __name__ == "__main__":
    main()
