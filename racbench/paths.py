"""Paths a user gives on the command line or in a recipe: those racbench cannot write
into its UTF-8 text are refused up front, in one line.

A path whose bytes are not UTF-8 reaches Python as a string with lone surrogates
(PEP 383). It opens and lists fine, but a problem file's name becomes a row's
`problem` column, an --out a line of output, a dataset's path a line of an export's
task file: each would fail half-way with a UnicodeEncodeError (and leave a `.partial`
folder behind). `check_utf8` refuses such a path before anything is written.
"""

from __future__ import annotations

import os
from pathlib import Path

from racbench.errors import InputError
from racbench.text import sayer

_say = sayer("cli", ("paths.j2",))


class PathError(InputError):
    """A path racbench cannot use."""


def shown(path: str | Path) -> str:
    """The path as printable text: bytes that are not UTF-8 as \\xNN escapes."""
    return str(os.fsencode(path))[2:-1].replace("\\\\", "\\")


def check_utf8(path: str | Path, what: str) -> None:
    """Refuse `path` (named `what` in the message: "--out", "problem file") if its
    bytes are not UTF-8."""
    try:
        str(path).encode("utf-8")
    except UnicodeEncodeError:
        raise PathError(_say("not_utf8", what=what, shown=shown(path))) from None
