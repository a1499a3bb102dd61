"""Bad input, case by case: exit code 2, one message naming what is wrong, no traceback,
nothing written, nothing of the user's deleted.

Each case prepares a folder of its own (recipes, files, a user's folder that must
survive), runs the real CLI on it, and compares the folder's whole content before
and after. Most cases run in-process (click's runner: the same code path as the
console script, many times faster); `test_a_sample_through_real_subprocesses` runs
some of them as a user would.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from racbench.cli import main

GOOD_CONFIG = ("  - name: a\n    task: projection\n    objects: 3\n    splits: {test: 4}\n")


def recipe(body: str) -> Callable[[Path], None]:
    def make(root: Path) -> None:
        (root / "r.yaml").write_text(body, encoding="utf-8")
    return make


def raw_recipe(data: bytes) -> Callable[[Path], None]:
    def make(root: Path) -> None:
        (root / "r.yaml").write_bytes(data)
    return make


def config(extra: str, base: str = "task: projection\n    objects: 3\n    splits: {test: 4}"
           ) -> Callable[[Path], None]:
    return recipe(f"name: r\nconfigs:\n  - name: a\n    {base}\n    {extra}\n")


def family(extra: str) -> Callable[[Path], None]:
    return recipe("name: r\nconfigs:\n  - name: a\n    family: applicability\n"
                  f"    domain: gripper\n    splits: {{test: 4}}\n    {extra}\n")


def user_folder(root: Path) -> None:
    """A folder of someone's work, named where a build might write."""
    (root / "thesis").mkdir()
    (root / "thesis" / "chapter1.tex").write_text("\\chapter{One}\n")
    (root / "thesis" / "README.md").write_text("---\ntags: [mine]\n---\nmy notes\n")


def a_file(root: Path) -> None:
    (root / "afile").write_text("keep me\n")


def a_dataset(root: Path) -> None:
    """A config folder with one good and one broken Parquet file, and a card."""
    folder = root / "ds" / "cfg"
    folder.mkdir(parents=True)
    (root / "ds" / "README.md").write_text("---\ntags: [racbench]\n---\n")
    pq.write_table(pa.table({"id": ["x"], "label": [1]}), folder / "train-00000-of-00001.parquet")
    (folder / "test-00000-of-00001.parquet").write_bytes(b"PAR1 this is not parquet")


def a_fifo(root: Path) -> None:
    os.mkfifo(root / "r.yaml")  # reading it whole would wait for a writer for ever


def foreign_partial(root: Path) -> None:
    """A folder of the user's that happens to be named like a build's working folder."""
    (root / ".out.partial").mkdir()
    (root / ".out.partial" / "notes.txt").write_text("mine\n")


def partial_file(root: Path) -> None:
    (root / ".out.partial").write_text("mine\n")


def a_built_dataset_with_a_file_of_mine(root: Path) -> None:
    """A dataset folder as racbench writes it (card, shards), plus the user's own
    Parquet file of predictions inside a config folder."""
    folder = root / "ds" / "cfg"
    folder.mkdir(parents=True)
    (root / "ds" / "README.md").write_text(
        "---\ntags: [racbench]\nconfigs:\n- config_name: cfg\n  data_files: [{split: train, "
        "path: cfg/train-*.parquet}]\n---\n")
    pq.write_table(pa.table({"id": ["x"]}), folder / "train-00000-of-00001.parquet")
    pq.write_table(pa.table({"id": ["x"], "prediction": [1]}), folder / "my_predictions.parquet")


def a_foreign_parquet(root: Path) -> None:
    """A config folder whose Parquet file is not racbench rows."""
    (root / "ds" / "cfg").mkdir(parents=True)
    (root / "ds" / "README.md").write_text("---\ntags: [racbench]\n---\n")
    pq.write_table(pa.table({"a": [1]}), root / "ds" / "cfg" / "train-00000-of-00001.parquet")


def a_binary_card(root: Path) -> None:
    a_foreign_parquet(root)
    (root / "ds" / "README.md").write_bytes(bytes(range(128, 256)))


_BUILT: list[Path] = []


def _a_build() -> Path:
    """A small real build, made once per test process (the cases copy it), by the CLI
    through click's runner (a process paid Python's, racbench's and pyarrow's start)."""
    if not _BUILT:
        import atexit
        import shutil
        import tempfile

        where = Path(tempfile.mkdtemp(prefix="racbench-bad-input-"))
        atexit.register(shutil.rmtree, where, True)
        result = CliRunner().invoke(main, ["generate", "projection", "--objects", "3", "-n",
                                           "6", "--out", str(where / "ds"), "--quiet",
                                           "--workers", "1"])
        assert result.exit_code == 0, (result.output, result.exception)
        _BUILT.append(where / "ds")
    return _BUILT[0]


