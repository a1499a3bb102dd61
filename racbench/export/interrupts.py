"""Ctrl-C held back while work that must not be cut halfway runs.

A KeyboardInterrupt raised inside some code leaves it broken rather than stopped:
inside `multiprocessing.Pool()` it leaves the workers forked so far alive with no one
to stop them; inside the first import of a library with C extensions (matplotlib's
ft2font) it turns into `ImportError: initialization failed` and a traceback instead of
exit 130. Holding SIGINT for the moment such code runs makes the interrupt land right
after it, where the build's own handling (keep finished configs, exit 130) takes it.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def interrupts_held() -> Iterator[None]:
    """SIGINT held inside the block; one that came meanwhile is delivered when it ends.
    Only the main thread runs Python's signal handlers, so elsewhere this does nothing.

    Blocking SIGINT in this thread alone is not enough: the kernel then hands it to any
    other thread that does not block it (tqdm's monitor, a pool's handler threads), whose
    C handler still has this thread raise KeyboardInterrupt at its next bytecode. So the
    Python handler is also swapped for one that only notes the signal, and a noted one
    is raised again once the block ends, to whatever handler was there before."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted: list[int] = []
    before = signal.signal(signal.SIGINT, lambda signum, frame: noted.append(signum))
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        # (None: a handler not set from Python, which cannot be put back: Python's own)
        signal.signal(signal.SIGINT, signal.default_int_handler if before is None else before)
        if noted:
            signal.raise_signal(signal.SIGINT)
