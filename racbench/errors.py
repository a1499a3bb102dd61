"""The base of every request racbench refuses.

A user's mistake (a recipe field, a PDDL file, an impossible size, a path) is raised as a
subclass of `InputError` whose message names what was wrong and what is accepted. The
CLI prints that message alone and exits with code 2; Python callers catch one class.
This module imports nothing, so the CLI can name the class without loading the engine.
"""


class InputError(ValueError):
    """A request racbench refuses; the message says what is wrong and what is accepted."""


class GenerationError(InputError):
    """A request the generator cannot meet while making rows (e.g. more distinct rows
    than a world offers); found during a build, which then leaves nothing behind."""


class ProbeRefusal(GenerationError):
    """A probe made at a row (a stream's lazy row maker, racbench/tasks/rows.py) refused
    the config, as a probe before any row would have: the stream names task and level."""


class WorkerDied(RuntimeError):
    """A worker process ended while a build waited for its work (killed by the OS: out
    of memory, a segfault, `kill -9`). Not the user's mistake, so not an InputError: the
    CLI exits with its own code (75). `job` is the arguments of the job the worker was
    running (None if it was between jobs or the engine cannot tell); the build replaces
    the error with one naming the config it was building (`config`), or the configs a
    lost batch of preparing jobs covered (a tuple of names, on Ray)."""

    def __init__(self, message: str, job=None, config: str | tuple | None = None):
        super().__init__(message)
        self.job, self.config = job, config