def a_build(root: Path) -> None:
    """A complete racbench build at root/ds (config projection_L1)."""
    import shutil

    shutil.copytree(_a_build(), root / "ds")


def a_half_copied_build(root: Path) -> None:
    """A build whose test shard was copied only in part (its footer cut off)."""
    a_build(root)
    shard = root / "ds" / "projection_L1" / "test-00000-of-00001.parquet"
    shard.write_bytes(shard.read_bytes()[:len(shard.read_bytes()) // 2])


def a_build_with_a_later_shard_cut(root: Path) -> None:
    """A build whose test split has two shards, the second copied only in part (the
    first is whole: a reader that opens only a split's first shard misses it)."""
    a_build(root)
    folder = root / "ds" / "projection_L1"
    whole = (folder / "test-00000-of-00001.parquet").read_bytes()
    (folder / "test-00000-of-00001.parquet").rename(folder / "test-00000-of-00002.parquet")
    (folder / "test-00001-of-00002.parquet").write_bytes(whole[:len(whole) // 2])


def a_build_with_pages_damaged(root: Path) -> None:
    """A build whose test shard keeps its footer (its schema and row counts read well)
    but not its first data pages."""
    a_build(root)
    shard = root / "ds" / "projection_L1" / "test-00000-of-00001.parquet"
    data = bytearray(shard.read_bytes())
    data[4:260] = b"\xab" * 256
    shard.write_bytes(bytes(data))


def a_pddl_fifo(root: Path) -> None:
    os.mkfifo(root / "problem.pddl")  # reading it would wait for a writer for ever


def non_utf8_problem(root: Path) -> None:
    """A problem file whose name holds a byte that is not UTF-8 (0xff)."""
    (root / os.fsdecode(b"p\xff.pddl")).write_text("(define (problem p) (:domain d))\n")


NOT_UTF8 = os.fsdecode(b"\xff")


def nothing(root: Path) -> None:
    pass


def both(*makers) -> Callable[[Path], None]:
    def make(root: Path) -> None:
        for m in makers:
            m(root)
    return make


@dataclass
class Case:
    name: str
    args: list[str]  # '{root}' is replaced by the case's folder
    words: tuple[str, ...]  # each must appear in the message
    setup: Callable[[Path], None] = nothing
    env: dict = field(default_factory=dict)


BUILD = ["build", "{root}/r.yaml", "--out", "{root}/out", "--quiet", "--workers", "1"]
GEN = ["generate", "projection", "--out", "{root}/out", "--quiet", "--workers", "1"]

CASES = [
    # -- recipe files ------------------------------------------------------------------
    Case("yaml-syntax", BUILD, ("r.yaml:", "not valid YAML"), recipe("configs: [\n")),
    Case("yaml-list", BUILD, ("r.yaml", "expected a mapping"), recipe("- a\n- b\n")),
    Case("yaml-scalar", BUILD, ("r.yaml", "expected a mapping"), recipe("hello\n")),
    Case("yaml-empty", BUILD, ("r.yaml", "expected a mapping"), recipe("")),
    Case("binary", BUILD, ("r.yaml", "not UTF-8"), raw_recipe(bytes(range(256)) * 4)),
    Case("latin1", BUILD, ("r.yaml", "not UTF-8"), raw_recipe("name: caf\xe9\n".encode("latin-1"))),
    Case("nul-bytes", BUILD, ("r.yaml", "not valid YAML"), raw_recipe(b"name: r\x00\nconfigs: []\n")),
    Case("huge-recipe", BUILD, ("r.yaml", "bytes"), raw_recipe(b"# x\n" * 400_000)),
    Case("no-configs", BUILD, ("'configs'", "non-empty list"), recipe("name: r\n")),
    Case("configs-empty", BUILD, ("'configs'", "non-empty list"), recipe("name: r\nconfigs: []\n")),
    Case("configs-mapping", BUILD, ("'configs'", "list"), recipe("name: r\nconfigs: {a: 1}\n")),
    Case("config-not-mapping", BUILD, ("configs[0]", "mapping"), recipe("configs: [3]\n")),
    Case("include-not-list", BUILD, ("'include'", "list of recipe names"),
         recipe("include: trac\n")),
    Case("include-unknown", BUILD, ("r.yaml", "unknown recipe 'nosuch'", "trac"),
         recipe("include: [nosuch]\n")),
    Case("include-itself", BUILD, ("r.yaml", "makes a cycle"),
         recipe("include: [r.yaml]\nconfigs:\n" + GOOD_CONFIG)),
    Case("include-repeats-names", BUILD, ("config names must be unique", "a"),
         both(recipe("include: [s.yaml]\nconfigs:\n" + GOOD_CONFIG),
              lambda root: (root / "s.yaml").write_text("configs:\n" + GOOD_CONFIG))),
    Case("unknown-top-key", BUILD, ("unknown key 'colour'", "accepted:"),
         recipe("colour: red\nconfigs:\n" + GOOD_CONFIG)),
    Case("unknown-config-key", BUILD, ("unknown key 'colour'", "configs[0]"), config("colour: red")),
    Case("unknown-task", BUILD, ("unknown family 'juggling'", "projection"),
         config("", "task: juggling\n    splits: {test: 4}")),
    Case("odd-split", BUILD, ("even number of rows",),
         config("", "task: projection\n    splits: {test: 5}")),
    Case("unknown-split", BUILD, ("unknown split 'tset'", "train, validation, test"),
         config("", "task: projection\n    splits: {tset: 4}")),
    Case("splits-not-mapping", BUILD, ("'splits'",), config("", "task: projection\n    splits: 4")),
    Case("split-size-text", BUILD, ("split 'test'", "even number"),
         config("", "task: projection\n    splits: {test: many}")),
    Case("split-size-bool", BUILD, ("split 'test'", "even number"),
         config("", "task: projection\n    splits: {test: true}")),
    Case("seed-text", BUILD, ("'seed'", "integer"), recipe("seed: abc\nconfigs:\n" + GOOD_CONFIG)),
    Case("length-text", BUILD, ("'length'",), config("length: long")),
    Case("length-list-text", BUILD, ("'length'",), config("length: [1, two]")),
    Case("length-zero", BUILD, ("length must be between 1",), config("length: 0")),
    Case("objects-huge", BUILD, ("objects must be between 2",), config("", "task: projection\n"
                                                                        "    objects: 999\n    splits: {test: 4}")),
    Case("objects-text", BUILD, ("'objects'",), config("", "task: projection\n    objects: five\n"
                                                           "    splits: {test: 4}")),
    Case("query-kinds-number", BUILD, ("query_kinds",), config("query_kinds: 5")),
    Case("query-kinds-unknown", BUILD, ("unknown query kind",), config("query_kinds: [disjunction]")),
    Case("names-unknown", BUILD, ("unknown name pool 'secret'",), config("names: secret")),
    Case("for-each-not-mapping", BUILD, ("'for_each'",), config("for_each: [1, 2]")),
    Case("for-each-value", BUILD, ("'for_each'",), config("for_each: {length: 3}")),
    Case("for-each-unknown", BUILD, ("unknown key 'colour' in for_each",),
         config("for_each: {colour: [red]}")),
    Case("for-each-explosion", BUILD, ("27,000,000 configs", "at most"),
         recipe("configs:\n  - name: 'a{length}{objects}{names}'\n    task: projection\n"
                "    for_each: {length: [" + ",".join(["1"] * 300) + "], objects: ["
                + ",".join(["3"] * 300) + "], names: [" + ",".join(["seen"] * 300) + "]}\n"
                "    splits: {test: 4}\n")),
    Case("placeholder", BUILD, ("placeholder", "colour"),
         recipe("configs:\n  - name: 'a{colour}'\n    task: projection\n    splits: {test: 4}\n")),
    Case("duplicate-names", BUILD, ("unique", "a"),
         recipe("configs:\n" + GOOD_CONFIG + GOOD_CONFIG)),
    Case("exclude-not-list", BUILD, ("'exclude'",), config("exclude: {length: 1}")),
    Case("family-unknown", BUILD, ("unknown family 'juggling'",),
         recipe("configs:\n  - name: a\n    family: juggling\n    domain: gripper\n"
                "    splits: {test: 4}\n")),
    Case("family-and-task", BUILD, ("either 'task'", "'family'"), family("task: projection")),
    Case("family-form", BUILD, ("no form 'essay'",), family("form: essay")),
    Case("family-domain", BUILD, ("unknown domain 'chess'",),
         recipe("configs:\n  - name: a\n    family: applicability\n    domain: chess\n"
                "    splits: {test: 4}\n")),
    Case("family-problems-type", BUILD, ("'problems'",), family("problems: p01")),
    Case("family-problem-unknown", BUILD, ("unknown problem 'p99'",), family("problems: {test: [p99]}")),
    Case("family-problem-twice", BUILD, ("both", "p01"),
         recipe("configs:\n  - name: a\n    family: applicability\n    domain: gripper\n"
                "    problems: {train: [p01], test: [p01]}\n    splits: {train: 4, test: 4}\n")),
    Case("family-domain-file", BUILD, ("nowhere.pddl", "not found"),
         recipe("configs:\n  - name: a\n    family: applicability\n    domain_file: nowhere.pddl\n"
                "    problems: {test: [p.pddl]}\n    splits: {test: 4}\n")),
    Case("family-obfuscation", BUILD, ("unknown obfuscation 'rot13'",), family("obfuscation: rot13")),
    Case("family-paraphrase", BUILD, ("paraphrase",), family("paraphrase: -1")),
    Case("family-length", BUILD, ("'length'",), family("length: one")),
    Case("family-lengths-mc", BUILD, ("several lengths", "true/false"),
         family("length: [1, 2]\n    form: mc")),
    Case("science-task", BUILD, ("unknown", "juggle"),
         recipe("configs:\n  - name: a\n    science: juggle\n")),
    Case("science-simplifications", BUILD, ("'simplifications'",),
         recipe("configs:\n  - name: a\n    science: boil\n    simplifications: easy\n")),
    Case("yaml-duplicate-key", BUILD, ("r.yaml:7", "'objects' appears twice"),
         config("objects: 4")),
    Case("yaml-deep", BUILD, ("r.yaml", "nested too deeply"), recipe("[" * 5000 + "]" * 5000)),
    Case("recipe-fifo", ["build", "./r.yaml", "--out", "{root}/out"], ("r.yaml", "regular file"),
         a_fifo),
    Case("recipe-device", ["build", "/dev/zero", "--out", "{root}/out"],
         ("/dev/zero", "regular file")),
    Case("name-escapes-to-a-folder", BUILD, ("'../thesis'", "letters, digits"),
         both(user_folder, recipe("configs:\n" + GOOD_CONFIG.replace("name: a", "name: ../thesis")))),
    Case("name-parent", BUILD, ("'..'", "letters, digits"),
         recipe("configs:\n" + GOOD_CONFIG.replace("name: a", "name: '..'"))),
    Case("name-path", BUILD, ("'a/b'",), recipe("configs:\n" + GOOD_CONFIG.replace("name: a", "name: a/b"))),
    Case("name-card", BUILD, ("'README.md'",),
         recipe("configs:\n" + GOOD_CONFIG.replace("name: a", "name: README.md"))),
    Case("name-hidden", BUILD, ("'.state'",),
         recipe("configs:\n" + GOOD_CONFIG.replace("name: a", "name: .state"))),
    Case("name-brace", BUILD, ("'a{'",), recipe("configs:\n" + GOOD_CONFIG.replace("name: a", "name: 'a{'"))),
    Case("recipe-missing", ["build", "{root}/none.yaml", "--out", "{root}/out"],
         ("none.yaml", "cannot read")),
    Case("recipe-folder", ["build", "{root}/thesis", "--out", "{root}/out"],
         ("thesis", "folder"), user_folder),
    Case("recipe-unknown", ["build", "tarc", "--out", "{root}/out"], ("unknown recipe 'tarc'", "trac")),
    # -- option values ---------------------------------------------------------------------
    Case("scale-nan", BUILD + ["--scale", "nan"], ("--scale", "finite")),
    Case("scale-inf", BUILD + ["--scale", "inf"], ("--scale", "finite")),
    Case("scale-zero", BUILD + ["--scale", "0"], ("--scale", "above 0")),
    Case("scale-negative", BUILD + ["--scale", "-1"], ("--scale", "above 0")),
    Case("scale-text", BUILD + ["--scale", "big"], ("--scale", "not a number")),
    Case("workers-zero", BUILD + ["--workers", "0"], ("--workers",)),
    Case("workers-huge", BUILD[:-2] + ["--workers", "100000"], ("--workers", "per core")),
    Case("scale-overflow", ["build", "trac", "--out", "{root}/out", "--scale", "1e308"],
         ("--scale", "at most")),
    Case("scale-huge-split", ["build", "trac", "--out", "{root}/out", "--scale", "1e7"],
         ("--scale", "rows", "at most")),
    Case("max-pddl-mb-nan", GEN + ["--max-pddl-mb", "nan"], ("--max-pddl-mb", "finite")),
    Case("seed-float", BUILD + ["--seed", "1.5"], ("--seed",)),
    # -- output paths -------------------------------------------------------------------------
    Case("out-is-file", ["build", "trac", "--out", "{root}/afile"], ("afile", "is a file"), a_file),
    Case("out-is-file-overwrite", ["build", "trac", "--out", "{root}/afile", "--overwrite"],
         ("afile", "is a file"), a_file),
    Case("out-exists", ["build", "trac", "--out", "{root}/thesis"], ("thesis", "already exists"),
         user_folder),
    Case("out-foreign-overwrite", ["build", "trac", "--out", "{root}/thesis", "--overwrite"],
         ("thesis", "chapter1.tex", "racbench built"), user_folder),
    Case("generate-foreign-overwrite", GEN[:2] + ["--out", "{root}/thesis", "--overwrite"],
         ("thesis", "racbench built"), user_folder),
    Case("out-under-proc", ["build", "trac", "--out", "/proc/racbench-out"], ("/proc", "not writable")),
    Case("out-name-too-long", ["build", "trac", "--out", "{root}/" + "x" * 250],
         ("--out", "too long")),
    Case("partial-of-the-user", BUILD, (".out.partial", "not an unfinished racbench build"),
         both(foreign_partial, recipe("configs:\n" + GOOD_CONFIG))),
    Case("partial-is-a-file", BUILD, (".out.partial", "not an unfinished racbench build"),
         both(partial_file, recipe("configs:\n" + GOOD_CONFIG))),
    Case("overwrite-my-parquet", ["build", "trac", "--out", "{root}/ds", "--overwrite"],
         ("ds", "cfg", "racbench built"), a_built_dataset_with_a_file_of_mine),
    Case("out-under-file", ["build", "trac", "--out", "{root}/afile/sub"], ("afile", "is a file"),
         a_file),
    # -- generate -------------------------------------------------------------------------------
    Case("n-odd", GEN + ["-n", "201"], ("-n", "even", "201")),
    Case("n-small", GEN + ["-n", "4"], ("-n", "at least 6")),
    Case("n-negative", GEN + ["-n", "-10"], ("-n",)),
    Case("task-unknown", ["generate", "projecton", "--out", "{root}/out"],
         ("unknown task 'projecton'", "projection, executability")),
    Case("objects-99", GEN + ["--objects", "99"], ("objects must be between 2 and",)),
    Case("objects-negative", GEN + ["--objects", "-3"], ("objects must be between 2 and",)),
    Case("length-0", GEN + ["--length", "0"], ("length must be between 1",)),
    Case("length-100", GEN + ["--length", "100"], ("length must be between 1",)),
    Case("query-kinds", GEN + ["--query-kinds", "disjunction"], ("unknown query kind",)),
    Case("query-kinds-empty", GEN + ["--query-kinds", ","], ("query kind",)),
    Case("names", GEN + ["--names", "secret"], ("unknown name pool",)),
    Case("form", ["generate", "applicability", "--domain", "gripper", "--form", "essay",
                  "--out", "{root}/out"], ("no form 'essay'", "bool, mc, open")),
    Case("domain", ["generate", "applicability", "--domain", "chess", "--out", "{root}/out"],
         ("unknown domain 'chess'", "gripper")),
    Case("family", ["generate", "juggling", "--domain", "gripper", "--out", "{root}/out"],
         ("unknown family 'juggling'",)),
    Case("domain-and-file", ["generate", "applicability", "--domain", "gripper",
                             "--domain-file", "{root}/afile", "--problem-file", "{root}/afile",
                             "--out", "{root}/out"], ("either --domain",), a_file),
    Case("domain-file-alone", ["generate", "applicability", "--domain-file", "{root}/afile",
                               "--out", "{root}/out"], ("--problem-file",), a_file),
    Case("problem-file-missing", ["generate", "applicability", "--domain", "gripper",
                                  "--problem-file", "p99", "--out", "{root}/out"],
         ("unknown problem 'p99'",)),
    Case("domain-file-missing", ["generate", "applicability", "--domain-file", "{root}/nope.pddl",
                                 "--problem-file", "{root}/nope2.pddl", "--out", "{root}/out"],
         ("nope.pddl", "not found")),
    Case("domain-file-binary", ["generate", "applicability", "--domain-file", "{root}/r.yaml",
                                "--problem-file", "{root}/r.yaml", "--out", "{root}/out"],
         ("r.yaml", "non-ASCII"), raw_recipe(bytes(range(128, 256)))),
    Case("ground-limit", ["generate", "applicability", "--domain", "gripper", "--problem-file",
                          "p01", "-n", "8", "--max-ground-actions", "5", "--out", "{root}/out",
                          "--quiet"], ("--max-ground-actions", "p01")),
    Case("pddl-size-limit", ["generate", "applicability", "--domain", "gripper", "--problem-file",
                             "p01", "-n", "8", "--max-pddl-mb", "0.0001", "--out", "{root}/out",
                             "--quiet"], ("--max-pddl-mb",)),
    Case("pddl-size-zero", GEN + ["--max-pddl-mb", "0"], ("--max-pddl-mb",)),
    Case("ground-limit-zero", GEN + ["--max-ground-actions", "0"], ("--max-ground-actions",)),
    # -- reading datasets ------------------------------------------------------------------
    Case("show-missing", ["show", "{root}/nowhere", "cfg"], ("no config 'cfg'",)),
    Case("show-config", ["show", "{root}/ds", "nope"], ("no config 'nope'", "cfg"), a_dataset),
    Case("show-broken-parquet", ["show", "{root}/ds", "cfg", "--split", "test"],
         ("test-00000-of-00001.parquet", "not a readable Parquet file"), a_dataset),
    Case("show-split", ["show", "{root}/ds", "cfg", "--split", "dev"], ("no 'dev' split", "train"),
         a_dataset),
    Case("show-count", ["show", "{root}/ds", "cfg", "-n", "0"], ("-n",), a_dataset),
    Case("audit-missing", ["audit", "{root}/nowhere"], ("nowhere", "not a directory")),
    Case("audit-foreign", ["audit", "{root}/thesis"], ("thesis",), user_folder),
    Case("audit-broken-parquet", ["audit", "{root}/ds", "--no-card"], ("cfg",), a_dataset),
    Case("verify-missing", ["verify", "{root}/nowhere", "--no-optimal"], ("nowhere",)),
    Case("verify-foreign", ["verify", "{root}/thesis", "--no-optimal"], ("thesis",), user_folder),
    Case("verify-flags", ["verify", "{root}/ds", "--no-optimal", "--require-optimal"],
         ("exclude each other",), a_dataset),
    Case("show-foreign-rows", ["show", "{root}/ds", "cfg"], ("not racbench rows", "question"),
         a_foreign_parquet),
    Case("audit-binary-card", ["audit", "{root}/ds"], ("README.md", "UTF-8"), a_binary_card),
    Case("verify-fd-timeout-nan", ["verify", "{root}/ds", "--fd-timeout", "nan"],
         ("--fd-timeout", "finite"), a_dataset),
    Case("play-task", ["play", "science", "juggle"], ("juggle",)),
    Case("play-variation", ["play", "science", "boil", "--variation", "9999"], ("variation",)),
    Case("play-simplification", ["play", "science", "boil", "--simplifications", "fly"], ("fly",)),
    Case("play-strips-domain", ["play", "strips", "--domain", "juggling", "--problem", "p01"],
         ("'juggling'", "gripper")),
    Case("play-strips-problem", ["play", "strips", "--domain", "gripper", "--problem", "p99"],
         ("'p99'", "p01")),
    Case("play-strips-both", ["play", "strips", "--domain", "gripper", "--problem", "p01",
                              "--problem-file", "{root}/afile"], ("name the problem",), a_file),
    Case("play-strips-limit", ["play", "strips", "--domain", "gripper", "--problem", "p01",
                               "--max-ground-actions", "5"], ("--max-ground-actions", "p01")),
    Case("domain-file-folder", ["generate", "applicability", "--domain-file", "{root}/thesis",
                                "--problem-file", "{root}/thesis", "--out", "{root}/out"],
         ("thesis", "is a folder"), user_folder),
    Case("domain-file-device", ["generate", "applicability", "--domain-file", "/dev/zero",
                                "--problem-file", "/dev/zero", "--out", "{root}/out"],
         ("/dev/zero", "not a regular file")),
    Case("play-strips-pddl", ["play", "strips", "--domain", "gripper", "--problem-file",
                              "{root}/afile"], ("afile:1:1",), a_file),
    # -- the newer commands: a half-copied build, paths racbench cannot write, pipes -------
    Case("export-lm-eval-damaged", ["export", "lm-eval", "{root}/ds", "--out", "{root}/t"],
         ("test-00000-of-00001.parquet", "not a readable Parquet file", "copied only in part"),
         a_half_copied_build),
    Case("export-inspect-damaged", ["export", "inspect", "{root}/ds", "--out", "{root}/t"],
         ("test-00000-of-00001.parquet", "not a readable Parquet file"), a_half_copied_build),
    Case("publish-damaged", ["publish", "{root}/ds", "--repo-id", "someone/tiny"],
         ("test-00000-of-00001.parquet", "not a readable Parquet file"), a_half_copied_build),
    Case("show-damaged", ["show", "{root}/ds", "projection_L1", "--split", "test"],
         ("test-00000-of-00001.parquet", "not a readable Parquet file"), a_half_copied_build),
    Case("audit-damaged", ["audit", "{root}/ds", "--quiet"],
         ("test-00000-of-00001.parquet", "not a readable Parquet file"), a_half_copied_build),
    Case("verify-damaged", ["verify", "{root}/ds", "--no-optimal", "--quiet"],
         ("test-00000-of-00001.parquet", "not a readable Parquet file"), a_half_copied_build),
    Case("verify-damaged-later-shard", ["verify", "{root}/ds", "--no-optimal", "--quiet"],
         ("test-00001-of-00002.parquet", "not a readable Parquet file", "copied only in part"),
         a_build_with_a_later_shard_cut),
    Case("verify-damaged-pages", ["verify", "{root}/ds", "--no-optimal", "--quiet"],
         ("test-00000-of-00001.parquet", "not a readable Parquet file"),
         a_build_with_pages_damaged),
    Case("export-not-a-build", ["export", "lm-eval", "{root}/thesis", "--out", "{root}/t"],
         ("thesis", "racbench"), user_folder),
    Case("export-out-in-use", ["export", "inspect", "{root}/ds", "--out", "{root}/thesis"],
         ("thesis", "not an empty folder"), both(a_build, user_folder)),
    Case("export-configs-none", ["export", "inspect", "{root}/ds", "--out", "{root}/t",
                                 "--configs", "nope_*"], ("nope_*", "projection_L1"), a_build),
    Case("export-hub-id", ["export", "lm-eval", "{root}/ds", "--out", "{root}/t", "--hub-id",
                           "no id"], ("--hub-id 'no id'", "USER/NAME"), a_build),
    Case("export-out-not-utf8", ["export", "lm-eval", "{root}/ds", "--out",
                                 "{root}/t" + NOT_UTF8], ("--out", "t\\xff", "not UTF-8"),
         a_build),
    Case("publish-not-a-build", ["publish", "{root}/thesis", "--repo-id", "someone/tiny"],
         ("thesis", "not a racbench build"), user_folder),
    Case("publish-repo-id", ["publish", "{root}/ds", "--repo-id", "no id"],
         ("--repo-id 'no id'", "USER/NAME"), a_build),
    Case("publish-missing", ["publish", "{root}/nowhere", "--repo-id", "someone/tiny"],
         ("nowhere", "not a folder")),
    Case("generate-out-not-utf8", GEN[:2] + ["--objects", "3", "-n", "6", "--out",
                                             "{root}/o" + NOT_UTF8],
         ("--out", "o\\xff", "not UTF-8")),
    Case("build-out-not-utf8", ["build", "trac", "--out", "{root}/o" + NOT_UTF8],
         ("--out", "o\\xff", "not UTF-8")),
    Case("problem-file-not-utf8", ["generate", "projection", "--domain", "gripper",
                                   "--problem-file", "{root}/p" + NOT_UTF8 + ".pddl", "-n", "6",
                                   "--out", "{root}/out"],
         ("problem file", "p\\xff.pddl", "not UTF-8"), non_utf8_problem),
    Case("play-strips-fifo", ["play", "strips", "--domain-file", "{root}/problem.pddl",
                              "--problem-file", "{root}/problem.pddl"],
         ("problem.pddl", "not a regular file"), a_pddl_fifo),
    Case("play-strips-missing", ["play", "strips", "--domain", "gripper", "--problem-file",
                                 "{root}/none.pddl"], ("none.pddl", "not found")),
]


def snapshot(root: Path) -> dict[str, str]:
    """Every path under root with a hash of its bytes (folders map to '')."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for d in dirnames:
            out[os.path.relpath(os.path.join(dirpath, d), root)] = ""
        for f in filenames:
            path = os.path.join(dirpath, f)
            data = Path(path).read_bytes() if os.path.isfile(path) else b"(not a file)"
            out[os.path.relpath(path, root)] = hashlib.blake2b(data).hexdigest()
    return out


def args_of(case: Case, root: Path) -> list[str]:
    return [a.replace("{root}", str(root)) for a in case.args]


def test_the_battery_is_big_enough():
    assert len(CASES) >= 60
    assert len({c.name for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_bad_input_is_refused_cleanly(tmp_path, monkeypatch, case):
    root = tmp_path / "case"
    root.mkdir()
    case.setup(root)
    before = snapshot(tmp_path)
    monkeypatch.chdir(root)
    result = CliRunner().invoke(main, args_of(case, root))
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception
    message = result.stderr.strip()
    assert message, result.output
    assert "Traceback" not in result.output
    for word in case.words:
        assert word in message, message
    assert snapshot(tmp_path) == before  # nothing written, nothing deleted


SAMPLE = ("binary", "scale-nan", "out-foreign-overwrite", "out-is-file", "out-under-proc",
          "n-odd", "show-broken-parquet", "family-problem-unknown", "recipe-fifo",
          "name-escapes-to-a-folder", "partial-of-the-user", "export-lm-eval-damaged",
          "publish-damaged", "generate-out-not-utf8", "play-strips-fifo")


@pytest.mark.parametrize("name", SAMPLE)
def test_a_sample_through_real_subprocesses(tmp_path, name):
    case = next(c for c in CASES if c.name == name)
    root = tmp_path / "case"
    root.mkdir()
    case.setup(root)
    before = snapshot(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "racbench.cli", *args_of(case, root)],
                          capture_output=True, text=True, cwd=root, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip() and all(w in proc.stderr for w in case.words), proc.stderr
    assert snapshot(tmp_path) == before


def test_braces_in_a_description_are_its_own_text():
    """Only `{field}` placeholders of for_each fields are filled; a description's other
    braces (a formula, a set) are kept, not an error."""
    from racbench.suites.recipe import parse_recipe

    recipe_ = parse_recipe("configs:\n  - name: 'a_{length}'\n    description: 'L{length}, "
                           "{braces} and {}'\n    task: projection\n    for_each: {length: [1]}\n"
                           "    splits: {test: 4}\n", "r.yaml")
    assert [(c.name, c.description) for c in recipe_.configs] == [("a_1", "L1, {braces} and {}")]


def test_every_command_is_in_the_battery():
    """Each command of the CLI meets bad input here, not build alone."""
    commands = {c.args[0] if c.args[0] not in ("export", "play") else " ".join(c.args[:2])
                for c in CASES}
    assert {"build", "generate", "show", "audit", "verify", "publish", "export lm-eval",
            "export inspect", "play strips", "play science"} <= commands


def test_publish_with_the_hub_unreachable_says_so_in_one_line(tmp_path):
    """Offline, against an address nothing listens on: one line naming the address,
    exit 2, no traceback of the HTTP client."""
    a_build(tmp_path)
    env = dict(os.environ, HF_ENDPOINT="http://127.0.0.1:9", HF_TOKEN="hf_not_a_token",
               HF_HUB_DISABLE_XET="1")
    env.pop("HF_HUB_OFFLINE", None)
    proc = subprocess.run([sys.executable, "-m", "racbench.cli", "publish", str(tmp_path / "ds"),
                           "--repo-id", "someone/tiny", "--quiet"], capture_output=True,
                          text=True, env=env, timeout=300)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert "cannot reach the Hub at http://127.0.0.1:9" in proc.stderr
    assert "someone/tiny" in proc.stderr and "HF_ENDPOINT" in proc.stderr


def test_a_failed_build_into_a_non_utf8_out_leaves_no_partial_folder(tmp_path):
    out = os.path.join(str(tmp_path), "o" + NOT_UTF8)
    proc = subprocess.run([sys.executable, "-m", "racbench.cli", "generate", "projection",
                           "--objects", "3", "-n", "6", "--out", os.fsencode(out), "--quiet"],
                          capture_output=True, env=dict(os.environ), timeout=120)
    stderr = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2 and "Traceback" not in stderr, stderr
    assert "not UTF-8" in stderr and os.listdir(tmp_path) == []


def test_export_through_a_symbolic_link_writes_where_it_points(tmp_path):
    """--out a link to an empty folder, or to where a folder is to be made: the tasks
    are written there, and the link is kept."""
    a_build(tmp_path)
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    (tmp_path / "dangling").symlink_to(tmp_path / "later")
    for out, real in (("link", "real"), ("dangling", "later")):
        proc = subprocess.run([sys.executable, "-m", "racbench.cli", "export", "inspect",
                               str(tmp_path / "ds"), "--out", str(tmp_path / out)],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        assert (tmp_path / out).is_symlink()
        assert [p.name for p in (tmp_path / real).iterdir()] == ["racbench_projection_l1.py"]


def test_a_builds_refusals_are_build_j2s_sentences(tmp_path):
    """The refusals export/build.py makes itself (a scale, an --out with no name, a
    working folder it cannot write) are templates/cli/build.j2's sentences, exit 2."""
    from racbench.export.build import BuildError, build
    from racbench.suites.recipe import parse_recipe
    from racbench.text import sayer

    say = sayer("cli", ("build.j2",))
    recipe_ = parse_recipe("name: r\nconfigs:\n" + GOOD_CONFIG, "r.yaml")
    with pytest.raises(BuildError) as refused:
        build(recipe_, tmp_path / "out", scale=float("nan"))
    assert str(refused.value) == say("scale_not_positive", scale=float("nan"))
    recipe(f"name: r\nconfigs:\n{GOOD_CONFIG}")(tmp_path)
    result = CliRunner().invoke(main, ["build", str(tmp_path / "r.yaml"), "--out", "/"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert say("out_has_no_name", out="/") in result.stderr
    assert os.listdir(tmp_path) == ["r.yaml"]
