"""Worker pools that Ctrl-C always stops and that notice a worker dying.

Ctrl-C at a terminal sends SIGINT to the whole process group. A worker interrupted while
it holds the pool's queue lock can leave `Pool.terminate` blocked for good (seen once in
19 tries), so workers ignore SIGINT: the parent alone receives it, raises
KeyboardInterrupt, and kills them, the pool abandoned (`_abandon`: terminate can still
wait for ever on what a worker stopped mid-result left).

A worker killed by the OS (out of memory, a segfault, `kill -9`) takes its job's result
with it, and `Pool.imap` would wait for it forever (the pool forks a replacement and
goes on; one killed while it held a queue's lock stops the others too). So the pool's
`imap`, `imap_unordered` and `in_order` wait a moment at a time and, between waits, look for a
worker that has ended: any has (a pool's workers never end on their own while it
runs), so they raise WorkerDied, carrying the arguments of the job it was running
(each worker marks in shared memory the job it runs, by its number).
"""

from __future__ import annotations

import itertools
import multiprocessing as mp
import os
import signal
import time
from collections import deque
from contextlib import contextmanager
from typing import Callable, Iterable, Iterator

from racbench.errors import WorkerDied
from racbench.export.engine_errors import say
from racbench.export.interrupts import interrupts_held

POLL = 0.2  # seconds between looks for a dead worker while waiting for a result
WIND_DOWN = 2.0  # seconds an abandoned pool's threads are given to end (milliseconds, as a rule)
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

    def in_order(self, job: Callable, jobs: Iterable, ahead: int) -> Iterator:
        """`job` over `jobs`, results in order as imap's, with at most `ahead` jobs given
        out and not yet taken: imap gives out every job at once and keeps every result
        until it is taken, so results taken late pile up in this process."""
        jobs = list(jobs)
        return _InOrder(self, _Marked(job), jobs, ahead)

    def _watched(self, method, job: Callable, jobs: Iterable, chunksize: int) -> Iterator:
        jobs = list(jobs)
        results = method(_Marked(job), enumerate(jobs), chunksize)
        return _Watched(lambda: results.next(timeout=POLL), lambda: self.check(jobs))

    def ended(self) -> bool:
        """Has a worker of the pool ended?"""
        for proc in list(self.pool._pool):  # the live ones, replacements included
            self.seen.setdefault(proc.pid, proc)
        return any(proc.exitcode is not None for proc in self.seen.values())

    def check(self, jobs: list) -> None:
        """Raise WorkerDied if a worker of the pool has ended."""
        self.ended()
        for pid, proc in sorted(self.seen.items()):
            code = proc.exitcode
            if code is None:
                continue
            number = next((self.marks[k + 1] for k in range(0, len(self.marks), 2)
                           if self.marks[k] == pid), -1)
            job = jobs[number] if 0 <= number < len(jobs) else None
            raise WorkerDied(_how(pid, code), job)


class _Watched:
    """Results taken by `take` (which times out after POLL seconds), looking for a dead
    worker (`check`) between tries. A job's error is raised where its result is taken,
    and the next results still come (as from Pool.imap's own iterator)."""

    def __init__(self, take: Callable, check: Callable):
        self.take, self.check = take, check

    def __iter__(self):
        return self

    def __next__(self):
        while True:
            try:
                return self.take()
            except mp.TimeoutError:
                self.check()


