"""Every package the code imports is declared in the extra that needs it, and nothing
is declared that no code imports.

A user installs `pip install -e .` and runs a build; CI installs `.[test]`. A package
the core imports but only the test extra pulls in (scipy once came in through
unified-planning) passes CI and crashes the user's first command, so the declared
requirements are read from the installed metadata and checked against the imports.
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from importlib.metadata import packages_distributions, requires
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Packages used by name without an import: Fast Downward runs through unified-planning,
# and its translator as a separate process (python -m fast_downward.translate).
USED_WITHOUT_IMPORT = {"up-fast-downward": "verify",
                       "fast-downward-translate": "verify",
                       "pytest-xdist": "test",  # a pytest plugin: pyproject addopts
                       "mkdocs": "test"}  # tests/test_docs.py runs `python -m mkdocs`
# Packages only examples/ import (training runs that cannot run here: examples/README.md);
# not installed on these machines, so they are named rather than looked up.
EXAMPLES_ONLY = {"trl": "train"}


def test_examples_import_only_racbench_the_base_and_their_extras():
    allowed_missing = {"trl"}
    for module, files in imports("examples").items():
        if module in allowed_missing:
            assert EXAMPLES_ONLY[module] in declared(), module
            continue
        assert distribution(module) in declared()[""], (module, files)


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared() -> dict[str, set[str]]:
    """Requirement names by extra ('' for the base requirements)."""
    out: dict[str, set[str]] = {}
    for req in requires("racbench") or []:
        name = _normal(re.split(r"[\s<>=!~;\[(]", req, maxsplit=1)[0])
        extra = re.search(r"extra\s*==\s*['\"]([^'\"]+)['\"]", req)
        out.setdefault(extra.group(1) if extra else "", set()).add(name)
    return out


@functools.cache  # the tests read the same folders: parse each once (read-only results)
def imports(folder: str) -> dict[str, dict[str, str]]:
    """Third-party top-level module -> {file: 'module' or 'function'} of its imports."""
    std = set(sys.stdlib_module_names)
    local = {"racbench", "tests"} | {p.stem for d in ("tools", "tests", "benchmarks")
                                     for p in (ROOT / d).rglob("*.py")}
    found: dict[str, dict[str, str]] = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        top = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module.split(".")[0]]
            else:
                continue
            for name in names:
                if name not in std and name not in local:
                    where = "module" if id(node) in top else "function"
                    found.setdefault(name, {})[str(path.relative_to(ROOT))] = where
    return found


@functools.cache
def _installed() -> dict[str, list[str]]:
    """Top-level module -> the distributions providing it (reads every installed
    package's metadata: once, not once per module asked about)."""
    return packages_distributions()


def distribution(module: str) -> str:
    dists = _installed().get(module)
    assert dists, f"no installed distribution provides '{module}'"
    return _normal(dists[0])


def test_the_package_imports_at_module_level_only_its_base_requirements():
    base = declared()[""]
    for module, files in imports("racbench").items():
        if "module" in files.values():
            assert distribution(module) in base, (module, files)


def test_optional_imports_are_declared_in_some_extra():
    every = set().union(*declared().values())
    for module, files in imports("racbench").items():
        assert distribution(module) in every, (module, files)


def test_tests_benchmarks_and_tools_import_only_base_and_test_requirements():
    allowed = declared()[""] | declared()["test"]
    for folder in ("tests", "benchmarks", "tools"):
        for module, files in imports(folder).items():
            assert distribution(module) in allowed, (module, files)


def test_every_declared_requirement_is_used():
    used = {distribution(m) for folder in ("racbench", "tests", "benchmarks", "tools")
            for m in imports(folder)} | set(USED_WITHOUT_IMPORT) | set(EXAMPLES_ONLY)
    for extra, names in declared().items():
        assert names <= used, (extra or "base", sorted(names - used))
