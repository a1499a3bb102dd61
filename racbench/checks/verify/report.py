"""What a verification found: per-row checks, mismatches by row id, the summary
the command prints, and the errors that stop it (exit code 2)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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


@dataclass
class Mismatch:
    config: str
    split: str
    row_id: str
    message: str

    def __str__(self) -> str:
        return f"{self.config}/{self.split} {self.row_id}: {self.message}"


@dataclass
class VerifyReport:
    root: Path
    rows: Counter = field(default_factory=Counter)        # config -> rows verified
    checked: Counter = field(default_factory=Counter)     # claim -> rows checking it
    skipped: Counter = field(default_factory=Counter)     # claim (reason) -> rows
    unchecked: Counter = field(default_factory=Counter)   # reason -> rows no engine ran on
    mismatches: list[Mismatch] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    optimal: bool = False                                 # Fast Downward checks ran

    @property
    def ok(self) -> bool:
        """No row disagrees, and some row was checked (a run whose engines failed on
        every row proves nothing)."""
        total = sum(self.rows.values())
        return not self.mismatches and (total == 0 or sum(self.unchecked.values()) < total)

    @property
    def exit_code(self) -> int:
        return 0 if self.ok else 1

    def summary(self) -> str:
        total = sum(self.rows.values())
        checks = ", ".join(f"{k} {v}" for k, v in sorted(self.checked.items())) or "none"
        text = (f"verified {total} rows in {len(self.rows)} configs: "
                f"{len(self.mismatches)} mismatching; checked: {checks}")
        if self.skipped:
            text += "; skipped: " + ", ".join(f"{k} {v}" for k, v in sorted(self.skipped.items()))
        if self.unchecked:
            text += (f"; unchecked: {sum(self.unchecked.values())} rows the engines could not "
                     "run on (" + "; ".join(f"{reason}: {n}" for reason, n
                                             in sorted(self.unchecked.items())) + ")")
        return text


class Claims:
    """Collects what one row's check compared."""

    def __init__(self) -> None:
        self.checked: list[str] = []
        self.skipped: list[str] = []
        self.problems: list[str] = []

    def expect(self, claim: str, stored: Any, derived: Any, detail: str = "") -> None:
        if claim not in self.checked:
            self.checked.append(claim)
        if stored != derived:
            text = f"{claim}: stored {show_value(stored)}, re-derived {show_value(derived)}"
            self.problems.append(text + (f" ({detail})" if detail else ""))

    def fail(self, claim: str, message: str) -> None:
        if claim not in self.checked:
            self.checked.append(claim)
        self.problems.append(f"{claim}: {message}")

    def skip(self, claim: str, reason: str) -> None:
        self.skipped.append(f"{claim} ({reason})")

    def result(self, unchecked: str = "") -> RowCheck:
        if unchecked:
            return RowCheck(True, [], "", self.skipped, unchecked)
        return RowCheck(not self.problems, self.checked, "; ".join(self.problems),
                        self.skipped)


def show_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return json.dumps(value) if isinstance(value, (list, dict)) else str(value)
