"""Where a build writes: checks on `--out` before anything is written.

`--overwrite` replaces only a folder racbench built (its card says so and it holds
nothing but the card, its side files and config folders of Parquet shards) or an empty
one, so a mistyped `--out ~/thesis --overwrite` can never delete a user's files.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import yaml

from racbench.errors import InputError
from racbench.export.details import CONFIGS_FILE

CARD = "README.md"
SIDE_FILES = frozenset({CARD, CONFIGS_FILE})
TAG = "racbench"


class OutputError(InputError):
    """An --out we refuse to write to or to replace."""


def card_front_matter(folder: Path) -> dict | None:
    """The YAML front matter of a folder's README.md, or None if there is none."""
    try:
        text = (folder / CARD).read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if not text.startswith("---\n"):
        return None
    end = text.find("\n---\n", 4)
    if end < 0:
        return None
    try:
        data = yaml.safe_load(text[4:end])
    except yaml.YAMLError:
        return None
    return data if isinstance(data, dict) else None


def foreign_entries(folder: Path) -> list[str]:
    """What in `folder` racbench did not write (empty for a racbench dataset folder)."""
    entries = sorted(os.listdir(folder))
    if not entries:
        return []
    front = card_front_matter(folder)
    if front is None or TAG not in (front.get("tags") or []):
        return entries
    configs = {str(c.get("config_name")) for c in front.get("configs") or []
               if isinstance(c, dict)}
    foreign = []
    for name in entries:
        path = folder / name
        if name in SIDE_FILES and path.is_file() and not path.is_symlink():
            continue
        if name in configs and path.is_dir() and not path.is_symlink() and all(
                f.suffix == ".parquet" and f.is_file() for f in path.iterdir()):
            continue
        foreign.append(name)
    return foreign


def check_out(out: Path, overwrite: bool) -> None:
    """Refuse an --out that is a file, or a folder that exists (unless --overwrite and
    it is a racbench dataset folder), or one under a place we cannot write."""
    if out.is_symlink() or out.exists():
        if not out.is_dir() or out.is_symlink():
            raise OutputError(f"--out {out} is a file (or a link); give the path of a "
                              "folder to create")
        if not overwrite:
            raise OutputError(f"{out} already exists; choose another --out or pass "
                              "--overwrite to replace the dataset racbench built there")
        foreign = foreign_entries(out)
        if foreign:
            shown = ", ".join(foreign[:3]) + (", ..." if len(foreign) > 3 else "")
            raise OutputError(f"--overwrite replaces only a dataset folder racbench built; "
                              f"{out} holds other files ({shown}); choose another --out or "
                              "empty it yourself")
    _check_writable(out)


def _check_writable(out: Path) -> None:
    """Can a folder be made beside `out` (where the build writes before renaming)?"""
    parent = out.absolute().parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise OutputError(f"cannot write {out}: {parent} is a file")
    try:
        probe = tempfile.mkdtemp(prefix=".racbench-write-check-", dir=parent)
    except OSError as exc:
        raise OutputError(f"cannot write {out}: {parent} is not writable "
                          f"({exc.strerror})") from None
    os.rmdir(probe)


def make_parents(path: Path) -> list[Path]:
    """mkdir -p for `path`'s parent; returns the folders it created, deepest first."""
    created = []
    parent = path.absolute().parent
    while not parent.exists():
        created.append(parent)
        parent = parent.parent
    try:
        path.absolute().parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create {path.parent}: {exc.strerror}") from None
    return created


def remove_empty(folders: list[Path]) -> None:
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            return
