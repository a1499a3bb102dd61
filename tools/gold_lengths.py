"""Write racbench/data/science/gold_lengths.json: the number of steps of every gold
trajectory of the science lab, per simplification setting, task and variation.

Rows of one gold step each (behaviour-cloning and return-conditioned configs) need their
split sizes when a recipe is read, before any trajectory runs; this table gives them for
the settings the built-in recipes use. A build checks every trajectory it runs against
the table and stops, naming this script, if the simulator or an oracle changed a length:

    python tools/gold_lengths.py [--workers 2] [--tasks boil,melt]

`--tasks` recomputes only those tasks' lengths and keeps the rest of the table as it is.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
from pathlib import Path

from racbench.tasks.gold_trajectories import TABLE_SETTINGS, gold_items, setting_key
from racbench.worlds.science import gold_trajectory

OUT = Path(__file__).resolve().parents[1] / "racbench" / "data" / "science" / "gold_lengths.json"
DOC = ("Steps of the oracle's gold trajectory per simplification setting ('none': no "
       "simplifications), task and variation (list index), as racbench's science lab plays "
       "it. Written by tools/gold_lengths.py; builds of one-row-per-step configs read their "
       "split sizes here and check every trajectory against it.")


def _length(item: tuple[str, int, str]) -> int:
    return len(gold_trajectory(*item))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--tasks", default="", help="comma-separated tasks to recompute (default: all)")
    args = parser.parse_args()
    only = {t for t in args.tasks.split(",") if t}
    items = [it for it in gold_items(None, TABLE_SETTINGS) if not only or it[0] in only]
    with mp.get_context("fork").Pool(args.workers) as pool:
        lengths = pool.map(_length, items, chunksize=16)
    table: dict = {"_doc": DOC}
    if only:   # the other tasks' lengths as the table holds them
        kept = json.loads(OUT.read_text(encoding="utf-8"))
        for key, tasks in kept.items():
            if key != "_doc":
                table[key] = {t: n for t, n in tasks.items() if t not in only}
    for (task, variation, setting), n in zip(items, lengths):
        per_task = table.setdefault(setting_key(setting), {}).setdefault(task, [])
        assert len(per_task) == variation  # items are sorted by task, then variation
        per_task.append(n)
    text = json.dumps(table, sort_keys=True, separators=(",", ":"))
    OUT.write_text(text.replace("],", "],\n") + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(items)} trajectories, {sum(lengths)} steps")


if __name__ == "__main__":
    main()
