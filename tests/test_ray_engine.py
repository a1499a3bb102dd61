"""The Ray engine writes the bytes of the local engine: a real local Ray instance, real
builds of `trac` and `acp` subsets compared file by file (acp's under a low enumeration
limit, which must reach the workers), an interrupted Ray build resumed, and the
refusals (`--address` without Ray, a cluster that is not there).

The Ray instance is started once for the module, listening on loopback only
(RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 makes Ray use 127.0.0.1 as the node's address);
builds run by the CLI join it with `--address`, as a build on an existing cluster does.
"""

import os
import signal
import subprocess
import sys
import time

import pytest

os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # before ray is imported

import ray  # noqa: E402

import racbench  # noqa: E402
from racbench.suites.recipe import load_recipe  # noqa: E402

SUBSETS = {  # bool, mc and open configs; TRAC's ten blocks; two acp domains (worlds load per worker)
    "trac": "planning_L2,ge1_goal_recognition",
    "acp": "gripper_applicability_mc,gripper_progression_bool,gripper_validation_open,"
           "ferry_next_action_bool",
}
# A Ray worker is not a fork: the enumeration limit set on the command line must reach
# it, or it would answer by the defaults (enumerate where the local build searches) and
# write other bytes (ferry_next_action_bool's do). The acp subset is built under a low
# limit, so the same builds check that too.
LIMITS = {"trac": (), "acp": ("--max-enumerated-states", 20)}
SCALE = 0.02


def cli(*args, check=True, **kw):
    return subprocess.run([sys.executable, "-m", "racbench.cli", *map(str, args)],
                          capture_output=True, text=True, check=check, **kw)


def folder_bytes(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


@pytest.fixture(scope="module")
def ray_address():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


@pytest.mark.parametrize("recipe", sorted(SUBSETS))
def test_ray_build_writes_the_bytes_of_the_local_build(recipe, ray_address, tmp_path):
    local = tmp_path / "local"
    cli("build", recipe, "--configs", SUBSETS[recipe], "--scale", SCALE, "--out", local,
        "--workers", 2, "--quiet", *LIMITS[recipe])
    # the CLI on the running cluster, with as many workers as its CPUs, and (for trac) this
    # process's Ray through the API with more: chunking and tasks in flight differ, bytes must not
    on_cluster = tmp_path / "cluster"
    cli("build", recipe, "--configs", SUBSETS[recipe], "--scale", SCALE, "--out", on_cluster,
        "--engine", "ray", "--address", ray_address, "--quiet", *LIMITS[recipe])
    expected = folder_bytes(local)
    assert len(expected) > 5 and folder_bytes(on_cluster) == expected
    if recipe != "trac":  # the API path below is the same for every recipe: run it once
        return
    selected = load_recipe(recipe).select(SUBSETS[recipe])
    out = tmp_path / "api"
    racbench.build(selected, out, scale=SCALE, workers=5, engine="ray")
    assert folder_bytes(out) == expected
    assert ray.is_initialized(), "a Ray the caller initialised is left running"


INTERRUPTED_RECIPE = """
name: interrupted
seed: 3
configs:
  - name: first
    task: projection
    objects: 4
    splits: {train: 20, validation: 10, test: 10}
  - name: slow
    task: goal_recognition
    objects: 10
    length: [1, 2]
    splits: {test: 800}
"""


def test_an_interrupted_ray_build_resumes_to_the_local_bytes(ray_address, tmp_path):
    recipe_file = tmp_path / "interrupted.yaml"
    recipe_file.write_text(INTERRUPTED_RECIPE)
    out = tmp_path / "resumed"
    partial = tmp_path / ".resumed.partial"
    command = [sys.executable, "-m", "racbench.cli", "build", str(recipe_file), "--out",
               str(out), "--quiet", "--engine", "ray", "--address", ray_address]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 120
    while time.time() < deadline and not list(partial.glob(".state/*.stats.json")):
        time.sleep(0.02)
    assert proc.poll() is None, "the build ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 130
    assert not out.exists()
    assert (partial / "first").is_dir() and not (partial / "slow").exists()
    subprocess.run(command, check=True, capture_output=True)
    assert not partial.exists()
    reference = tmp_path / "reference"
    cli("build", recipe_file, "--out", reference, "--workers", 2, "--quiet")
    assert folder_bytes(out) == folder_bytes(reference)


def test_address_goes_with_the_ray_engine_only(tmp_path):
    proc = cli("build", "trac", "--out", tmp_path / "x", "--address", "127.0.0.1:1",
               check=False)
    assert proc.returncode == 2
    assert "--address" in proc.stderr and "--engine ray" in proc.stderr
    assert "Traceback" not in proc.stderr and not (tmp_path / "x").exists()


def test_a_cluster_that_is_not_there_is_refused_before_writing(tmp_path):
    proc = cli("build", "trac", "--configs", "projection_L1", "--scale", 0.01, "--out",
               tmp_path / "x", "--engine", "ray", "--address", "127.0.0.1:9", check=False,
               timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "127.0.0.1:9" in proc.stderr and "Traceback" not in proc.stderr
    proc = cli("build", "trac", "--out", tmp_path / "x", "--engine", "ray", "--address",
               "headnode", check=False)
    assert proc.returncode == 2 and "host:port" in proc.stderr, proc.stderr
    assert not list(tmp_path.iterdir())


def test_without_ray_installed_the_message_names_the_extra(tmp_path):
    """Ray made unimportable in the CLI's own process (as if the extra were not
    installed): exit 2, the extra named, nothing written."""
    code = ("import sys; sys.modules['ray'] = None; from racbench.cli import main; "
            "main()")
    proc = subprocess.run([sys.executable, "-c", code, "build", "trac", "--out",
                           str(tmp_path / "x"), "--engine", "ray"], capture_output=True,
                          text=True)
    assert proc.returncode == 2, proc.stderr
    assert "racbench[ray]" in proc.stderr and "Traceback" not in proc.stderr
    assert not list(tmp_path.iterdir())
