"""The Ray engine: a build's jobs as Ray tasks, on this machine or on a cluster.

Imported only for `--engine ray` (Ray is the optional extra `racbench[ray]`). The
workers do the work: they probe and check the configs (build.prepare's rounds, see
remote_prepare.py), make the rows, and write each shard (jobs.write_shard) into the
build's unfinished folder, which every node must reach at the same path; the driver
plans the shards, commits each config once its shards are written, and has a worker
write the card. A large shard's task gets its chunks' rows through the object store, a
run of small ones makes its own (jobs.write_shard_run), each told the problem keys of
its config's shards before it; it redraws a repeat as a local build's driver does, so
a Ray build writes the bytes a local one does on any number of nodes. Ray costs the
driver about a millisecond a task, its share of the CPU: the tasks are few and large
(ROWS_PER_TASK, remote_prepare.BATCHES_PER_WORKER), and TASKS counts them.

Each node needs racbench (the same version) installed: a task names the build's
functions by module. A worker process is not a fork of the driver, so the row makers'
ingredients (`makers`: each config's task, seed, splits and probe result) go to the
object store once per run of configs, and a worker makes a config's row maker the first
time one of its jobs lands there (jobs.generator), keeping it (and the worlds it
loaded) for every later task of that pool; a new pool lets them go. A world's state
space is enumerated once a build, not once a worker: a run's worlds are made first, a
job each (jobs.warm_job, as a local build's workers make them), and kept in the build's
state folder (`.state/spaces` of the unfinished folder, which every node reaches), from
which every worker loading one reads it back (world.keep_spaces_in): reading acp's
spaces back costs a thirtieth of enumerating them.

A task whose worker dies (the OS killed it out of memory, a crash) is run again, up to
TASK_RETRIES times: its rows and its shard's bytes depend on its arguments only, and a
shard is written whole; past them the build stops with WorkerDied naming the config.
"""

from __future__ import annotations

import dataclasses
import gc
import socket
import uuid
from collections import Counter, deque
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator

from racbench.export import jobs
from racbench.errors import WorkerDied
from racbench.export.engine_errors import EngineError, say
from racbench.tasks.rows import release_worlds
from racbench.worlds.strips import limits
from racbench.worlds.strips.world import keep_spaces_in

def _ray():
    """Ray, imported when a Ray build runs (the optional extra `racbench[ray]`)."""
    import ray
    import ray.exceptions

    return ray


IN_FLIGHT_PER_WORKER = 3  # tasks queued per worker: enough to keep them busy, few results held
# Rows a task makes at least: Ray costs the driver about 1.3 ms a task, so a config's
# shards of up to this many rows are made by their write task, together up to this
# many, and a larger one's chunks are no smaller than this whatever the number of workers (configs run side by side keep them
# busy). Where the rows are cut never changes the bytes.
ROWS_PER_TASK = 256
TASK_RETRIES = 3  # runs of a task again after its worker died (never after its own error)
_WORKER_STATE: dict = {"worlds": None, "makers": None, "gc": False}
TASKS: Counter = Counter()  # tasks submitted by this process, by job (what the driver pays for)


def _install(makers_box: list) -> None:
    """In a Ray worker: make the pool's row makers available to jobs.generator. The
    worlds loaded for one run of configs (its probes, then its rows: one token) are kept
    from pool to pool of that run, and let go when a pool of another run comes."""
    ray = _ray()
    if not _WORKER_STATE["gc"]:
        gc.set_threshold(jobs.GC_EVERY, *gc.get_threshold()[1:])
        _WORKER_STATE["gc"] = True
    worlds, ref, spaces = makers_box  # the pool's worlds token, its makers' reference
    keep_spaces_in(spaces)  # (or None), the build's folder of kept state spaces (or None)
    key = None if ref is None else ref.hex()
    if _WORKER_STATE["worlds"] != worlds:
        if _WORKER_STATE["worlds"] is not None:  # another run's worlds
            for task in {type(t): t for t, *_ in jobs.MAKERS.values()}.values():
                task.release()  # once per kind: a release lets go of all its kind's worlds
            release_worlds()
        _WORKER_STATE["worlds"], _WORKER_STATE["makers"] = worlds, False
    if _WORKER_STATE["makers"] == key:
        return
    jobs.GENERATORS.clear()
    jobs.MAKERS.clear()
    if ref is not None:
        jobs.MAKERS.update(ray.get(ref))
    _WORKER_STATE["makers"] = key


