"""What a built dataset folder holds, as every reader (audit, show, verify) sees it."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from racbench.errors import InputError
from racbench.export import layout
from racbench.export.parquet import shard_name


def _shard(path, rows: int = 2) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.table({"query": [f"q{i}" for i in range(rows)],
                             "label": pa.array([i % 2 for i in range(rows)], pa.int64())}), path)


def test_configs_are_non_hidden_folders_with_shards_by_name(tmp_path):
    for name in ("zeta", "alpha", ".cache"):
        _shard(tmp_path / name / shard_name("train", 0, 1))
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "x.txt").write_text("x")
    _shard(tmp_path / "stray.parquet")
    assert [p.name for p in layout.config_dirs(tmp_path)] == ["alpha", "zeta"]
    assert layout.config_dirs(tmp_path / "nowhere") == []


def test_splits_in_canonical_order_and_shards_by_name(tmp_path):
    names = [shard_name("train", 1, 2), shard_name("test", 0, 1), "extra.parquet",
             shard_name("dev", 0, 1), shard_name("validation", 0, 1), shard_name("train", 0, 2)]
    for name in names:
        _shard(tmp_path / name)
    splits = layout.split_files(tmp_path)
    assert list(splits) == ["train", "validation", "test", "dev", "extra"]
    assert [p.name for p in splits["train"]] == [shard_name("train", 0, 2),
                                                 shard_name("train", 1, 2)]
    assert layout.split_of(tmp_path / "my-split-00003-of-00010.parquet") == "my-split"
    assert layout.split_files(tmp_path / "empty") == {}


def test_read_columns_reads_what_is_asked_and_names_what_is_missing(tmp_path):
    path = tmp_path / shard_name("test", 0, 1)
    _shard(path, rows=3)
    assert layout.schema(path).names == ["query", "label"]
    assert layout.read_columns(path, ["label"]).column_names == ["label"]
    assert layout.read_columns(path).num_rows == 3
    with pytest.raises(layout.LayoutError, match=f"{path}: missing column\\(s\\) answer, choices"):
        layout.read_columns(path, ["answer", "label", "choices"])
    assert issubclass(layout.LayoutError, InputError)  # a user's folder: exit code 2
