"""The audit's section of a built card: written after the build, between markers.

`racbench audit` (and `build --audit`) report into README.md without rebuilding it: the
section goes between `CARD_START` and `CARD_END`, replacing what an earlier audit put
there, or is appended when the card has none; the rest of the card is kept byte for
byte. The card template names the markers, so readers know what the section is.
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from racbench.errors import InputError
from racbench.text import sayer

CARD_START = "<!-- racbench:audit:start -->"
CARD_END = "<!-- racbench:audit:end -->"
_say = sayer("cli", ("audit.j2",))


class CardError(InputError):
    """A card whose audit markers cannot be told apart."""


def splice(card: str, section: str) -> str:
    """``card`` with ``section`` between the markers (appended, with the markers, if
    the card has none)."""
    block = f"{CARD_START}\n{section}{CARD_END}"
    n_start, n_end = card.count(CARD_START), card.count(CARD_END)
    if n_start == 0 and n_end == 0:
        sep = "" if card.endswith("\n\n") or not card else ("\n" if card.endswith("\n") else "\n\n")
        return f"{card}{sep}{block}\n"
    start, end = card.find(CARD_START), card.find(CARD_END)
    if n_start != 1 or n_end != 1 or end < start:
        raise CardError(_say("malformed_markers", starts=n_start, ends=n_end))
    return card[:start] + block + card[end + len(CARD_END):]


def write_section(root: Path, section: str) -> Path:
    """Splice ``section`` into ``root/README.md``; the file is replaced atomically (and
    keeps its permissions), and left untouched if nothing changes."""
    readme = Path(root) / "README.md"
    with open(readme, encoding="utf-8", newline="") as fh:
        card = fh.read()
    new = splice(card, section)
    if new != card:
        _atomic_write(readme, new)
    return readme


def _atomic_write(path: Path, text: str) -> None:
    """Readers see the old card or the new one, never half of it."""
    fd, tmp = tempfile.mkstemp(dir=str(path.parent), prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if path.exists():
            os.chmod(tmp, stat.S_IMODE(path.stat().st_mode))
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
