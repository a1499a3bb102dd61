"""The bytes of the built-in recipes do not change unless we mean them to.

tools/golden.py builds a subset of `trac` and of `acp` at a small scale and compares
every file (Parquet shards, card, configs.json) with tests/data/golden.json. A
deliberate change to the data records new hashes (`python tools/golden.py record`) in
the same commit, with a line in CHANGELOG.md saying what changed and why.

The small set is checked a recipe a file (trac's here, acp's in test_golden_acp.py), so
the suite's two workers build the two at once instead of one worker both.
"""

import subprocess
import sys
from pathlib import Path

import golden  # tools/, on the path from tests/conftest.py

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ("acp", "trac")  # the recipes of the small set this file and test_golden_acp.py check


def check_small(recipe: str) -> None:
    """`golden.py check --set small --recipe RECIPE` exits 0 (it names the files that differ)."""
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "golden.py"), "check",
                           "--set", "small", "--recipe", recipe], capture_output=True,
                          text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "every file is byte-identical" in proc.stdout, proc.stdout[-3000:]


def test_every_recipe_of_the_small_set_is_checked():
    assert tuple(sorted(entry[0] for entry in golden.SETS["small"])) == CHECKED


def test_small_builds_of_trac_match_the_recorded_hashes():
    check_small("trac")
