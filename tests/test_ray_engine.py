"""The Ray engine writes the bytes of the local engine: a real local Ray instance, real
builds of `trac` and `acp` subsets compared file by file (acp's under a low enumeration
limit, which must reach the workers), the driver loading no world (its workers probe,
make and write the shards), an interrupted Ray build resumed, and the refusals
(`--address` without Ray, a cluster that is not there).

The Ray instance is started once for the module, listening on loopback only
(RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 makes Ray use 127.0.0.1 as the node's address).
Builds through the API run in this process, so they share one Ray job and its worker
processes; the CLI's build joins the instance with `--address`, as a build on an
existing cluster does. The local builds compared with run in this process too, without
a pool (a fork after Ray's threads start is not safe), so their rows are cut in other
chunks than the Ray builds' (which vary their workers too).
"""

import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"  # before ray is imported

import ray  # noqa: E402

import racbench  # noqa: E402
from racbench.export import jobs, ray_engine  # noqa: E402
from racbench.export.remote_prepare import BATCHES_PER_WORKER  # noqa: E402
from racbench.export.resume import finished_records  # noqa: E402
from racbench.suites.recipe import load_recipe  # noqa: E402
from racbench.worlds.strips import limits  # noqa: E402
from racbench.worlds.strips.world import load_domain_text  # noqa: E402

SUBSETS = {  # bool, mc and open configs; TRAC's ten blocks; two acp domains (worlds load per worker)
    "trac": "planning_L2,ge1_goal_recognition",
    "acp": "gripper_applicability_mc,gripper_progression_bool,gripper_validation_open,"
           "ferry_next_action_bool",
}
# A Ray worker is not a fork: the enumeration limit in force in the driver must reach
# it, or it would answer by the defaults (enumerate where the local build searches) and
# write other bytes (ferry_next_action_bool's do). The acp subset is built under a low
# limit, so the same builds check that too.
LIMITS = {"trac": {}, "acp": {"max_enumerated_states": 20}}
RAY_WORKERS = {"trac": 5, "acp": 3}  # tasks in flight: more than the instance's 2 CPUs
SCALE = 0.02


def cli_in_process(*args):
    """The command through click's runner, without a Python start and its imports (about
    1.5 CPU-s): for refusals made before Ray is asked anything, and for builds on the
    module's Ray instance (ray_cli_build); the interrupted build is a real CLI process
    joining it. An exception the CLI let through fails here."""
    from click.testing import CliRunner

    from racbench.cli import main

    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        result.exception)
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)


def folder_bytes(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def build_subset(recipe, out, **options):
    with limits.overridden(**LIMITS[recipe]):
        racbench.build(load_recipe(recipe).select(SUBSETS[recipe]), out, scale=SCALE,
                       progress=False, **options)
    return folder_bytes(out)


# Ray kills a worker idle for a second when the node holds more than it has CPUs: a CLI
# build joining as a job of its own started its workers, Ray killed this process's idle
# ones, and the next build through the API started them again (a Python importing Ray
# and racbench each, three times in this module). Idle workers are kept for the module.
IDLE_WORKERS_KEPT_MS = 600_000


@pytest.fixture(scope="module")
def kill_order(tmp_path_factory):
    """The file that tells the module's Ray workers to kill themselves (killer_hook)."""
    return tmp_path_factory.mktemp("ray_killer") / "order"


@pytest.fixture(scope="module")
def ray_address(kill_order):
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False,
             runtime_env={"worker_process_setup_hook": killer_hook(str(kill_order))},
             _system_config={"idle_worker_killing_time_threshold_ms": IDLE_WORKERS_KEPT_MS})
    try:
        yield ray.get_runtime_context().gcs_address
    finally:
        ray.shutdown()


