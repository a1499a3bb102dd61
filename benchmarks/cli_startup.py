"""How fast the CLI answers when it has nothing heavy to do: help and argument errors.

Runs each command in a fresh interpreter (as a user's shell does) several times and
prints the median and slowest wall time; the target is under 0.3 s.

    python benchmarks/cli_startup.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

COMMANDS = (
    ["--help"],
    ["build", "--help"],
    ["generate", "--help"],
    ["build", "trac", "--out", "x", "--scale", "nan"],
    ["build", "trac", "--out", "x", "--workers", "0"],
    ["show", "--help"],
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    for command in COMMANDS:
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "racbench.cli", *command],
                           capture_output=True)
            times.append(time.perf_counter() - start)
        print(f"racbench {' '.join(command):45s} median {statistics.median(times):.3f} s, "
              f"max {max(times):.3f} s")


if __name__ == "__main__":
    main()
