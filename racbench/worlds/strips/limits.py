"""How big PDDL input may get before racbench refuses it.

A file larger than `max_pddl_mb` megabytes (10**6 bytes) is refused before it is read
into any structure, and grounding stops once a problem needs more than
`max_ground_actions` ground actions, more than as many reachable fluent atoms, or more
than CANDIDATES_PER_GROUND_ACTION times as many candidate bindings. Either way the run
ends with a `LimitExceeded` (a PDDLError, so exit code 2 on the command line) whose
message names the command-line flag that raises the limit. A problem with more than
`max_enumerated_states` reachable states is not refused: its families answer by search
instead of by enumerating its states (worlds/strips/world.py), and a search there may
store up to `search_budget` states before its question is dropped and drawn again
(counted in the card, budget.py).

The limits are process-wide; worker processes forked after a change inherit it:

    from racbench.worlds.strips import limits
    limits.set_limits(max_pddl_mb=50, max_ground_actions=200_000)  # returns the old ones
    with limits.overridden(max_ground_actions=1_000):  # only inside the block
        ...
    limits.current()  # the Limits in force

Values must be positive (ValueError otherwise); None leaves a limit unchanged, so
optional command-line flags can be passed straight through.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, fields, replace
from typing import Iterator

from racbench.text import sayer
from racbench.worlds.strips.sexpr import PDDLError

_say = sayer("cli", ("pddl.j2",))

MB = 1_000_000
CANDIDATES_PER_GROUND_ACTION = 20  # join and product work allowed per allowed ground action
FLAGS = {"max_pddl_mb": "--max-pddl-mb", "max_ground_actions": "--max-ground-actions",
         "max_enumerated_states": "--max-enumerated-states", "search_budget": "--search-budget"}


class LimitExceeded(PDDLError):
    """Input beyond a size limit; the message names the flag that raises it."""


@dataclass(frozen=True)
class Limits:
    max_pddl_mb: float = 10.0  # size of one domain or problem file
    max_ground_actions: int = 50_000  # ground actions (and fluent atoms) of one problem
    max_enumerated_states: int = 200_000  # beyond: answered by search, not enumeration
    search_budget: int = 20_000  # states one search of an implicit world may store

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                raise ValueError(_say("limit_not_positive", name=f.name, flag=FLAGS[f.name],
                                      value=repr(value)))
        for name in ("max_ground_actions", "max_enumerated_states", "search_budget"):
            if not isinstance(getattr(self, name), int):
                raise ValueError(_say("limit_not_integer", name=name, flag=FLAGS[name],
                                      value=repr(getattr(self, name))))

    @property
    def max_pddl_bytes(self) -> int:
        return int(self.max_pddl_mb * MB)

    @property
    def max_candidates(self) -> int:
        return self.max_ground_actions * CANDIDATES_PER_GROUND_ACTION


_current = Limits()


def current() -> Limits:
    return _current


def set_limits(max_pddl_mb: float | None = None, max_ground_actions: int | None = None,
               max_enumerated_states: int | None = None,
               search_budget: int | None = None) -> Limits:
    """Change the limits of this process (and of workers forked later); returns the
    previous ones."""
    global _current
    previous = _current
    changes = {k: v for k, v in (("max_pddl_mb", max_pddl_mb),
                                 ("max_ground_actions", max_ground_actions),
                                 ("max_enumerated_states", max_enumerated_states),
                                 ("search_budget", search_budget))
               if v is not None}
    _current = replace(_current, **changes)
    return previous


@contextmanager
def overridden(max_pddl_mb: float | None = None, max_ground_actions: int | None = None,
               max_enumerated_states: int | None = None,
               search_budget: int | None = None) -> Iterator[Limits]:
    """The limits changed inside a `with` block, restored after it."""
    global _current
    previous = set_limits(max_pddl_mb, max_ground_actions, max_enumerated_states,
                          search_budget)
    try:
        yield _current
    finally:
        _current = previous
