"""Deterministic Parquet shards: fixed schema, fixed writer options, atomic rename."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from datasets import Features

from racbench.text import sayer

_say = sayer("cli", ("internal.j2",))  # faults of racbench's own code

ROWS_PER_SHARD = 100_000
ROW_GROUP = 10_000  # rows a row group of a shard holds at most (the last may hold fewer)
# ... and bytes of values (row_bytes): a row group of long rows closes before the row that
# would take it past this. The writer holds a row group as Arrow twice while it joins its
# batches, and a reader (`datasets`, the card's split sizes) one row group at a time: 200
# science gold trajectories with valid actions were one 166 MiB row group, which put the
# build's peak over 1 GB. Rows of most configs never reach it (their row groups are
# ROW_GROUP rows, as before).
GROUP_BYTES = 32 << 20
WRITER = {"compression": "zstd", "use_dictionary": True, "write_statistics": True}


def shard_name(split: str, shard: int, n_shards: int) -> str:
    return f"{split}-{shard:05d}-of-{n_shards:05d}.parquet"


def n_shards(n_rows: int, rows_per_shard: int = ROWS_PER_SHARD) -> int:
    return max(1, -(-n_rows // rows_per_shard))


def row_bytes(array: pa.Array) -> np.ndarray:
    """Each row's bytes of values, as Arrow lays them out: a string's UTF-8 bytes and its
    4-byte offset, a number's width, a list's offset and its items', a struct's fields'.
    A row's figure depends on its values alone (not on the rows converted with it), so
    the row groups cut by it are the same however a shard's rows come in batches."""
    kind = array.type
    if pa.types.is_string(kind) or pa.types.is_binary(kind):
        return pc.binary_length(array).fill_null(0).to_numpy().astype(np.int64) + 4
    if pa.types.is_large_string(kind) or pa.types.is_large_binary(kind):
        return pc.binary_length(array).fill_null(0).to_numpy().astype(np.int64) + 8
    if pa.types.is_fixed_size_binary(kind):
        return np.full(len(array), kind.byte_width, dtype=np.int64)
    if (pa.types.is_list(kind) or pa.types.is_large_list(kind)
            or pa.types.is_fixed_size_list(kind)):
        items = row_bytes(array.flatten())
        within = np.bincount(pc.list_parent_indices(array).to_numpy(), weights=items,
                             minlength=len(array)).astype(np.int64)
        # an offset a row: 4 bytes, 8 in a large list, none in a fixed-size one
        return within + (8 if pa.types.is_large_list(kind)
                         else 0 if pa.types.is_fixed_size_list(kind) else 4)
    if pa.types.is_struct(kind):
        total = np.zeros(len(array), dtype=np.int64)
        for field in array.flatten():
            total += row_bytes(field)
        return total
    if pa.types.is_null(kind):
        return np.zeros(len(array), dtype=np.int64)
    if pa.types.is_primitive(kind) or pa.types.is_decimal(kind):
        # numbers, booleans (a byte each here), dates, times, decimals
        return np.full(len(array), max(1, kind.bit_width // 8), dtype=np.int64)
    raise TypeError(_say("no_arrow_size", kind=kind))


def write_table(path: Path, rows: list[dict] | Iterable[list[dict]], features: Features,
                batches: bool = False, group_bytes: int | None = None) -> None:
    """Write rows (dicts in column order of `features`) to `path` atomically.

    The schema carries the `datasets` features in its metadata, so `load_dataset`
    restores ClassLabel names without reading the card. `batches`: `rows` is an
    iterable of lists of rows instead (a shard's rows as they are made); each list is
    turned into Arrow as it comes and let go, and each row group is written once
    full, so at most one row group as Arrow (twice while its batches are joined) and
    one list of rows are held: the same bytes as the rows written in one table. A row
    group is full at ROW_GROUP rows or before the row that would take its row_bytes past
    `group_bytes` (default GROUP_BYTES; a row bigger than that alone is a row group of
    its own)."""
    group_bytes = GROUP_BYTES if group_bytes is None else group_bytes
    schema = features.arrow_schema
    tmp = path.with_name(path.name + ".tmp")
    try:
        with pq.ParquetWriter(tmp, schema, **WRITER) as writer:
            group: list[pa.RecordBatch] = []
            held = held_bytes = 0  # rows in `group`, their row_bytes
            wrote = False
            for batch in (rows if batches else [rows]):
                if not batch:
                    continue
                arrow = pa.RecordBatch.from_pydict(
                    {name: [row[name] for row in batch] for name in features}, schema=schema)
                batch = None  # the rows go once they are Arrow
                sizes = sum(row_bytes(column) for column in arrow.columns)
                start = 0
                while start < len(sizes):
                    room = sizes[start:start + ROW_GROUP - held].cumsum()
                    take = int(np.searchsorted(room, group_bytes - held_bytes, side="right"))
                    if not take and not held:  # one row over the bound: alone
                        take = 1
                    if take:
                        group.append(arrow.slice(start, take))
                        held, held_bytes = held + take, held_bytes + int(room[take - 1])
                        start += take
                    if held == ROW_GROUP or start < len(sizes):  # full either way
                        _write_group(writer, group, schema)
                        group, held, held_bytes, wrote = [], 0, 0, True
                del arrow
            if group or not wrote:  # the last rows, or a shard of none
                _write_group(writer, group, schema)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    os.replace(tmp, path)


def _write_group(writer: pq.ParquetWriter, group: list[pa.RecordBatch], schema) -> None:
    """One row group from its batches, as one contiguous table: Parquet's pages depend
    on how the columns are chunked, so they are joined first (the bytes of a table
    written whole)."""
    table = pa.Table.from_batches(group, schema=schema).combine_chunks()
    group.clear()
    writer.write_table(table, row_group_size=ROW_GROUP)
    del table
    pa.default_memory_pool().release_unused()  # Arrow's allocator keeps freed pages else
