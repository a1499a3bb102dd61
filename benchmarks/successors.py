"""How fast a ground task lists the actions applicable in a state (the hot loop of every
search and walk on a problem too big to enumerate), and that it lists the right ones.

    python benchmarks/successors.py                          # the whole set
    python benchmarks/successors.py --problems swap:largest --walks 4 --seconds 0.2

The whole set: the largest shipped problem of each domain and the generated 30-object
gripper and blocksworld (problems as benchmarks/large_problems.py names them). For each,
`--walks` seeded random walks of `--steps` steps from the initial state give a fixed set
of states (drawn by testing every ground action, so they do not depend on the code
measured); on each state `GroundTask.applicable` must equal that brute-force list, else
the script stops with exit code 1. Then `applicable` runs over the states, round after
round, for at least `--seconds` of this process's CPU time: "calls/s" is calls per
CPU-second (the figure to read on a machine others are using), "applicable" the mean
length of the lists.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

import large_problems  # benchmarks/ is on sys.path
from large_problems import GENERATED, problem_files, problem_name

from racbench.worlds.strips.grounding import ground
from racbench.worlds.strips.pddl_reader import parse_problem, read_pddl_text
from racbench.worlds.strips.world import domain_text


def whole_set() -> list[str]:
    """large_problems.py's set, less the problems that are neither shipped nor generated."""
    shipped = [spec for spec in large_problems.whole_set() if spec.endswith(":largest")]
    return shipped + list(GENERATED)


def brute_force(task, state: int) -> list[int]:
    return [k for k, a in enumerate(task.actions) if a.applicable(state)]


def walk_states(task, name: str, walks: int, steps: int) -> list[int]:
    """States of seeded random walks (each walk stops early at a dead end)."""
    rng = random.Random(f"successors {name}")
    states = []
    for _ in range(walks):
        state = task.init
        for _ in range(steps):
            states.append(state)
            options = brute_force(task, state)
            if not options:
                break
            state = task.actions[rng.choice(options)].apply(state)
    return states


def calls_per_second(task, states: list[int], seconds: float) -> float:
    applicable = task.applicable
    calls, start = 0, time.process_time()
    while True:
        for state in states:
            applicable(state)
        calls += len(states)
        spent = time.process_time() - start
        if spent >= seconds:
            return calls / spent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--problems", default="all",
                    help="comma-separated problems as large_problems.py takes them, or 'all'")
    ap.add_argument("--walks", type=int, default=20)
    ap.add_argument("--steps", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=2.0,
                    help="CPU seconds of calls per problem (at least one round)")
    args = ap.parse_args()
    specs = whole_set() if args.problems == "all" else args.problems.split(",")
    folder = Path(tempfile.mkdtemp(prefix="racbench-successors-"))
    print(f"{'problem':28} {'actions':>8} {'states':>7} {'applicable':>10} {'calls/s':>10}")
    for spec in specs:
        domain_file, problem_file = problem_files(spec, folder)
        name = problem_name(domain_file, problem_file)
        _, domain = domain_text(domain_file)
        task = ground(domain, parse_problem(read_pddl_text(problem_file), domain, problem_file))
        states = walk_states(task, name, args.walks, args.steps)
        wrong = [s for s in states if task.applicable(s) != brute_force(task, s)]
        if wrong:
            print(f"{name}: applicable differs from testing every action on "
                  f"{len(wrong)} of {len(states)} states", file=sys.stderr)
            sys.exit(1)
        mean = sum(len(task.applicable(s)) for s in states) / len(states)
        rate = calls_per_second(task, states, args.seconds)
        print(f"{name:28} {len(task.actions):8d} {len(states):7d} {mean:10.1f} "
              f"{rate:10.0f}", flush=True)
    print("calls/s: applicable calls per CPU-second, all checked against every action")


if __name__ == "__main__":
    main()