@pytest.mark.parametrize("recipe", sorted(SUBSETS))
def test_ray_build_writes_the_bytes_of_the_local_build(recipe, ray_address, tmp_path):
    expected = build_subset(recipe, tmp_path / "local", workers=1)
    jobs.GENERATORS.clear()
    loads = _domain_loads()
    before = ray_engine.TASKS.copy()
    on_ray = build_subset(recipe, tmp_path / "ray", workers=RAY_WORKERS[recipe], engine="ray")
    assert len(expected) > 5 and on_ray == expected
    # few tasks (Ray costs the driver about a millisecond each): a config's small
    # shards are made and written by one task, the configs' preparing rounds (worlds
    # made ahead, shares, probes, joins with checks) go in a few batches a worker each
    tasks, configs = ray_engine.TASKS - before, len(SUBSETS[recipe].split(","))
    shards = sum(name.endswith(".parquet") for name in on_ray)
    assert shards > configs and not tasks["make_chunk"], tasks
    assert tasks["write_shard"] + tasks["write_shard_run"] == configs, tasks
    assert tasks["run_batch"] <= 4 * BATCHES_PER_WORKER * RAY_WORKERS[recipe], tasks
    assert set(tasks) <= {"write_shard", "write_shard_run", "run_batch", "card_job"}, tasks
    # the workers probed, made and wrote every row: this process loaded no world (a
    # STRIPS world reads its domain through load_domain_text, whose cache a build's
    # release of its worlds leaves alone, unlike the worlds' own)
    assert _domain_loads() == loads and not jobs.GENERATORS
    assert ray.is_initialized(), "a Ray the caller initialised is left running"


def _domain_loads() -> int:
    info = load_domain_text.cache_info()
    return info.hits + info.misses


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
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 120
    while time.time() < deadline and not finished_records(partial):
        time.sleep(0.02)
    assert proc.poll() is None, "the build ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    code = proc.wait(timeout=60)
    stderr = proc.communicate()[1].decode()
    assert code == 130, stderr
    assert not out.exists()
    assert (partial / "first").is_dir() and not (partial / "slow").exists()
    # resumed through the API on the module's instance, whose workers are started (a
    # CLI's rerun would be a Ray job of its own, starting its own)
    racbench.build(load_recipe(str(recipe_file)), out, engine="ray", workers=2,
                   progress=False)
    assert not partial.exists()
    reference = tmp_path / "reference"
    racbench.build(load_recipe(str(recipe_file)), reference, workers=1, progress=False)
    assert folder_bytes(out) == folder_bytes(reference)


SWITCH = Path(__file__).parent / "data" / "switch"
SWITCH_DOMAIN = (SWITCH / "switch.pddl").read_text()
SWITCH_PROBLEM = (SWITCH / "two.pddl").read_text()
# `switch`'s one problem gives about 14 distinct questions: 40 rows pass its probe and are
# refused by a worker while it writes the shard (repeats past redrawing), 200 are refused
# by the check of its probe (at most 160), 10 are built
LATE = """
name: late
seed: 3
configs:
  - name: first
    task: projection
    objects: 4
    splits: {{train: 20, validation: 10, test: 10}}
  - name: switch
    family: executability
    domain_file: {domain}
    problems: {{test: [{problem}]}}
    length: 1
    splits: {{test: {rows}}}
"""


def test_ray_refusals_name_the_config_and_a_rerun_builds_the_rest(ray_address, tmp_path):
    """Refusals come from the workers (a probe's check, a shard's redraws) with the local
    build's messages; the finished config is kept and the fixed recipe's Ray build
    writes only the rest, byte-identical to a clean local build."""
    from racbench.errors import InputError
    from racbench.suites.recipe import parse_recipe

    (tmp_path / "switch.pddl").write_text(SWITCH_DOMAIN)
    (tmp_path / "two.pddl").write_text(SWITCH_PROBLEM)

    def late(rows):
        return parse_recipe(LATE.format(domain=tmp_path / "switch.pddl",
                                        problem=tmp_path / "two.pddl", rows=rows), "late.yaml")

    out, partial = tmp_path / "out", tmp_path / ".out.partial"
    with pytest.raises(InputError, match="config 'switch': the test split asks for 200 rows "
                                         "but its problems offer at most 160"):
        racbench.build(late(200), out, engine="ray", workers=2, progress=False)
    assert not list(partial.glob("*/*.parquet")), "nothing is written before a refusal"
    with pytest.raises(InputError, match="config 'switch': the test split asks for 40 rows"):
        racbench.build(late(40), out, engine="ray", workers=2, progress=False)
    assert sorted(p.name for p in partial.iterdir() if not p.name.startswith(".")) == [
        "build.json", "first"]
    kept = {p.name: p.stat().st_ino for p in (partial / "first").iterdir()}
    racbench.build(late(10), out, engine="ray", workers=2, progress=False)
    assert {p.name: p.stat().st_ino for p in (out / "first").iterdir()} == kept
    racbench.build(late(10), tmp_path / "clean", workers=1, progress=False)
    assert folder_bytes(out) == folder_bytes(tmp_path / "clean")


