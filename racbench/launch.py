"""The console script's first lines: Ctrl-C is taken from here on, before the CLI's
imports (click, jinja2, the engines), which take a second on a loaded machine. Without
it a Ctrl-C then is a KeyboardInterrupt traceback raised from inside some import."""

from __future__ import annotations

import os
import signal

INTERRUPTED = 130  # the shell's code for a process ended by SIGINT


def interrupted_while_loading(signum=None, frame=None) -> None:
    """Exit 130 at once: nothing is written yet. Its one word is no template's: loading
    jinja2 in a signal handler, mid-import, could deadlock."""
    os.write(2, b"interrupted\n")
    os._exit(INTERRUPTED)


def hold_ctrl_c() -> None:
    signal.signal(signal.SIGINT, interrupted_while_loading)


def run() -> None:
    """`racbench ...`: hold Ctrl-C, then load and run the CLI."""
    hold_ctrl_c()
    from racbench.cli import run as cli_run

    cli_run()
