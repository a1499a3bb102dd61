"""A config's checks before any row is written, wherever they run: the row maker made
from its probe gives what its splits ask and draws a first row of each; errors raised
while preparing a config name it. A local build runs them in its driver, a Ray build
in its workers (export/remote_prepare.py)."""

from __future__ import annotations

from contextlib import contextmanager

from racbench.errors import InputError
from racbench.splits.strata import position_codes
from racbench.suites.recipe import ConfigSpec
from racbench.text import sayer

_say = sayer("cli", ("generation.j2", "build.j2"))


class BuildError(InputError):
    """A build request we refuse before writing anything."""


def checked(spec: ConfigSpec, seed: int, probed):
    """The config's row maker, once it is known to give the rows its splits ask for
    (as far as its probe can tell) and to draw a first row of each split."""
    gen = spec.task.rows(spec.name, seed, tuple(spec.splits), probed)
    for split, wanted in spec.splits.items():
        if wanted > gen.capacity(split):
            raise BuildError(_say("capacity", config=spec.name, split=split,
                                  wanted=wanted, offered=int(gen.capacity(split))))
    for split, wanted in spec.splits.items():  # a row maker refusing its problems
        gen.row(split, 0, position_codes(seed, spec.name, split, wanted)[0])
    return gen


@contextmanager
def naming(config: str):
    """An InputError raised inside names `config`, if its message does not already."""
    try:
        yield
    except InputError as exc:
        raise named(exc, config) from None


def named(exc: InputError, config: str) -> InputError:
    if f"'{config}'" in str(exc):
        return exc
    return BuildError(_say("config_refused", config=config, reason=str(exc)))


