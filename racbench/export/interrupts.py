"""Ctrl-C held back while work that must not be cut halfway runs.

A KeyboardInterrupt raised inside some code leaves it broken rather than stopped:
inside `multiprocessing.Pool()` it leaves the workers forked so far alive with no one
to stop them; inside the first import of a library with C extensions (matplotlib's
ft2font) it turns into `ImportError: initialization failed` and a traceback instead of
exit 130. Blocking SIGINT for the moment such code runs makes the interrupt land right
after it, where the build's own handling (keep finished configs, exit 130) takes it.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def interrupts_held() -> Iterator[None]:
    """SIGINT blocked in this thread inside the block; one that came meanwhile is
    delivered when it ends. Only the main thread receives Python's signals, so
    elsewhere this does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