BROKEN_FIRST = """
name: broken
seed: 3
configs:
  - name: refused
    family: executability
    domain_file: {domain}
    problems: {{test: [{problem}]}}
    length: 1
    splits: {{test: 10}}
  - name: first
    task: projection
    objects: 4
    splits: {{train: 20, validation: 10, test: 10}}
"""


def test_a_probe_refused_on_ray_names_its_config_and_keeps_the_other_probes(
        ray_address, tmp_path):
    """A probe refused in a worker's batch (unreadable PDDL) is raised with the local
    build's message, before any row is written; the probe of the config that passed
    is kept for the rerun."""
    from racbench.errors import InputError
    from racbench.suites.recipe import parse_recipe

    (tmp_path / "broken.pddl").write_text(SWITCH_DOMAIN[:-3])
    (tmp_path / "two.pddl").write_text(SWITCH_PROBLEM)
    recipe = parse_recipe(BROKEN_FIRST.format(domain=tmp_path / "broken.pddl",
                                              problem=tmp_path / "two.pddl"), "broken.yaml")
    out, partial = tmp_path / "out", tmp_path / ".out.partial"
    with pytest.raises(InputError, match="config 'refused': .*broken.pddl:6:3: missing '\\)'"):
        racbench.build(recipe, out, engine="ray", workers=2, progress=False)
    assert not list(partial.glob("*/*.parquet")), "nothing is written before a refusal"
    assert [p.name.split(".")[0] for p in (partial / ".state").iterdir()] == ["first"]


def test_address_goes_with_the_ray_engine_only(tmp_path):
    proc = cli_in_process("build", "trac", "--out", tmp_path / "x", "--address", "127.0.0.1:1")
    assert proc.returncode == 2
    assert "--address" in proc.stderr and "--engine ray" in proc.stderr
    assert "Traceback" not in proc.stderr and not (tmp_path / "x").exists()


def test_a_cluster_that_is_not_there_is_refused_before_writing(tmp_path):
    """Refused at once, before Ray is asked (which retries for minutes), whether a Ray is
    initialised in the process or not: were it asked, this process's would build."""
    proc = cli_in_process("build", "trac", "--configs", "projection_L1", "--scale", 0.01,
                          "--out", tmp_path / "x", "--engine", "ray", "--address",
                          "127.0.0.1:9")
    assert proc.returncode == 2, proc.stderr
    assert "127.0.0.1:9" in proc.stderr and "Traceback" not in proc.stderr
    proc = cli_in_process("build", "trac", "--out", tmp_path / "x", "--engine", "ray",
                          "--address", "headnode")
    assert proc.returncode == 2 and "host:port" in proc.stderr, proc.stderr
    assert not list(tmp_path.iterdir())


def test_without_ray_installed_the_message_names_the_extra(tmp_path, monkeypatch):
    """Ray made unimportable while the CLI runs (as if the extra were not installed):
    exit 2, the extra named, nothing written."""
    monkeypatch.setitem(sys.modules, "ray", None)
    proc = cli_in_process("build", "trac", "--out", tmp_path / "x", "--engine", "ray")
    monkeypatch.undo()
    assert proc.returncode == 2, proc.stderr
    assert "racbench[ray]" in proc.stderr and "Traceback" not in proc.stderr
    assert not list(tmp_path.iterdir())


