"""CPU seconds of probing each config of a recipe (its surveys), by family and form.

A build probes every config before writing a row (balance.survey_cells for bool rows,
balance.survey_options for mc rows, a few draws for open rows); on `acp` that is most
of the build's CPU. This runs the probes in one process, as a build's probe jobs do
(one job per distinct world, then the config's join), timing each config's CPU and,
apart, that of its join (a local build joins in its driver, one config after another,
while the workers wait), and prints a digest of every probe result: two versions of
the code that give the same digest give the same surveys, so the same rows.

    python benchmarks/acp_probes.py                        # every acp config
    python benchmarks/acp_probes.py --configs 'ferry_*,grid_landmarks_mc'
    python benchmarks/acp_probes.py --recipe trac --per-config
"""

from __future__ import annotations

import argparse
import hashlib
import time
from collections import defaultdict

from racbench.suites.recipe import load_recipe
from racbench.tasks.balance import Cells, Survey
from racbench.tasks.rows import ConfigRows, release_worlds


def digest_of(result) -> str:
    """A short hash of a probe result: feasible problems, exclusions, and every
    survey's cells or tallies."""
    feasible, excluded, surveys = result
    h = hashlib.blake2b(digest_size=8)
    h.update(repr((sorted(feasible.items()), excluded)).encode())
    for key in sorted(surveys, key=repr):
        s = surveys[key]
        if isinstance(s, Cells):
            h.update(repr((key, sorted(s.offered.items(), key=repr), s.one_sided)).encode())
        elif isinstance(s, Survey):
            h.update(repr((key, s.seed, s.keys, s.subjects, s.kind, s.right, s.wrong,
                           s.has_sets, s.usable, s.exact)).encode())
    return h.hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--recipe", default="acp")
    ap.add_argument("--configs", help="only the configs matching these shell patterns")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--per-config", action="store_true", help="a line per config")
    args = ap.parse_args()
    recipe = load_recipe(args.recipe)
    if args.configs:
        recipe = recipe.select(args.configs)
    seed = recipe.seed if args.seed is None else args.seed
    by_group: dict[tuple[str, str], float] = defaultdict(float)
    overall = hashlib.blake2b(digest_size=8)
    total, joins, worlds_key = 0.0, 0.0, None
    for spec in recipe.configs:
        cfg = spec.task
        if cfg.worlds_key != worlds_key:  # as a build does: one domain's worlds at a time
            release_worlds()
            worlds_key = cfg.worlds_key
        cfg.warm(tuple(spec.splits))
        start = time.process_time()
        loaded = ConfigRows.loaded(spec.name, cfg, seed, dict(spec.splits))
        parts = {part: loaded.probe_part(part) for part in loaded.probe_parts()}
        joined = time.process_time()
        result = ConfigRows.loaded(spec.name, cfg, seed, tuple(spec.splits)).probe_result(parts)
        cpu = time.process_time() - start
        join = time.process_time() - joined
        total += cpu
        joins += join
        by_group[(cfg.family, cfg.form)] += cpu
        digest = digest_of(result)
        overall.update(f"{spec.name} {digest}\n".encode())
        if args.per_config:
            print(f"{spec.name:<42} {cpu:7.2f} s (join {join:5.2f} s)  {digest}", flush=True)
    print(f"\n{len(recipe.configs)} configs of {recipe.name}: probes {total:.1f} CPU s, of "
          f"which joins {joins:.1f} s, digest {overall.hexdigest()}")
    print("| family | form | probe CPU s |\n|---|---|---:|")
    for (family, form), cpu in sorted(by_group.items(), key=lambda kv: -kv[1]):
        print(f"| {family} | {form} | {cpu:.1f} |")


if __name__ == "__main__":
    main()
