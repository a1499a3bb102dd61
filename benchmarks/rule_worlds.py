"""Figures of the generated rule worlds (racbench/worlds/rules/): episodes per second for
generation (rules, layout and the oracle's search) and for oracle play, the oracle's and
the manual-ignoring baseline's win rates per split, and the options-only and label
probes (racbench/checks/audit.py) on the question configs of the `dynamics` recipe.

    python benchmarks/rule_worlds.py                          # 100 episodes a split, scale 0.1
    python benchmarks/rule_worlds.py --episodes 20 --scale 0.02 --configs 'rtfm_first*'
    python benchmarks/rule_worlds.py --no-probe               # the worlds only
"""

from __future__ import annotations

import argparse
import fnmatch
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from racbench.checks.audit import has_binary_labels, probe_config, probe_options
from racbench.splits.seeding import derive_seed
from racbench.tasks.options import SPLITS
from racbench.worlds.rules.episode import Episode
from racbench.worlds.rules.grammar import RuleOptions
from racbench.worlds.rules.oracle import baseline_wins, wins
from racbench.worlds.rules.splits import _check
from racbench.worlds.rules.world import make_episode

SETTINGS = {  # the rule options of the dynamics recipe's worlds
    "rtfm": RuleOptions.for_game("rtfm"),
    "rtfm_deep": RuleOptions.for_game("rtfm", depth=4, irrelevant=4, entities=4, grid=5),
    "messenger": RuleOptions.for_game("messenger", overlap=False),
    "messenger_4": RuleOptions.for_game("messenger", overlap=False, entities=4, depth=2),
}


def worlds(n: int) -> None:
    print(f"{'setting':<12} {'split':<10} {'gen eps/s':>9} {'play eps/s':>10} "
          f"{'oracle win':>10} {'baseline win':>12} {'redrawn':>7}")
    for name, opts in SETTINGS.items():
        episodes = {}
        for split in SPLITS:
            t0 = time.process_time()
            eps = [make_episode(opts, split, 0, i) for i in range(n)]
            t1 = time.process_time()
            won = sum(wins(Episode(e.rules, e.episode.layout), e.plan) for e in eps)
            t2 = time.process_time()
            base = sum(baseline_wins(e.episode, random.Random(derive_seed("bench", e.label)))
                       for e in eps)
            episodes[split] = eps
            print(f"{name:<12} {split:<10} {n / (t1 - t0):9.0f} {n / max(t2 - t1, 1e-9):10.0f} "
                  f"{100 * won / n:9.1f}% {100 * base / n:11.1f}% "
                  f"{sum(e.redraws for e in eps):7d}", flush=True)
        checked = _check(episodes["train"], {s: episodes[s] for s in SPLITS[1:]})
        print(f"{name:<12} held-out assignments checked absent from train: {checked}")


def probes(scale: float, patterns: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "dynamics"
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "racbench.cli", "build", "dynamics", "--out",
                        str(out), "--scale", str(scale), "--workers", "1", "--quiet"]
                       + (["--configs", ",".join(patterns)] if patterns else []), check=True)
        print(f"dynamics at scale {scale}: built in {time.perf_counter() - t0:.1f} s")
        for config in sorted(p for p in out.iterdir() if p.is_dir()):
            if patterns and not any(fnmatch.fnmatch(config.name, p) for p in patterns):
                continue
            result = (probe_config(config) if has_binary_labels(config)
                      else probe_options(config))
            print(f"  {config.name:<32} {result.probe:<8} {100 * result.accuracy:5.1f}% "
                  f"(chance {100 * result.majority_baseline:.0f}%, n={result.n_eval}, "
                  f"{'pass' if result.passed else 'FAIL'})", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--episodes", type=int, default=100, help="episodes per split")
    ap.add_argument("--scale", type=float, default=0.1, help="of the dynamics recipe, probed")
    ap.add_argument("--configs", default="", help="comma-separated patterns of configs to probe")
    ap.add_argument("--no-probe", action="store_true")
    args = ap.parse_args()
    worlds(args.episodes)
    if not args.no_probe:
        probes(args.scale, [p for p in args.configs.split(",") if p])


if __name__ == "__main__":
    main()
