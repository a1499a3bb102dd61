"""Read per-variation facts from an installed ScienceWorld and write them as racbench's data tables.

ScienceWorld (`pip install scienceworld`, Java 17) is a reference here, never a dependency: this
script reads facts only (the task description, the start room, the gold action sequence of every
variation) and turns them into tables under racbench/data/science/. Two steps:

    python tools/scienceworld_facts.py read  RAW.jsonl [--task NAME ...] [--every N] [--no-gold]
    python tools/scienceworld_facts.py write RAW.jsonl [RAW2.jsonl ...]   # RAW -> variations.json
    python tools/scienceworld_facts.py read ROOMS.jsonl --rooms --task boil ...   # what the rooms hold

`read` appends to RAW.jsonl and skips (task, variation) pairs already there, so it can be resumed
(and several can run at once on different tasks into different files). A gold path takes seconds
to make, so tasks whose answer follows from their description (TASKS' third column) may be read
`--every N`, and the rest of their variations `--no-gold`; `write` merges the files and says
which variations still lack an answer (`read --variation K` reads just those). Where a gold
path answers wrongly (some named-surface and pea variations) the scorer decides: `read --probe`
plays one answer per variation (PROBES) and keeps its score. Rows of `read --rooms` given to
`write` add what a variation draws beyond its description (`drawn`: vessels, pot numbers, seeds'
traits, life-stage pots), read off the names in its rooms at the start.
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


def read(raw: Path, tasks: list[str], gold_tasks=GOLD_TASKS, every: int = 1, only=(), probe=False,
         rooms=False) -> None:
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
                if rooms:
                    out.write(json.dumps(_read_rooms(env, task, v)) + "\n")
                    out.flush()
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


def _tree(node: dict, lut: dict) -> dict:
    """ScienceWorld's object tree, kept to what our tables use: names, contents (electrical
    terminals left out: every such thing has them), and for a living thing its kind and the names
    it answers to (which tell its life stage)."""
    out = {"name": node["name"]}
    if node.get("propLife"):
        out["life"] = node["propLife"]["lifeformType"]
        out["referents"] = sorted(lut.get(node["uuid"], {}).get("referents", ()))
    kids = [_tree(c, lut) for _, c in sorted(node["contents"].items())
            if not re.fullmatch(r"terminal \d+|anode|cathode", c["name"])]
    if kids:
        out["contents"] = kids
    return out


def _read_rooms(env, task: str, v: int) -> dict:
    """What a variation's rooms hold at the start (its object tree). No reset(): it replays the
    load (the same tree) and costs five times the rest of the read."""
    env.load(task, v, "")
    lut = env.get_all_object_ids_types_referents_LUTJSON()
    return {"task": task, "variation": v, "tree": _tree(env.getObjectTree(), lut)}   # 1.2.3 has no snake_case name for it


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="step", required=True)
    r = sub.add_parser("read", help="load every variation in ScienceWorld and append its facts to RAW")
    r.add_argument("raw", type=Path)
    r.add_argument("--task", action="append", default=[])
    r.add_argument("--no-gold", action="store_true", help="descriptions only (a quick look at every task)")
    r.add_argument("--probe", action="store_true", help="answers from ScienceWorld's scorer (PROBES' tasks)")
    r.add_argument("--rooms", action="store_true", help="what every room holds (its object tree) "
                   "instead of descriptions and answers: for racbench/data/science/houses.json, and given to "
                   "`write`, for the draws of variations.json")
    r.add_argument("--variation", type=int, action="append", default=[],
                   help="read only these variations (the ones `write` says lack an answer)")
    r.add_argument("--every", type=int, default=1, help="read every Nth variation only (answers that follow "
                   "from the description: see KEYED)")
    w = sub.add_parser("write", help="turn RAW files (merged; a row with a gold path wins) into "
                       "racbench/data/science/variations.json")
    w.add_argument("raw", type=Path, nargs="+")
    h = sub.add_parser("write-houses", help="turn RAW files of `read --rooms` into racbench/data/science/houses.json")
    h.add_argument("raw", type=Path, nargs="+")
    args = parser.parse_args(argv)
    if args.step == "write-houses":
        write_houses(args.raw)
    elif args.step == "read":
        read(args.raw, args.task, () if args.no_gold else GOLD_TASKS, args.every, set(args.variation), args.probe,
             args.rooms)
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
       "trait is dominant]. From the rooms at the start (`read --rooms`): vessels: the vessel the "
       "substance stands in (null: none); genetics_pots: the numbers of the greenhouse's flower pots; "
       "genetics_seeds: the trait values each seed in the jar shows in its name; stage_pots: the "
       "plants' pots outside as [number, stage of the plant in it, whether it waters itself].")


# ---- RAW rooms (`read --rooms`) -> the draws a variation makes beyond its description (`drawn`) ---
# Which vessel a substance stands in, which numbered flower pots the genetics greenhouse holds,
# what the genetics seeds' names show besides the trait asked about, and the life-stage plants'
# pots: names and numbers read off ScienceWorld's rooms at the start, nothing else.
VESSEL_TASKS = (*MATTER, "measure-melting-point-known-substance", "measure-melting-point-unknown-substance")
GENETICS = ("mendelian-genetics-known-plant", "mendelian-genetics-unknown-plant")
STAGE_POTS = "identify-life-stages-2"
SELF_WATERING = "self watering "


def _portions(node: dict, name: str, parent=None):
    """(portion, its container) for every thing called `name` under `node`."""
    if node["name"] == name:
        yield node, parent
    for c in node.get("contents", ()):
        yield from _portions(c, name, node)


def _vessel(row: dict, name: str, vessels: set):
    """The vessel (a portable container of ours) a portion of `name` stands in, or None."""
    return next((p["name"] for _, p in _portions(row["tree"], name) if p is not None and p["name"] in vessels), None)


def _pot_number(name: str) -> int:
    return int(name.split()[-1])


def _seed_values(seed: dict, plant: str) -> list[str]:
    """The trait values a seed's name shows ('round green pea seed' -> ['round', 'green'])."""
    suffix = f" {plant} seed"
    names = [r for r in seed["referents"] if r.endswith(suffix) and not r.startswith("seed ")]
    return max((n[: -len(suffix)].split() for n in names), key=len, default=[])


