"""The README and the reference in docs/ say what racbench does, so what they show runs.

- The site builds with `mkdocs build --strict`: a broken link or anchor, a nav entry
  without its page or a page missing from the nav fails (and a test proves it does).
- Every shell block (```bash, ```console) and Python block of README.md and docs/*.md is
  run, in document order, in a fresh working folder per page holding a copy of
  `examples/` and a small build of the README's first command as `trac_data`; `racbench
  build` runs at `--scale 0.01`. A console block's output must be what the page prints.
  A Python line followed by a comment line `# VALUE` must give that repr.
- A block that cannot run here says so just above it, visibly in the Markdown:
  `<!-- not run: REASON -->`; NOT_RUN lists every such block, so none hides.
- A block under `<!-- file: PATH -->` is that file's text (the README's complete recipe
  is the one a test builds); every other ```yaml block is a recipe, or config entries of
  one, that racbench accepts.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from racbench.suites.recipe import load_recipe

ROOT = Path(__file__).resolve().parents[1]
INCLUDE = re.compile(r"^<!-- include: (\S+) -->$", re.MULTILINE)  # tools/mkdocs_hooks.py
DOCS = sorted((ROOT / "docs").glob("*.md"))
# the README, the site's pages, and the files the site includes (the science lab's notes)
PAGES = [ROOT / "README.md"] + DOCS + sorted(
    {ROOT / m for p in DOCS for m in INCLUDE.findall(p.read_text(encoding="utf-8"))}
    - {ROOT / "README.md"})
SCALE = "0.01"
RUN = ("bash", "console", "python")
NOTE = re.compile(r"^<!-- (not run|file): (.+?) -->$")
FENCE = re.compile(r"^```(\w*)$")

# Every block the tests do not run, with why: (page, its first line, the reason's start).
NOT_RUN = [
    ("README.md", "pip install -e . && racbench build trac --out trac_data",
     ".ci/run runs this block in a fresh venv"),
    ("docs/benchmarks.md", "python benchmarks/build_recipe.py trac", "minutes of CPU"),
    ("docs/harnesses.md", "lm_eval --include_path trac_tasks", "needs a model"),
    ("docs/harnesses.md", "inspect eval trac_inspect/racbench_trac.py", "needs a model"),
    ("docs/pddl.md", "python benchmarks/acp_families.py --form all", "minutes of CPU"),
    ("docs/verify.md", "from racbench.checks.verify import verify_dataset",
     "needs a built dataset"),
    ("racbench/worlds/science/README.md", "python tools/scienceworld_facts.py read",
     "runs ScienceWorld"),
]
# Blocks of an included file kept on another branch, not run, whose mark is still to come:
# (page, first line's start) -> the reason, as its <!-- not run: ... --> would give it.
UNMARKED = {("racbench/worlds/science/README.md", "python tools/scienceworld_facts.py read"):
            "runs ScienceWorld (Java 17) for minutes to read its facts (no mark in that file yet)"}


@dataclass(frozen=True)
class Block:
    page: str  # relative to the repository root
    line: int  # of the opening fence, 1-based
    lang: str
    text: str
    note: tuple[str, str] | None  # ("not run" | "file", value) from the line above

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def first_line(self) -> str:
        return next(line for line in self.text.splitlines() if line.strip())


def blocks(path: Path) -> list[Block]:
    """The fenced blocks of a Markdown page, with the note (if any) just above each."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out, i = [], 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        end = next(j for j in range(i + 1, len(lines)) if lines[j] == "```")
        note = NOTE.match(lines[i - 1]) if i else None
        block = Block(str(path.relative_to(ROOT)), i + 1, fence.group(1),
                      "\n".join(lines[i + 1:end]) + "\n", note.groups() if note else None)
        unmarked = [why for (page, start), why in UNMARKED.items()
                    if page == block.page and block.first_line.startswith(start)]
        if unmarked and not note:
            block = dataclasses.replace(block, note=("not run", unmarked[0]))
        out.append(block)
        i = end + 1
    return out


def all_blocks() -> list[Block]:
    return [b for page in PAGES for b in blocks(page)]


def to_run(page: Path) -> list[Block]:
    return [b for b in blocks(page) if b.lang in RUN and not b.note]


def small(command: str) -> str:
    """A `racbench build` command at the tests' scale, quiet (before any comment)."""
    if not re.match(r"\s*racbench build ", command) or "--scale" in command:
        return command
    code, _, comment = command.partition(" #")
    return f"{code.rstrip()} --scale {SCALE} --quiet" + (f"  #{comment}" if comment else "")


def shell(block: Block) -> str:
    """The block as a bash script: continuations joined, builds made small."""
    lines = block.text.replace("\\\n", " ").splitlines()
    return "\n".join(small(line) for line in lines) + "\n"


def environment() -> dict[str, str]:
    paths = [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return dict(os.environ, HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1",
                PYTHONPATH=os.pathsep.join(paths))


def run_shell(script: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", f"set -euo pipefail\n{script}"], cwd=cwd,
                          capture_output=True, text=True, env=environment(), timeout=600)


READ_CONFIGS = "projection_*"  # the configs of trac_data the pages read (README, harnesses)


@pytest.fixture(scope="module")
def trac_data(tmp_path_factory) -> Path:
    """The README's first command, its build at the tests' scale and of the configs the
    pages read (CI runs it whole; the README's Python block builds all of `trac` at the
    tests' scale, so a whole build here, 34 configs, proved nothing more for 9 CPU s)."""
    first = next(b for b in blocks(ROOT / "README.md") if b.lang)
    command = small(first.first_line.split(" && ")[-1])
    assert command.startswith("racbench build trac --out trac_data"), command
    command = f"{command.partition('  #')[0]} --configs '{READ_CONFIGS}'"
    work = tmp_path_factory.mktemp("readme_build")
    done = run_shell(command, work)
    assert done.returncode == 0, done.stderr
    return work / "trac_data"


# -- the site -------------------------------------------------------------------------

def mkdocs_build(config: Path, site: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict",
                           "--config-file", str(config), "--site-dir", str(site)],
                          capture_output=True, text=True, timeout=300)


def test_the_site_builds_with_warnings_as_errors(tmp_path):
    done = mkdocs_build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert done.returncode == 0, done.stdout + done.stderr
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "Your own PDDL: one complete recipe" in index  # the README, included
    lab = (tmp_path / "site" / "science-lab" / "index.html").read_text(encoding="utf-8")
    assert "ScienceWorld" in lab and "include:" not in lab


@pytest.mark.parametrize("breakage", ["link", "anchor", "nav", "omitted"])
def test_a_broken_site_fails_the_build(tmp_path, breakage):
    """The same site with one fault: a link to a missing page or anchor, a nav entry
    without its page, a page left out of the nav."""
    for part in ("docs", "tools", "racbench/worlds/science"):
        shutil.copytree(ROOT / part, tmp_path / part, ignore=shutil.ignore_patterns("*.py[co]"))
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    page = tmp_path / "docs" / "scoring.md"
    if breakage == "link":
        page.write_text(page.read_text() + "\nSee [nothing](nowhere.md).\n")
    elif breakage == "anchor":
        page.write_text(page.read_text() + "\nSee [rows](rows.md#no-such-section).\n")
    elif breakage == "nav":
        config = config.replace("  - Scoring: scoring.md\n",
                                "  - Scoring: scoring.md\n  - Missing: missing.md\n")
    else:
        (tmp_path / "docs" / "stray.md").write_text("# A page no nav entry names\n")
    (tmp_path / "mkdocs.yml").write_text(config, encoding="utf-8")
    done = mkdocs_build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert done.returncode != 0, breakage
    assert {"link": "nowhere.md", "anchor": "no-such-section", "nav": "missing.md",
            "omitted": "stray.md"}[breakage] in done.stdout + done.stderr


# -- the blocks -----------------------------------------------------------------------

def test_blocks_not_run_are_listed_with_a_reason():
    not_run = [(b.page, b.first_line, b.note[1]) for b in all_blocks()
               if b.note and b.note[0] == "not run"]
    print("\n".join(f"not run: {page}: {line} ({why})" for page, line, why in not_run))
    assert len(not_run) == len(NOT_RUN), not_run
    for page, line, why in not_run:
        assert [1 for p, start, reason in NOT_RUN if p == page and line.startswith(start)
                and why.startswith(reason)] == [1], (page, line, why)


def test_readme_first_block_holds_what_ci_runs():
    """.ci/run and newcomer-check read the first block: line 1 the main job with --out,
    line 2 the test command (comments and blank lines dropped)."""
    first = next(b for b in blocks(ROOT / "README.md") if b.lang)
    lines = [re.sub(r"\s*#.*$", "", line) for line in first.text.splitlines() if line.strip()]
    assert len(lines) == 2, lines
    assert "racbench build trac" in lines[0] and " --out trac_data" in lines[0]
    assert lines[1].endswith("python -m pytest")


def test_blocks_naming_a_file_show_it_whole():
    shown = [b for b in all_blocks() if b.note and b.note[0] == "file"]
    assert {b.note[1] for b in shown} >= {"examples/keys_doors/domain.pddl",
                                          "examples/keys_doors/recipe.yaml"}
    for b in shown:
        assert b.text == (ROOT / b.note[1]).read_text(encoding="utf-8"), b.where


def test_yaml_blocks_are_recipes_racbench_accepts(tmp_path):
    """Each ```yaml block (not a file shown whole) is a recipe or a list of config
    entries; read beside the keys-and-doors files, as a user's recipe would be."""
    shutil.copytree(ROOT / "examples" / "keys_doors", tmp_path / "k")
    shutil.copytree(ROOT / "examples" / "phrasing" / "keys-doors", tmp_path / "k" / "keys-doors")
    checked = 0
    for b in all_blocks():
        if b.lang != "yaml" or b.note:
            continue
        data = yaml.safe_load(b.text)
        text = b.text if isinstance(data, dict) else "configs:\n" + b.text
        path = tmp_path / "k" / f"block{checked}.yaml"
        path.write_text(text, encoding="utf-8")
        assert load_recipe(str(path)).configs, b.where
        checked += 1
    assert checked >= 2


