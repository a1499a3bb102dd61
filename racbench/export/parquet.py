"""Deterministic Parquet shards: fixed schema, fixed writer options, atomic rename."""

from __future__ import annotations

import os
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from datasets import Features

ROWS_PER_SHARD = 100_000


def shard_name(split: str, shard: int, n_shards: int) -> str:
    return f"{split}-{shard:05d}-of-{n_shards:05d}.parquet"


def n_shards(n_rows: int, rows_per_shard: int = ROWS_PER_SHARD) -> int:
    return max(1, -(-n_rows // rows_per_shard))


def write_table(path: Path, rows: list[dict], features: Features) -> None:
    """Write rows (dicts in column order of `features`) to `path` atomically.

    The schema carries the `datasets` features in its metadata, so `load_dataset`
    restores ClassLabel names without reading the card."""
    schema = features.arrow_schema
    columns = {name: [row[name] for row in rows] for name in features}
    table = pa.Table.from_pydict(columns, schema=schema)
    tmp = path.with_name(path.name + ".tmp")
    pq.write_table(table, tmp, compression="zstd", use_dictionary=True,
                   write_statistics=True, row_group_size=10_000)
    os.replace(tmp, path)

