"""Partial credit against ScienceWorld: the same gold action sequence played in racbench's lab
and in an installed ScienceWorld (the `scienceworld` extra, Java 17), scores compared step by
step on ScienceWorld's 0-100 scale.

For a sample of variations of every task it plays our oracle's actions (or, with --path theirs,
ScienceWorld's gold path) in both worlds and prints, per task, the largest absolute difference
of the two score trajectories, the mean difference, and how many actions the other world did not
understand (a trajectory that leaves the other world's grammar is compared only up to there).
Our numbers for identical things ('apple seed 2') are played in ScienceWorld as its question
about which one is meant, answered with that reading.

    python benchmarks/science_scores.py [--per-task 3] [--tasks boil,find-animal] [--path ours|theirs]
                                        [--json out.jsonl]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time

from racbench.worlds.science import TASKS, ScienceEnv

# what ScienceWorld answers to input it cannot run, and to a reference that fits several things
REFUSED = ("No known action matches that input.", "Unknown action", "There is no")
AMBIGUOUS = "Ambiguous request"
OURS_REFUSED = ("I'm not sure", "There is no", "I don't see")


def sample(task: str, k: int) -> list[int]:
    """k variations spread over the task's range (first and last included)."""
    n = TASKS[task].n_variations
    if k >= n:
        return list(range(n))
    return sorted({round(i * (n - 1) / (k - 1)) for i in range(k)}) if k > 1 else [0]


def ours_gold(task: str, v: int) -> list[str]:
    env = ScienceEnv(task, v)
    env.reset()
    return list(_actions(env))


def _actions(env):
    for action in env.task_spec.oracle(env):
        _, _, terminated, truncated, _ = env.step(action)
        yield action
        if terminated or truncated:
            return


def play_ours(task: str, v: int, actions: list[str]) -> tuple[list[int], int]:
    """Our score after each action, and how many actions our parser refused."""
    env = ScienceEnv(task, v)
    env.reset()
    scores, refused, score = [], 0, 0
    for a in actions:
        if not env.finished:
            obs, _, _, _, info = env.step(a)
            refused += obs.startswith(OURS_REFUSED)
            score = info["scienceworld_score"]
        scores.append(score)
    return scores, refused


TWIN = re.compile(r" (\d+)\b")   # our number for one of several identical things ('apple seed 2')


def _step_theirs(sw, action: str, reading: int = 0):
    """One action in ScienceWorld; an ambiguous reference is resolved by reading `reading` (its
    first by default, as its own agents do)."""
    obs, _, _, info = sw.step(action)
    if obs.startswith(AMBIGUOUS):
        n = sum(line[:1].isdigit() for line in obs.splitlines())
        obs, _, _, info = sw.step(str(reading if reading < n else 0))
    return obs, info


def play_theirs(sw, task: str, v: int, actions: list[str]) -> tuple[list[int], int]:
    """ScienceWorld's score after each action, and how many actions it refused. Where we number
    identical things ('apple seed 2') and ScienceWorld names them alike, the action is played
    with the name alone and the matching reading of its question."""
    sw.load(task, v, "")
    sw.reset()
    scores, refused, score = [], 0, 0
    for a in actions:
        obs, info = _step_theirs(sw, a)
        for m in TWIN.finditer(a) if obs.startswith(REFUSED) else ():
            obs, info = _step_theirs(sw, a[:m.start()] + a[m.end():], int(m.group(1)) - 1)
            if not obs.startswith(REFUSED):
                break
        refused += obs.startswith(REFUSED)
        score = info["score"]
        scores.append(score)
    return scores, refused


def compare(sw, task: str, v: int, path: str) -> dict:
    if path == "ours":
        actions = ours_gold(task, v)
    else:
        sw.load(task, v, "", generateGoldPath=True)
        actions = list(sw.get_gold_action_sequence())
    ours, ours_refused = play_ours(task, v, actions)
    theirs, theirs_refused = play_theirs(sw, task, v, actions)
    diffs = [abs(a - b) for a, b in zip(ours, theirs)]
    return {"task": task, "variation": v, "path": path, "actions": actions, "ours": ours, "theirs": theirs,
            "max_diff": max(diffs, default=0), "mean_diff": sum(diffs) / max(1, len(diffs)),
            "ours_refused": ours_refused, "theirs_refused": theirs_refused}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-task", type=int, default=3, help="variations per task (spread over its range)")
    ap.add_argument("--tasks", default="", help="comma-separated tasks (default: all thirty)")
    ap.add_argument("--path", choices=("ours", "theirs"), default="ours",
                    help="whose gold action sequence both worlds play")
    ap.add_argument("--json", help="write every compared trajectory to this JSON-lines file")
    args = ap.parse_args(argv)
    try:
        from scienceworld import ScienceWorldEnv   # the reference: an optional extra, only here
    except ImportError:
        print("ScienceWorld is not installed: pip install 'racbench[scienceworld]' (and Java 17)", file=sys.stderr)
        return 2
    tasks = [t for t in args.tasks.split(",") if t] or sorted(TASKS)
    unknown = [t for t in tasks if t not in TASKS]
    if unknown:
        print(f"--tasks: unknown task(s) {', '.join(unknown)}; accepted: {', '.join(sorted(TASKS))}", file=sys.stderr)
        return 2
    sw = ScienceWorldEnv("", envStepLimit=1000)
    out = open(args.json, "w", encoding="utf-8") if args.json else None
    start = time.perf_counter()
    print(f"path: {args.path}'s gold actions; {args.per_task} variations a task; scores 0-100")
    print(f"{'task':48} {'max|d|':>6} {'mean|d|':>7} {'refused ours/theirs':>20}")
    worst = 0
    try:
        for task in tasks:
            rows = [compare(sw, task, v, args.path) for v in sample(task, args.per_task)]
            if out:
                for r in rows:
                    out.write(json.dumps(r) + "\n")
            top = max(r["max_diff"] for r in rows)
            mean = sum(r["mean_diff"] for r in rows) / len(rows)
            refused = f"{sum(r['ours_refused'] for r in rows)}/{sum(r['theirs_refused'] for r in rows)}"
            print(f"{task:48} {top:6d} {mean:7.1f} {refused:>20}", flush=True)
            worst = max(worst, top)
    finally:
        sw.close()
        if out:
            out.close()
    print(f"largest difference: {worst}; wall time {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
