"""Read per-variation facts from an installed ScienceWorld and write them as racbench's data tables.

ScienceWorld (`pip install scienceworld`, Java 17) is a reference here, never a dependency: this
script reads facts only (the task description, the start room, the gold action sequence of every
variation) and turns them into tables under racbench/data/science/. Two steps:

    python tools/scienceworld_facts.py read  RAW.jsonl [--task NAME ...] [--every N] [--no-gold]
    python tools/scienceworld_facts.py write RAW.jsonl [RAW2.jsonl ...]   # RAW -> variations.json

`read` appends to RAW.jsonl and skips (task, variation) pairs already there, so it can be resumed
(and several can run at once on different tasks into different files). A gold path takes seconds
to make, so tasks whose answer follows from their description (TASKS' third column) may be read
`--every N`, and the rest of their variations `--no-gold`; `write` merges the files and says
which variations still lack an answer (`read --variation K` reads just those). Where a gold
path answers wrongly (some named-surface and pea variations) the scorer decides: `read --probe`
plays one answer per variation (PROBES) and keeps its score.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


# tasks whose tables need the gold path (an answer box, a source, where a substance is picked
# up); the others are read from the task description alone, which is much faster. The genetics
# and inclined-plane answers come from ScienceWorld's scorer instead (PROBES, `read --probe`).
GOLD_TASKS = (
    "boil", "melt", "freeze", "change-the-state-of-matter-of", "use-thermometer",
    "measure-melting-point-known-substance", "measure-melting-point-unknown-substance",
    "test-conductivity", "test-conductivity-of-unknown-substances", "inclined-plane-determine-angle",
    "inclined-plane-friction-unnamed-surfaces", "power-component-renewable-vs-nonrenewable-energy",
)


def read(raw: Path, tasks: list[str], gold_tasks=GOLD_TASKS, every: int = 1, only=(), probe=False) -> None:
    from scienceworld import ScienceWorldEnv   # the reference, only here

    done = set()
    if raw.exists():
        for line in raw.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            done.add((row["task"], row["variation"]))
    env = ScienceWorldEnv("", envStepLimit=100)
    names = tasks or [*gold_tasks, *(t for t in env.get_task_names() if t not in gold_tasks)]
    with raw.open("a", encoding="utf-8") as out:
        for task in names:
            for v in range(0, env.get_max_variations(task), every):
                if (task, v) in done or (only and v not in only):
                    continue
                gold = task in gold_tasks and not probe
                env.load(task, v, "", generateGoldPath=gold)
                obs = env.look()    # a free action; reset() would replay the load and list valid actions
                row = {"task": task, "variation": v, "description": env.get_task_description(),
                       "look": obs, "gold": env.get_gold_action_sequence() if gold else None}
                if probe:
                    row["probe"] = _probe(env, task, v, TASKS[task][0](row))
                out.write(json.dumps(row) + "\n")
                out.flush()
            print(task, file=sys.stderr, flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="step", required=True)
    r = sub.add_parser("read", help="load every variation in ScienceWorld and append its facts to RAW")
    r.add_argument("raw", type=Path)
    r.add_argument("--task", action="append", default=[])
    r.add_argument("--no-gold", action="store_true", help="descriptions only (a quick look at every task)")
    r.add_argument("--probe", action="store_true", help="answers from ScienceWorld's scorer (PROBES' tasks)")
    r.add_argument("--variation", type=int, action="append", default=[],
                   help="read only these variations (the ones `write` says lack an answer)")
    r.add_argument("--every", type=int, default=1, help="read every Nth variation only (answers that follow "
                   "from the description: see KEYED)")
    w = sub.add_parser("write", help="turn RAW files (merged; a row with a gold path wins) into "
                       "racbench/data/science/variations.json")
    w.add_argument("raw", type=Path, nargs="+")
    args = parser.parse_args(argv)
    if args.step == "read":
        read(args.raw, args.task, () if args.no_gold else GOLD_TASKS, args.every, set(args.variation), args.probe)
    else:
        write(args.raw)
    return 0


# ---- RAW -> tables ---------------------------------------------------------------------------
# Each pattern picks the critical objects out of one task's description (facts, not wording:
# only the captured names, rooms, colours and numbers reach our tables).
_BOX = r"(\w+) box"
PATTERNS = {
    "matter": r"to (?:boil|melt|freeze|change the state of matter of) (.+?)\.",
    "use-thermometer": r"temperature of (.+?), which is located around the (.+?)\. .*?above (-?[\d.]+) "
                       r"degrees.*?in the " + _BOX + r"\..*?in the " + _BOX + r"\. The boxes are located around the (.+?)\.",
    "melting": r"melting point of (.+?), which is located around the (.+?)\. .*?above (-?[\d.]+) "
               r"degrees.*?focus on the " + _BOX + r"\..*?focus on the " + _BOX + r"\. The boxes are located around the (.+?)\.",
    "power": r"turn on the (.+?)(?: by powering it using a (\w+) power source)?\. First",
    "conductivity": r"determine if (.+?) is electrically conductive\. The .+? is located around the (.+?)\. .*?"
                    r"place it in the " + _BOX + r"\..*?place it in the " + _BOX + r"\.",
    "find": r"move it to the " + _BOX + r" in the (.+?)\.",
    "plane": r"inclined planes \((.+?), (.+?)\) has the (\w+) (angle|friction)",
    "genetics": r"whether (.+?) is a dominant or recessive trait in the (.+?) plant\. If the trait is dominant, "
                r"focus on the " + _BOX + r"\. If the trait is recessive, focus on the " + _BOX,
}
# the tasks of topics 5-10 whose tables were written before this script: their descriptions'
# critical objects, for the reference tests (tests/science/test_reference_scienceworld.py)
DESCRIBED = {
    "chemistry-mix": r"create the substance '(.+?)'\. A recipe and some of the ingredients might be found near the (.+?)\.",
    "chemistry-mix-paint-secondary-color": r"to create (.+?)\. When you are done",
    "chemistry-mix-paint-tertiary-color": r"to create (.+?)\. When you are part-way done",
    "grow-plant": r"grow an? (.+?) plant from seed\. Seeds can be found in the (.+?)\.",
    "grow-fruit": r"grow an? (.+?)\. This will require .*? Seeds can be found in the (.+?)\.",
    "identify-life-stages-1": r"life stages of the (.+?), starting",
    "identify-life-stages-2": r"life stages of the (.+?) plant, starting",
    "lifespan-longest-lived": r"()",
    "lifespan-shortest-lived": r"()",
    "lifespan-longest-lived-then-shortest-lived": r"()",
}
MATTER = ("boil", "melt", "freeze", "change-the-state-of-matter-of")
FIND = ("find-living-thing", "find-non-living-thing", "find-plant", "find-animal")
PLANES = ("inclined-plane-determine-angle", "inclined-plane-friction-named-surfaces",
          "inclined-plane-friction-unnamed-surfaces")


def _facts(pattern: str, row: dict) -> tuple:
    found = re.search(PATTERNS[pattern], row["description"])
    if found is None:
        raise SystemExit(f"{row['task']} {row['variation']}: description not understood: {row['description']!r}")
    return found.groups()


def _start_room(row: dict) -> str:
    return re.search(r"called the (.+?)\.", row["look"]).group(1)


def _last(row: dict, prefix: str) -> str:
    """The object of the gold path's last action starting with `prefix` ('focus on', 'move')."""
    for action in reversed(row["gold"]):
        if action.startswith(prefix):
            return action[len(prefix):].strip()
    raise SystemExit(f"{row['task']} {row['variation']}: no '{prefix}' in the gold path")


