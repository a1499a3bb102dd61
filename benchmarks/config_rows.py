"""Where a recipe's row-making CPU goes, config by config: each config's probe, then
`--rows` rows of its first split made in this process (no Parquet, no workers), as
rows per CPU-second and the CPU its full splits would take at that rate.

    python benchmarks/config_rows.py [RECIPE] [--rows 300] [--configs PATTERNS] [--scale S]

RECIPE: a built-in name or a YAML file (default trac); `--scale` asks each split for S
times its rows, as `racbench build --scale` does (the science lab's surveys are sized by
the rows asked: `config_rows.py trajectories-questions --scale 0.1` shows which lab
configs cost most, and what a small build still pays). CPU time of this process only,
with the build's rarer young collections (export/jobs.GC_EVERY), so the figures hold
on a loaded machine; the estimate leaves out writing, workers and start-up, which
benchmarks/build_recipe.py measures whole.
"""

from __future__ import annotations

import argparse
import gc
import time

from racbench.export.jobs import GC_EVERY
from racbench.splits.strata import position_codes
from racbench.suites.recipe import load_recipe


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("recipe", nargs="?", default="trac")
    parser.add_argument("--rows", type=int, default=300)
    parser.add_argument("--configs", help="only the configs matching these shell patterns")
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()
    recipe = load_recipe(args.recipe)
    if args.configs:
        recipe = recipe.select(args.configs)
    if args.scale != 1.0:
        recipe = recipe.scaled(args.scale)
    gc.set_threshold(GC_EVERY, *gc.get_threshold()[1:])
    print("| config | probe CPU s | rows per CPU-s | its rows | est. CPU s |")
    print("|---|---:|---:|---:|---:|")
    probes = est = 0.0
    rows_total = 0
    for spec in recipe.configs:
        start = time.process_time()
        made = spec.task.rows(spec.name, recipe.seed, spec.splits)
        probed = time.process_time()
        split, n = next(iter(spec.splits.items()))
        codes = position_codes(recipe.seed, spec.name, split, n)
        count = min(args.rows, n)
        for i in range(count):
            made.row(split, i, codes[i])
        per_row = (time.process_time() - probed) / count
        rows = sum(spec.splits.values())
        probes += probed - start
        est += per_row * rows
        rows_total += rows
        print(f"| {spec.name} | {probed - start:.2f} | {1 / max(per_row, 1e-9):,.0f} | "
              f"{rows:,} | {per_row * rows:.1f} |", flush=True)
    print(f"| all | {probes:.1f} | {rows_total / max(est, 1e-9):,.0f} | {rows_total:,} | "
          f"{est:.1f} |")


if __name__ == "__main__":
    main()
