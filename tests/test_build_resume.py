"""Resume per config and probing first: real CLI subprocesses, real PDDL, real Parquet.

A config refused late (its split asks for more distinct rows than its one small problem
gives, which only drawing the rows finds out) stops the build with exit 2 and keeps the
configs it finished; the rerun, with the recipe fixed, builds only what was missing (and
what was changed since) and ends byte-identical to a clean build. A refusal the probe can
find comes before any row is written, and the probes made before it are kept.
"""

import subprocess
import sys
import time
from pathlib import Path

import pytest

from racbench.export.resume import FINISHED, STATE, finished_records, record_finished

SWITCH = Path(__file__).parent / "data" / "switch"
SWITCH_DOMAIN = (SWITCH / "switch.pddl").read_text()
SWITCH_PROBLEM = (SWITCH / "two.pddl").read_text()
# the last config's one problem gives about 14 distinct executability questions: 40
# rows pass the probe's bound (at most 160) and are refused while its rows are drawn;
# the fixed recipe asks for 10
RECIPE = """
name: late
seed: 3
configs:
  - name: first
    task: projection
    objects: 4
    splits: {{train: 20, validation: 10, test: 10}}
  - name: second
    task: executability
    objects: {second_objects}
    splits: {{test: 10}}
  - name: switch
    family: executability
    domain_file: switch.pddl
    problems: {{test: [two.pddl]}}
    length: 1
    splits: {{test: {switch_rows}}}
"""