def _box_colour(text: str) -> str:
    return re.search(r"(\w+) box$", text).group(1)


def _number(text: str):
    value = float(text)
    return int(value) if value.is_integer() else value


def _component(name: str) -> list:
    """'red light bulb' -> ['light bulb', 'red']; 'electric motor' -> ['electric motor', None]."""
    words = name.split()
    if name.endswith("light bulb") and len(words) == 3:
        return ["light bulb", words[0]]
    return [name, None]


def _box_answer(verb: str, first: int):
    """An answer read from the gold path's last `verb` ('move', 'focus on') into a box: whether
    it is the box named at position `first` of the facts (else the next one)."""
    def answer(facts: list, row: dict) -> bool:
        colour = _box_colour(_last(row, verb))
        if colour not in facts[first:first + 2]:
            raise SystemExit(f"{row['task']} {row['variation']}: gold answers the {colour} box, not one of "
                             f"{facts[first:first + 2]}")
        return colour == facts[first]
    return answer


def _plane_answer(facts: list, row: dict) -> str:
    focus = _last(row, "focus on")
    hits = [x for x in facts[:2] if re.search(rf"\b{re.escape(x.lower())}\b", focus.lower())]
    if len(hits) != 1:
        raise SystemExit(f"{row['task']} {row['variation']}: gold focuses on {focus!r}")
    return hits[0]


