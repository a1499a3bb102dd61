"""The suite hands its costliest files to xdist's workers first (tests/slow_files.py's
SLOW_FIRST): with `--dist loadfile` a worker takes whole files in collection order, so a
one-minute file collected last keeps the run going while the other worker sits idle."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

from slow_files import SLOW_FIRST, stale_entries

ROOT = Path(__file__).resolve().parents[1]


def collected_files(output: str) -> list[str]:
    return list(dict.fromkeys(line.split("::")[0] for line in output.splitlines()
                              if "::" in line))


def test_listed_files_are_collected_first_in_their_order():
    """Asked for in another order, an unlisted file first, the listed ones come first."""
    unlisted = "tests/test_layout.py"
    assert unlisted not in SLOW_FIRST
    listed = [name for name in SLOW_FIRST if name in ("tests/test_golden.py",
                                                      "tests/test_text_guesses.py")]
    assert len(listed) == 2
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-o", "addopts=",
                           "-p", "no:cacheprovider", unlisted, *reversed(listed)],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert collected_files(done.stdout) == listed + [unlisted]


def test_listed_files_exist():
    stale = stale_entries()
    assert not stale, f"tests/slow_files.py: SLOW_FIRST names files that do not exist: {stale}"


def test_a_stale_entry_fails_one_test_not_the_collection(tmp_path):
    """A copy of the suite's order with a listed file removed: the collection still
    runs every other test, and test_listed_files_exist alone fails, naming it."""
    import shutil

    tests = tmp_path / "tests"
    tests.mkdir()
    for name in ("slow_files.py", "test_suite_order.py"):
        shutil.copy(ROOT / "tests" / name, tests / name)
    (tests / "conftest.py").write_text(
        "def pytest_collection_modifyitems(config, items):\n"
        "    from slow_files import costliest_first\n\n"
        "    costliest_first(items)\n")
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    listed = SLOW_FIRST[0]
    (tmp_path / "tests" / "test_golden.py").write_text("def test_here():\n    pass\n")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-o", "addopts=",
                           "-p", "no:cacheprovider", "-p", "no:randomly",
                           "tests/test_golden.py",
                           "tests/test_suite_order.py::test_listed_files_exist"],
                          cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(tests)})
    assert "1 failed, 1 passed" in done.stdout, done.stdout + done.stderr
    assert listed in done.stdout


def test_this_session_runs_the_listed_files_first(request):
    files = list(dict.fromkeys(item.nodeid.split("::")[0] for item in request.session.items))
    listed = [name for name in SLOW_FIRST if name in files]
    assert files[:len(listed)] == listed


def test_xdist_keeps_the_collection_order():
    addopts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"][
        "ini_options"]["addopts"].split()
    assert "--no-loadscope-reorder" in addopts
    assert addopts[addopts.index("--dist") + 1] == "loadfile"