# The module's Ray workers run this hook as they start (test-only: nothing of it is in
# racbench). While the file `order` reads "MODE WHERE MARKER", a worker kills itself (as
# the OS kills a process out of memory) when a job WHERE (`rows`: the making of a row, or
# `probe_job`, a preparing round's) is for config `second`: once (MODE `once`: the
# MARKER file says it was done) or every time (`always`); or (`record`) it writes each
# second-round probe share it is given to MARKER. Without the file, the jobs run as
# shipped. The builds it kills run in this process, in the module's Ray job, whose
# workers are started: a CLI process joining as a job of its own would start its own
# (a Python importing Ray and racbench each) besides those a killed worker costs.
def killer_hook(order: str):
    def setup():
        import os

        from racbench.export import jobs

        def kill(where, name):
            try:
                with open(order) as f:
                    mode, at, marker = f.read().split()
            except FileNotFoundError:
                return None, None
            if at != where:
                return None, None
            if name == "second" and mode != "record":
                try:
                    os.close(os.open(marker, os.O_CREAT | os.O_EXCL))
                except FileExistsError:
                    if mode == "always":
                        os.kill(os.getpid(), 9)
                else:
                    os.kill(os.getpid(), 9)
            return mode, marker

        generator, probe_job = jobs.generator, jobs.probe_job

        def killing_generator(name):
            kill("rows", name)
            return generator(name)

        def killing_probe_job(args):
            mode, marker = kill("probe_job", args[0])
            if mode == "record" and args[4] is not None and args[4][0] == "weighted":
                with open(marker, "a") as f:
                    f.write(f"{args[0]} {args[4][1]} {args[4][2]}\n")
            return probe_job(args)

        jobs.generator, jobs.probe_job = killing_generator, killing_probe_job

    return setup


@contextmanager
def killing(kill_order, marker, mode, where="rows"):
    """The module's Ray workers told to kill themselves (see killer_hook) until the
    block ends, whatever it raises."""
    kill_order.write_text(f"{mode} {where} {marker}")
    try:
        yield
    finally:
        kill_order.unlink()


def ray_cli_build(ray_address, recipe_file, out, *options):
    """The CLI's build in this process (click's runner), on the module's Ray instance."""
    return cli_in_process("build", recipe_file, "--out", out, *options, "--engine", "ray",
                          "--address", ray_address, "--quiet")


TWO_CONFIGS = """
name: two
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
"""


def test_a_ray_worker_killed_is_retried_and_a_build_past_retries_stops_naming_its_config(
        ray_address, kill_order, tmp_path, monkeypatch):
    """A Ray task whose worker is killed runs again (Ray's retries, as shipped) and the
    build's bytes are the local build's; a task killed every time stops the build with
    exit 75 and one message naming its config, keeping the finished one, and the rerun
    ends byte-identical too. The stopped build is given one Ray retry, not TASK_RETRIES:
    each try of the task killed every time costs a worker's start, and one retry spent
    shows the build stops past its retries as well as three do."""
    recipe_file = tmp_path / "two.yaml"
    recipe_file.write_text(TWO_CONFIGS)
    reference = tmp_path / "reference"
    racbench.build(load_recipe(str(recipe_file)), reference, workers=1, progress=False)

    out = tmp_path / "out"
    with killing(kill_order, tmp_path / "always.marker", "always"), monkeypatch.context() as m:
        m.setattr(ray_engine, "TASK_RETRIES", 1)
        stopped = ray_cli_build(ray_address, recipe_file, out)
    assert stopped.returncode == 75, stopped.stderr
    assert "a Ray worker was lost and Ray's retries ran out" in stopped.stderr
    assert "while building config 'second'" in stopped.stderr, stopped.stderr
    assert "1 of 2 configs are finished and kept" in stopped.stderr
    assert "Traceback" not in stopped.stderr
    partial = tmp_path / ".out.partial"
    assert sorted(p.name for p in partial.iterdir()) == [".state", "build.json", "first"]
    with killing(kill_order, tmp_path / "once.marker", "once"):  # shipped retries: killed
        resumed = ray_cli_build(ray_address, recipe_file, out)  # once, run again
    assert resumed.returncode == 0, resumed.stderr
    assert (tmp_path / "once.marker").exists(), "a worker was killed"
    assert folder_bytes(out) == folder_bytes(reference)


