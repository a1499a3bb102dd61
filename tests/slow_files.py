"""The order test files are handed to xdist's workers (tests/conftest.py applies it).

`--dist loadfile` gives a worker a whole file at a time, in collection order (pyproject
turns off xdist's own reordering, which puts the files with the most tests first and so
left one-test files of a minute, test_golden, for the end while the other worker sat
idle). The files below cost the most CPU (benchmarks/suite_files.py prints each file's
and this list); they go first, costliest first, so the short files fill in at the end.
A file missing from the list only runs later; a listed file that no longer exists stops
the collection with its name.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SLOW_FIRST = [
    "tests/test_golden.py",
    "tests/test_docs.py",
    "tests/test_verification.py",
    "tests/acp/test_leaks.py",
    "tests/test_implicit_worlds.py",
    "tests/acp/test_cli.py",
    "tests/acp/test_labels.py",
    "tests/test_text_guesses.py",
]


def costliest_first(items: list) -> None:
    """Sort pytest's items in place: SLOW_FIRST's files in its order, then the rest in
    collection order (a file's tests keep theirs)."""
    missing = [name for name in SLOW_FIRST if not (ROOT / name).is_file()]
    if missing:
        raise SystemExit(f"tests/slow_files.py: SLOW_FIRST names files that do not exist: "
                         f"{missing}")
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))