def _source_used(facts: list, row: dict) -> str:
    return next(m.group(1) for m in (re.match(r"connect (.+?) anode", a) for a in row["gold"]) if m)


def _measure(pattern):
    def facts(row):
        name, room, threshold, above, below, box_room = _facts(pattern, row)
        return [name, room, _number(threshold), above, below, box_room]
    return facts


def _power(row):
    name, kind = _facts("power", row)
    return [*_component(name), kind == "renewable"]


def _genetics(row):
    trait, plant, dominant, recessive = _facts("genetics", row)
    return [plant, trait, dominant, recessive]


# task -> (facts from the description, answer from the gold path or None, what the answer
# follows from when it is the same for every variation that shares it, so that reading every
# Nth variation's gold path is enough: `read --every N`)
TASKS = {
    **{t: (lambda r: _facts("matter", r)[0], None, None) for t in MATTER},
    "use-thermometer": (_measure("use-thermometer"), _box_answer("move", 3), None),
    "measure-melting-point-known-substance": (_measure("melting"), _box_answer("focus on", 3),
                                              lambda f: (f[0], f[2])),
    "measure-melting-point-unknown-substance": (_measure("melting"), _box_answer("focus on", 3), None),
    "power-component": (lambda r: _component(_facts("power", r)[0]), None, None),
    "power-component-renewable-vs-nonrenewable-energy": (_power, _source_used, None),
    "test-conductivity": (lambda r: list(_facts("conductivity", r)), _box_answer("move", 2), lambda f: f[0]),
    "test-conductivity-of-unknown-substances": (lambda r: list(_facts("conductivity", r)),
                                                _box_answer("move", 2), None),
    **{t: (lambda r: list(_facts("find", r)), None, None) for t in FIND},
    "inclined-plane-determine-angle": (lambda r: list(_facts("plane", r)[:3]), _plane_answer, None),
    "inclined-plane-friction-unnamed-surfaces": (lambda r: list(_facts("plane", r)[:3]), _plane_answer, None),
    "inclined-plane-friction-named-surfaces": (lambda r: list(_facts("plane", r)[:3]), _plane_answer, None),
    "mendelian-genetics-known-plant": (_genetics, _box_answer("focus on", 2), lambda f: (f[0], f[1])),
    "mendelian-genetics-unknown-plant": (_genetics, _box_answer("focus on", 2), lambda f: (f[0], f[1])),
}


def _plane_called(task: str, surface: str) -> str:
    return f"inclined plane {surface}" if task == PLANES[0] else f"inclined plane with a {surface} surface"


