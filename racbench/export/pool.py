"""Worker pools that Ctrl-C always stops and that notice a worker dying.

Ctrl-C at a terminal sends SIGINT to the whole process group. A worker interrupted while
it holds the pool's queue lock can leave `Pool.terminate` blocked for good (seen once in
19 tries), so workers ignore SIGINT: the parent alone receives it, raises
KeyboardInterrupt, and terminates them.

A worker killed by the OS (out of memory, a segfault, `kill -9`) takes its job's result
with it, and `Pool.imap` would wait for it forever (the pool forks a replacement and
goes on; one killed while it held a queue's lock stops the others too). So the pool's
`imap` and `imap_unordered` wait a moment at a time and, between waits, look for a
worker that has ended: any has (a pool's workers never end on their own while it
runs), so they raise WorkerDied, carrying the arguments of the job it was running
(each worker marks in shared memory the job it runs, by its number).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator

from racbench.errors import WorkerDied
from racbench.export.engine_errors import say

POLL = 0.2  # seconds between looks for a dead worker while waiting for a result
SLOTS_PER_WORKER = 4  # marks for the workers forked, replacements included
_MARKS: dict = {}  # in a worker: the pool's shared marks and this worker's slot


def _start_worker(marks, count) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with count.get_lock():
        slot = count.value
        count.value += 1
    _MARKS.update(marks=marks, slot=slot if 2 * slot + 1 < len(marks) else None)
    if _MARKS["slot"] is not None:
        marks[2 * slot], marks[2 * slot + 1] = os.getpid(), -1


class _Marked:
    """A pool's job, marking in shared memory which numbered job this worker runs."""

    def __init__(self, job: Callable):
        self.job = job

    def __call__(self, item):
        number, args = item
        marks, slot = _MARKS.get("marks"), _MARKS.get("slot")
        if slot is not None:
            marks[2 * slot + 1] = number
        try:
            return self.job(args)
        finally:
            if slot is not None:
                marks[2 * slot + 1] = -1


class WatchedPool:
    """A fork pool's imap and imap_unordered (results as the Pool's) that raise
    WorkerDied instead of waiting for ever once a worker has ended (see the module's
    text)."""

    def __init__(self, pool: mp.pool.Pool, marks, workers: int):
        self.pool, self.marks, self.workers = pool, marks, workers
        self.seen = {proc.pid: proc for proc in pool._pool}  # every worker forked

    def imap(self, job: Callable, jobs: Iterable, chunksize: int = 1) -> Iterator:
        return self._watched(self.pool.imap, job, jobs, chunksize)

    def imap_unordered(self, job: Callable, jobs: Iterable, chunksize: int = 1) -> Iterator:
        return self._watched(self.pool.imap_unordered, job, jobs, chunksize)

    def _watched(self, method, job: Callable, jobs: Iterable, chunksize: int) -> Iterator:
        jobs = list(jobs)
        return self._results(method(_Marked(job), enumerate(jobs), chunksize), jobs)

    def _results(self, results, jobs: list) -> Iterator:
        while True:
            try:
                yield results.next(timeout=POLL)
            except StopIteration:
                return
            except mp.TimeoutError:
                self.check(jobs)

    def check(self, jobs: list) -> None:
        """Raise WorkerDied if a worker of the pool has ended."""
        for proc in list(self.pool._pool):  # the live ones, replacements included
            self.seen.setdefault(proc.pid, proc)
        for pid, proc in sorted(self.seen.items()):
            code = proc.exitcode
            if code is None:
                continue
            number = next((self.marks[k + 1] for k in range(0, len(self.marks), 2)
                           if self.marks[k] == pid), -1)
            job = jobs[number] if 0 <= number < len(jobs) else None
            raise WorkerDied(_how(pid, code), job)


def _how(pid: int, code: int) -> str:
    """How a worker ended, in a few words (`code`: its exit code, or -signal)."""
    name = None
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
    return say("worker_ended", pid=pid, code=code, signal=name)


@contextmanager
def worker_pool(workers: int) -> Iterator[WatchedPool | None]:
    """A fork pool of `workers` processes, or None for one (work in this process).
    Forked workers inherit what the parent built before (worlds, caches)."""
    if workers <= 1:
        yield None
        return
    # Ctrl-C is held back while the workers are forked: a KeyboardInterrupt inside
    # Pool() would leave the workers forked so far alive with no one to stop them (Pool's
    # own cleanup catches Exception only), holding the caller's stdout and stderr open
    # after it exits (seen once: a test reading the CLI's stderr waited for ever). A
    # Ctrl-C that came meanwhile lands once the pool is ours to terminate.
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    pool = None
    try:
        context = mp.get_context("fork")
        marks = context.Array("q", 2 * SLOTS_PER_WORKER * workers, lock=False)
        count = context.Value("i", 0)
        pool = context.Pool(workers, initializer=_start_worker, initargs=(marks, count))
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        yield WatchedPool(pool, marks, workers)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        if pool is not None:
            pool.terminate()
            pool.join()
