"""How fast Ctrl-C stops a build, over many tries at different moments.

Starts `racbench build` on a small recipe in its own process group, sends SIGINT to the
whole group (as a terminal's Ctrl-C does, workers included) or, with `--to driver`, to
the build's own process alone (as `kill -INT` or a test harness does), after a delay that
sweeps the probing, row and card phases, and times how long the build takes to exit.
Prints the exit codes, the slowest and mean time to exit, how many tries took over 2 s,
how many never exited (killed after 60 s) and how many left a process of theirs behind.

    python benchmarks/interrupts.py [--tries 20] [--workers 2] [--max-delay 6] [--to driver]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

RECIPE = """
name: interrupted
seed: 3
configs:
  - name: first
    task: projection
    objects: 4
    splits: {test: 20}
  - name: slow
    task: goal_recognition
    objects: 10
    length: [1, 2]
    splits: {test: 800}
"""
LIMIT = 2.0
HUNG = 60.0  # seconds after SIGINT before a build counts as hung (and is killed)


def one_try(folder: Path, delay: float, workers: int,
            to: str = "group") -> tuple[int | str | None, float, bool]:
    """(exit code, or "hung"; seconds from SIGINT to exit; whether a process of the
    build outlived it); code None if the build ended first."""
    out = folder / "out"
    proc = subprocess.Popen([sys.executable, "-m", "racbench.cli", "build",
                             str(folder / "r.yaml"), "--out", str(out), "--workers",
                             str(workers), "--quiet"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    time.sleep(delay)
    if proc.poll() is not None:
        return None, 0.0, False
    sent = time.perf_counter()
    if to == "group":
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGINT)
    try:
        code = proc.wait(timeout=HUNG)
    except subprocess.TimeoutExpired:
        code = "hung"
    seconds = time.perf_counter() - sent
    time.sleep(0.5)  # a worker the build stopped has had time to go
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # whatever of the build is still there
        left = True
    except ProcessLookupError:
        left = False
    proc.wait()
    return code, seconds, left


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--max-delay", type=float, default=6.0)
    parser.add_argument("--to", choices=("group", "driver"), default="group",
                        help="SIGINT to the build's process group (a terminal's Ctrl-C) "
                        "or to its own process alone")
    args = parser.parse_args()
    times, codes, left = [], Counter(), 0
    for i in range(args.tries):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            (folder / "r.yaml").write_text(RECIPE)
            delay = 0.2 + args.max_delay * i / max(1, args.tries - 1)
            code, seconds, behind = one_try(folder, delay, args.workers, args.to)
        codes[code] += 1
        left += behind
        if code is not None:
            times.append(seconds)
            print(f"try {i + 1:2d}: SIGINT after {delay:4.1f} s -> exit {code} in {seconds:.2f} s"
                  + (", a process left behind" if behind else ""))
    print(f"exit codes: {dict(codes)} (None: finished before the signal; hung: no exit "
          f"in {HUNG:.0f} s)")
    if times:
        print(f"time to exit: max {max(times):.2f} s, mean {sum(times) / len(times):.2f} s; "
              f"over {LIMIT:.0f} s: {sum(t > LIMIT for t in times)} of {len(times)}; "
              f"hung: {codes['hung']}; a process left behind: {left}")


if __name__ == "__main__":
    main()
