"""The build end to end: real subprocesses, real Parquet, real `datasets.load_dataset`."""

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import datasets
import pyarrow.parquet as pq
import pytest

from racbench.checks.audit import probe_config
from racbench.export.resume import finished_records

SMALL_RECIPE = """
name: small
description: A small suite for tests.
seed: 3
configs:
  - name: "{task}_L{length}"
    for_each: {task: [projection, executability, planning, goal_recognition], length: [2]}
    objects: 4
    splits: {train: 300, validation: 60, test: 100}
  - name: ge1_projection
    task: projection
    objects: 7
    length: [1, 2]
    splits: {test: 60}
"""


def racbench(*args, env=None, check=True, **kw):
    full_env = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, "-m", "racbench.cli", *map(str, args)],
                          capture_output=True, text=True, env=full_env, check=check, **kw)


@pytest.fixture(scope="module")
def recipe_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("recipe") / "small.yaml"
    path.write_text(SMALL_RECIPE)
    return path


@pytest.fixture(scope="module")
def built(tmp_path_factory, recipe_file) -> Path:
    out = tmp_path_factory.mktemp("build") / "small"
    racbench("build", recipe_file, "--out", out, "--workers", 2, "--quiet",
             env={"PYTHONHASHSEED": "0"})
    return out


def folder_bytes(root: Path) -> dict[str, bytes]:
    """Every file of a built folder: shards, the card and anything written beside it."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def assert_same_files(a: Path, b: Path) -> None:
    """The same files with the same bytes (compared name by name, for a short message)."""
    bytes_a, bytes_b = folder_bytes(a), folder_bytes(b)
    assert sorted(bytes_a) == sorted(bytes_b)
    assert [name for name in bytes_a if bytes_a[name] != bytes_b[name]] == []


def test_layout_and_card(built):
    assert sorted(p.name for p in (built / "planning_L2").iterdir()) == [
        "test-00000-of-00001.parquet", "train-00000-of-00001.parquet",
        "validation-00000-of-00001.parquet"]
    card = (built / "README.md").read_text()
    assert "config_name: projection_L2" in card
    assert "| `projection_L2` | projection | bool | 4 |" in card
    assert "Problems of any train split found again in the validation or test split of any config: 0" in card
    assert not list(built.parent.glob(".*partial*"))


def test_load_dataset_round_trip(built):
    ds = datasets.load_dataset(str(built), "goal_recognition_L2")
    assert {k: len(v) for k, v in ds.items()} == {"train": 300, "validation": 60, "test": 100}
    assert ds["train"].features["label"].names == ["false", "true"]
    assert ds["train"].features["n_objects"].dtype == "int32"
    row = ds["test"][0]
    problem = json.loads(row["symbolic"])
    assert problem["answer"] == bool(row["label"]) and problem["family"] == "goal_recognition"
    ge1 = datasets.load_dataset(str(built), "ge1_projection", split="test")
    assert set(ge1["n_objects"]) == {7} and sorted(set(ge1["sequence_length"])) == [1, 2]


def test_labels_are_exactly_balanced_per_cell(built, shown_kind):
    """Within every cell (sequence length and kind of subject) labels differ by at most
    one row: the row's position fixes both."""
    for config in ("projection_L2", "executability_L2", "planning_L2", "goal_recognition_L2"):
        for f in (built / config).glob("*.parquet"):
            rows = pq.read_table(f).to_pylist()
            assert Counter(r["label"] for r in rows) == {0: len(rows) // 2, 1: len(rows) // 2}
            cells = Counter()
            for r in rows:
                kind = shown_kind(r["family"], json.loads(r["symbolic"]))
                cells[(r["sequence_length"], kind)] += 1 if r["label"] else -1
            assert all(abs(v) <= 1 for v in cells.values()), config


def test_no_problem_repeats_within_a_config(built):
    for config in (p for p in built.iterdir() if p.is_dir()):
        problems = []
        for f in sorted(config.glob("*.parquet")):
            for s in pq.read_table(f, columns=["symbolic"]).column("symbolic").to_pylist():
                p = json.loads(s)
                p.pop("answer")
                problems.append(json.dumps(p, sort_keys=True))
        assert len(problems) == len(set(problems)), config.name


def test_planning_negatives_mix_both_kinds(built):
    rows = pq.read_table(built / "planning_L2" / "train-00000-of-00001.parquet").to_pylist()
    kinds = Counter(json.loads(r["metadata"]).get("negative_kind") for r in rows if not r["label"])
    assert kinds["not_executable"] == kinds["misses_goal"] == 75


def test_same_bytes_whatever_workers_and_hash_seed(built, recipe_file, tmp_path):
    other = tmp_path / "again"
    racbench("build", recipe_file, "--out", other, "--workers", 1, "--quiet",
             env={"PYTHONHASHSEED": "1"})
    assert_same_files(other, built)


def test_another_seed_gives_other_rows(recipe_file, tmp_path, built):
    out = tmp_path / "seed4"  # the config compared alone: its rows do not depend on the others
    here("build", recipe_file, "--configs", "projection_L2", "--out", out, "--seed", 4,
         "--quiet", "--workers", 1)
    a = pq.read_table(built / "projection_L2" / "test-00000-of-00001.parquet").column("context")
    b = pq.read_table(out / "projection_L2" / "test-00000-of-00001.parquet").column("context")
    assert not set(a.to_pylist()) & set(b.to_pylist())


# two quick configs over different worlds (two batches), then one slow enough (ten-block
# goal recognition, a few seconds) that the interrupt surely lands while the build is
# still running; the first has three splits, whose order the card must keep when the
# resumed build restores it, and the resumed build skips preparing the finished second
INTERRUPTED_RECIPE = """
name: interrupted
seed: 3
configs:
  - name: first
    task: projection
    objects: 4
    splits: {train: 20, validation: 10, test: 10}
  - name: second
    task: executability
    objects: 5
    splits: {test: 10}
  - name: slow
    task: goal_recognition
    objects: 10
    length: [1, 2]
    splits: {test: 1200}
"""


def test_interrupted_build_resumes_to_identical_bytes(tmp_path):
    recipe_file = tmp_path / "interrupted.yaml"
    recipe_file.write_text(INTERRUPTED_RECIPE)
    out = tmp_path / "resumed"
    partial = tmp_path / ".resumed.partial"
    proc = subprocess.Popen([sys.executable, "-m", "racbench.cli", "build", str(recipe_file),
                             "--out", str(out), "--workers", "2", "--quiet"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 60
    while time.time() < deadline and "second" not in finished_records(partial):
        time.sleep(0.02)
    assert proc.poll() is None, "the build ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 130
    # it says what was kept, and how to resume
    assert "2 of 3 configs are finished and kept" in proc.communicate()[1].decode()
    assert not out.exists(), "an interrupted build must not leave a complete-looking folder"
    assert (partial / "second").is_dir() and not (partial / "slow").exists()
    resumed = racbench("build", recipe_file, "--out", out, "--quiet", check=False)
    assert resumed.returncode == 0, resumed.stderr
    assert "resuming the unfinished build" in resumed.stderr
    assert "2 of 3 configs already finished" in resumed.stderr
    assert not partial.exists()
    reference = tmp_path / "reference"
    racbench("build", recipe_file, "--out", reference, "--workers", 1, "--quiet")
    assert_same_files(out, reference)


def test_ctrl_c_before_any_config_is_finished_keeps_nothing_and_says_so(tmp_path):
    """Nothing to resume from: no "rerun to resume", and no unfinished folder left."""
    recipe_file = tmp_path / "slow.yaml"
    # slow enough that its rows are still being made 0.2 s after they start, even on an
    # idle machine (800 rows took less than that): ten times the resumed test's rows
    slow = INTERRUPTED_RECIPE.split("  - name: slow")[1]
    assert "{test: 1200}" in slow, "the slow config's size changed: scale it here too"
    slow = slow.replace("{test: 1200}", "{test: 12000}")
    recipe_file.write_text(INTERRUPTED_RECIPE.split("  - name: first")[0] + "  - name: slow" + slow)
    out = tmp_path / "out"
    partial = tmp_path / ".out.partial"
    proc = subprocess.Popen([sys.executable, "-m", "racbench.cli", "build", str(recipe_file),
                             "--out", str(out), "--workers", "2", "--quiet"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 60
    while time.time() < deadline and not (partial / "slow.tmp").exists():  # making rows
        time.sleep(0.02)
    time.sleep(0.2)
    assert proc.poll() is None, "the build ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    code = proc.wait(timeout=60)
    stderr = proc.communicate()[1].decode()
    assert code == 130, (code, stderr)
    assert "before any config was finished; nothing was kept" in stderr, stderr
    assert "resume" not in stderr
    assert not out.exists() and not partial.exists()
    assert os.listdir(tmp_path) == ["slow.yaml"]


# Ctrl-C delivered while the CLI is still importing click (as a slow, loaded machine
# makes likely in its first second): both ways in, the console script's entry and
# `python -m racbench.cli`, start as they do for a user, with an import hook that sends
# the signal from inside click's import. Test-only: nothing of it is in racbench.
CTRL_C_WHILE_LOADING = """
import builtins, os, runpy, signal, sys, time
real = builtins.__import__
def importing(name, *args, **kwargs):
    if name == "click":
        builtins.__import__ = real
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)  # the signal lands here, inside the import
    return real(name, *args, **kwargs)
builtins.__import__ = importing
sys.argv = ["racbench", "build", "trac", "--out", "out"]
if sys.argv[0] and {console}:
    from racbench.launch import run
    run()
else:
    runpy.run_module("racbench.cli", run_name="__main__")
"""


@pytest.mark.parametrize("console", [True, False])
def test_ctrl_c_while_the_cli_loads_exits_130_without_a_traceback(tmp_path, console):
    """A Ctrl-C before the CLI's modules are loaded ends it with 130 and one word, not a
    KeyboardInterrupt traceback from inside an import, and writes nothing."""
    done = subprocess.run([sys.executable, "-c", CTRL_C_WHILE_LOADING.format(console=console)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert done.returncode == 130, done.stderr
    assert done.stderr == "interrupted\n"
    assert os.listdir(tmp_path) == []


def test_a_ctrl_c_swallowed_by_a_finalizer_is_raised_again(capsys):
    """A Ctrl-C landing inside a finalizer (a pool's weakref callback, run by the garbage
    collector) raises KeyboardInterrupt where Python cannot raise it: it was printed as
    "Exception ignored in: <Finalize object, dead>" with a traceback, and the build ran
    on (seen once in the test below, at 5 s). Inside a command's work it is raised again
    in the command's own code, and nothing is printed."""
    import weakref

    from racbench import cli

    class Pool:
        pass

    def finalizer(_):
        raise KeyboardInterrupt  # as a Ctrl-C landing inside the callback

    hook = sys.unraisablehook
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        with cli._working():
            pool = Pool()
            ref = weakref.ref(pool, finalizer)  # noqa: F841 (its callback is the point)
            del pool
            time.sleep(10)  # the interrupt comes back within it
    assert time.monotonic() - started < 5
    assert "Exception ignored" not in capsys.readouterr().err
    assert sys.unraisablehook is hook


@pytest.mark.parametrize("delay", [0.4, 1.5, 3.0, 5.0])
def test_ctrl_c_stops_any_phase_at_once(tmp_path, delay):
    """Ctrl-C at a terminal signals the whole process group (workers too); the build
    must end promptly with code 130 whatever phase it is in (probing, rows, card),
    leaving either nothing or a partial folder that a rerun resumes.
    benchmarks/interrupts.py measures the time to exit over many tries (under 2 s)."""
    recipe_file = tmp_path / "interrupted.yaml"
    recipe_file.write_text(INTERRUPTED_RECIPE)
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, "-m", "racbench.cli", "build", str(recipe_file),
                             "--out", str(out), "--workers", "2", "--quiet"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    time.sleep(delay)
    os.killpg(proc.pid, signal.SIGINT)  # on a fast machine the build may be done by now
    try:
        code = proc.wait(timeout=20)  # a hang, not a slow machine, fails this
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        raise AssertionError("the build did not stop after Ctrl-C")
    stderr = proc.communicate()[1].decode()
    assert "Traceback" not in stderr
    partial = tmp_path / ".out.partial"
    if out.exists():
        # The signal came after the dataset was renamed into place (the card phase is
        # over): the build counts as finished, whatever the signal did to the exit.
        assert code in (0, 130), stderr
    else:
        assert code == 130, stderr
        here("build", recipe_file, "--out", out, "--quiet", "--workers", 1)  # resumed here
    assert (out / "slow").is_dir() and not partial.exists()


def _on_a_terminal(args: list[str], cwd: Path) -> str:
    """Run the CLI with a pseudo-terminal as stdout and stderr; everything it printed."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # 100 columns
    proc = subprocess.Popen([sys.executable, "-m", "racbench.cli", *args], stdin=subprocess.DEVNULL,
                            stdout=slave, stderr=slave, cwd=cwd)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # the terminal closed: the process ended
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    assert proc.wait(timeout=120) == 0
    return b"".join(chunks).decode("utf-8", "replace")


# two small configs: every phase of a build (load, probe, rows) and of an audit runs on
# them as on the module's recipe, in a fraction of its time
TERMINAL_RECIPE = """
name: tiny
seed: 3
configs:
  - name: "{task}_L{length}"
    for_each: {task: [projection, executability], length: [2]}
    objects: 4
    splits: {train: 20, test: 10}
"""


def test_every_phase_shows_progress_on_a_terminal_and_quiet_silences_it(tmp_path):
    recipe_file = tmp_path / "tiny.yaml"
    recipe_file.write_text(TERMINAL_RECIPE)
    shown = _on_a_terminal(["build", str(recipe_file), "--out", "a", "--workers", "2"], tmp_path)
    assert "load:" in shown and "probe:" in shown and "tiny:" in shown and "rows" in shown
    shown = _on_a_terminal(["audit", "a", "--no-card"], tmp_path)
    assert "audit:" in shown
    quiet = _on_a_terminal(["build", str(recipe_file), "--out", "b", "--workers", "2", "--quiet"],
                           tmp_path)
    assert quiet.strip() == "wrote b"
    assert "audit:" not in _on_a_terminal(["audit", "b", "--no-card", "--quiet"], tmp_path)


def test_a_builtin_name_wins_over_a_folder_of_that_name(tmp_path, monkeypatch):
    from racbench.suites.recipe import load_recipe

    (tmp_path / "trac").mkdir()
    monkeypatch.chdir(tmp_path)
    assert load_recipe("trac").name == "trac"
    (tmp_path / "mine.yaml").write_text(INTERRUPTED_RECIPE)
    (tmp_path / "trac2").write_text(INTERRUPTED_RECIPE)
    assert load_recipe("mine.yaml").name == "interrupted"
    assert load_recipe("./trac2").name == "interrupted"


def test_a_recipe_includes_others_before_its_own_configs(tmp_path):
    """`include` puts the named recipes' configs first, in order; a config's fingerprint
    (what a resumed build keeps it by) follows its entry in an included recipe, and
    only its own."""
    from racbench.suites.fingerprint import config_fingerprint
    from racbench.suites.recipe import load_recipe

    (tmp_path / "part.yaml").write_text(INTERRUPTED_RECIPE)
    (tmp_path / "all.yaml").write_text(
        "name: all\ninclude: [science-gold, part.yaml]\nconfigs:\n"
        "  - name: own\n    task: projection\n    objects: 3\n    splits: {test: 4}\n")
    combined = load_recipe(str(tmp_path / "all.yaml"))
    gold, part = load_recipe("science-gold"), load_recipe(str(tmp_path / "part.yaml"))
    assert [c.name for c in combined.configs] == (
        [c.name for c in gold.configs] + [c.name for c in part.configs] + ["own"])
    def fingerprints():
        return {c.name: config_fingerprint(c, 0)
                for c in load_recipe(str(tmp_path / "all.yaml")).configs}

    before = fingerprints()
    (tmp_path / "part.yaml").write_text(INTERRUPTED_RECIPE + "# edited\n")
    assert fingerprints() == before
    (tmp_path / "part.yaml").write_text(INTERRUPTED_RECIPE.replace("objects: 5", "objects: 6"))
    after = fingerprints()
    assert [name for name in before if after[name] != before[name]] == ["second"]


def test_every_builtin_recipe_loads_and_trajectories_joins_its_parts():
    from racbench.data import recipe_names
    from racbench.suites.recipe import load_recipe

    recipes = {name: load_recipe(name) for name in recipe_names()}
    parts = [c.name for p in ("trajectories-next-observation", "trajectories-imitation",
                              "trajectories-questions") for c in recipes[p].configs]
    assert [c.name for c in recipes["trajectories"].configs] == parts


def test_build_help_lists_the_builtin_recipes():
    from click.testing import CliRunner

    from racbench.cli import main

    shown = CliRunner().invoke(main, ["build", "--help"]).output
    assert all(name in shown for name in ("trac", "acp", "science-gold"))


def here(*args) -> str:
    """The CLI through click's runner in this process (the console script's code path):
    for commands whose process is not what a test is about, which would pay Python's,
    racbench's and pyarrow's start."""
    from click.testing import CliRunner

    from racbench.cli import main

    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == 0, (result.output, result.exception)
    return result.stdout


def test_query_alone_does_not_predict_the_label(tmp_path):
    out = tmp_path / "probe"
    for task in ("projection", "executability"):
        here("generate", task, "--length", 2, "-n", 6000, "--out", out / task, "--quiet",
             "--workers", 1)
        result = probe_config(out / task / f"{task}_L2")
        assert result.accuracy <= 0.55, (task, result)


def test_show_prints_rows(built):
    shown = here("show", built, "executability_L2", "-n", 2)
    assert shown.count("== executability_L2-train-") == 2 and "Jane moves the" in shown