def _genetics_draws(row: dict, plant: str) -> tuple[list, list]:
    """([numbers of the greenhouse's flower pots], [values each seed in the jar shows])."""
    house = _rooms_of(row["tree"])["greenhouse"]
    pots = sorted(_pot_number(c["name"]) for c in house["contents"] if c["name"].startswith("flower pot "))
    jar = _one([c for c in house["contents"] if c["name"] == "seed jar"], "seed jar", row)
    return pots, [_seed_values(s, plant) for s in jar.get("contents", ())]


def _stage_of(plant: dict) -> str:
    """'apple tree in the adult stage' -> 'adult'."""
    found = sorted({m.group(1) for r in plant["referents"] for m in [re.fullmatch(r".+ in the (\w+) stage", r)] if m})
    if len(found) != 1:
        raise SystemExit(f"no single life stage in {plant['referents']}")
    return found[0]


def _stage_pots(row: dict) -> list:
    """The plants' pots outside: [number, the stage of the plant in it, whether it waters itself]."""
    out = []
    for c in _rooms_of(row["tree"])["outside"]["contents"]:
        if c["name"].removeprefix(SELF_WATERING).startswith("flower pot "):
            plant = _one([x for x in c.get("contents", ()) if "life" in x], f"plant in {c['name']}", row)
            out.append([_pot_number(c["name"]), _stage_of(plant), c["name"].startswith(SELF_WATERING)])
    return sorted(out)


def drawn(trees: list[dict], table: dict, counts: dict) -> dict:
    """Rooms rows -> the draws' tables (see DOC); `counts`: each task's number of variations."""
    if not trees:
        return {}
    things = json.loads((ROOT / "racbench" / "data" / "science" / "things.json").read_text("utf-8"))
    vessels = {k for k, v in things.items() if isinstance(v, dict) and v.get("container") and v.get("portable")}
    by_task: dict = {}
    for row in trees:
        by_task.setdefault(row["task"], {})[row["variation"]] = row
    for task in (*VESSEL_TASKS, *GENETICS, STAGE_POTS):
        if sorted(by_task.get(task, ())) != list(range(counts[task])):
            raise SystemExit(f"{task}: rooms rows lack variations; run `read --rooms --task {task}`")
    name = {t: (lambda f: f) if t in MATTER else (lambda f: f[0]) for t in VESSEL_TASKS}
    out = {"vessels": {t: [_vessel(by_task[t][v], name[t](f), vessels) for v, f in enumerate(table[t])]
                       for t in VESSEL_TASKS}}
    for key, i in (("genetics_pots", 0), ("genetics_seeds", 1)):
        out[key] = {t: [_genetics_draws(by_task[t][v], f[0])[i] for v, f in enumerate(table[t])] for t in GENETICS}
    out["stage_pots"] = {STAGE_POTS: [_stage_pots(by_task[STAGE_POTS][v]) for v in range(counts[STAGE_POTS])]}
    return out


