"""ScienceWorld's own gold paths replayed in racbench's lab: is every command accepted, and is the
0-100 score after every step the same?

For N variations of each task (sampled deterministically across its train, dev and test splits)
it loads ScienceWorld 1.2.3 (the `scienceworld` extra, Java 17) with its gold path, plays that
path there recording the score after every step, then plays the same commands in racbench's
`ScienceEnv` (same task, variation and simplifications). Prints per task: sequences replayed,
completed at full score here, accepted command by command, the per-step mean and max score
difference, and racbench's replay speed (steps per CPU-second of this process). With
`--self-replay` it also plays each recording again in a fresh ScienceWorld run (a JVM of its own,
the variation loaded anew) and prints how many of them ScienceWorld itself accepts command by
command there and its own per-step score difference from the recording: how repeatable the
reference is on its own paths (its bees and the genetics offspring draw from an unseeded
generator).

ScienceWorld stays the source: its recordings (commands, scores per step, whether it asked
which thing was meant and whether it refused the words) may be cached
in a JSON file outside the repository (`--cache PATH`, or the env var RACBENCH_SW_CACHE), so that
a re-run does not start Java at all.

    python benchmarks/science_gold_replay.py [--tasks boil,melt] [--per-task 10]
        [--simplifications ''] [--cache /work/sw_gold_cache.json] [--json] [--details]
        [--self-replay]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from racbench.worlds.science import TASKS, ScienceEnv, variation_split

AMBIGUOUS = "Ambiguous request"   # how ScienceWorld starts its question about which thing is meant
REFUSALS = ("No known action matches", "Unknown action")   # how it starts a refusal of the words
STEP_LIMIT = 10_000
SPLITS = ("train", "validation", "test")


def sample_variations(task: str, k: int) -> list[int]:
    """k variations of `task`, spread over its train, validation and test splits in turn (evenly
    spaced within each split); the same list every run."""
    n = TASKS[task].n_variations
    by_split = {s: [v for v in range(n) if variation_split(task, v) == s] for s in SPLITS}
    share = {s: 0 for s in SPLITS}
    left = min(k, n)
    while left:
        for s in SPLITS:
            if left and share[s] < len(by_split[s]):
                share[s] += 1
                left -= 1
    out = []
    for s in SPLITS:
        vs, m = by_split[s], share[s]
        if m:
            out += [vs[(i * len(vs)) // m] for i in range(m)]
    return sorted(out)


def _key(task: str, v: int, simplifications: str) -> str:
    return f"{task}|{v}|{simplifications}"


class Recordings:
    """ScienceWorld's gold paths played in ScienceWorld: {commands, scores, observations} per
    (task, variation, simplifications), from the cache file when it has them, else played live
    (one JVM, started on first need)."""

    def __init__(self, cache: str | None = None):
        self.path = Path(cache) if cache else None
        self.data: dict = {}
        if self.path and self.path.exists():
            self.data = json.loads(self.path.read_text(encoding="utf-8"))
            for r in self.data.values():   # caches written before `asked` and `refused` were kept
                if "asked" not in r and "observations" in r:
                    observations = r.pop("observations")
                    r["asked"] = [o.startswith(AMBIGUOUS) for o in observations]
                    r["refused"] = [o.startswith(REFUSALS) for o in observations]
        self._sw = None
        self.dirty = False

    def get(self, task: str, v: int, simplifications: str = "") -> dict:
        key = _key(task, v, simplifications)
        if key not in self.data:
            self.data[key] = self._play(task, v, simplifications)
            self.dirty = True
        return self.data[key]

    def _env(self):
        if self._sw is None:
            from scienceworld import ScienceWorldEnv   # the reference: an optional extra
            self._sw = ScienceWorldEnv("", envStepLimit=STEP_LIMIT)
        return self._sw

    def _play(self, task, v, simplifications) -> dict:
        sw = self._env()
        sw.load(task, v, simplifications, generateGoldPath=True)
        return self.play(task, v, simplifications, list(sw.get_gold_action_sequence()),
                         loaded=True)

    def play(self, task: str, v: int, simplifications: str, commands: list[str],
             loaded: bool = False) -> dict:
        """`commands` played in ScienceWorld from the start of the variation: its score after
        every step and whether it asked which thing was meant."""
        sw = self._env()
        if not loaded:
            sw.load(task, v, simplifications)
        scores, asked, refused = [], [], []
        for c in commands:
            obs, _, _, info = sw.step(c)
            scores.append(int(info["score"]))
            asked.append(obs.startswith(AMBIGUOUS))
            refused.append(obs.startswith(REFUSALS))
        return {"commands": commands, "scores": scores, "asked": asked, "refused": refused,
                "description": sw.get_task_description()}

    def sample(self, per_task: int, simplifications: str = "") -> dict:
        """The recordings of `per_task` sampled variations of every task, without their
        descriptions: what tests/data/science/scienceworld_gold_paths.json holds."""
        out = {}
        for task in sorted(TASKS):
            for v in sample_variations(task, per_task):
                r = self.get(task, v, simplifications)
                out[_key(task, v, simplifications)] = {k: r[k] for k in ("commands", "scores", "asked")}
        return out

    def save(self) -> None:
        if self.path and self.dirty:
            if self.path.exists():   # another run may have recorded more meanwhile: keep theirs too
                self.data = {**json.loads(self.path.read_text(encoding="utf-8")), **self.data}
            tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(json.dumps(self.data, sort_keys=True), encoding="utf-8")
            os.replace(tmp, self.path)     # never a half-written cache
            self.dirty = False

    def close(self) -> None:
        self.save()
        if self._sw is not None:
            self._sw.close()
            self._sw = None


def replay(task: str, v: int, simplifications: str, recording: dict) -> dict:
    """ScienceWorld's gold commands played in racbench: per step whether racbench accepted the
    command (ran it, asked which thing is meant where ScienceWorld asked too, or refused it where
    ScienceWorld refused it too: recordings keep `refused` since), our reply and
    our 0-100 score beside ScienceWorld's."""
    env = ScienceEnv(task, v, simplifications)
    env.reset()
    steps = []
    cpu = 0.0
    for i, (command, theirs) in enumerate(zip(recording["commands"], recording["scores"])):
        start = time.process_time()
        ended = env.finished
        obs, _, ran = env.act(command)
        cpu += time.process_time() - start
        asked = env.pending is not None
        they_asked = recording["asked"][i]
        they_refused = recording.get("refused", ())[i:i + 1] == [True]   # kept since; a refusal there too
        accepted = ended or (ran and not they_asked) or (asked and they_asked) or (not ran and not asked and they_refused)
        steps.append({"command": command, "accepted": accepted, "reply": obs,
                      "ours": env.episode.scienceworld_score, "theirs": theirs})
    diffs = [abs(s["ours"] - s["theirs"]) for s in steps]
    return {"task": task, "variation": v, "simplifications": simplifications, "steps": steps,
            "accepted": all(s["accepted"] for s in steps),
            "refused": sum(not s["accepted"] for s in steps),
            "complete": env.episode.scienceworld_score == 100,
            "theirs_complete": bool(recording["scores"]) and recording["scores"][-1] == 100,
            "mean_diff": sum(diffs) / max(1, len(diffs)), "max_diff": max(diffs, default=0),
            "description_same": env.task_description == recording.get("description", env.task_description),
            "cpu": cpu}


