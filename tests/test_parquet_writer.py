"""A shard's rows go to the Parquet writer in batches as they are made
(export/parquet.write_table): the writer holds at most one row group, as Arrow, and
the batch it is given, and the file's bytes are those of the rows written as one table
(the options and row groups every shard has had)."""

import hashlib
import random

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from racbench.export.parquet import ROW_GROUP, write_table

FEATURES = datasets.Features({
    "id": datasets.Value("string"),
    "n": datasets.Value("int32"),
    "steps": [{"action": datasets.Value("string"), "valid": [datasets.Value("string")]}],
    "score": datasets.Value("float32"),
})


def make_rows(n: int, seed: int = 1) -> list[dict]:
    """Rows like a gold step's: strings repeated across rows, nested lists of them."""
    rnd = random.Random(seed)
    words = [f"w{i}" * rnd.randint(1, 9) for i in range(3000)]
    return [{"id": f"r{i}", "n": i, "score": rnd.random(),
             "steps": [{"action": rnd.choice(words), "valid": rnd.sample(words, rnd.randint(0, 60))}
                       for _ in range(rnd.randint(0, 12))]} for i in range(n)]


def whole_table_bytes(rows: list[dict], path) -> bytes:
    """The rows written as one table with a shard's options (what write_table wrote
    before it took batches)."""
    schema = FEATURES.arrow_schema
    table = pa.Table.from_pydict({k: [r[k] for r in rows] for k in FEATURES}, schema=schema)
    pq.write_table(table, path, compression="zstd", use_dictionary=True,
                   write_statistics=True, row_group_size=10_000)
    return path.read_bytes()


@pytest.mark.parametrize("n", [0, 1, ROW_GROUP, 2 * ROW_GROUP + 3_456])
def test_batches_write_the_bytes_of_one_table(tmp_path, n):
    """Batches of any sizes, cutting row groups anywhere: the same bytes (pages depend on
    how the columns are chunked in Arrow, so a row group's batches are joined first; left
    as chunks, the files differ)."""
    rows = make_rows(n)
    want = whole_table_bytes(rows, tmp_path / "whole.parquet")
    path = tmp_path / "batched.parquet"
    write_table(path, rows, FEATURES)
    assert path.read_bytes() == want
    rnd = random.Random(n)
    for _ in range(3):
        cuts, s = [], 0
        while s < n:
            size = rnd.choice([1, 7, 100, 999, 3_333, 12_000])
            cuts.append(rows[s:s + size])
            s += size
        write_table(path, iter(cuts), FEATURES, batches=True)
        assert hashlib.sha256(path.read_bytes()).digest() == hashlib.sha256(want).digest()
    assert pq.read_metadata(path).num_row_groups == max(1, -(-n // ROW_GROUP))
    assert not (tmp_path / "batched.parquet.tmp").exists()


class Batch(list):
    """A list of rows a weak reference can follow (to see when the writer lets it go)."""


def test_the_writer_holds_one_row_group_and_one_batch(tmp_path):
    """Five row groups of rows fed in batches of 500: while the writer asks for the next
    batch, it holds no batch before the last it was given, and the Arrow memory in use
    stays under two row groups' worth (a writer keeping every batch until the end holds
    all five)."""
    import weakref
    rows = make_rows(5 * ROW_GROUP, seed=2)
    one_group = pa.Table.from_pydict(
        {k: [r[k] for r in rows[:ROW_GROUP]] for k in FEATURES},
        schema=FEATURES.arrow_schema).nbytes
    base = pa.total_allocated_bytes()
    refs, in_use = [], []

    def fed():
        for s in range(0, len(rows), 500):
            assert all(ref() is None for ref in refs[:-1]), "a batch written is still held"
            in_use.append(pa.total_allocated_bytes() - base)
            batch = Batch(rows[s:s + 500])
            refs.append(weakref.ref(batch))
            yield batch
            del batch

    write_table(tmp_path / "x.parquet", fed(), FEATURES, batches=True)
    assert len(in_use) == 100
    assert max(in_use) < 2 * one_group, (max(in_use), one_group)
    assert max(in_use[25:]) > one_group / 2  # the measure sees a row group being held
    assert pq.read_metadata(tmp_path / "x.parquet").num_rows == len(rows)


def test_split_size_reads_a_column_at_a_time_the_figures_of_whole_tables(tmp_path):
    """The card's split sizes (splitinfo.split_size, read a column at a time to hold less)
    are those of each row group read whole, as `datasets` reads them."""
    from racbench.export.splitinfo import split_size
    names = []
    for k, n in enumerate([0, 3, ROW_GROUP + 5]):
        names.append(f"train-{k:05d}-of-00003.parquet")
        write_table(tmp_path / names[-1], make_rows(n, seed=k), FEATURES)
    rows = nbytes = 0
    for name in names:
        shard = pq.ParquetFile(tmp_path / name)
        for group in range(shard.num_row_groups):
            table = shard.read_row_group(group)
            rows, nbytes = rows + table.num_rows, nbytes + table.nbytes
    assert split_size(tmp_path, names) == (rows, nbytes) and rows == ROW_GROUP + 8
