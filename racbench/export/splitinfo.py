"""A split's size as `datasets` records it when it loads our shards: rows and Arrow bytes."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq


def split_size(directory: Path, files: list[str]) -> tuple[int, int]:
    """(num_examples, num_bytes) of one split's shards, read back the way the Parquet
    builder of `datasets` reads them: one table per row group, bytes as `Table.nbytes`.
    A table's bytes are its columns' bytes, so a row group is read a column at a time
    and each let go (Arrow's freed memory returned too): a row group of 200 science
    gold trajectories is some 100 MB as one table."""
    rows = nbytes = 0
    for name in files:
        shard = pq.ParquetFile(Path(directory) / name)
        columns = shard.schema_arrow.names
        for group in range(shard.num_row_groups):
            rows += shard.metadata.row_group(group).num_rows
            for column in columns:
                nbytes += shard.read_row_group(group, columns=[column]).nbytes
            pa.default_memory_pool().release_unused()
    return rows, nbytes
