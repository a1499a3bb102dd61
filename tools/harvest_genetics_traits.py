"""Read each genetics variation's parent plants' traits off ScienceWorld 1.2.3 by growing them.

ScienceWorld draws the traits its two parent plants show once grown (height, leaves; the trait
studied aside) per variation, not per run, and its rooms do not show them before the plants grow,
so this tool plays each variation whose plant shows a trait besides the one studied: in the
greenhouse it plants the two seeds of the seed jar (each by its own name) in the first two pots,
lets them grow (in pots that water themselves) and reads each parent's shown traits from the look
(its height and leaves from the plant, its flower size and colour from its flower). Each parent is keyed by its
value of the trait studied (read from its plant, its flower, or the seed planted, as the trait
shows). Facts only: the values, never ScienceWorld's text.

    python tools/harvest_genetics_traits.py [--tasks mendelian-genetics-known-plant] [--jobs 2]
        [--variations 0,15] [--out racbench/data/science/genetics_parents.json] [--check FILE]

Resumable: variations already in the output file are skipped; the file is rewritten (sorted)
after every variation. `--check FILE` reads into FILE instead and prints where it disagrees with
the output file (is the draw the same on a fresh run?).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from racbench.worlds.science.data import load  # noqa: E402

TASKS = ("mendelian-genetics-known-plant", "mendelian-genetics-unknown-plant")
OUT = ROOT / "racbench" / "data" / "science" / "genetics_parents.json"
DOC = ("Each genetics variation's two parent plants as ScienceWorld 1.2.3 grows them (read by "
       "tools/harvest_genetics_traits.py): for each task and variation, the parents keyed by their "
       "value of the trait studied, each with the values it shows of the plant traits other than the "
       "one studied (genetics.json plant_traits), which ScienceWorld draws per variation.")
MAX_ROUNDS = 40
# pots that water themselves and a teleport save steps; the traits read so are those of the
# variation without them (known-plant 0, 70 and 100 read alike both ways)
SIMPLIFICATIONS = "selfWateringFlowerPots,teleportAction"


def _pot_contents(look: str, pot: str) -> str:
    """What the look lists in the pot named `pot` (the text inside its parentheses)."""
    m = re.search(rf"\ba {pot} \(containing (.*)\)\s*$", look, re.M)
    return m.group(1) if m else ""


def _shown(plant: str, text: str) -> dict:
    """The trait values a grown plant's look shows: plant traits from 'with ...', flower traits
    from its flower ('a wilting small yellow flower')."""
    pairs = load("genetics")["pairs"][plant]
    phrases = load("life")["trait_phrases"]
    found = {}
    m = re.search(r"plant in the (?:adult|reproducing) stage with ([^.(]*)", text)
    said = m.group(1).strip() if m else ""
    for trait in load("genetics")["plant_traits"]:
        for value in pairs.get(trait, ()):
            if re.search(rf"(^| |and ){re.escape(phrases[trait].format(value=value))}\b", said):
                found[trait] = value
    fm = re.search(r"((?:\w+ )*)flower\b", text.split("you see:", 1)[1]) if "you see:" in text else None
    words = fm.group(1).split() if fm else []
    for trait in ("flower size", "flower color"):
        for value in pairs.get(trait, ()):
            if value in words:
                found[trait] = value
    return found


def _grown(held: str, category: str) -> bool:
    """Whether a pot's plant shows its traits yet: adult (its height and leaves), or flowering
    where the trait studied is its flower's."""
    if category.startswith("flower"):
        return "reproducing stage" in held and "flower" in held
    return "adult stage" in held or "reproducing stage" in held


def read_variation(env, task: str, variation: int) -> dict:
    """Play `variation` and return {studied value: {other plant trait: value}} for its parents."""
    plant, trait, _, _, _ = _facts(task, variation)
    category = trait.split(" ", 1)[1]
    pair = load("genetics")["pairs"][plant][category]
    wanted = [t for t in load("genetics")["plant_traits"] if t in load("genetics")["pairs"][plant] and t != category]
    if not wanted:   # the plant shows no trait but the one studied: nothing to read
        return {v: {} for v in sorted(pair)}
    env.load(task, variation, SIMPLIFICATIONS)
    env.step("teleport to greenhouse")
    look, _, _, _ = env.step("look around")
    pots = re.findall(r"\ba ((?:self watering )?flower pot \d+) \(containing soil", look)[:2]
    jar, _, _, _ = env.step("look at seed jar")
    seeds = re.findall(r"\b(?:a|an) ([^,()]*? seed)(?=,|\))", jar)
    assert len(seeds) == 2, (task, variation, jar)
    for seed, pot in zip(seeds, pots):
        obs, _, _, _ = env.step(f"move {seed} in seed jar to {pot}")
        if obs.startswith("Ambiguous"):
            obs, _, _, _ = env.step("0")
        assert obs.startswith("You move"), (task, variation, obs)
    env.step("wait")   # ten ticks: seedlings
    for _ in range(MAX_ROUNDS):
        env.step("wait1")
        look, _, _, _ = env.step("look around")
        held = [_pot_contents(look, pot) for pot in pots]
        if all(_grown(h, category) for h in held):
            break
    else:
        raise RuntimeError(f"{task} {variation}: the parents did not flower: {held}")
    parents = {}
    for seed, h in zip(seeds, held):
        shown = _shown(plant, h)
        if category in load("genetics")["seed_traits"]:
            key = next(v for v in pair if v in seed.split())
        else:
            key = shown.get(category)
        assert key in pair, (task, variation, category, seed, h)
        parents[key] = {t: shown[t] for t in wanted}
    assert len(parents) == 2, (task, variation, parents)
    return dict(sorted(parents.items()))


