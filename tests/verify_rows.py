"""Rows written as a built dataset's config folder, for `racbench verify` to read in tests."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq


def write_config(out: Path, config: str, rows: list[dict]) -> None:
    """`rows` as `out/config`'s one train shard."""
    folder = out / config
    folder.mkdir(parents=True)
    pq.write_table(pa.Table.from_pylist(rows), folder / "train-00000-of-00001.parquet")
