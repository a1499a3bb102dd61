"""Which cells a run of bool rows asks: per config and split, cells against rows.

    python benchmarks/cell_runs.py [--recipes trac,acp] [--configs PATTERNS]
                                   [--stream-worlds W,...] [--stream-families F,...]
                                   [--levels easy,...] [--block 64] [--all]

A bool config's stratum codes take its cells in order (rows/strata.py: code // (2 x
negative kinds x groups) picks the cell of a group), so a run of n rows, a split of a
recipe (codes 0..n-1) or a stream's first block (64), asks only the first cells of
each group when n < 2 x kinds x groups x cells. Per config and split it prints the rows
(or the block), the cells, those the run reaches, and how lopsided the run is: the
total variation distance between the heads of the cells the run asks (a sequence's
first verb, a fact's predicate, weighted by the rows asking each) and the heads of all
the cells (a uniform draw), for the order by name and for the order rows take
(`ConfigRows._cell_order`), with the head the run over-asks most. Lines are printed only
where the run misses cells, unless --all. Recipe configs are probed as a build probes
them (the CPU it takes: acp's bool configs, minutes); streams' makers as a stream's.
"""

from __future__ import annotations

import argparse
from collections import Counter

from racbench.errors import GenerationError
from racbench.splits.strata import stratum_digits
from racbench.suites.recipe import load_recipe
from racbench.tasks.config import ConfigError
from racbench.training.levels import LEVELS, level_config
from racbench.training.stream import BLOCK, SPLIT


def head(kind) -> str:
    """A cell kind's first name: a sequence's first verb, a literal's predicate."""
    if isinstance(kind, (tuple, list)):
        names = [head(k) for k in kind if not isinstance(k, (bool, int))]
        return next((n for n in names if n), "")
    return str(kind).split()[0] if str(kind).split() else ""


def asked(groups: list[list[tuple]], variants: int, n: int) -> Counter:
    """The cells codes 0..n-1 ask, with how many rows ask each."""
    return Counter(groups[g][i] for g, i in
                   (stratum_digits(code, groups, variants)[2:] for code in range(n)))


def lopsided(groups: list[list[tuple]], variants: int, n: int) -> tuple[float, str]:
    """(total variation distance of the run's heads from the cells', the head it
    over-asks most)."""
    cells = Counter(head(c[1]) for g in groups for c in g)
    run = Counter()
    for cell, rows in asked(groups, variants, n).items():
        run[head(cell[1])] += rows
    total_c, total_r = sum(cells.values()), sum(run.values())
    diffs = {h: run[h] / total_r - cells[h] / total_c for h in cells}
    top = max(diffs, key=lambda h: (diffs[h], h))
    return (0.5 * sum(abs(d) for d in diffs.values()),
            f"{top} {run[top]}/{total_r} rows vs {cells[top]}/{total_c} cells")


def line(name: str, split: str, made, n: int, show_all: bool) -> bool:
    """Print one (config, split); True if its run misses cells."""
    groups = made.groups[split]
    by_name = [sorted(g, key=repr) for g in groups]
    cells = sum(len(g) for g in groups)
    reached = len(asked(groups, made.n_variants, n))
    misses = reached < cells
    if misses or show_all:
        tv_name, top_name = lopsided(by_name, made.n_variants, n)
        tv_now, top_now = lopsided(groups, made.n_variants, n)
        print(f"| {name} | {split} | {n} | {cells} | {reached} | {tv_name:.2f} ({top_name}) "
              f"| {tv_now:.2f} ({top_now}) |", flush=True)
    return misses


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--recipes", default="trac,acp", help="comma-separated ('' for none)")
    ap.add_argument("--configs", help="only the recipe configs matching these shell patterns")
    ap.add_argument("--stream-worlds", default="",
                    help="stream worlds (blocksworld_trac, gripper, rules/rtfm...)")
    ap.add_argument("--stream-families", default="projection,executability,planning,"
                    "goal_recognition,applicability,progression,validation,justification,"
                    "landmarks,reachability,action_reachability,next_action")
    ap.add_argument("--levels", default=",".join(LEVELS))
    ap.add_argument("--block", type=int, default=BLOCK, help="a stream's run of rows")
    ap.add_argument("--all", action="store_true", help="also runs that reach every cell")
    args = ap.parse_args()
    print("| config | split | rows | cells | reached | lopsided by name (top head) "
          "| lopsided as made (top head) |")
    print("|---|---|---:|---:|---:|---|---|")
    counted = missed = 0
    for recipe_name in filter(None, args.recipes.split(",")):
        recipe = load_recipe(recipe_name)
        if args.configs:
            recipe = recipe.select(args.configs)
        for spec in recipe.configs:
            if getattr(spec.task, "form", None) != "bool":
                continue
            made = spec.task.rows(spec.name, recipe.seed, spec.splits)
            for split, n in spec.splits.items():
                counted += 1
                missed += line(spec.name, split, made, n, args.all)
    for world in filter(None, args.stream_worlds.split(",")):
        for family in args.stream_families.split(","):
            for level in args.levels.split(","):
                try:
                    cfg = level_config(family, level, world)
                    name = f"{family}@{world}".replace("/", "-") + f"_bool_{level}"
                    made = cfg.rows(name, 0, (SPLIT,))
                except (ConfigError, GenerationError) as exc:  # the world lacks it
                    print(f"| {family}@{world} {level} | - | - | - | - | "
                          f"{type(exc).__name__} | |", flush=True)
                    continue
                counted += 1
                missed += line(f"{family}@{world} {level}", SPLIT, made, args.block, args.all)
    print(f"runs measured {counted}, missing cells {missed}")


if __name__ == "__main__":
    main()
