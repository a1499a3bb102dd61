"""Where a build writes: checks on `--out` before anything is written.

`--overwrite` replaces only a folder racbench built (its card says so and it holds
nothing but the card, its side files (configs.json, the figures) and config folders of Parquet shards) or an empty
one, so a mistyped `--out ~/thesis --overwrite` can never delete a user's files.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

import yaml

from racbench.errors import InputError
from racbench.export.details import CONFIGS_FILE
from racbench.export.plots import PLOTS
from racbench.paths import check_utf8
from racbench.text import sayer

CARD = "README.md"
MANIFEST = "build.json"  # in .<out>.partial: marks an unfinished racbench build
SHARD = re.compile(r"(train|validation|test)-(\d{5})-of-(\d{5})\.parquet")
SIDE_FILES = frozenset({CARD, CONFIGS_FILE, *PLOTS})
TAG = "racbench"
_say = sayer("cli", ("build.j2",))


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
    splits = {str(c.get("config_name")): _card_splits(c) for c in front.get("configs") or []
              if isinstance(c, dict)}
    foreign = []
    for name in entries:
        path = folder / name
        if name in SIDE_FILES and path.is_file() and not path.is_symlink():
            continue
        if name in splits and path.is_dir() and not path.is_symlink() and _only_shards(
                path, splits[name]):
            continue
        foreign.append(name)
    return foreign


def _card_splits(config: dict) -> set[str]:
    files = config.get("data_files")
    return {str(f.get("split")) for f in files if isinstance(f, dict)} \
        if isinstance(files, list) else set()


def _only_shards(config_dir: Path, splits: set[str]) -> bool:
    """Does `config_dir` hold exactly the shards of some of `splits`, each split's whole
    run `{split}-00000-of-0000n.parquet` ... and nothing else (a user's own Parquet file
    beside them makes it foreign)?"""
    by_split: dict[str, set[str]] = {}
    for entry in config_dir.iterdir():
        m = SHARD.fullmatch(entry.name)
        if not m or m.group(1) not in splits or not entry.is_file() or entry.is_symlink():
            return False
        by_split.setdefault(m.group(1), set()).add(entry.name)
    for split, names in by_split.items():
        total = int(SHARD.fullmatch(min(names)).group(3))
        if names != {f"{split}-{i:05d}-of-{total:05d}.parquet" for i in range(total)}:
            return False
    return True


def check_partial(partial: Path) -> bool:
    """May a build write into `partial` (`.<out>.partial` beside --out)? True if it holds
    an unfinished racbench build (whose finished configs a rerun may keep, see
    export/resume.py), False if there is nothing there; refuses anything else, so a
    folder of that name the user made is never deleted."""
    if not partial.exists() and not partial.is_symlink():
        return False
    manifest = partial / MANIFEST
    try:
        if partial.is_symlink() or not partial.is_dir():
            raise OSError
        json.loads(manifest.read_text("utf-8"))["recipe"]
    except (OSError, ValueError, KeyError, TypeError):
        raise OutputError(_say("partial_not_ours", partial=partial, manifest=MANIFEST)) from None
    return True


def check_out(out: Path, overwrite: bool) -> None:
    """Refuse an --out that is a file, or a folder that exists (unless --overwrite and
    it is a racbench dataset folder), or one under a place we cannot write."""
    check_utf8(out, "--out")
    try:
        _check_out(out, overwrite)
    except OSError as exc:  # a name too long, a folder we may not list...
        raise OutputError(_say("out_unusable", out=str(out)[:200], reason=exc.strerror)) from None


def partial_path(out: Path) -> Path:
    """Where a build writes before renaming into `out`: `.<out>.partial` beside it."""
    return out.parent / f".{out.name}.partial"


def _check_out(out: Path, overwrite: bool) -> None:
    partial_path(out).exists()  # raises for a name too long once '.partial' is added
    if out.is_symlink() or out.exists():
        if not out.is_dir() or out.is_symlink():
            raise OutputError(_say("out_is_a_file", out=out))
        foreign = foreign_entries(out)
        if not overwrite:
            if foreign:
                raise OutputError(_say("out_exists_other", out=out, entries=foreign,
                                       free=_free_name(out)))
            raise OutputError(_say("out_exists_built", out=out,
                                   empty=not any(out.iterdir())))
        if foreign:
            raise OutputError(_say("overwrite_foreign", out=out, entries=foreign))
    _check_writable(out)


def _free_name(out: Path) -> Path:
    """A name beside `out` that nothing uses yet (out-2, out-3, ...), for a message."""
    n = 2
    while (candidate := out.with_name(f"{out.name}-{n}")).exists() or candidate.is_symlink():
        n += 1
    return candidate


def _check_writable(out: Path) -> None:
    """Can a folder be made beside `out` (where the build writes before renaming)?"""
    parent = out.absolute().parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise OutputError(_say("parent_is_file", out=out, parent=parent))
    try:
        probe = tempfile.mkdtemp(prefix=".racbench-write-check-", dir=parent)
    except OSError as exc:
        raise OutputError(_say("parent_not_writable", out=out, parent=parent,
                               reason=exc.strerror)) from None
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
        raise OutputError(_say("cannot_create", folder=path.parent, reason=exc.strerror)) from None
    return created


def remove_empty(folders: list[Path]) -> None:
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            return
