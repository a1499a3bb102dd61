"""Rows per CPU-second of every ACP family on every shipped domain (one process; CPU
time, not wall time, so that figures taken on a shared machine compare).

    python benchmarks/acp_families.py                 # bool where it exists, else open
    python benchmarks/acp_families.py --form all      # the slowest form of each family
    python benchmarks/acp_families.py --rows 100 --split test --domains ferry,grid

Configs come from the `acp` recipe (its problem lists); rows are timed after the
generator is built (worlds explored, problems probed), which is reported separately.
"""

from __future__ import annotations

import argparse
import time

from racbench.tasks import FAMILIES
from racbench.tasks.rows import ConfigRows, GenerationError
from racbench.suites.recipe import load_recipe


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=60)
    ap.add_argument("--split", default="test", help="whose problems to time (test: largest)")
    ap.add_argument("--form", default="default", help="bool|mc|open|all|default")
    ap.add_argument("--domains", default="")
    ap.add_argument("--families", default="")
    args = ap.parse_args()
    specs = {s.name: s for s in load_recipe("acp").configs}
    domains = sorted({s.task.domain for s in specs.values()})
    if args.domains:
        domains = args.domains.split(",")
    families = args.families.split(",") if args.families else list(FAMILIES)
    table: dict[tuple[str, str], float] = {}
    setup = 0.0
    for domain in domains:
        for family in families:
            forms = FAMILIES[family].forms
            if args.form == "default":
                forms = forms[:1]
            elif args.form != "all":
                forms = [f for f in forms if f == args.form]
            rates = []
            for form in forms:
                spec = specs.get(f"{domain}_{family}_{form}")
                if spec is None:  # left out of the recipe (see its `exclude`)
                    continue
                t0 = time.process_time()
                try:
                    gen = ConfigRows(spec.name, spec.task, 0, (args.split,))
                except GenerationError as exc:
                    print(f"  {spec.name}: {exc}", flush=True)
                    continue
                t1 = time.process_time()
                for i in range(args.rows):
                    gen.row(args.split, i, i)
                t2 = time.process_time()
                setup += t1 - t0
                rates.append(args.rows / (t2 - t1))
            if rates:
                table[(family, domain)] = min(rates)
        print(f"{domain} done", flush=True)
    width = max(len(d) for d in domains)
    print(f"\nrows per CPU-second ({args.split} problems, form {args.form}; slowest form "
          f"when several); generator setup {setup:.1f} CPU s in total")
    print(f"{'family':<20}" + "".join(f"{d[:width]:>{width + 1}}" for d in domains))
    for family in families:
        cells = [table.get((family, d)) for d in domains]
        print(f"{family:<20}" + "".join(f"{c:>{width + 1}.0f}" if c else f"{'-':>{width + 1}}"
                                        for c in cells))
    slow = [(k, v) for k, v in table.items() if v < 20]
    print("slower than 20 rows per CPU-s:",
          ", ".join(f"{f}/{d} {v:.0f}" for (f, d), v in slow) or "none")


if __name__ == "__main__":
    main()
