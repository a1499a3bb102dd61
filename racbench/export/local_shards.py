"""A local build's shards written by its forked workers, the driver only committing.

A shard of up to LOCAL_SHARD_ROWS rows (CHEAP_SHARD_ROWS where its rows are cheap) is
made and written whole by one worker (jobs.write_shard), as a Ray task writes it, so the
driver neither makes, nor deduplicates, nor converts to Parquet the rows of such shards
(on `acp` and `trac`, every shard: those were most of their serial share). A Ray task
waits for the shards of its config before it, whose problems its rows must not repeat; a
fork pool has no such waiting, so a worker writes its shard as if none came before, and
the driver checks what it sent back: a shard none of whose problems an earlier shard of
its config has is the one the build writes in order (a row the worker redrew repeated a
problem of its own shard, which the build redraws too); one that has such a problem
(rare: the splits of a config ask about different problems) is made again by the driver,
told the earlier shards, and written over. A larger shard's rows, and every shard's of a
run of too few shards to keep each worker busy with whole ones (a science task's few
slow trajectories), are made in chunks by the workers and the shard is written by the
driver (jobs.write_shard too), as before. Either way, the same rows in the same shards
as a build in one process, for any number of workers.
"""

from __future__ import annotations

from typing import Iterable, Iterator

from racbench.errors import WorkerDied
from racbench.export.jobs import GENERATORS, ShardDone, ShardJob, make_chunk, write_shard

# a shard of up to this many rows is one worker's job; a larger one is made in chunks
LOCAL_SHARD_ROWS = 2_000
# ... up to this many where its row maker says its rows are cheap (`cheap_rows`: a
# STRIPS world's, well under a millisecond and a few KB each): TRAC's splits of 3,000
# and 10,000 rows were made in chunks, sent back pickled and written by the driver
# (its CPU on `trac`: 8.9 s, 3.1 s with whole shards, of some 70 on a loaded machine)
CHEAP_SHARD_ROWS = 10_000
SHARDS_PER_WORKER = 4  # whole shards only where a run has this many a worker
# tasks given to the pool and not yet taken back, a worker: Pool.imap gives out every
# task at once and keeps every result until it is taken, so while this process wrote a
# large shard the workers' chunks for the next ones piled up here (bc-* configs: +250
# MiB)
AHEAD_PER_WORKER = 3


def shard_task(args: tuple):
    """A worker's job: ("shard", ShardJob) written whole, or ("chunk", make_chunk's
    arguments) rows of a large shard."""
    kind, job = args
    return write_shard(job) if kind == "shard" else make_chunk(job)


def whole_shard(job: ShardJob) -> bool:
    """Is the shard small enough for one worker to make and write whole (in a run of
    enough shards to keep the workers busy)? Up to LOCAL_SHARD_ROWS rows, or
    CHEAP_SHARD_ROWS where its row maker (in jobs.GENERATORS) says its rows are cheap."""
    cheap = getattr(GENERATORS.get(job.name), "cheap_rows", False)
    return len(job.codes) <= (CHEAP_SHARD_ROWS if cheap else LOCAL_SHARD_ROWS)


class LocalShards:
    """`write_shards(jobs)` on a fork pool of `workers` processes (None: in this
    process), yielding each shard's ShardDone in order; see the module's text. The
    forked workers find the row makers in jobs.GENERATORS, inherited."""

    writes_shards = True

    def __init__(self, pool, workers: int):
        self.pool, self.workers = pool, workers
        self.remade = 0  # shards the driver made again (a problem of an earlier shard)

    def write_shards(self, shards: Iterable[ShardJob]) -> Iterator[ShardDone]:
        try:
            yield from self._write(shards)
        except WorkerDied as exc:  # named by the config of the job the worker ran
            if exc.job is not None:
                kind, job = exc.job
                exc.config = job.name if kind == "shard" else job[0]
            raise

    def _write(self, shards: Iterable[ShardJob]) -> Iterator[ShardDone]:
        shards = list(shards)
        many = len(shards) >= SHARDS_PER_WORKER * self.workers

        def whole(job: ShardJob) -> bool:
            return many and whole_shard(job)

        tasks = [task for job in shards for task in
                 ([("shard", job)] if whole(job) else [("chunk", c) for c in job.chunks()])]
        results = iter(()) if self.pool is None else \
            self.pool.in_order(shard_task, tasks, AHEAD_PER_WORKER * self.workers)
        config, earlier, seen = None, [], set()
        for job in shards:
            if job.name != config:
                config, earlier, seen = job.name, [], set()
            if self.pool is None:
                done = write_shard(job, *earlier)
            elif whole(job):
                done = self._checked(job, results, earlier, seen)
            else:
                # each chunk taken from the pool as the writer reaches it, let go once written
                done = write_shard(job, *earlier, chunks=(next(results)
                                                          for _ in range(len(job.chunks()))))
            earlier.append(done)
            seen.update(done.keys)
            yield done

    def _checked(self, job: ShardJob, results: Iterator, earlier: list,
                 seen: set) -> ShardDone:
        """The worker's shard if it holds no problem of an earlier shard of its config,
        else the shard made again here, told them (which raises, naming the right row,
        if the rows run out)."""
        try:
            done = next(results)
        except WorkerDied:
            raise
        except Exception:
            if not earlier:  # the worker was told all there was: its error is the build's
                raise
            done = None
        if done is not None and seen.isdisjoint(done.keys):
            return done
        self.remade += 1
        return write_shard(job, *earlier)
