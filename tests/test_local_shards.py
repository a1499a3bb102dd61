"""A local build's workers write its shards (export/local_shards.py), each not told the
problems of the shards before it: the driver checks, and a shard repeating one is
made again. Real builds of a real PDDL domain whose two problems (same text, two
files: one per split) ask the same few questions, so test rows repeat train ones
unless redrawn: the bytes and the refusals of two workers are those of one."""

import shutil
from pathlib import Path

import pytest

import racbench
from racbench.errors import InputError
from racbench.export.local_shards import SHARDS_PER_WORKER
from racbench.suites.recipe import parse_recipe

SWITCH = Path(__file__).parent / "data" / "switch"
# four configs of two splits: eight shards, enough for two workers to be given whole ones
# (local_shards.SHARDS_PER_WORKER); the first config's test split asks for `test` rows
CONFIG = """
  - name: switch{k}
    family: executability
    domain_file: {folder}/switch.pddl
    problems: {{train: [{folder}/two.pddl], test: [{folder}/twin.pddl]}}
    length: 1
    splits: {{train: 8, test: {test}}}
"""


def folder_bytes(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


@pytest.fixture()
def twins(tmp_path):
    shutil.copy(SWITCH / "switch.pddl", tmp_path / "switch.pddl")
    shutil.copy(SWITCH / "two.pddl", tmp_path / "two.pddl")
    shutil.copy(SWITCH / "two.pddl", tmp_path / "twin.pddl")
    assert SHARDS_PER_WORKER * 2 <= 8
    return lambda test: parse_recipe("name: twins\nseed: 3\nconfigs:" + "".join(
        CONFIG.format(k=k, folder=tmp_path, test=test if k == 0 else 6) for k in range(4)),
        "twins.yaml")


def test_a_shard_repeating_an_earlier_shards_problem_is_made_again(twins, tmp_path):
    """The test shard, written by a worker as if train had not been, would repeat train's
    problems (it does if the driver's check is left out); remade, it is the one-process
    build's, byte for byte."""
    one, two = tmp_path / "one", tmp_path / "two"
    racbench.build(twins(6), one, workers=1, progress=False)
    racbench.build(twins(6), two, workers=2, progress=False)
    assert folder_bytes(two) == folder_bytes(one)


def test_a_remade_shard_refuses_as_the_one_process_build_does(twins, tmp_path):
    """Rows running out past redrawing, seen only with train's problems (the worker alone
    may find enough): the driver's remake refuses with the one-process build's words,
    and nothing is left behind."""
    messages = []
    for workers in (1, 2):
        out = tmp_path / f"out{workers}"
        with pytest.raises(InputError) as refused:
            racbench.build(twins(12), out, workers=workers, progress=False)
        messages.append(str(refused.value))
        assert not out.exists() and not (tmp_path / f".out{workers}.partial").exists()
    assert messages[0] == messages[1]
    assert "config 'switch0': the test split asks for 12 rows" in messages[0]


def test_cheap_rows_shards_are_written_whole_by_workers():
    """TRAC's splits of 3,000 and 10,000 rows: its row maker says its rows are cheap, so
    a worker makes and writes each such shard whole (the driver wrote them from pickled
    chunks); a larger one, or a row maker that does not say so, is made in chunks as
    before."""
    from dataclasses import replace

    from racbench.export import jobs
    from racbench.export.local_shards import CHEAP_SHARD_ROWS, LOCAL_SHARD_ROWS, whole_shard
    from racbench.suites.recipe import load_recipe

    recipe = load_recipe("trac").select("ge3_projection")
    spec = recipe.configs[0]
    gen = spec.task.rows(spec.name, recipe.seed, spec.splits)
    assert gen.cheap_rows and CHEAP_SHARD_ROWS >= 10_000 > LOCAL_SHARD_ROWS
    job = jobs.ShardJob(spec.name, "test", 10_000, 0, 1, 0, list(range(10_000)), 500, "")
    saved = dict(jobs.GENERATORS)
    try:
        jobs.GENERATORS[spec.name] = gen
        assert whole_shard(job)
        assert not whole_shard(replace(job, codes=list(range(CHEAP_SHARD_ROWS + 1))))
        gold = load_recipe("science-gold").configs[0]  # the lab's gold trajectories
        jobs.GENERATORS[spec.name] = gold.task.rows(gold.name, 0, gold.splits)
        assert not whole_shard(job)  # its row maker says nothing of its rows: 2,000
        assert whole_shard(replace(job, codes=list(range(LOCAL_SHARD_ROWS))))
    finally:
        jobs.GENERATORS.clear()
        jobs.GENERATORS.update(saved)


def _started(args):
    """A task that says it started (a file named after it) and fails if told to."""
    folder, k = args
    (Path(folder) / str(k)).touch()
    if k == 5:
        raise ValueError("task 5")
    return k * k


def test_the_pool_runs_a_few_tasks_ahead_of_the_results_taken(tmp_path):
    """Results come in order, a task's error where its result is taken (the next still
    come), and no more than `ahead` tasks are given out past the last result taken:
    while the driver writes a shard, the workers' next chunks do not pile up in it (with
    Pool.imap all twenty tasks would have run during the wait)."""
    import time

    from racbench.export.pool import worker_pool
    with worker_pool(2) as pool:
        results = pool.in_order(_started, [(str(tmp_path), k) for k in range(20)], 3)
        assert next(results) == 0
        time.sleep(1.0)
        assert len(list(tmp_path.iterdir())) <= 1 + 3
        got = [next(results) for _ in range(4)]
        with pytest.raises(ValueError, match="task 5"):
            next(results)
        got += list(results)
    assert got == [k * k for k in range(1, 20) if k != 5]
    assert len(list(tmp_path.iterdir())) == 20