def racbench(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "racbench.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd)


def folder_bytes(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def shard_ids(folder: Path) -> dict[str, tuple[int, int]]:
    """Each shard's (inode, mtime): a shard kept from an earlier run keeps both."""
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in sorted(folder.iterdir())}


def recipe_writer(folder: Path):
    (folder / "switch.pddl").write_text(SWITCH_DOMAIN)
    (folder / "two.pddl").write_text(SWITCH_PROBLEM)

    def write(second_objects=5, switch_rows=10) -> Path:
        path = folder / "late.yaml"
        path.write_text(RECIPE.format(second_objects=second_objects, switch_rows=switch_rows))
        return path

    return write


@pytest.fixture
def recipe(tmp_path):
    return recipe_writer(tmp_path)


@pytest.fixture(scope="module")
def clean(tmp_path_factory) -> dict[str, bytes]:
    """The fixed recipe (the default `recipe()`) built clean, once for the module, with one
    worker: the bytes three tests' resumed builds (on two workers) must end with. A
    build's bytes do not depend on the folder it runs in (paths in the recipe are its
    folder's)."""
    folder = tmp_path_factory.mktemp("clean")
    racbench("build", recipe_writer(folder)(), "--out", folder / "clean", "--workers", 1,
             "--quiet", cwd=folder).check_returncode()
    return folder_bytes(folder / "clean")


def test_a_config_refused_late_keeps_what_was_finished_and_the_rerun_builds_the_rest(
        tmp_path, recipe, clean):
    out, partial = tmp_path / "out", tmp_path / ".out.partial"
    refused = racbench("build", recipe(switch_rows=40), "--out", out, "--workers", 2, "--quiet",
                       cwd=tmp_path)
    assert refused.returncode == 2, refused.stderr
    assert "Error: config 'switch': the test split asks for 40 rows" in refused.stderr
    assert "2 of 3 configs are finished and kept" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert not out.exists()
    # the finished configs are kept, nothing of the refused one is
    assert sorted(p.name for p in partial.iterdir()) == [".state", "build.json", "first",
                                                         "second"]
    kept = {name: shard_ids(partial / name) for name in ("first", "second")}

    # the recipe fixed: the rerun builds the refused config alone
    fixed = racbench("build", recipe(switch_rows=10), "--out", out, "--workers", 2, "--quiet",
                     cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stderr
    assert "2 of 3 configs already finished and kept; building 1: switch\n" in fixed.stderr
    assert {name: shard_ids(out / name) for name in kept} == kept
    assert not partial.exists()
    assert folder_bytes(out) == clean


def test_a_config_whose_statistics_were_cut_short_is_built_again(tmp_path, recipe, clean):
    """A Ctrl-C while a config's statistics (which mark it finished) were being written
    once left them empty, and the rerun stopped on a JSONDecodeError's traceback (seen
    in test_ray_engine's interrupted build). A config's line in the log of finished
    configs that was cut short makes the config one to build again."""
    out, partial = tmp_path / "out", tmp_path / ".out.partial"
    refused = racbench("build", recipe(switch_rows=40), "--out", out, "--workers", 2, "--quiet",
                       cwd=tmp_path)
    assert "2 of 3 configs are finished and kept" in refused.stderr, refused.stderr
    assert sorted(finished_records(partial)) == ["first", "second"]
    log = partial / STATE / FINISHED
    lines = log.read_text().split("\n")
    at = next(i for i, line in enumerate(lines) if '"name": "second"' in line)
    log.write_text("\n".join(lines[:at] + [lines[at][:len(lines[at]) // 2]]))
    fixed = racbench("build", recipe(switch_rows=10), "--out", out, "--workers", 2, "--quiet",
                     cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stderr
    assert "1 of 3 configs already finished and kept" in fixed.stderr, fixed.stderr
    assert "building 2: second, switch\n" in fixed.stderr, fixed.stderr
    assert "Traceback" not in fixed.stderr
    assert folder_bytes(out) == clean


def test_a_line_cut_short_in_the_log_leaves_the_next_config_finished(tmp_path):
    """A line cut short has no end of line; the next config's line still reads back."""
    (tmp_path / STATE).mkdir()
    record_finished(tmp_path, "a", "fa", {"rows": 1}, {"test": ["k"]})
    log = tmp_path / STATE / FINISHED
    log.write_text(log.read_text()[:-9])  # a Ctrl-C while a's line was written
    record_finished(tmp_path, "b", "fb", {"rows": 2}, {"test": ["k2"]})
    assert finished_records(tmp_path) == {
        "b": {"name": "b", "fingerprint": "fb", "stats": {"rows": 2}, "keys": {"test": ["k2"]}}}


def test_a_rerun_of_an_edited_recipe_rebuilds_the_edited_config_too(tmp_path, recipe):
    """A finished config whose entry changed since is built again; the others are kept."""
    out, partial = tmp_path / "out", tmp_path / ".out.partial"
    racbench("build", recipe(switch_rows=40), "--out", out, "--workers", 2, "--quiet",
             cwd=tmp_path)
    first = shard_ids(partial / "first")
    second = shard_ids(partial / "second")
    fixed = racbench("build", recipe(second_objects=6, switch_rows=10), "--out", out,
                     "--workers", 2, "--quiet", cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stderr
    assert ("1 of 3 configs already finished and kept; building 2: second, switch (1 of "
            "them finished before but changed since: second)") in fixed.stderr
    assert shard_ids(out / "first") == first
    assert shard_ids(out / "second") != second
    clean = tmp_path / "clean"
    racbench("build", recipe(second_objects=6, switch_rows=10), "--out", clean, "--quiet",
             cwd=tmp_path).check_returncode()
    assert folder_bytes(out) == folder_bytes(clean)


# The CLI with a fault put into its own process: a forked worker asked to make a row of
# `switch` kills itself as the OS kills a process out of memory (the driver, whose pid
# is noted first, is spared). Test-only: nothing of it is in racbench.
KILLER = """
import os
from racbench.export import jobs
from racbench.cli import main
driver, generator = os.getpid(), jobs.generator
def killing(name):
    if name == "switch" and os.getpid() != driver:
        os.kill(os.getpid(), 9)
    return generator(name)
jobs.generator = killing
main()
"""


def test_a_worker_killed_stops_the_build_naming_its_config_and_the_rerun_builds_the_rest(
        tmp_path, recipe, clean):
    """A worker killed while making `switch`'s rows (which Pool.imap would wait for for
    ever) stops the build within seconds with exit 75 and one message naming the config,
    keeping the two finished configs and nothing of `switch`; the rerun builds `switch`
    alone, byte-identical to a clean build."""
    out, partial = tmp_path / "out", tmp_path / ".out.partial"
    killed = subprocess.run([sys.executable, "-c", KILLER, "build", recipe(), "--out", out,
                             "--workers", "2", "--quiet"], capture_output=True, text=True,
                            cwd=tmp_path, timeout=300)
    assert killed.returncode == 75, killed.stderr
    assert "was killed by SIGKILL" in killed.stderr, killed.stderr
    assert "while building config 'switch'" in killed.stderr
    assert "2 of 3 configs are finished and kept" in killed.stderr
    assert "Traceback" not in killed.stderr and not out.exists()
    assert sorted(p.name for p in partial.iterdir()) == [".state", "build.json", "first",
                                                         "second"]
    kept = {name: shard_ids(partial / name) for name in ("first", "second")}

    rerun = racbench("build", recipe(), "--out", out, "--workers", 2, "--quiet", cwd=tmp_path)
    assert rerun.returncode == 0, rerun.stderr
    assert ("2 of 3 configs already finished and kept (1 more already probed); building 1: "
            "switch\n") in rerun.stderr
    assert {name: shard_ids(out / name) for name in kept} == kept
    assert folder_bytes(out) == clean


# ... and one whose forked worker, asked to read a finished config's shards back for the
# dataset card, kills itself (every config is finished by then)
CARD_KILLER = """
import os
from racbench.export import build
from racbench.cli import main
driver, reads = os.getpid(), build._card_reads
def killing(args):
    if os.getpid() != driver:
        os.kill(os.getpid(), 9)
    return reads(args)
build._card_reads = killing
main()
"""


def test_a_worker_killed_while_the_card_is_written_keeps_every_config(tmp_path, recipe,
                                                                     clean):
    """A worker killed while reading shards back for the card stops the build with exit
    75, saying so (not "while the build ran") and that every config is kept; the rerun
    builds no config again and writes the card, byte-identical to a clean build."""
    out, partial = tmp_path / "out", tmp_path / ".out.partial"
    killed = subprocess.run([sys.executable, "-c", CARD_KILLER, "build", recipe(), "--out",
                             out, "--workers", "2", "--quiet"], capture_output=True,
                            text=True, cwd=tmp_path, timeout=300)
    assert killed.returncode == 75, killed.stderr
    assert "while writing the dataset card" in killed.stderr, killed.stderr
    assert ("all 3 configs are finished and kept: rerun the same command to write the "
            "card alone") in killed.stderr
    assert "Traceback" not in killed.stderr and not out.exists()
    kept = {name: shard_ids(partial / name) for name in ("first", "second", "switch")}

    rerun = racbench("build", recipe(), "--out", out, "--workers", 2, "--quiet", cwd=tmp_path)
    assert rerun.returncode == 0, rerun.stderr
    assert "3 of 3 configs already finished and kept; nothing left to build" in rerun.stderr
    assert {name: shard_ids(out / name) for name in kept} == kept
    assert folder_bytes(out) == clean


# probes run from the last run of configs back: `slow` is probed (and its probe kept)
# before `refused`, which is refused before any row of `slow` is written
REFUSED_THEN_SLOW = """
name: probed
seed: 3
configs:
  - name: refused
    family: executability
    domain_file: {domain}
    problems: {{test: [two.pddl]}}
    length: 1
    splits: {{test: {rows}}}
  - name: slow
    task: goal_recognition
    objects: 10
    length: [1, 2]
    splits: {{test: 800}}
"""


@pytest.mark.parametrize("domain, rows, said", [
    ("switch.pddl", 200, "config 'refused': the test split asks for 200 rows but its "
                         "problems offer at most 160"),
    ("broken.pddl", 10, "config 'refused': broken.pddl:6:3: missing ')'"),
])
def test_probing_refuses_a_config_before_any_row_is_written(tmp_path, domain, rows, said):
    """`slow` takes seconds to write; `refused` is refused by its probe (too many rows
    asked, unreadable PDDL) before any shard is written. The probe of `slow` is kept:
    the rerun of the fixed recipe probes the refused config alone."""
    (tmp_path / "switch.pddl").write_text(SWITCH_DOMAIN)
    (tmp_path / "broken.pddl").write_text(SWITCH_DOMAIN[:-3])
    (tmp_path / "two.pddl").write_text(SWITCH_PROBLEM)
    recipe = tmp_path / "probed.yaml"
    recipe.write_text(REFUSED_THEN_SLOW.format(domain=domain, rows=rows))
    partial = tmp_path / ".out.partial"
    proc = subprocess.Popen([sys.executable, "-m", "racbench.cli", "build", "probed.yaml",
                             "--out", "out", "--workers", "2", "--quiet"], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    written = set()
    while proc.poll() is None:
        if partial.is_dir():  # a config's folder, or its folder being written
            written |= {p.name for p in partial.iterdir() if not p.name.startswith(".")}
        time.sleep(0.01)
    stderr = proc.communicate()[1]
    assert proc.returncode == 2, stderr
    assert f"Error: {said}" in stderr, stderr
    assert written <= {"build.json"}, f"written before the refusal: {written}"
    assert "no config was built; the probes of 1 of 2 configs are kept" in stderr
    assert [p.name.split(".")[0] for p in (partial / ".state").iterdir()] == ["slow"]
    if domain == "broken.pddl":
        return
    recipe.write_text(REFUSED_THEN_SLOW.format(domain=domain, rows=10))
    fixed = racbench("build", "probed.yaml", "--out", "out", "--quiet", cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stderr
    assert ("0 of 2 configs already finished and kept (1 more already probed); "
            "building 2: refused, slow") in fixed.stderr
    racbench("build", "probed.yaml", "--out", "clean", "--quiet", cwd=tmp_path
             ).check_returncode()
    assert folder_bytes(tmp_path / "out") == folder_bytes(tmp_path / "clean")


# the run probed first (`fine`, `refused`: one domain) is not the run built first, so
# its configs are checked by the build's workers, a config a job; `slow` is not probed
CHECKED_BY_WORKERS = """
name: checked
seed: 3
configs:
  - name: slow
    task: goal_recognition
    objects: 10
    length: [1, 2]
    splits: {{test: 800}}
  - name: fine
    family: executability
    domain_file: switch.pddl
    problems: {{test: [two.pddl]}}
    length: 1
    splits: {{test: 10}}
  - name: refused
    family: executability
    domain_file: switch.pddl
    problems: {{test: [two.pddl]}}
    length: 1
    splits: {{test: {rows}}}
"""


def test_a_config_refused_by_the_workers_checks_is_named_and_its_probe_dropped(tmp_path):
    """A run whose row makers are made again for its rows is checked by forked
    workers: the refusal names its config as the driver's checks did, before any row,
    and the probes of the run's other configs are kept for the rerun."""
    from racbench.errors import InputError
    from racbench.export.build import build
    from racbench.suites.recipe import load_recipe

    (tmp_path / "switch.pddl").write_text(SWITCH_DOMAIN)
    (tmp_path / "two.pddl").write_text(SWITCH_PROBLEM)
    recipe = tmp_path / "checked.yaml"
    recipe.write_text(CHECKED_BY_WORKERS.format(rows=200))
    with pytest.raises(InputError) as refused:
        build(load_recipe(str(recipe)), tmp_path / "out", workers=2, progress=False)
    assert ("config 'refused': the test split asks for 200 rows but its problems offer "
            "at most 160") in str(refused.value)
    state = tmp_path / ".out.partial" / ".state"
    assert sorted(p.name.split(".")[0] for p in state.iterdir()) == ["fine"]