def _facts(task, variation):
    from racbench.worlds.science.tasks.base import scienceworld_facts
    return scienceworld_facts(task, variation)


def _worker(jobs, results):
    from scienceworld import ScienceWorldEnv
    env = ScienceWorldEnv("", envStepLimit=100000)
    try:
        for task, v in iter(jobs.get, None):
            try:
                results.put((task, v, read_variation(env, task, v), None))
            except Exception as e:  # reported, the variation left for a later run
                results.put((task, v, None, f"{type(e).__name__}: {e}"))
    finally:
        env.close()


def _write(path: Path, table: dict) -> None:
    """The table sorted, one variation a line, written whole or not at all."""
    lines = ["{", f' "_doc": {json.dumps(DOC)},']
    tasks = sorted(table)
    for i, task in enumerate(tasks):
        vs = sorted(table[task], key=int)
        lines.append(f" {json.dumps(task)}: {{")
        lines += [f"  {json.dumps(v)}: {json.dumps(table[task][v], sort_keys=True)}" + ("," if j < len(vs) - 1 else "")
                  for j, v in enumerate(vs)]
        lines.append(" }" + ("," if i < len(tasks) - 1 else ""))
    lines.append("}")
    tmp = path.with_suffix(".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", default=",".join(TASKS))
    ap.add_argument("--variations", default=None, help="comma-separated (default: all)")
    ap.add_argument("--jobs", type=int, default=2, help="ScienceWorld JVMs at once (at most 2 here)")
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--check", type=Path, default=None,
                    help="read into this file and compare with --out")
    a = ap.parse_args(argv)
    from racbench.worlds.science.registry import TASKS as SPECS
    target = a.check or a.out
    table = {}
    if target.exists():
        table = {k: v for k, v in json.loads(target.read_text(encoding="utf-8")).items() if k != "_doc"}
    todo = []
    for task in a.tasks.split(","):
        if task not in TASKS:
            print(f"harvest_genetics_traits: --tasks: '{task}' is not one of {', '.join(TASKS)}", file=sys.stderr)
            return 2
        table.setdefault(task, {})
        vs = ([int(x) for x in a.variations.split(",")] if a.variations
              else range(SPECS[task].n_variations))
        todo += [(task, v) for v in vs if str(v) not in table[task]]
    jobs, results = multiprocessing.Queue(), multiprocessing.Queue()
    for job in todo:
        jobs.put(job)
    n = min(max(1, a.jobs), len(todo))   # no JVM at all when every variation is read
    for _ in range(n):
        jobs.put(None)
    procs = [multiprocessing.Process(target=_worker, args=(jobs, results)) for _ in range(n)]
    for p in procs:
        p.start()
    failed = 0
    t0 = time.time()
    for k in range(len(todo)):
        task, v, parents, error = results.get()
        if error:
            failed += 1
            print(f"[{k + 1}/{len(todo)}] {task} {v}: FAILED {error}", flush=True)
            continue
        table[task][str(v)] = parents
        _write(target, table)
        print(f"[{k + 1}/{len(todo)}] {task} {v}: {parents} ({time.time() - t0:.0f} s)", flush=True)
    for p in procs:
        p.join()
    if a.check and a.out.exists():
        kept = json.loads(a.out.read_text(encoding="utf-8"))
        same = differ = 0
        for task in sorted(table):
            for v, parents in sorted(table[task].items(), key=lambda kv: int(kv[0])):
                if v in kept.get(task, {}):
                    if kept[task][v] == parents:
                        same += 1
                    else:
                        differ += 1
                        print(f"differs: {task} {v}: {kept[task][v]} then {parents}")
        print(f"check: {same} the same, {differ} different")
    print(f"done: {len(todo) - failed} read, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
