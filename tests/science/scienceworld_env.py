"""ScienceWorld itself for the reference tests, without the valid actions its step() lists.

ScienceWorld's Python step() asks the JVM for every valid action-object combination after
each step (some 600-2,900 strings, read back one py4j call a string) and returns them as
info["valid"]. No reference test reads them, and they were about two thirds of these
files' time. The env below plays, scores and describes exactly as ScienceWorld's, step by
step; only info["valid"] is not fetched, and reading it fails, saying so.
"""

# a test helper, not a test module: pytest collects only test_*.py

from __future__ import annotations

import subprocess
from collections.abc import Sequence


class NotFetched(Sequence):
    """info["valid"] of a step of reference_env: any use of it fails, naming the way to the
    list (it must be fetched at the step it belongs to, before the next)."""

    def _refuse(self, *_):
        raise AssertionError("reference_env does not fetch ScienceWorld's valid actions at each "
                             "step (tests/science/scienceworld_env.py): call "
                             "env.valid_actions() right after the step")

    __getitem__ = __len__ = __iter__ = __contains__ = __eq__ = __bool__ = _refuse
    __hash__ = None


def reference_env(step_limit: int):
    """A ScienceWorldEnv (a JVM of its own) whose steps leave info["valid"] unfetched;
    env.valid_actions() still lists them."""
    import scienceworld

    env = scienceworld.ScienceWorldEnv("", envStepLimit=step_limit)
    env.valid_actions = env.get_valid_action_object_combinations
    env.get_valid_action_object_combinations = NotFetched
    env.close = _close_fully(env)
    return env


def _close_fully(env):
    """ScienceWorldEnv.close() stops the JVM but leaves its Java process's pipes open and its
    temporary folder to the garbage collector, whose ResourceWarnings then fall in whichever
    test runs next on the same worker (a test under strict warnings failed in CI for it).
    This close does what ScienceWorld's does, then waits for the JVM, closes the pipes and
    removes the folder; a second call (ScienceWorldEnv.__del__ calls close) does nothing."""
    own_close = env.close

    def close():
        if getattr(env, "_closed_fully", False):
            return
        env._closed_fully = True
        own_close()
        java = env._gateway.java_process
        try:
            java.wait(timeout=30)
        except subprocess.TimeoutExpired:
            java.kill()
            java.wait()
        for pipe in (java.stdin, java.stdout, java.stderr):
            if pipe is not None:
                pipe.close()
        env._obj_tree_tempdir.cleanup()

    return close