PREPARED_LAST = """
name: prepared
seed: 3
configs:
  - name: second
    family: applicability
    domain: gripper
    form: bool
    problems: {train: [p01], test: [p02]}
    splits: {train: 6, test: 4}
  - name: first
    task: projection
    objects: 4
    splits: {train: 20, validation: 10, test: 10}
"""


def test_a_ray_worker_lost_while_preparing_names_the_configs_and_a_rerun_probes_only_them(
        ray_address, kill_order, tmp_path, monkeypatch):
    """A worker lost for good (Ray's retries spent) in a preparing round (here the
    probes; the worlds made ahead and the joins with their checks go through the same
    batches) stops the build with exit 75 and a message naming the config it was
    preparing, not "while the build ran"; the probe of the other config (its run is
    probed first) is kept, and the rerun ends byte-identical to a clean local build.
    The stopped build is given one Ray retry, not TASK_RETRIES: its probes go in
    batches, each killed on every try, and each try costs a worker's start (the test
    above shows that a retry runs, with the shipped retries)."""
    recipe_file = tmp_path / "prepared.yaml"
    recipe_file.write_text(PREPARED_LAST)
    reference = tmp_path / "reference"
    racbench.build(load_recipe(str(recipe_file)), reference, workers=1, progress=False)
    partial = tmp_path / ".out.partial"
    for where in ("probe_job",):  # each round costs a build whose worker dies twice a batch
        with killing(kill_order, tmp_path / f"{where}.marker", "always", where), \
                monkeypatch.context() as m:
            m.setattr(ray_engine, "TASK_RETRIES", 1)
            stopped = ray_cli_build(ray_address, recipe_file, tmp_path / "out")
        assert stopped.returncode == 75, (where, stopped.stderr)
        assert "a Ray worker was lost and Ray's retries ran out" in stopped.stderr
        assert "while preparing config 'second':" in stopped.stderr, (where, stopped.stderr)
        assert "the probes of 1 of 2 configs are kept" in stopped.stderr, stopped.stderr
        assert "Traceback" not in stopped.stderr
        assert sorted(p.name.split(".")[0] for p in (partial / ".state").iterdir()
                      if p.is_file()) == ["first"], where
        assert not list(partial.glob("*/*.parquet")), "nothing is written before"
    # the rerun, through the API on the module's instance (its workers are up)
    racbench.build(load_recipe(str(recipe_file)), tmp_path / "out", engine="ray",
                   workers=2, progress=False)
    assert not partial.exists()
    assert folder_bytes(tmp_path / "out") == folder_bytes(reference)


WEIGHTED = "household_landmarks_mc"  # weighted options: seven worlds surveyed further


def test_a_ray_builds_second_probe_round_runs_as_jobs_of_its_own(ray_address, kill_order,
                                                                 tmp_path):
    """A config without option sets surveys some worlds further once its first probe
    round shows it: on Ray as on this machine, as probe jobs of their own (one config's
    slow surveys then spread over the workers), not inside its join; the same bytes."""
    reference = tmp_path / "reference"
    racbench.build(load_recipe("acp").select(WEIGHTED), reference, scale=SCALE, workers=1,
                   progress=False)
    with killing(kill_order, tmp_path / "weighted.log", "record", "probe_job"):
        built = ray_cli_build(ray_address, "acp", tmp_path / "out", "--configs", WEIGHTED,
                              "--scale", SCALE)
    assert built.returncode == 0, built.stderr
    shares = (tmp_path / "weighted.log").read_text().splitlines()
    assert len(shares) == 7 and all(line.startswith(f"{WEIGHTED} ") for line in shares), shares
    assert folder_bytes(tmp_path / "out") == folder_bytes(reference)
