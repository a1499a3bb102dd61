"""Rows per second of racbench.stream: the first row (the task's row maker built and its
problems probed) and the next `--rows`, per stream.

    python benchmarks/stream_rows.py [--rows 300] [--seed 0]
"""

from __future__ import annotations

import argparse
import time

import racbench

STREAMS = (
    ("projection", {}),
    ("projection", {"level": "expert"}),
    ({"projection": 2, "applicability@gripper": 1, "executability@rules/rtfm": 1}, {}),
    ("landmarks@blocksworld", {"level": "hard"}),
    ("applicability@gripper", {"form": "mc"}),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for tasks, options in STREAMS:
        stream = racbench.stream(tasks, seed=args.seed, **options)
        start = time.perf_counter()
        for key in stream.keys:  # every task's first row: its maker built
            stream.row(next(i for i in range(10_000) if stream.task_at(i) == key))
        first = time.perf_counter() - start
        start = time.perf_counter()
        stream.rows(0, args.rows)
        rate = args.rows / (time.perf_counter() - start)
        name = tasks if isinstance(tasks, str) else "+".join(sorted(tasks))
        print(f"{name} {options or ''}: makers built in {first:.2f} s, then {rate:.0f} "
              f"rows/s over {args.rows} rows", flush=True)


if __name__ == "__main__":
    main()
