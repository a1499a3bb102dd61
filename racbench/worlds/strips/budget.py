"""Questions dropped because a search budget stopped their proof, counted per row.

An implicit world proves every answer or raises SearchBudgetExceeded (past
`limits.search_budget` states); the family or the world drops that question (or the
state it was to be asked in) and draws another, never guessing (tasks/base.py,
tasks/balance.py, world.py's states near the goal).
The card reports how many were dropped per config. A row is made by one process, start
to end, and its draws depend only on its seed, so the count a row carries is the same
whichever worker made it: `ConfigRows.row` clears the count before drawing and takes it
with the row.
"""

from __future__ import annotations

_dropped = 0


def note_dropped() -> None:
    """One question dropped for budget in this process."""
    global _dropped
    _dropped += 1


def take_dropped() -> int:
    """The questions dropped since the last call, and start counting again."""
    global _dropped
    count, _dropped = _dropped, 0
    return count