def _run(job: Callable, makers_box: list, args, in_force: limits.Limits, *inputs):
    """A build job in a Ray worker. The makers' reference travels in a list so that Ray
    hands it over unresolved: it is fetched once per worker and run, not once per task.
    The driver's PDDL limits travel with every task: a Ray worker is not a fork, and
    without them it would enumerate (or refuse) problems by the defaults instead.
    `inputs` (other tasks' results, which Ray resolves before the task starts) follow
    `args` (jobs.write_shard's chunks and earlier shards)."""
    limits.set_limits(**dataclasses.asdict(in_force))
    _install(makers_box)
    return job(args, *inputs)


class RayPool:
    """`imap(job, jobs)` over Ray tasks, results in job order, at most a few tasks per
    worker queued ahead of the one the driver waits for; and `write_shards(jobs)`, whose
    tasks write the shards themselves (writes_shards)."""

    writes_shards = True

    def __init__(self, remote, workers: int, makers_ref, worlds: str,
                 spaces: str | None = None):
        self.remote, self.workers = remote, workers
        self.box = [worlds, makers_ref, spaces]  # see _install
        self.limits = limits.current()  # those of the build that opened this pool
        self.pending: deque = deque()
        self.inputs: deque = deque()  # the chunk tasks of the shards pending

    def imap(self, job: Callable, jobs: Iterable, chunksize: int = 1) -> Iterator:
        window = max(2, IN_FLIGHT_PER_WORKER * self.workers)
        pending = self.pending
        for args in jobs:
            pending.append(self._submit(job, args))
            if len(pending) >= window:
                yield _result(pending.popleft())
        while pending:
            yield _result(pending.popleft())

    def write_shards(self, shards: Iterable) -> Iterator:
        """Each of `shards` (jobs.ShardJob, a config's in order) written by a Ray task:
        a large shard by jobs.write_shard from the results of its chunk tasks, which go
        from worker to worker through Ray's object store, never through this process;
        a run of a config's small shards by one task (jobs.write_shard_run) that makes
        their rows itself. A task waits for the shards of its config before it (their
        problems are deduplicated against) without holding a worker: Ray starts it once
        they are written. Yields their jobs.ShardDone in order, with a few tasks a
        worker in flight."""
        window = max(2, IN_FLIGHT_PER_WORKER * self.workers)
        pending, in_flight = self.pending, 0
        config, earlier, owner = None, [], {}  # owner: each write task's config
        for unit in _units(shards):
            if unit[0].name != config:
                config, earlier = unit[0].name, []
            chunks = [self._submit(jobs.make_chunk, args) for args in _task_chunks(unit)]
            if len(unit) == 1:
                ref = self._submit(jobs.write_shard, unit[0], *chunks, *earlier)
            else:
                ref = self._submit(jobs.write_shard_run, unit, *earlier)
            earlier.append(ref)
            pending.append(ref)
            owner[ref] = config
            self.inputs.append(chunks)  # for cancel()
            in_flight += len(chunks) + 1
            while in_flight > window and len(pending) > 1:  # the last unit's go on
                in_flight -= len(self.inputs.popleft()) + 1
                ref = pending.popleft()
                yield from _done(_result(ref, owner.pop(ref)))
        while pending:
            self.inputs.popleft()
            ref = pending.popleft()
            yield from _done(_result(ref, owner.pop(ref)))

    def _submit(self, job: Callable, args, *inputs):
        TASKS[job.__name__] += 1
        return self.remote.remote(job, self.box, args, self.limits, *inputs)

    def cancel(self) -> None:
        ray = _ray()
        for ref in [*self.pending, *(r for refs in self.inputs for r in refs)]:
            ray.cancel(ref, force=True)
        self.pending.clear()
        self.inputs.clear()


def _units(shards: Iterable) -> Iterator[list]:
    """`shards` in the runs one task writes: a large shard (over ROWS_PER_TASK rows)
    alone, consecutive small shards of a config together until they reach
    ROWS_PER_TASK rows."""
    run: list = []
    for job in shards:
        if run and (job.name != run[0].name or len(job.codes) > ROWS_PER_TASK or
                    sum(len(one.codes) for one in run) >= ROWS_PER_TASK):
            yield run
            run = []
        run.append(job)
    if run:
        yield run


