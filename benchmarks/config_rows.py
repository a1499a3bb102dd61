"""Where a recipe's row-making CPU goes, config by config: each config's probe, then
`--rows` rows of its first split made in this process (no Parquet, no workers), as
rows per CPU-second and the CPU its full splits would take at that rate.

    python benchmarks/config_rows.py [RECIPE] [--rows 300] [--configs PATTERNS] [--scale S]
                                     [--stages] [--one-by-one]

RECIPE: a built-in name or a YAML file (default trac); `--scale` asks each split for S
times its rows, as `racbench build --scale` does (the science lab's surveys are sized by
the rows asked: `config_rows.py trajectories-questions --scale 0.1` shows which lab
configs cost most, and what a small build still pays). CPU time of this process only,
with the build's rarer young collections (export/jobs.GC_EVERY), so the figures hold
on a loaded machine; the estimate leaves out writing, workers and start-up, which
benchmarks/build_recipe.py measures whole. With --stages, also where a task row's CPU
goes, in microseconds a row: drawing its question (draw), naming its objects (names),
its text (render), its symbolic form and problem key (symbolic), its other columns
(columns) and the rest (seeding, its target, redraws of a cell...). Rows are made in
chunks as a build's shards make them (split_rows.made_rows: a task config's stage by
stage); --one-by-one makes each whole before the next (ConfigRows.row), to compare.
"""

from __future__ import annotations

import argparse
import gc
import time
from dataclasses import replace

from racbench.tasks import rows as task_rows

from racbench.export.jobs import GC_EVERY
from racbench.export.split_rows import chunk_size, made_rows
from racbench.splits.strata import position_codes
from racbench.suites.recipe import load_recipe


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("recipe", nargs="?", default="trac")
    parser.add_argument("--rows", type=int, default=300)
    parser.add_argument("--configs", help="only the configs matching these shell patterns")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--one-by-one", action="store_true",
                        help="rows made one at a time (ConfigRows.row), not in chunks")
    parser.add_argument("--stages", action="store_true",
                        help="also the CPU of each stage of a task row, in us a row")
    args = parser.parse_args()
    recipe = load_recipe(args.recipe)
    if args.configs:
        recipe = recipe.select(args.configs)
    if args.scale != 1.0:
        recipe = recipe.scaled(args.scale)
    gc.set_threshold(GC_EVERY, *gc.get_threshold()[1:])
    stages = {} if args.stages else None
    print("| config | probe CPU s | rows per CPU-s | its rows | est. CPU s |"
          + (" " + " | ".join(f"{s} us" for s in STAGES) + " |" if args.stages else ""))
    print("|---|---:|---:|---:|---:|" + "---:|" * (len(STAGES) if args.stages else 0))
    probes = est = 0.0
    rows_total = 0
    for spec in recipe.configs:
        start = time.process_time()
        made = spec.task.rows(spec.name, recipe.seed, spec.splits)
        if stages is not None:
            stages.clear()
            _time_stages(made, stages)
        probed = time.process_time()
        split, n = next(iter(spec.splits.items()))
        codes = position_codes(recipe.seed, spec.name, split, n)
        count = min(args.rows, n)
        if args.one_by_one:
            for i in range(count):
                made.row(split, i, codes[i])
        else:  # in chunks, as a build's shards make them (made_rows: stage by stage)
            size = chunk_size(count, 1)
            for s in range(0, count, size):
                made_rows(made, split, s, codes[s:min(count, s + size)])
        per_row = (time.process_time() - probed) / count
        rows = sum(spec.splits.values())
        probes += probed - start
        est += per_row * rows
        rows_total += rows
        print(f"| {spec.name} | {probed - start:.2f} | {1 / max(per_row, 1e-9):,.0f} | "
              f"{rows:,} | {per_row * rows:.1f} |" + _stage_cells(stages, per_row, count),
              flush=True)
    print(f"| all | {probes:.1f} | {rows_total / max(est, 1e-9):,.0f} | {rows_total:,} | "
          f"{est:.1f} |")


STAGES = ("draw", "names", "render", "symbolic", "columns", "rest")


def _timed(function, stage: str, stages: dict):
    def timed(*args, **kw):
        start = time.process_time()
        try:
            return function(*args, **kw)
        finally:
            stages[stage] = stages.get(stage, 0.0) + time.process_time() - start
    return timed


def _time_stages(made, stages: dict) -> None:
    """Time the stages of `made`'s rows (a task config's row maker; others are not
    split): its own steps, timed on this object only."""
    if not isinstance(made, task_rows.ConfigRows):
        return
    for method, stage in (("_draw", "draw"), ("_names", "names"), ("_text", "render"),
                          ("_symbolic_and_key", "symbolic"), ("_columns", "columns")):
        setattr(made, method, _timed(getattr(made, method), stage, stages))
    made.family = replace(made.family, render=_timed(made.family.render, "render", stages))


def _stage_cells(stages: dict | None, per_row: float, count: int) -> str:
    if stages is None:
        return ""
    if not stages:
        return " " + " | ".join("-" for _ in STAGES) + " |"
    rest = per_row * count - sum(stages.values())
    return " " + " | ".join(f"{1e6 * (stages.get(s, 0.0) if s != 'rest' else rest) / count:.0f}"
                            for s in STAGES) + " |"


if __name__ == "__main__":
    main()
