"""Next-observation rows/s per config and peak memory, on one core (one process).

    python benchmarks/next_observation.py                 # a spread of configs, 1,024 rows each
    python benchmarks/next_observation.py --rows 64 --configs boil_h1

Besides shipped worlds, a user's PDDL (`domain_file`): planning-competition files of
tests/data/pddl (the largest of blocks, logistics00 and depot) and gripper with 30 balls
(tests/data/pddl_large: over 10^8 reachable states, stepped, never enumerated). "setup"
is the CPU time of making the config's generator (its worlds loaded, their gold paths
searched), before any row; "rows/s" the CPU rate of the rows after it.
"""

from __future__ import annotations

import argparse
import resource
import time
from pathlib import Path

from racbench.tasks.next_observation import NextObservationConfig

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"


def _user(folder: str, train: str, test: str, **knobs) -> NextObservationConfig:
    """A config of a user's files: `folder`'s domain, one problem file per split (paths
    under tests/data)."""
    domain = DATA / "pddl" / folder / "domain.pddl"
    return NextObservationConfig(domain_file=str(domain), problems={
        "train": (str(DATA / train),), "test": (str(DATA / test),)}, **knobs)


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
    "pddl_blocks8_h1": _user("blocks", "pddl/blocks/probBLOCKS-8-0.pddl",
                             "pddl/blocks/probBLOCKS-6-0.pddl", distractors=2),
    "pddl_logistics6_h1": _user("logistics00", "pddl/logistics00/probLOGISTICS-6-0.pddl",
                                "pddl/logistics00/probLOGISTICS-5-0.pddl", distractors=3),
    "pddl_depot3_h3": _user("depot", "pddl/depot/p03.pddl", "pddl/depot/p02.pddl",
                            distractors=3, horizon=3),
    "pddl_gripper30_h1": _user("gripper", "pddl_large/gripper-30.pddl",
                               "pddl/gripper/prob03.pddl", distractors=3),
    "pddl_gripper30_h3_bool": _user("gripper", "pddl_large/gripper-30.pddl",
                                    "pddl/gripper/prob03.pddl", distractors=3, horizon=3,
                                    form="bool"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=1024)
    parser.add_argument("--configs", default=",".join(CONFIGS))
    args = parser.parse_args()
    for name in args.configs.split(","):
        start = time.process_time()
        gen = CONFIGS[name].rows(name, 0, ("train", "test"))
        setup = time.process_time() - start
        start = time.process_time()
        for i in range(args.rows):
            gen.row("train", i, i)
        took = time.process_time() - start
        print(f"{name:22s} setup {setup:6.2f} s, {args.rows / took:8.0f} rows/s of CPU")
        CONFIGS[name].release()  # the next config loads its own worlds (its setup: all of it)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MiB")


if __name__ == "__main__":
    main()
