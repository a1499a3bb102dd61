"""What a built dataset folder holds, for every command that reads one back.

A root holds one folder per config (hidden folders and folders without shards are
not configs); a config folder holds each split as Parquet shards named
``{split}-{i:05d}-of-{n:05d}.parquet`` (see `racbench.export.parquet`). Every reader
of a built folder lists and reads it here (`racbench audit`, `racbench show` and
`racbench verify`), so they agree on what a config and a split
are and on the order rows come in: configs by name, splits train, validation, test
and then any other by name, shards by name. A reader that also accepts one config
folder as its root can tell one by `split_files(root)` being non-empty.

Errors: a shard that lacks a requested column raises `LayoutError`; a file pyarrow
cannot read (truncated by a half-finished copy, or not Parquet at all) raises
`DamagedShard`, one line naming the file, so every command reading a build (show,
audit, export, publish) says which file is damaged in the same words.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Sequence

import pyarrow as pa
import pyarrow.parquet as pq

from racbench.errors import InputError
from racbench.text import sayer

SPLIT_ORDER = ("train", "validation", "test")
_say = sayer("cli", ("dataset.j2",))

_SHARD_RE = re.compile(r"^(?P<split>.+?)-\d{5}-of-\d{5}\.parquet$")


class LayoutError(InputError):
    """A shard that does not hold what its reader asked for."""


class DamagedShard(LayoutError):
    """A shard pyarrow cannot read."""


@contextmanager
def reading(path: Path) -> Iterator[None]:
    """Turn pyarrow's errors on reading `path` into DamagedShard naming the file."""
    try:
        yield
    except (pa.ArrowException, OSError) as exc:
        raise DamagedShard(_say("damaged_shard", path=path,
                                reason=" ".join(str(exc).split()))) from None


def config_dirs(root: Path) -> list[Path]:
    """The config folders of ``root``, by name: its direct, non-hidden subfolders that
    hold Parquet shards (none if ``root`` is not a folder)."""
    root = Path(root)
    if not root.is_dir():
        return []
    return sorted((p for p in root.iterdir()
                   if p.is_dir() and not p.name.startswith(".") and any(p.glob("*.parquet"))),
                  key=lambda p: p.name)


def split_of(path: Path) -> str:
    """The split a shard belongs to, from its name (a lone ``x.parquet`` is split x)."""
    m = _SHARD_RE.match(Path(path).name)
    return m.group("split") if m else Path(path).stem


def split_files(config_dir: Path) -> dict[str, list[Path]]:
    """split -> its shards in name order, the splits in `SPLIT_ORDER` and then by name,
    so that pooled rows never depend on the order a directory is listed in."""
    files: dict[str, list[Path]] = {}
    for path in sorted(Path(config_dir).glob("*.parquet")):
        if path.is_file():
            files.setdefault(split_of(path), []).append(path)
    order = sorted(files, key=lambda s: (SPLIT_ORDER.index(s) if s in SPLIT_ORDER
                                         else len(SPLIT_ORDER), s))
    return {split: files[split] for split in order}


def schema(path: Path) -> pa.Schema:
    """The columns and their types of one shard, read from its footer only."""
    with reading(path):
        return pq.ParquetFile(path).schema_arrow


def num_rows(path: Path) -> int:
    """The rows of one shard, read from its footer only."""
    with reading(path):
        return pq.read_metadata(path).num_rows


def read_columns(path: Path, columns: Sequence[str] | None = None) -> pa.Table:
    """The chosen columns (all if None) of one shard: a split is read shard by shard,
    so that an error names the file. Raises `LayoutError` if a column is missing."""
    with reading(path):
        parquet = pq.ParquetFile(path)
        if columns is not None:
            names = set(parquet.schema_arrow.names)
            missing = [c for c in columns if c not in names]
            if missing:
                raise LayoutError(_say("missing_columns", path=path, missing=missing))
        return parquet.read(columns=None if columns is None else list(columns))