def run_console(block: Block, cwd: Path) -> None:
    """Each `$ command` runs; the lines after it are its output, exactly. A last line
    `[exit N]` says the command exits with N (not 0); its output is then stdout and
    stderr together, as a terminal shows them."""
    steps = re.split(r"^\$ ", block.text, flags=re.MULTILINE)[1:]
    for step in steps:
        command, _, expected = step.partition("\n")
        while command.endswith("\\"):  # a command continued on the next line
            more, _, expected = expected.partition("\n")
            command = command[:-1] + " " + more.strip()
        lines = expected.rstrip().splitlines()
        code = 0
        if lines and re.fullmatch(r"\[exit \d+\]", lines[-1]):
            code, lines = int(lines[-1][6:-1]), lines[:-1]
        done = run_shell(small(command), cwd)
        assert done.returncode == code, (block.where, command, done.stderr)
        shown = done.stdout if code == 0 else done.stdout + done.stderr
        assert shown.rstrip().splitlines() == lines, block.where


def run_python(block: Block, namespace: dict) -> None:
    """Statement by statement; a statement followed by `# VALUE` must give that repr."""
    import ast

    lines = block.text.splitlines()
    for node in ast.parse(block.text).body:
        code = ast.get_source_segment(block.text, node)
        after = lines[node.end_lineno] if node.end_lineno < len(lines) else ""
        if isinstance(node, ast.Expr):
            value = eval(compile(ast.Expression(node.value), block.where, "eval"), namespace)
            if after.startswith("# "):
                assert repr(value) == after[2:], (block.where, code)
        else:
            exec(compile(ast.Module([node], []), block.where, "exec"), namespace)