class _InOrder(_Watched):
    """WatchedPool.in_order's results: jobs given to the pool `ahead` at a time as the
    results are taken (the workers go on while one is waited for)."""

    def __init__(self, watched: WatchedPool, marked: _Marked, jobs: list, ahead: int):
        self.pool, self.marked, self.given = watched.pool, marked, iter(enumerate(jobs))
        self.ahead, self.pending = max(1, ahead), deque()
        self._fill()
        super().__init__(self._take, lambda: watched.check(jobs))
        self.result = None

    def _fill(self) -> None:
        for item in itertools.islice(self.given, self.ahead - len(self.pending)):
            self.pending.append(self.pool.apply_async(self.marked, (item,)))

    def _take(self):
        if self.result is None:
            if not self.pending:
                raise StopIteration
            self.result = self.pending.popleft()
            self._fill()
        self.result.wait(POLL)
        if not self.result.ready():
            raise mp.TimeoutError  # _Watched looks for a dead worker, then asks again
        result, self.result = self.result, None  # taken, even if it raises the job's error
        return result.get()


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
    pool = watched = None
    try:
        with interrupts_held():
            context = mp.get_context("fork")
            marks = context.Array("q", 2 * SLOTS_PER_WORKER * workers, lock=False)
            count = context.Value("i", 0)
            pool = context.Pool(workers, initializer=_start_worker, initargs=(marks, count))
        watched = WatchedPool(pool, marks, workers)
        yield watched
    except BaseException:
        # Ctrl-C, a refusal or a dead worker, with jobs perhaps still out: terminate
        # joins the pool's threads, which what it stops mid-way can leave waiting for
        # ever (a CI run once saw a build never exit after Ctrl-C; see _abandon)
        if pool is not None:
            _abandon(pool)
        raise
    else:
        if watched.ended():
            _abandon(pool)
        else:  # every result taken: the workers wait idle for their next job
            pool.terminate()
            pool.join()


def _abandon(pool: mp.pool.Pool) -> None:
    """Close a pool left mid-work or one of whose workers was killed, without
    Pool.terminate, which can wait for ever on what a stopped worker left: an idle
    worker waits for its next job holding the job queue's read lock, which terminate
    takes first; one stopped while sending a result leaves its message half-written,
    which the pool's result thread, joined by terminate, waits for the rest of. So: no
    worker is forked again, every worker is killed, the pool's cleanup (which exit
    would run too) is called off, and its threads are ended (_wind_down)."""
    pool._worker_handler._state = mp.pool.TERMINATE  # no replacements forked from now
    pool._change_notifier.put(None)  # wakes the worker handler, which then ends
    pool._worker_handler.join()
    for proc in list(pool._pool):
        if proc.exitcode is None:
            proc.kill()
        proc.join()
    pool._terminate.cancel()
    pool._state = mp.pool.TERMINATE
    _wind_down(pool)


def _wind_down(pool: mp.pool.Pool) -> None:
    """End an abandoned pool's task and result threads and close its pipes, its workers
    gone: left waiting, each abandoned pool would keep a thread and ten file descriptors
    for as long as the process lives (a long-lived one building again after an error).
    The task thread, stopped, may wait to hand a job to a worker that is gone (the job
    pipe full: its bytes are read off here and dropped) or on the result queue's write
    lock, held by a worker killed while sending (released here, whose holder is gone);
    the result thread then ends where its pipe does (the last writer closed). A thread
    that is still waiting after WIND_DOWN seconds is left as before, with its pipes."""
    tasks, results = pool._task_handler, pool._result_handler
    tasks._state = results._state = mp.pool.TERMINATE
    jobs = pool._inqueue._reader.fileno()
    os.set_blocking(jobs, False)
    start = time.monotonic()
    released = False
    while tasks.is_alive() and time.monotonic() - start < WIND_DOWN:
        try:
            while os.read(jobs, 1 << 16):
                pass
        except BlockingIOError:
            pass
        tasks.join(0.02)
        if tasks.is_alive() and not released and time.monotonic() - start > 0.2:
            released = True
            try:
                pool._outqueue._wlock.release()
            except ValueError:  # not held
                pass
    if tasks.is_alive():
        return
    pool._outqueue._writer.close()
    results.join(max(0.0, WIND_DOWN - (time.monotonic() - start)))
    if results.is_alive():
        return
    for queue in (pool._inqueue, pool._outqueue, pool._change_notifier):
        queue._reader.close()
        queue._writer.close()
