"""Record or check the hashes of built recipes: the guard for refactors that must keep
the data byte-identical.

    python tools/golden.py check  [--set small|full]   # build, compare with tests/data/golden.json
    python tools/golden.py record [--set small|full]   # build, write the new hashes
    python tools/golden.py check --recipe acp          # only the set's builds of one recipe

`small` is what the suite checks, trac's builds in tests/test_golden.py and acp's in
tests/test_golden_acp.py (so two test workers share it): a subset of each built-in recipe,
every blocksworld config, and one bool and one mc config of every other domain,
at scale 0.02; `full` is every config of `trac` and `acp` at scale 0.01 (several minutes
on 2 cores), for checking a large move before it lands. A deliberate change to the data
records new hashes in the same commit as the change, with a line in CHANGELOG.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data" / "golden.json"
SETS = {
    "small": [
        ("trac", "projection_L2,executability_L2,planning_L2,goal_recognition_L2,ge1_*,"
                 "ge3_projection,ge4_planning_conjunctions", 0.02),
        ("acp", "blocksworld_*,*_progression_bool,*_validation_mc", 0.02),
    ],
    "full": [("trac", None, 0.01), ("acp", None, 0.01)],
}


def folder_hashes(root: Path) -> dict[str, str]:
    """blake2b of every file of a built folder, by path relative to it."""
    return {str(p.relative_to(root)): hashlib.blake2b(p.read_bytes(), digest_size=16).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def build_hashes(recipe: str, patterns: str | None, scale: float, workers: int = 2) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / recipe
        command = [sys.executable, "-m", "racbench.cli", "build", recipe, "--out", str(out),
                   "--scale", str(scale), "--workers", str(workers), "--quiet"]
        if patterns:
            command += ["--configs", patterns]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        return folder_hashes(out)


def set_key(recipe: str, patterns: str | None, scale: float) -> str:
    return f"{recipe}:{patterns or '*'}@{scale}"


def set_hashes(name: str, recipe: str | None = None) -> dict[str, dict[str, str]]:
    return {set_key(*entry): build_hashes(*entry) for entry in SETS[name]
            if recipe in (None, entry[0])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("check", "record"))
    parser.add_argument("--set", default="small", choices=sorted(SETS))
    parser.add_argument("--recipe", choices=sorted({e[0] for es in SETS.values() for e in es}),
                        help="only the set's builds of this recipe (default: all)")
    args = parser.parse_args()
    recorded = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    got = set_hashes(args.set, args.recipe)
    if args.action == "record":
        recorded.update(got)
        current = {set_key(*entry) for entries in SETS.values() for entry in entries}
        recorded = {key: files for key, files in recorded.items() if key in current}
        GOLDEN.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n")
        print(f"recorded {sum(map(len, got.values()))} file hashes in {GOLDEN}")
        return
    changed = [f"{key}/{path}" for key, files in got.items()
               for path in sorted(set(files) | set(recorded.get(key, {})))
               if files.get(path) != recorded.get(key, {}).get(path)]
    print("\n".join(changed) or "every file is byte-identical to the recorded hashes")
    sys.exit(1 if changed else 0)


if __name__ == "__main__":
    main()
