"""A split's size as `datasets` records it when it loads our shards: rows and Arrow bytes."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq


def split_size(directory: Path, files: list[str]) -> tuple[int, int]:
    """(num_examples, num_bytes) of one split's shards, read back the way the Parquet
    builder of `datasets` reads them: one table per row group, bytes as `Table.nbytes`."""
    rows = nbytes = 0
    for name in files:
        shard = pq.ParquetFile(Path(directory) / name)
        for group in range(shard.num_row_groups):
            table = shard.read_row_group(group)
            rows += table.num_rows
            nbytes += table.nbytes
    return rows, nbytes