# Tasks whose answer is one focus away: ScienceWorld's scorer, not its gold path, is the truth
# (its gold paths answer some named-surface and pea variations wrongly). A probe loads the
# variation with teleportAction, plays these actions and reads the score: 100 if the first
# option is right, -100 if the other is.
PROBES = {
    **{t: (lambda f, t=t: ["teleport to workshop", f"focus on {_plane_called(t, f[0])}"],
           lambda f, right: f[0] if right else f[1]) for t in PLANES},
    **{t: (lambda f: ["teleport to greenhouse", f"focus on {f[2]} box"], lambda f, right: right)
       for t in ("mendelian-genetics-known-plant", "mendelian-genetics-unknown-plant")},
}


def _probe(env, task: str, v: int, facts: list) -> int:
    env.load(task, v, "teleportAction")
    env.reset()
    score = 0
    for action in PROBES[task][0](facts):
        _, _, _, info = env.step(action)
        score = info["score"]
    if score not in (100, -100):
        raise SystemExit(f"{task} {v}: the probe {PROBES[task][0](facts)} scored {score}")
    return score


def described(row: dict):
    """The critical objects a variation's description names (answers left out)."""
    task = row["task"]
    if task in TASKS:
        return TASKS[task][0](row)
    found = re.search(DESCRIBED[task], row["description"])
    if found is None:
        raise SystemExit(f"{task} {row['variation']}: description not understood: {row['description']!r}")
    return [g for g in found.groups() if g]


def _task_table(task: str, rows: list, infer=None) -> list:
    """The task's rows of facts and answers. A variation's answer is, first found: its probe of
    ScienceWorld's scorer; a probe of a variation with the same key; its gold path's answer; a
    gold path of a variation with the same key; `infer(facts)` (None when it cannot tell)."""
    facts_of, answer_of, key_of = TASKS[task]
    facts = [facts_of(r) for r in rows]
    if answer_of is None:
        return facts
    probed, golden = {}, {}
    for f, r in zip(facts, rows):
        if r.get("probe") is not None:
            a = PROBES[task][1](f, r["probe"] == 100)
            if key_of is not None and probed.setdefault(key_of(f), a) != a:
                raise SystemExit(f"{task}: variations sharing {key_of(f)} score differently; probe every variation")
        elif r["gold"] is not None and key_of is not None:
            golden.setdefault(key_of(f), answer_of(f, r))
    out = []
    for f, r in zip(facts, rows):
        key = key_of(f) if key_of is not None else None
        if r.get("probe") is not None:
            a = PROBES[task][1](f, r["probe"] == 100)
        elif key in probed:
            a = probed[key]
        elif r["gold"] is not None:
            a = answer_of(f, r)
        else:
            a = golden.get(key) if key is not None else None
            if a is None and infer is not None:
                a = infer(f)
        if a is None:
            raise SystemExit(f"{task} {r['variation']}: no gold path or probe read for its answer; run `read` on it")
        out.append([*f, a])
    return out


def _rougher(named: list) -> dict:
    """surface -> the surfaces ScienceWorld's answers rank rougher (every 'most' and 'least'
    answer says which of two surfaces has more friction), closed under 'rougher than a
    rougher one'."""
    rougher: dict = {}
    for first, second, question, answer in named:
        other = second if answer == first else first
        hi, lo = (answer, other) if question == "most" else (other, answer)
        rougher.setdefault(lo, set()).add(hi)
        rougher.setdefault(hi, set())
    changed = True
    while changed:
        changed = False
        for ups in rougher.values():
            more = set().union(*(rougher[u] for u in ups)) - ups
            if more:
                ups |= more
                changed = True
    return rougher


def _named_answer(rougher: dict):
    """The answer of a named-surface variation whose gold path was not read, when the answers
    read rank its two surfaces (None otherwise)."""
    def infer(facts):
        first, second, question = facts
        if second in rougher.get(first, ()):
            hi, lo = second, first
        elif first in rougher.get(second, ()):
            hi, lo = first, second
        else:
            return None
        return hi if question == "most" else lo
    return infer