def _rank(row: dict) -> int:
    """Which of two reads of a variation to keep: a probe of the scorer, then a gold path."""
    return 2 if row.get("probe") is not None else 1 if row["gold"] is not None else 0


def write(raws: list[Path]) -> None:
    rows: dict = {}
    trees: list = []
    for raw in raws:
        for line in raw.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if "tree" in row:   # `read --rooms`: the draws (`drawn`)
                trees.append(row)
                continue
            have = rows.setdefault(row["task"], {}).get(row["variation"])
            if have is None or _rank(row) > _rank(have):
                rows[row["task"]][row["variation"]] = row
    for task, by_v in rows.items():
        if sorted(by_v) != list(range(len(by_v))):
            raise SystemExit(f"{task}: RAW lacks variations; run `read` again to finish it")
    ordered = {task: [by_v[v] for v in sorted(by_v)] for task, by_v in rows.items()}
    table = {"_doc": DOC, **tables(ordered)}
    table.update(drawn(trees, table, {task: len(by_v) for task, by_v in ordered.items()}))
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


# ---- RAW rooms (`read --rooms`) -> houses.json ---------------------------------------------------
# ScienceWorld draws a house's furnishings from the variation number alone (every task's variation k
# has the same art, book shelves, workshop kit...; `houses` checks it), and some tasks add their own
# things: animals and flower pots for the find tasks, components and sources on the workshop floor
# for the electricity tasks. Only names reach the table.
ART = ("painting", "drawing", "picture", "finger painting")
ART_ROOMS = ("kitchen", "bathroom", "bedroom", "living room", "hallway")
SHELF_ROOMS = ("bedroom", "living room")
SHOVEL_ROOMS = ("greenhouse", "outside")
KIT = ("battery", "switch")   # on the workshop table in every house (ours too: house.json)
WORKSHOP_BASE = ("air", "table", "ultra low temperature freezer", "agent")
FIND = ("find-animal", "find-living-thing", "find-non-living-thing", "find-plant")
ELECTRIC = ("power-component", "power-component-renewable-vs-nonrenewable-energy", "test-conductivity",
            "test-conductivity-of-unknown-substances")


def _rooms_of(tree: dict) -> dict:
    return {room["name"]: room for room in tree["contents"]}


def _names(node: dict) -> list[str]:
    return [c["name"] for c in node.get("contents", [])]


def _one(found: list, what: str, row: dict):
    if len(found) != 1:
        raise SystemExit(f"{row['task']} {row['variation']}: expected one {what}, found {found}")
    return found[0]


def _colour(name: str, kind: str) -> str:
    return name[: -len(kind) - 1]


def _house_slots(row: dict) -> list:
    """The furnishings ScienceWorld draws for a variation number: [art of each of ART_ROOMS,
    what stands on the art studio's table, where the shovel is, whether the living room has a
    desk (else a table), the workshop table's wire colours and light bulb colours, the books on
    the shelf of each of SHELF_ROOMS (None: no shelf)]."""
    rooms = _rooms_of(row["tree"])
    art = [_one([n for n in _names(rooms[r]) if n in ART], f"artwork in the {r}", row) for r in ART_ROOMS]
    table = next(c for c in rooms["art studio"]["contents"] if c["name"] == "table")
    studio = _one(_names(table), "thing on the art studio table", row)
    shovel = _one([r for r in SHOVEL_ROOMS if "shovel" in _names(rooms[r])], "shovel", row)
    desk = "desk" in _names(rooms["living room"])
    kit = next(c for c in rooms["workshop"]["contents"] if c["name"] == "table")
    wires = sorted(_colour(n, "wire") for n in _names(kit) if n.endswith(" wire"))
    bulbs = sorted(_colour(n, "light bulb") for n in _names(kit) if n.endswith(" light bulb"))
    shelves = []
    for r in SHELF_ROOMS:
        shelf = next((c for c in rooms[r]["contents"] if c["name"] == "book shelf"), None)
        shelves.append(None if shelf is None else [re.fullmatch(r"book \((.+)\)", b).group(1) for b in _names(shelf)])
    return [*art, studio, shovel, desk, wires, bulbs, *shelves]


def _stage(organism: dict) -> str:
    """An animal's life stage from the names it answers to ('giant tortoise egg' -> 'egg')."""
    name = organism["life"]
    for ref in sorted(organism["referents"], key=len):
        if ref != name and ref.count(name) == 1:
            rest = ref.replace(name, "").strip()
            if rest and " " not in rest:
                return rest
    raise SystemExit(f"no life stage in {organism['referents']}")


