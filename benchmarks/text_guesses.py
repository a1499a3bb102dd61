"""How well the default English reads on planning-competition domains racbench never saw.

    python benchmarks/text_guesses.py                  # a table per domain
    python benchmarks/text_guesses.py --rows 20 --json # figures as JSON (tests/test_text_guesses.py)
    python benchmarks/text_guesses.py --folders gripper,satellite   # those domains only
    python benchmarks/text_guesses.py --problems 1     # rows from each domain's first problem

For each domain under tests/data/{pddl,adl,competition}/ with no phrasing file: the
state sentences of a first `racbench generate` of a few families (projection first; the
same rows `racbench generate ... --domain-file` writes) and, for every predicate (both
polarities) and action, a sentence with sample objects (`racbench phrasing check`).
Per domain it prints the share of state sentences that name every object of their fact,
that end on a dangling word, that fall back to "the relation ... holds", the sentences
that recase an object name, and the flags of the check.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import racbench  # noqa: E402
from racbench.errors import InputError  # noqa: E402
from racbench.text.domain import DomainText  # noqa: E402
from racbench.text.phrasing import TaskText  # noqa: E402
from racbench.text.phrasing_check import dangling_word, check  # noqa: E402
from racbench.worlds.strips.pddl_reader import load_domain  # noqa: E402

FAMILIES = ("projection", "progression", "applicability", "next_action")
COLLECTIONS = ("pddl", "adl", "competition")
FALLBACK = re.compile(r"\bthe relation \S+ (does not )?holds? for\b")


def domains(folders: set[str] | None = None) -> list[tuple[Path, list[Path]]]:
    """(domain file, its problem files) for every collected domain (or those whose
    folder is named in `folders`)."""
    found = []
    for collection in COLLECTIONS:
        for path in sorted((ROOT / "tests" / "data" / collection).glob("*/domain.pddl")):
            if folders is not None and path.parent.name not in folders:
                continue
            problems = sorted(p for p in path.parent.rglob("*.pddl") if p != path)
            found.append((path, problems))
    return found


def _names(sentence: str, args) -> bool:
    return all(re.search(rf"(?<![\w-]){re.escape(a)}(?![\w-])", sentence) for a in args)


def measure(path: Path, problems: list[Path], rows: int, families=FAMILIES,
            most: int = 3) -> dict:
    """The figures of one domain, its rows drawn from its first `most` problems (each
    one's states enumerated: logistics00's three are most of a run's CPU)."""
    domain = load_domain(path)
    text = TaskText(domain)
    checked, flags = check(DomainText(domain))
    figures = {"domain": domain.name, "folder": str(path.parent.relative_to(ROOT)),
               "sentences": 0, "named": 0, "dangling": 0, "fallback": 0, "recased": [],
               "families": [], "check": checked, "flags": [f.line() for f in flags]}
    if not problems:
        return figures
    for family in families:
        try:
            made = racbench.generate(family, domain_file=path, problem=problems[:most],
                                     n=rows,
                                     form="bool", split="test")
        except InputError as exc:
            figures["families"].append(f"{family}: {str(exc)[:80]}")
            continue
        figures["families"].append(family)
        for row in made:
            state = json.loads(row["symbolic"])["state"]
            objects = json.loads(row["symbolic"])["objects"]
            for atom in state:
                clause = text.fact(tuple(atom))
                sentence = text.sentence(clause)
                assert sentence in row["context"], (sentence, row["context"][:300])
                figures["sentences"] += 1
                figures["named"] += _names(sentence, atom[1:])
                figures["dangling"] += bool(dangling_word(sentence, atom[1:]))
                figures["fallback"] += bool(FALLBACK.search(sentence))
            for name in objects:
                recased = name[:1].upper() + name[1:]
                if recased != name and re.search(rf"(?:^|[.:] ){re.escape(recased)}\b",
                                                 row["context"]):
                    figures["recased"].append(recased)
    figures["recased"] = sorted(set(figures["recased"]))
    return figures


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=20, help="rows per family (even)")
    ap.add_argument("--families", default=",".join(FAMILIES))
    ap.add_argument("--folders", default="",
                    help="comma-separated domain folders (e.g. gripper); default all")
    ap.add_argument("--problems", type=int, default=3,
                    help="rows from each domain's first N problems (default 3)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    start = time.perf_counter()
    families = tuple(f for f in args.families.split(",") if f)
    folders = {f for f in args.folders.split(",") if f} or None
    found = domains(folders)
    if folders and len(found) != len(folders):
        unknown = sorted(folders - {path.parent.name for path, _ in found})
        ap.error(f"--folders: no domain folder named {unknown} under "
                 f"tests/data/{{{','.join(COLLECTIONS)}}}")
    if args.problems < 1:
        ap.error(f"--problems: a positive number of problems, got {args.problems}")
    results = [measure(path, problems, args.rows, families, args.problems)
               for path, problems in found]
    if args.json:
        print(json.dumps(results, indent=1))
        return
    print(f"{'folder':34} {'domain':16} {'state sentences':>15} {'named':>6} "
          f"{'dangling':>8} {'fallback':>8} {'recased':>7} {'check flags':>11}")
    for r in results:
        n = r["sentences"] or 1
        print(f"{r['folder']:34} {r['domain']:16} {r['sentences']:15d} "
              f"{r['named'] / n:6.1%} {r['dangling'] / n:8.1%} {r['fallback'] / n:8.1%} "
              f"{len(r['recased']):7d} {len(r['flags']):5d}/{r['check']}")
    total = sum(r["sentences"] for r in results) or 1
    print(f"all: {total} state sentences, "
          f"{sum(r['named'] for r in results) / total:.1%} name every object, "
          f"{sum(r['dangling'] for r in results) / total:.1%} dangle, "
          f"{sum(r['fallback'] for r in results) / total:.1%} fall back to 'the relation', "
          f"{sum(len(r['recased']) for r in results)} object names recased; "
          f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
