"""What a verification found: per-row checks, mismatches by row id, the summary
the command prints, and the errors that stop it (exit code 2)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from racbench.checks.verify.words import say
from racbench.errors import InputError


class NotADataset(InputError):
    """The folder (or a requested config) is not a racbench dataset."""


class EngineMissing(InputError):
    """A required verification engine is not installed."""


class Skip(Exception):
    """A claim that cannot be checked here (no Fast Downward, a timeout)."""


class Unchecked(Exception):
    """A row the independent engines could not be run on (they failed, not the row):
    reported with its reason, never as a mismatch."""


@dataclass
class RowCheck:
    """Outcome for one row: ``checked`` names the claims that were re-derived and agree
    or not; ``message`` says what differs (empty when ``ok``)."""

    ok: bool
    checked: list[str]
    message: str = ""
    skipped: list[str] = field(default_factory=list)
    unchecked: str = ""  # why the engines could not be run on the row at all
    engines: list[str] = field(default_factory=list)  # the engines that answered


@dataclass
class Mismatch:
    config: str
    split: str
    row_id: str
    message: str

    def __str__(self) -> str:
        return say("mismatch", config=self.config, split=self.split, row_id=self.row_id,
                   message=self.message)


#: Exit codes of ``racbench verify`` (2, bad input, is racbench.errors' for every command).
EXIT_OK = 0
EXIT_MISMATCH = 1
EXIT_UNCHECKED = 3


@dataclass
class VerifyReport:
    root: Path
    rows: Counter = field(default_factory=Counter)        # config -> rows verified
    checked: Counter = field(default_factory=Counter)     # claim -> rows checking it
    skipped: Counter = field(default_factory=Counter)     # claim (reason) -> rows
    unchecked: Counter = field(default_factory=Counter)   # reason -> rows no engine ran on
    engines: Counter = field(default_factory=Counter)     # engine -> rows it answered
    mismatches: list[Mismatch] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    optimal: bool = False                                 # Fast Downward checks ran
    require_checked: bool = False                         # an unchecked row fails the run
    row_lines: list[str] = field(default_factory=list)    # per row: the engines (per_row)

    @property
    def total(self) -> int:
        return sum(self.rows.values())

    @property
    def unchecked_rows(self) -> int:
        return sum(self.unchecked.values())

    @property
    def checked_rows(self) -> int:
        return self.total - self.unchecked_rows

    @property
    def ok(self) -> bool:
        """No row disagrees, and some row was checked (a run whose engines failed on
        every row proves nothing); with ``require_checked``, no row is unchecked."""
        if self.mismatches:
            return False
        if self.require_checked:
            return self.unchecked_rows == 0
        return self.total == 0 or self.unchecked_rows < self.total

    @property
    def exit_code(self) -> int:
        """0 agreed; 1 some row disagrees (or no row could be checked); 3 rows left
        unchecked under ``require_checked`` (mismatches take precedence)."""
        if self.ok:
            return EXIT_OK
        if self.mismatches or not self.require_checked:
            return EXIT_MISMATCH
        return EXIT_UNCHECKED

    def summary(self) -> str:
        return say("summary", total=self.total, configs=len(self.rows),
                   mismatching=len(self.mismatches), checked_rows=self.checked_rows,
                   engines=sorted(self.engines.items()), claims=sorted(self.checked.items()),
                   skipped=sorted(self.skipped.items()), unchecked_rows=self.unchecked_rows,
                   unchecked=sorted(self.unchecked.items()))


class Claims:
    """Collects what one row's check compared."""

    def __init__(self) -> None:
        self.checked: list[str] = []
        self.skipped: list[str] = []
        self.problems: list[str] = []

    def expect(self, claim: str, stored: Any, derived: Any, detail: str = "") -> None:
        """`claim` (a field of the row) re-derived; `detail` (a sentence of verify.j2)
        says what was compared."""
        if claim not in self.checked:
            self.checked.append(claim)
        if stored != derived:
            self.problems.append(say("differs", claim=claim, stored=show_value(stored),
                                     derived=show_value(derived), detail=detail))

    def fail(self, claim: str, message: str) -> None:
        if claim not in self.checked:
            self.checked.append(claim)
        self.problems.append(say("fails", claim=claim, message=message))

    def skip(self, claim: str, reason: str) -> None:
        self.skipped.append(say("skipped", claim=claim, reason=reason))

    def result(self, unchecked: str = "", engines: list[str] | None = None) -> RowCheck:
        if unchecked:
            return RowCheck(True, [], "", self.skipped, unchecked)
        return RowCheck(not self.problems, self.checked, "; ".join(self.problems),
                        self.skipped, engines=list(engines or []))


def show_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return json.dumps(value) if isinstance(value, (list, dict)) else str(value)