def friction_order(named: list) -> list[str]:
    """The named surfaces from least to most friction, as ScienceWorld's answers rank them;
    ties in the ranking go alphabetically, and answers that contradict each other stop the
    script."""
    rougher = _rougher(named)
    if any(m in ups for m, ups in rougher.items()):
        raise SystemExit("inclined-plane-friction-named-surfaces: ScienceWorld's answers rank no order of surfaces")
    below = {m: 0 for m in rougher}
    for m, ups in rougher.items():
        for up in ups:
            below[up] += 1
    order, ready = [], sorted(m for m, n in below.items() if n == 0)
    while ready:
        m = ready.pop(0)
        order.append(m)
        for up in sorted(rougher[m]):
            below[up] -= 1
            if below[up] == 0:
                ready = sorted(ready + [up])
    return order


def tables(rows: dict) -> dict:
    """{task: [row per variation]} -> the variations table (see its _doc)."""
    out: dict = {"start_rooms": {t: [_start_room(r) for r in rs] for t, rs in sorted(rows.items())}}
    named = "inclined-plane-friction-named-surfaces"
    # its gold paths answer wrongly often: only the scorer's answers count, and the ranking
    # of surfaces they make answers the variations not probed
    rows = dict(rows, **{named: [dict(r, gold=None) for r in rows[named]]})
    read = [[*TASKS[named][0](r), PROBES[named][1](TASKS[named][0](r), r["probe"] == 100)]
            for r in rows[named] if r.get("probe") is not None]
    for task in TASKS:
        out[task] = _task_table(task, rows[task], _named_answer(_rougher(read)) if task == named else None)
    out["friction_order"] = friction_order(out["inclined-plane-friction-named-surfaces"])
    return out


DOC = ("Per-variation facts read from ScienceWorld 1.2.3 by tools/scienceworld_facts.py (never edit by "
       "hand): variation k of a task is ScienceWorld's variation k. start_rooms: where the agent starts. "
       "boil/melt/freeze/change-the-state-of-matter-of: the substance named. use-thermometer and "
       "measure-melting-point-*: [object, its room, threshold, box for above, box for below, box room, "
       "whether the answer is above]. power-component: [archetype, colour]; "
       "-renewable-vs-nonrenewable-energy adds whether a renewable source is asked for and the source "
       "ScienceWorld's gold path uses. test-conductivity*: [object, its room, box if conductive, box if not, "
       "whether it conducts]. find-*: [box colour, box room]. inclined-plane-*: [first plane, second plane, "
       "question, answer]. friction_order: the named surfaces from least to most friction, as those answers "
       "rank them. mendelian-genetics-*: [plant, trait, dominant box, recessive box, whether the "
       "trait is dominant].")


def _rank(row: dict) -> int:
    """Which of two reads of a variation to keep: a probe of the scorer, then a gold path."""
    return 2 if row.get("probe") is not None else 1 if row["gold"] is not None else 0


def write(raws: list[Path]) -> None:
    rows: dict = {}
    for raw in raws:
        for line in raw.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            have = rows.setdefault(row["task"], {}).get(row["variation"])
            if have is None or _rank(row) > _rank(have):
                rows[row["task"]][row["variation"]] = row
    for task, by_v in rows.items():
        if sorted(by_v) != list(range(len(by_v))):
            raise SystemExit(f"{task}: RAW lacks variations; run `read` again to finish it")
    ordered = {task: [by_v[v] for v in sorted(by_v)] for task, by_v in rows.items()}
    table = {"_doc": DOC, **tables(ordered)}
    # one line per task keeps the file small and its diffs readable
    out = ROOT / "racbench" / "data" / "science" / "variations.json"
    lines = ["{"]
    items = list(table.items())
    for i, (key, value) in enumerate(items):
        if key == "start_rooms":
            body = "{\n" + ",\n".join(f"  {json.dumps(t)}: {json.dumps(v, ensure_ascii=False)}"
                                       for t, v in value.items()) + "\n }"
        else:
            body = json.dumps(value, ensure_ascii=False)
        lines.append(f" {json.dumps(key)}: {body}" + ("," if i < len(items) - 1 else ""))
    lines.append("}")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {out.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
