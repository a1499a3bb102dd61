"""Every script in benchmarks/ runs from a fresh install and prints its figures.

Each is run as a user would (a subprocess from the repository root) with the smallest
size it takes; the figures themselves are read by people, not asserted here.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TINY_RECIPE = """
name: tiny
configs:
  - name: p
    task: projection
    objects: 3
    splits: {test: 8}
"""

# script -> (arguments for the smallest run, a word its figures print)
TINY = {
    "acp_families.py": (["--rows", "2", "--domains", "ferry", "--families", "applicability"],
                        "rows per CPU-second"),
    "acp_probes.py": (["--configs", "ferry_applicability_bool"], "probe CPU s"),
    "large_problems.py": (["--rows", "2", "--problems", "gripper:p01", "--families",
                           "projection", "--forms", "bool", "--max-enumerated-states", "10"],
                          "rows/s"),
    "adl_domains.py": (["--rows", "2", "--repeat", "1", "--domains", "assembly",
                        "--families", "progression"], "rows/s"),
    "competition_read.py": (["--repeat", "1"], "read time"),
    "collection_sweep.py": (["{root}/tests/data/competition", "--domains", "psr-large",
                             "--families", "progression", "--rows", "2"], "builds in"),
    "text_guesses.py": (["--rows", "2", "--families", "projection", "--folders", "gripper"],
                        "relation"),
    "verify_coverage.py": (["--rows", "2", "--families", "progression",
                            "--domain-dir", "{root}/tests/data/competition/psr-large"], "fd-stepper"),
    "audit_probe.py": (["--train", "200", "--test", "60", "--repeat", "1"], "rows/s"),
    "oracles.py": (["--seconds", "0.01", "--situations", "3", "--cases", "gripper:p01"],
                            "/s"),
    "build_recipe.py": (["{tiny_recipe}", "--workers", "1"], "rows/s"),
    "build_memory.py": (["{tiny_recipe}", "--workers", "2"], "peak own (anon) MiB"),
    "build_timeline.py": (["{tiny_recipe}", "--workers", "2"], "idle core-s"),
    "config_rows.py": (["{tiny_recipe}", "--rows", "2", "--scale", "0.5", "--stages"],
                       "render us"),
    "ray_engine.py": (["{tiny_recipe}", "--workers", "1"], "overhead"),
    "cli_startup.py": (["--repeat", "1"], "median"),
    "next_observation.py": (["--rows", "16", "--configs", "logistics_h1,pddl_gripper30_h1"],
                            "rows/s"),
    "fuzz_pddl.py": (["--n", "200"], "inputs"),
    "successors.py": (["--problems", "swap:p01,generated:gripper-6", "--walks", "2",
                       "--steps", "5", "--seconds", "0.01"], "calls/s"),
    "interrupts.py": (["--tries", "1", "--max-delay", "0"], "exit codes"),
    "landmark_sweeps.py": (["gripper:p01"], "a sweep per atom"),
    "text_rendering.py": (["--clauses", "1000"], "clauses/s"),
    "lab_families.py": (["--rows", "2", "--families", "applicability", "--variations", "1"],
                        "rows/s"),
    "science_gold.py": (["--tasks", "boil", "--every", "15", "--workers", "1"], "steps/s"),
    "science_scores.py": (["--tasks", "lifespan-longest-lived", "--per-task", "1"], "largest difference"),
    "science_gold_replay.py": (["--tasks", "find-plant", "--per-task", "1"], "steps/s"),
    "science_step.py": (["--tasks", "boil", "--every", "30", "--settings", "easy"], "steps/s"),
    "science_timing.py": (["--probes", "boil-on-stove,bulb-lights-after-wiring"], "probes differ"),
    "rule_worlds.py": (["--episodes", "3", "--scale", "0.002", "--configs",
                        "rtfm_next_observation_h1", "--rows", "2"], "eps/s"),
    "difficulty_levels.py": (["--rows", "2", "--worlds", "blocksworld_trac", "--families",
                              "projection", "--markdown"], "| falls | rows | variations |"),
    "stream_rows.py": (["--rows", "2"], "rows/s"),
    "cell_runs.py": (["--recipes", "{tiny_recipe}", "--all", "--stream-worlds", "blocksworld_trac",
                      "--stream-families", "executability", "--levels", "easy"], "runs measured"),
    "suite_files.py": (["{root}/tests/test_layout.py", "--top", "1", "--start-cpu", "2"],
                       "estimated wall"),
    "imitation.py": (["--tasks", "identify-life-stages-2", "--every", "5", "--workers", "1",
                      "--configs", "bc-identify-life-stages-2"], "rows/s"),
}


def test_every_benchmark_has_a_tiny_run():
    assert sorted(p.name for p in (ROOT / "benchmarks").glob("*.py")) == sorted(TINY)


@pytest.mark.parametrize("script", sorted(TINY))
def test_benchmark_runs(tmp_path, script):
    recipe = tmp_path / "tiny.yaml"
    recipe.write_text(TINY_RECIPE)
    args, word = TINY[script]
    args = [a.replace("{tiny_recipe}", str(recipe)).replace("{root}", str(ROOT)) for a in args]
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert word in proc.stdout, proc.stdout[-2000:]


BUSY = "import time\nwhile time.process_time() < 2: pass"
# as Ray's raylet: a parent ignoring SIGCHLD, whose busy child the kernel reaps when it
# ends, its CPU reaching no RUSAGE_CHILDREN
IGNORING_PARENT = f"""
import os, signal, subprocess, sys, time
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
child = subprocess.Popen([sys.executable, "-c", {BUSY!r}])
while not time.sleep(0.02):
    try:
        os.kill(child.pid, 0)
    except ProcessLookupError:
        break
