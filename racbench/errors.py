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