def self_replay(live: Recordings, task: str, v: int, simplifications: str, recording: dict) -> dict:
    """The recorded commands played again in ScienceWorld (`live`, a run apart from the one that
    recorded them): whether it accepts each as it did when recording (runs it, asks, or refuses
    it alike) and its per-step score difference from the recording."""
    again = live.play(task, v, simplifications, recording["commands"])
    refused = [again["refused"][i] and not recording.get("refused", [False] * len(again["refused"]))[i]
               or again["asked"][i] != recording["asked"][i] for i in range(len(again["scores"]))]
    diffs = [abs(a - b) for a, b in zip(again["scores"], recording["scores"])]
    return {"accepted": not any(refused), "refused": sum(refused), "diff": sum(diffs),
            "steps": len(diffs)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", default="", help="comma-separated tasks (default: all thirty)")
    ap.add_argument("--per-task", type=int, default=10, help="variations per task (default 10)")
    ap.add_argument("--simplifications", default="", help="ScienceWorld simplification string (default none)")
    ap.add_argument("--cache", default=os.environ.get("RACBENCH_SW_CACHE"),
                    help="JSON file (outside the repo) caching ScienceWorld's recordings; "
                         "default $RACBENCH_SW_CACHE")
    ap.add_argument("--json", action="store_true", help="print one JSON object per replayed sequence")
    ap.add_argument("--write-sample", metavar="PATH",
                    help="write the recordings of the sampled variations (commands, scores, "
                         "whether ScienceWorld asked which thing was meant) to PATH and stop: "
                         "tests/data/science/scienceworld_gold_paths.json is written so")
    ap.add_argument("--details", action="store_true",
                    help="list each refused command with racbench's reply and each step whose scores differ")
    ap.add_argument("--self-replay", action="store_true",
                    help="also replay each recording in a fresh ScienceWorld run (a JVM of its own) "
                         "and print how many it accepts command by command there and its own "
                         "per-step score difference (columns self and self|d|)")
    args = ap.parse_args(argv)
    tasks = [t for t in args.tasks.split(",") if t] or sorted(TASKS)
    unknown = [t for t in tasks if t not in TASKS]
    if unknown:
        print(f"--tasks: unknown task(s) {', '.join(unknown)}; accepted: {', '.join(sorted(TASKS))}",
              file=sys.stderr)
        return 2
    if args.per_task < 1:
        print("--per-task: a positive number of variations is accepted", file=sys.stderr)
        return 2
    try:
        import scienceworld  # noqa: F401
    except ImportError:
        if not args.cache:
            print("ScienceWorld is not installed: pip install 'racbench[scienceworld]' (and Java 17)",
                  file=sys.stderr)
            return 2
    rec = Recordings(args.cache)
    live = Recordings(None) if args.self_replay else None
    if args.write_sample:
        try:
            sample = rec.sample(args.per_task, args.simplifications)
        finally:
            rec.close()
        Path(args.write_sample).write_text(json.dumps(sample, sort_keys=True, indent=0) + "\n",
                                           encoding="utf-8")
        print(f"wrote {len(sample)} recordings to {args.write_sample}")
        return 0
    total = {"n": 0, "complete": 0, "accepted": 0, "steps": 0, "diff": 0.0, "max": 0, "cpu": 0.0,
             "self": 0, "self_diff": 0.0}
    if not args.json:
        print(f"simplifications: {args.simplifications!r}; {args.per_task} variations a task; scores 0-100")
        print(f"{'task':48} {'seqs':>4} {'full':>4} {'accepted':>8} {'mean|d|':>7} {'max|d|':>6} {'steps/s':>8}"
              + (f" {'self':>4} {'self|d|':>7}" if live else ""))
    try:
        for task in tasks:
            rows = []
            for v in sample_variations(task, args.per_task):
                recording = rec.get(task, v, args.simplifications)
                r = replay(task, v, args.simplifications, recording)
                if live:
                    r["self_replay"] = self_replay(live, task, v, args.simplifications, recording)
                rows.append(r)
                if args.json:
                    print(json.dumps(r, sort_keys=True), flush=True)
                elif args.details:
                    for i, s in enumerate(r["steps"]):
                        if not s["accepted"]:
                            print(f"  refused {task} v{v} step {i}: {s['command']!r} -> {s['reply']!r}")
                        elif s["ours"] != s["theirs"]:
                            print(f"  differs {task} v{v} step {i}: {s['command']!r} ours {s['ours']} "
                                  f"theirs {s['theirs']}")
            rec.save()
            n_steps = sum(len(r["steps"]) for r in rows)
            cpu = sum(r["cpu"] for r in rows)
            diff = sum(abs(s["ours"] - s["theirs"]) for r in rows for s in r["steps"])
            top = max((r["max_diff"] for r in rows), default=0)
            full = sum(r["complete"] for r in rows)
            acc = sum(r["accepted"] for r in rows)
            for k, x in (("n", len(rows)), ("complete", full), ("accepted", acc), ("steps", n_steps),
                         ("diff", diff), ("cpu", cpu)):
                total[k] += x
            total["max"] = max(total["max"], top)
            selfs = ""
            if live:
                own = sum(r["self_replay"]["accepted"] for r in rows)
                own_diff = sum(r["self_replay"]["diff"] for r in rows)
                total["self"] += own
                total["self_diff"] += own_diff
                selfs = f" {own:4d} {own_diff / max(1, n_steps):7.2f}"
            if not args.json:
                print(f"{task:48} {len(rows):4d} {full:4d} {acc:8d} {diff / max(1, n_steps):7.2f} {top:6d} "
                      f"{n_steps / max(cpu, 1e-9):8.0f}{selfs}", flush=True)
    finally:
        rec.close()
        if live:
            live.close()
    summary = {"sequences": total["n"], "complete": total["complete"], "accepted": total["accepted"],
               "steps": total["steps"], "mean_diff": total["diff"] / max(1, total["steps"]),
               "max_diff": total["max"], "steps_per_cpu_second": total["steps"] / max(total["cpu"], 1e-9)}
    if live:
        summary["self_accepted"] = total["self"]
        summary["self_mean_diff"] = total["self_diff"] / max(1, total["steps"])
    if args.json:
        print(json.dumps({"summary": summary}, sort_keys=True))
    else:
        print(f"all: {summary['sequences']} sequences, {summary['complete']} at full score, "
              f"{summary['accepted']} accepted command by command; per-step score difference mean "
              f"{summary['mean_diff']:.2f}, max {summary['max_diff']}; "
              f"{summary['steps_per_cpu_second']:.0f} steps/s (racbench, CPU)"
              + (f"; ScienceWorld on a fresh run of its own recordings: {summary['self_accepted']} "
                 f"accepted, per-step difference mean {summary['self_mean_diff']:.2f}" if live else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