def _task_chunks(unit: list) -> list[tuple]:
    """The make_chunk jobs of a unit's rows on Ray: none for small shards (their write
    task makes them), else chunks of at least ROWS_PER_TASK rows."""
    job = unit[0]
    if len(unit) > 1 or len(job.codes) <= ROWS_PER_TASK:
        return []
    return dataclasses.replace(job, size=max(job.size, ROWS_PER_TASK)).chunks()


def _done(result) -> tuple:
    """A write task's ShardDone, or a run's."""
    return (result,) if isinstance(result, jobs.ShardDone) else result


def _result(ref, config: str | None = None):
    """A task's result; a task's own exception (a GenerationError...) is raised as itself,
    not wrapped in Ray's traceback; a task whose worker (or node, or result) was lost
    once Ray's retries (TASK_RETRIES) were spent as WorkerDied, naming `config`."""
    ray = _ray()
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        cause = getattr(exc, "cause", None)
        if isinstance(cause, Exception):
            raise cause from None
        raise
    except _lost(ray) as exc:
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise WorkerDied(say("ray_worker_lost", reason=reason), None, config) from None


def _lost(ray) -> tuple:
    """What ray.get raises for a task lost with its worker, not for the task's error."""
    return tuple(getattr(ray.exceptions, name) for name in (
        "WorkerCrashedError", "NodeDiedError", "OutOfMemoryError", "ObjectLostError",
        "LocalRayletDiedError") if hasattr(ray.exceptions, name))


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Refuse at once an --address where no server answers (Ray itself retries for
    minutes): `auto`, or host:port, optionally after ray://."""
    if address == "auto":
        return
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host or not port.isdigit():
        raise EngineError(say("ray_unreachable", address=address, reason=say("not_host_port")))
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        raise EngineError(say("ray_unreachable", address=address,
                               reason=exc.strerror or type(exc).__name__)) from None


class RayEngine:
    """Ray tasks on the cluster at `address`, or on a Ray instance started here (with
    `workers` CPUs; all cores if None) and shut down at the end. A Ray already
    initialised in this process (a user's notebook) is used as it is and left running."""

    name = "ray"
    forks = False  # workers load their own worlds: this process prepares nothing itself

    def __init__(self, workers: int | None = None, address: str | None = None):
        ray = _ray()
        self.started = False
        if address is not None:
            _check_reachable(address)
        if not ray.is_initialized():
            options = dict(include_dashboard=False, log_to_driver=False,
                           configure_logging=False)
            try:
                if address is not None:
                    ray.init(address=address, **options)
                else:
                    ray.init(num_cpus=workers, **options)
            except (ConnectionError, ValueError, RuntimeError) as exc:
                raise EngineError(say("ray_unreachable", address=address or "",
                                       reason=str(exc).splitlines()[0] if str(exc) else
                                       type(exc).__name__)) from None
            self.started = True
        cpus = int(ray.cluster_resources().get("CPU", 1)) or 1
        self.workers = workers or cpus
        # a task whose worker dies (out of memory, a crash) runs again: its rows and its
        # shard's bytes depend on its arguments alone, and a shard is written whole
        # (renamed into place), so a retry writes the same file
        self.remote = ray.remote(num_cpus=1, max_retries=TASK_RETRIES)(_run)
        self.session = uuid.uuid4().hex  # this build's, for the pools' worlds tokens
        # the folder the workers keep the state spaces they enumerate in, for each other
        # to read back (set by the build: in its unfinished folder, which every node
        # reaches); None: each worker enumerates every world it loads
        self.spaces: str | None = None

    @contextmanager
    def pool(self, workers: int | None = None, makers: dict | None = None,
             worlds: str | None = None):
        """A RayPool; `worlds` names the run of configs whose worlds its jobs load (pools
        of the same run in this build share them in each worker), None for its own."""
        ref = None if makers is None else _ray().put(makers)
        token = f"{self.session}:{uuid.uuid4().hex if worlds is None else worlds}"
        pool = RayPool(self.remote, workers or self.workers, ref, token, self.spaces)
        try:
            yield pool
        finally:
            pool.cancel()
            del ref

    def close(self) -> None:
        if self.started:
            _ray().shutdown()
            self.started = False
