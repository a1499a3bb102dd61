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
    # Ctrl-C is held back while the workers are forked: a KeyboardInterrupt inside
    # Pool() would leave the workers forked so far alive with no one to stop them (Pool's
    # own cleanup catches Exception only), holding the caller's stdout and stderr open
    # after it exits (seen once: a test reading the CLI's stderr waited for ever). A
    # Ctrl-C that came meanwhile lands once the pool is ours to terminate.
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    pool = None
    try:
        pool = mp.get_context("fork").Pool(workers, initializer=_ignore_sigint)
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        yield pool
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        if pool is not None:
            pool.terminate()
            pool.join()