def _plant(organism: dict) -> list:
    """[the plant's name ('apple tree', 'pea plant'), its stage, the trait its name shows or None]."""
    refs = organism["referents"]
    kind = organism["life"]
    name = next(r for r in (f"{kind} tree", f"{kind} plant") if r in refs)
    stage = next(r.split()[0] for r in refs if r.endswith(f" {name}") and len(r.split()) == len(name.split()) + 1)
    trait = next((r.split()[0] for r in refs if r.endswith(f" height {name}") and len(r.split()) == len(name.split()) + 2),
                 None)
    return [name, stage, trait]


def _find_things(row: dict) -> list:
    """[animals outside as [animal, stage], flower pots in the greenhouse as [number, plant or None]]."""
    rooms = _rooms_of(row["tree"])
    animals = [[c["life"], _stage(c)] for c in rooms["outside"]["contents"] if "life" in c]
    pots = []
    for c in rooms["greenhouse"]["contents"]:
        if c["name"].startswith("flower pot "):
            plant = next((x for x in c.get("contents", []) if "life" in x), None)
            if plant is not None and "soil" not in _names(c):
                raise SystemExit(f"{row['task']} {row['variation']}: a plant without soil in {c['name']}")
            pots.append([int(c["name"].split()[-1]), None if plant is None else _plant(plant)])
    return [animals, pots]


def _workshop_floor(row: dict, facts) -> list[str]:
    """What the task stands on the workshop floor besides its boxes and the object it asks
    about: components and sources."""
    rooms = _rooms_of(row["tree"])
    skip = set(WORKSHOP_BASE)
    if row["task"].startswith("test-conductivity") and facts[1] == "workshop":
        skip.add(facts[0])
    return sorted(n for n in _names(rooms["workshop"]) if n not in skip and not n.endswith(" box"))


def houses(rows: list[dict], variations: dict) -> dict:
    """Rooms rows -> the houses table (see HOUSES_DOC); stops on a variation number whose
    furnishings differ between tasks."""
    slots: dict[int, list] = {}
    find: dict = {t: {} for t in FIND}
    floor: dict = {t: {} for t in ELECTRIC}
    for row in sorted(rows, key=lambda r: (r["task"], r["variation"])):
        task, v = row["task"], row["variation"]
        got = _house_slots(row)
        if slots.setdefault(v, got) != got:
            raise SystemExit(f"{task} {v}: its furnishings differ from another task's variation {v}: "
                             f"{got} != {slots[v]}")
        if task in find:
            find[task][v] = _find_things(row)
        elif task in floor:
            floor[task][v] = _workshop_floor(row, variations[task][v])
    out = {"_doc": HOUSES_DOC, "art_rooms": list(ART_ROOMS), "shelf_rooms": list(SHELF_ROOMS)}
    n = max(slots) + 1
    missing = [v for v in range(n) if v not in slots]
    if missing:
        raise SystemExit(f"rooms rows lack variation numbers {missing[:10]}...; read a task that has them")
    out["house"] = [slots[v] for v in range(n)]
    for task, by_v in [*find.items(), *floor.items()]:
        if sorted(by_v) != list(range(len(variations[task]))):
            raise SystemExit(f"{task}: rooms rows lack variations; run `read --rooms --task {task}`")
        out[task] = [by_v[v] for v in range(len(by_v))]
    return out


HOUSES_DOC = ("What ScienceWorld 1.2.3's rooms hold at the start of each variation, read by "
              "tools/scienceworld_facts.py (never edit by hand). house[k]: the furnishings of variation "
              "number k in every task: [artwork in each of art_rooms, "
              "the thing on the art studio table, the room of the shovel, whether the living room has a desk "
              "(else a table), wire colours and light bulb colours on the workshop table, the titles of the "
              "books on the book shelf of each of shelf_rooms (null: no shelf)]. find-*: [animals outside "
              "as [animal, life stage], flower pots in the greenhouse as [number, null or [plant, life stage, "
              "trait its name shows or null]]]. power-*, test-conductivity*: the components and sources on "
              "the workshop floor (boxes and the object to test left out: the task's facts name them).")


def write_houses(raws: list[Path]) -> None:
    rows = [json.loads(line) for raw in raws for line in raw.read_text(encoding="utf-8").splitlines()]
    rows = [r for r in rows if "tree" in r]
    variations = json.loads((ROOT / "racbench" / "data" / "science" / "variations.json").read_text("utf-8"))
    table = houses(rows, variations)
    out = ROOT / "racbench" / "data" / "science" / "houses.json"
    lines = [f' {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}' for k, v in table.items() if k != "house"]
    house = ",\n".join("  " + json.dumps(h, ensure_ascii=False) for h in table["house"])
    lines.insert(1, f' "house": [\n{house}\n ]')
    out.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
    print(f"wrote {out.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