def example_rows(namespace: dict, text: str) -> None:
    """The rows docs/scoring.md scores: a true bool row and an mc row whose answer is B."""
    import racbench

    if "bool_row" in text and "bool_row" not in namespace:
        bools = racbench.generate("applicability", domain="gripper", problem="p04", n=4)
        namespace["bool_row"] = next(r for r in bools if r["answer"] == "true")
    if "mc_row" in text and "mc_row" not in namespace:
        mcs = racbench.generate("applicability", domain="gripper", problem="p04", form="mc",
                                n=8)
        namespace["mc_row"] = next(r for r in mcs if r["answer"] == "B")


@pytest.mark.parametrize("page", [p for p in PAGES if to_run(p)],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_page_blocks_run(page, tmp_path, monkeypatch, trac_data):
    work = tmp_path / "work"
    shutil.copytree(ROOT / "examples", work / "examples",
                    ignore=shutil.ignore_patterns("__pycache__"))
    if page.name == "phrasing.md":  # its commands run from examples/phrasing/, as it says
        work = work / "examples" / "phrasing"
    (work / "trac_data").symlink_to(trac_data, target_is_directory=True)
    monkeypatch.chdir(work)
    for name, value in environment().items():
        monkeypatch.setenv(name, value)
    namespace: dict = {}
    for block in to_run(page):
        if block.lang == "bash":
            done = run_shell(shell(block), work)
            assert done.returncode == 0, (block.where, done.stdout[-2000:], done.stderr[-2000:])
        elif block.lang == "console":
            run_console(block, work)
        else:
            example_rows(namespace, block.text)
            run_python(block, namespace)
