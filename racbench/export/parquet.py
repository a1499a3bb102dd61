"""Deterministic Parquet shards: fixed schema, fixed writer options, atomic rename."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable

import pyarrow as pa
import pyarrow.parquet as pq
from datasets import Features

ROWS_PER_SHARD = 100_000
ROW_GROUP = 10_000  # rows a row group of a shard holds (the last may hold fewer)
WRITER = {"compression": "zstd", "use_dictionary": True, "write_statistics": True}


def shard_name(split: str, shard: int, n_shards: int) -> str:
    return f"{split}-{shard:05d}-of-{n_shards:05d}.parquet"


def n_shards(n_rows: int, rows_per_shard: int = ROWS_PER_SHARD) -> int:
    return max(1, -(-n_rows // rows_per_shard))


def write_table(path: Path, rows: list[dict] | Iterable[list[dict]], features: Features,
                batches: bool = False) -> None:
    """Write rows (dicts in column order of `features`) to `path` atomically.

    The schema carries the `datasets` features in its metadata, so `load_dataset`
    restores ClassLabel names without reading the card. `batches`: `rows` is an
    iterable of lists of rows instead (a shard's rows as they are made); each list is
    turned into Arrow as it comes and let go, and each row group is written once
    full, so at most one row group as Arrow (twice while its batches are joined) and
    one list of rows are held: the same bytes as the rows written in one table."""
    schema = features.arrow_schema
    tmp = path.with_name(path.name + ".tmp")
    try:
        with pq.ParquetWriter(tmp, schema, **WRITER) as writer:
            group: list[pa.RecordBatch] = []
            held = 0  # rows in `group`
            wrote = False
            for batch in (rows if batches else [rows]):
                while batch:
                    take = batch[:ROW_GROUP - held] if held + len(batch) > ROW_GROUP else batch
                    batch = batch[len(take):]
                    group.append(pa.RecordBatch.from_pydict(
                        {name: [row[name] for row in take] for name in features}, schema=schema))
                    held += len(take)
                    if held == ROW_GROUP:
                        _write_group(writer, group, schema)
                        group, held, wrote = [], 0, True
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
