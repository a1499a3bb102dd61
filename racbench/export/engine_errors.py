"""What an engine refuses with (an unknown name, a missing extra, a cluster it cannot
reach), apart from the engines themselves so that each engine module can raise them."""

from __future__ import annotations

from racbench.errors import InputError
from racbench.text import sayer

say = sayer("cli", ("engines.j2",))


class EngineError(InputError):
    """An engine we cannot use: an unknown name, Ray not installed, a cluster we cannot
    reach."""


class MissingExtra(EngineError):
    """An optional feature whose packages are not installed."""


def missing_extra(feature: str, module: str, extra: str) -> MissingExtra:
    """The error for a feature whose package `module` is missing: names the extra."""
    return MissingExtra(say("missing_extra", feature=feature, module=module, extra=extra))
