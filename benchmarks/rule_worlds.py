"""Figures of the generated rule worlds (racbench/worlds/rules/): episodes per second for
generation (rules, layout and the oracle's search) and for oracle play, the oracle's and
the manual-ignoring baseline's win rates per split; rows per CPU-second of the
next-observation and imitation configs over them (one process, worlds made first); and
a build of the `dynamics` recipe (wall time, CPU time and peak memory of the build
process), `racbench verify`'s counts on it, and the options-only and label probes
(racbench/checks/audit.py) on its question configs; for multiple-choice configs also
the "novelty" reading of the options alone: pick an option never the right one in train
(held-out assignments are, by the split, never right in train, so a question whose
answer is an assignment can give itself away so).

    python benchmarks/rule_worlds.py                          # 100 episodes a split, scale 0.1
    python benchmarks/rule_worlds.py --episodes 20 --scale 0.02 --configs 'rtfm_first*'
    python benchmarks/rule_worlds.py --no-probe               # no build
"""

from __future__ import annotations

import argparse
import fnmatch
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from racbench.checks.audit import has_binary_labels, has_mc_choices, probe_config, probe_options
from racbench.export.layout import read_columns, split_files
from racbench.splits.seeding import derive_seed
from racbench.tasks.gold_trajectories import RuleGoldConfig
from racbench.tasks.next_observation import NextObservationConfig
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


def _knobs(opts: RuleOptions, episodes: int) -> tuple:
    return tuple(sorted({"episodes": episodes, "depth": opts.depth, "grid": opts.grid,
                         "entities": opts.entities, "irrelevant": opts.irrelevant,
                         "overlap": opts.overlap}.items()))


def row_rates(n: int, episodes: int) -> None:
    """Rows per CPU-second of next-observation and imitation configs like the dynamics
    recipe's, their worlds made (and timed apart) first."""
    s = {name: _knobs(opts, episodes) for name, opts in SETTINGS.items()}
    configs = {
        "next_observation rtfm h1": NextObservationConfig(rules="rtfm", rule_options=s["rtfm"],
                                                          distractors=3),
        "next_observation rtfm h5": NextObservationConfig(rules="rtfm", rule_options=s["rtfm"],
                                                          distractors=3, horizon=5),
        "next_observation rtfm bool": NextObservationConfig(
            rules="rtfm", rule_options=s["rtfm"], distractors=3, form="bool"),
        "next_observation deep h1": NextObservationConfig(
            rules="rtfm", rule_options=s["rtfm_deep"], distractors=3),
        "next_observation messenger h3": NextObservationConfig(
            rules="messenger", rule_options=s["messenger"], distractors=3, horizon=3),
        "bc rtfm": RuleGoldConfig("rtfm", s["rtfm"], True, "behaviour_cloning", 5),
        "rc messenger": RuleGoldConfig("messenger", s["messenger"], False,
                                       "return_conditioned", 5),
        "gold rtfm": RuleGoldConfig("rtfm", s["rtfm"], True, "trajectory"),
    }
    for name, cfg in configs.items():
        t0 = time.process_time()
        gen = cfg.rows(name, 0, SPLITS)
        t1 = time.process_time()
        rows = int(min(n, gen.capacity("train")))
        for i in range(rows):
            gen.row("train", i, i)
        took = time.process_time() - t1
        print(f"{name:<30} {rows / max(took, 1e-9):8.0f} rows/s of CPU ({rows} rows; "
              f"worlds {t1 - t0:.2f} s)", flush=True)


def novelty(config: Path) -> float:
    """Accuracy on validation and test of picking, at random, an option never the right
    one in train (any option if all were)."""
    rows = {s: [r for p in ps for r in read_columns(p, ["choices", "answer_index"]).to_pylist()]
            for s, ps in split_files(config).items()}
    seen = {r["choices"][r["answer_index"]] for r in rows.get("train", ())}
    held = [r for s in ("validation", "test") for r in rows.get(s, ())]
    hits = 0.0
    for r in held:
        new = [c for c in r["choices"] if c not in seen] or r["choices"]
        hits += (r["choices"][r["answer_index"]] in new) / len(new)
    return hits / max(1, len(held))


def _children() -> tuple[float, float]:
    """CPU seconds and peak memory (MiB) of this process's finished children."""
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime, use.ru_maxrss / 1024


def probes(scale: float, patterns: list[str], workers: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "dynamics"
        t0, (cpu0, _) = time.perf_counter(), _children()
        subprocess.run([sys.executable, "-m", "racbench.cli", "build", "dynamics", "--out",
                        str(out), "--scale", str(scale), "--workers", str(workers), "--quiet"]
                       + (["--configs", ",".join(patterns)] if patterns else []), check=True)
        cpu, peak = _children()
        print(f"dynamics at scale {scale}: built in {time.perf_counter() - t0:.1f} s wall, "
              f"{cpu - cpu0:.1f} s of CPU ({workers} worker(s)), peak memory of a process "
              f"{peak:.0f} MiB", flush=True)
        verified = subprocess.run([sys.executable, "-m", "racbench.cli", "verify", str(out)],
                                  capture_output=True, text=True)
        print(" ".join((verified.stdout + verified.stderr).split())[:2000], flush=True)
        for config in sorted(p for p in out.iterdir() if p.is_dir()):
            if patterns and not any(fnmatch.fnmatch(config.name, p) for p in patterns):
                continue
            if not (has_binary_labels(config) or has_mc_choices(config)):
                continue  # open and imitation rows: nothing to probe
            result = (probe_config(config) if has_binary_labels(config)
                      else probe_options(config))
            new = (f", never right in train {100 * novelty(config):.1f}%"
                   if has_mc_choices(config) else "")
            print(f"  {config.name:<32} {result.probe:<8} {100 * result.accuracy:5.1f}% "
                  f"(chance {100 * result.majority_baseline:.0f}%, n={result.n_eval}, "
                  f"{'pass' if result.passed else 'FAIL'}{new})", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--episodes", type=int, default=100, help="episodes per split")
    ap.add_argument("--scale", type=float, default=0.1, help="of the dynamics recipe, probed")
    ap.add_argument("--configs", default="", help="comma-separated patterns of configs to probe")
    ap.add_argument("--rows", type=int, default=1000, help="rows per next-observation or "
                    "imitation config timed (imitation: at most a split's steps)")
    ap.add_argument("--workers", type=int, default=1, help="of the build")
    ap.add_argument("--no-probe", action="store_true")
    args = ap.parse_args()
    worlds(args.episodes)
    row_rates(args.rows, args.episodes)
    if not args.no_probe:
        probes(args.scale, [p for p in args.configs.split(",") if p], args.workers)


if __name__ == "__main__":
    main()
