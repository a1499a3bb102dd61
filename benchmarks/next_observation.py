"""Next-observation rows/s per config and peak memory, on one core (one process).

    python benchmarks/next_observation.py                 # a spread of configs, 1,024 rows each
    python benchmarks/next_observation.py --rows 64 --configs boil_h1
"""

from __future__ import annotations

import argparse
import resource
import time

from racbench.tasks.next_observation import NextObservationConfig

CONFIGS = {
    "boil_h1": NextObservationConfig(science="boil"),
    "grow-plant_h3_bool": NextObservationConfig(science="grow-plant", horizon=3, form="bool"),
    "chemistry-mix_h5": NextObservationConfig(science="chemistry-mix", horizon=5),
    "unseen_tasks_h1": NextObservationConfig(tasks={"train": ("boil", "find-plant"),
                                                    "test": ("melt",)}),
    "logistics_h1": NextObservationConfig(domain="logistics", distractors=3),
    "depots_h3": NextObservationConfig(domain="depots", distractors=3, horizon=3),
    "blocksworld_h1": NextObservationConfig(domain="blocksworld", distractors=2),
    "visitall_h3": NextObservationConfig(domain="visitall", distractors=1, horizon=3),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1024)
    parser.add_argument("--configs", default=",".join(CONFIGS))
    args = parser.parse_args()
    for name in args.configs.split(","):
        gen = CONFIGS[name].rows(name, 0, ("train", "test"))
        start = time.process_time()
        for i in range(args.rows):
            gen.row("train", i, i)
        took = time.process_time() - start
        print(f"{name:22s} {args.rows / took:8.0f} rows/s of CPU")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MiB")


if __name__ == "__main__":
    main()
