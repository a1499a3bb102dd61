"""CPU of the landmark test over a whole enumerated space: one bit-parallel backward pass
for every atom (StateSpace.reach_avoiding, what landmark rows use) against a sweep per
atom through the states where it is false (what they used before), and whether the
two agree state by state.

    python benchmarks/landmark_sweeps.py [DOMAIN:PROBLEM ...]   # default: the largest acp worlds
"""

from __future__ import annotations

import argparse
import resource
from pathlib import Path

import numpy as np

from racbench.worlds.strips.world import world_for

DOMAINS = Path(__file__).resolve().parents[1] / "racbench" / "data" / "domains"
DEFAULT = ["blocksworld:p13", "logistics:p13", "depots:p13", "rovers:p13", "visitall:p13"]


def cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("worlds", nargs="*", default=DEFAULT, metavar="DOMAIN:PROBLEM")
    args = parser.parse_args()
    print("| world | states | edges | atoms | one pass ms | a sweep per atom ms | agree |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name in args.worlds:
        domain, problem = name.split(":")
        world = world_for(str(DOMAINS / domain / "domain.pddl"),
                          str(DOMAINS / domain / "problems" / f"{problem}.pddl"))
        space = world.space
        targets = world.mask_of(world.goal_condition)
        start = cpu()
        reach = space.reach_avoiding(targets)
        one = cpu() - start
        start, agree = cpu(), True
        for atom in range(space.n_atoms):
            avoids = space.sweep(targets, ~space.column(atom)) >= 0
            bit = reach[:, atom >> 6] >> np.uint64(atom & 63) & np.uint64(1)
            agree &= bool((bit.astype(bool) == avoids).all())
        per_atom = cpu() - start
        print(f"| {name} | {len(space.states):,} | {len(space.edge_src):,} | {space.n_atoms} | "
              f"{one * 1000:.0f} | {per_atom * 1000:.0f} | {'yes' if agree else 'NO'} |",
              flush=True)


if __name__ == "__main__":
    main()
