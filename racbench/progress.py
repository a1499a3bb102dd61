"""Progress bars for every long phase (explore, prepare, survey, rows, audit, verify).

Bars go to stderr and only when it is a terminal, so logs and captured output keep
one-line error messages; `--quiet` turns them off everywhere.
"""

from __future__ import annotations

from tqdm import tqdm


def progress_bar(iterable=None, *, enabled: bool, **options) -> tqdm:
    """A tqdm bar that shows on a terminal unless `enabled` is False."""
    return tqdm(iterable, disable=None if enabled else True, **options)
