"""The bytes of the built-in recipes do not change unless we mean them to.

tools/golden.py builds a subset of `trac` and of `acp` at a small scale and compares
every file (Parquet shards, card, configs.json) with tests/data/golden.json. A
deliberate change to the data records new hashes (`python tools/golden.py record`) in
the same commit, with a line in CHANGELOG.md saying what changed and why.
"""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_small_builds_of_the_builtin_recipes_match_the_recorded_hashes():
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "golden.py"), "check",
                           "--set", "small"], capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
