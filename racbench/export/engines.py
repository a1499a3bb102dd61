"""Where a build's work runs: this machine's fork pool (`local`) or a Ray cluster (`ray`).

The build engine (build.py) plans the shards, commits each config and writes the card
whatever the engine; the workers make and write each shard (jobs.write_shard). In a
local build the driver also loads the worlds (forked workers share them) and checks
that no shard repeats a problem of an earlier one (local_shards.py); on Ray the
workers load their own worlds, probe, and write each shard once those before it are
written, deduplicated the same way
(engines differ in `forks` and in their pool's `writes_shards`). So the bytes of a
build depend on the recipe and seed only, not on the engine, the number of nodes or
the number of workers.

A job finds the row maker of its config (`GENERATORS` in jobs.py) by inheritance in a
forked local worker; on Ray, a worker is not a fork of the driver, so the engine ships
what makes them (`makers`: the config, seed, splits and probe result) once per run,
and each worker process makes a config's row maker the first time it needs it.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Iterator

from racbench.export.pool import worker_pool
from racbench.export.engine_errors import EngineError, missing_extra, say

ENGINES = ("local", "ray")
RAY_OPTION = "--engine ray"  # the option that needs the extra, as a user types it
class LocalEngine:
    """A fork pool of `workers` processes on this machine (none for one worker)."""

    name = "local"
    forks = True  # workers inherit this process's worlds and row makers

    def __init__(self, workers: int | None = None):
        self.workers = workers or os.cpu_count() or 1

    @contextmanager
    def pool(self, workers: int | None = None, makers: dict | None = None,
             worlds: str | None = None):
        """A pool with `imap(job, jobs, chunksize)`, or None: work in this process.
        `makers` and `worlds` are not needed: forked workers inherit the row makers and
        the worlds."""
        with worker_pool(workers or self.workers) as pool:
            yield pool

    def close(self) -> None:
        pass


def open_engine(name: str, workers: int | None = None, address: str | None = None):
    """The engine `name` ('local' or 'ray'), ready to run pools; raises EngineError
    (before anything is written) if it cannot be used."""
    if name not in ENGINES:
        raise EngineError(say("unknown_engine", name=name, engines=ENGINES))
    if name == "local":
        if address is not None:
            raise EngineError(say("address_without_ray"))
        return LocalEngine(workers)
    if address is None:
        # a Ray started for one build serves this machine alone: its node listens on
        # loopback (read when ray is first imported), not on the machine's network address
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    try:
        import ray  # noqa: F401  (an optional extra)
    except ImportError:
        raise missing_extra(RAY_OPTION, "ray", "ray") from None
    from racbench.export.ray_engine import RayEngine

    return RayEngine(workers, address)


@contextmanager
def engine_session(name: str, workers: int | None = None,
                   address: str | None = None) -> Iterator:
    engine = open_engine(name, workers, address)
    try:
        yield engine
    finally:
        engine.close()