"""
BUSY_ORPHANS = f"""
import subprocess, sys

def test_leaves_a_busy_process_behind():
    # runs on after pytest ends, outside its tree
    subprocess.Popen([sys.executable, "-c", {BUSY!r}], start_new_session=True)

def test_starts_a_parent_that_ignores_sigchld():
    subprocess.run([sys.executable, "-c", {IGNORING_PARENT!r}], check=True)
"""


def cgroup_made() -> bool:
    """Whether suite_files.py can count a run's CPU by a cgroup here (Linux, as root)."""
    spec = importlib.util.spec_from_file_location("suite_files",
                                                  ROOT / "benchmarks" / "suite_files.py")
    suite_files = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(suite_files)
    group = suite_files.CpuGroup.make()
    if group:
        group.remove()
    return group is not None


def test_suite_files_counts_the_processes_a_test_file_leaves(tmp_path):
    """suite_files.py counts the CPU of a process a test file started and left running
    (it is their subreaper), and, where it can make a cgroup, that of a process reaped
    by the kernel for a parent ignoring SIGCHLD (as Ray's raylet does with its workers):
    2 CPU s each here, above the run of a file of one empty test."""
    (tmp_path / "test_orphan.py").write_text(BUSY_ORPHANS)
    (tmp_path / "test_empty.py").write_text("def test_nothing():\n    pass\n")
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "suite_files.py"),
                           str(tmp_path), "--start-cpu", "0"], capture_output=True, text=True,
                          cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    cpu = {}
    for name in ("test_orphan.py", "test_empty.py"):
        line = next(line for line in proc.stdout.splitlines() if "CPU s" in line and name in line)
        assert " passed" in line, line
        cpu[name] = float(line.split()[0])
    by_cgroup = cgroup_made()
    assert ("counted by a cgroup of its own" in proc.stdout) == by_cgroup, proc.stdout
    assert cpu["test_orphan.py"] - cpu["test_empty.py"] >= (3.0 if by_cgroup else 1.5), (
        by_cgroup, proc.stdout)
