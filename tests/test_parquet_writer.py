"""A shard's rows go to the Parquet writer in batches as they are made
(export/parquet.write_table): the writer holds at most one row group, as Arrow, and
the batch it is given, and the file's bytes are those of the rows written as one table
(the options and row groups every shard has had) where its rows are short; long rows
go in row groups of at most GROUP_BYTES of values, cut by the rows alone, so the bytes
are the same however the rows come in batches."""

import hashlib
import random

import datasets
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from racbench.export.parquet import GROUP_BYTES, ROW_GROUP, row_bytes, write_table

NO_BOUND = 1 << 40  # group_bytes no row group reaches: row groups of ROW_GROUP rows

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


@pytest.fixture(scope="module")
def many_rows() -> list[dict]:
    """make_rows(5 * ROW_GROUP), made once for the module's tests, which take its first
    rows (make_rows(n) is its first n for any n): making rows was most of this file's
    time, each test once making its own."""
    return make_rows(5 * ROW_GROUP)


def whole_table_bytes(rows: list[dict], path) -> bytes:
    """The rows written as one table with a shard's options (what write_table wrote
    before it took batches)."""
    schema = FEATURES.arrow_schema
    table = pa.Table.from_pydict({k: [r[k] for r in rows] for k in FEATURES}, schema=schema)
    pq.write_table(table, path, compression="zstd", use_dictionary=True,
                   write_statistics=True, row_group_size=10_000)
    return path.read_bytes()


@pytest.mark.parametrize("n", [0, 1, ROW_GROUP, 2 * ROW_GROUP + 3_456])
def test_batches_write_the_bytes_of_one_table(tmp_path, n, many_rows):
    """Batches of any sizes, cutting row groups anywhere: the same bytes (pages depend on
    how the columns are chunked in Arrow, so a row group's batches are joined first; left
    as chunks, the files differ)."""
    rows = many_rows[:n]
    want = whole_table_bytes(rows, tmp_path / "whole.parquet")
    path = tmp_path / "batched.parquet"
    write_table(path, rows, FEATURES, group_bytes=NO_BOUND)
    assert path.read_bytes() == want
    rnd = random.Random(n)
    for _ in range(3):
        cuts, s = [], 0
        while s < n:
            size = rnd.choice([1, 7, 100, 999, 3_333, 12_000])
            cuts.append(rows[s:s + size])
            s += size
        write_table(path, iter(cuts), FEATURES, batches=True, group_bytes=NO_BOUND)
        assert hashlib.sha256(path.read_bytes()).digest() == hashlib.sha256(want).digest()
    assert pq.read_metadata(path).num_row_groups == max(1, -(-n // ROW_GROUP))
    assert not (tmp_path / "batched.parquet.tmp").exists()


def cut_anyhow(rows: list[dict], seed: int) -> list[list[dict]]:
    rnd = random.Random(seed)
    cuts, s = [], 0
    while s < len(rows):
        size = rnd.choice([1, 7, 100, 999, 3_333, 12_000])
        cuts.append(rows[s:s + size])
        s += size
    return cuts


@pytest.mark.parametrize("bound, n", [(GROUP_BYTES, 2 * ROW_GROUP + 3_456),
                                      (1 << 20, 3_000), (1, 150)])
def test_long_rows_go_in_row_groups_under_the_bound_whatever_the_batches(tmp_path, bound, n,
                                                                         many_rows):
    """Row groups close at ROW_GROUP rows or before the row that would take their values
    past the bound (each row's bytes, row_bytes, depend on it alone): batches of any sizes
    give the same bytes, every row group's Arrow table is within the bound (a row over it
    alone is a group of its own), no row group could have taken the next row, and the
    rows read back are those written. Rows of about 5 KB: 10,000 are 49 MiB, so the
    default bound cuts them too (a writer cutting by rows alone fails here)."""
    rows = many_rows[:n]
    path = tmp_path / "whole.parquet"
    write_table(path, rows, FEATURES, group_bytes=bound)
    want = path.read_bytes()
    for seed in range(3):
        write_table(tmp_path / "cut.parquet", iter(cut_anyhow(rows, seed)), FEATURES,
                    batches=True, group_bytes=bound)
        assert (tmp_path / "cut.parquet").read_bytes() == want
    shard = pq.ParquetFile(path)
    written = pa.Table.from_pydict({k: [r[k] for r in rows] for k in FEATURES},
                                   schema=FEATURES.arrow_schema)
    sizes = sum(row_bytes(c.combine_chunks()) for c in written.columns)
    first, back = 0, []
    for g in range(shard.num_row_groups):
        table = shard.read_row_group(g)
        n = table.num_rows
        assert 0 < n <= ROW_GROUP
        held = int(sizes[first:first + n].sum())
        assert held <= bound or n == 1
        assert table.nbytes <= max(held, bound) + 64 * 1024  # + offsets, validity bits
        if first + n < len(rows) and n < ROW_GROUP:  # closed by the bound: the next row
            assert held + int(sizes[first + n]) > bound  # would have taken it past
        first += n
        back += table.to_pylist()
    assert first == len(rows) and back == written.to_pylist()
    if bound == 1:
        assert shard.num_row_groups == len(rows)
    else:
        assert shard.num_row_groups > 3  # 3 for a writer cutting by rows alone


def test_row_bytes_are_a_rows_own():
    """A row's bytes are the same converted alone or with others, and near what Arrow
    holds for it."""
    rows = make_rows(300, seed=4)
    schema = FEATURES.arrow_schema

    def sizes(part):
        batch = pa.RecordBatch.from_pydict({k: [r[k] for r in part] for k in FEATURES},
                                           schema=schema)
        return sum(row_bytes(c) for c in batch.columns), batch.nbytes

    together, nbytes = sizes(rows)
    alone = [int(sizes([row])[0][0]) for row in rows]
    assert list(together) == alone
    assert abs(int(together.sum()) - nbytes) < 0.02 * nbytes
    # a slice's rows (as write_table never makes, but a list's flatten must respect it)
    batch = pa.RecordBatch.from_pydict({k: [r[k] for r in rows] for k in FEATURES},
                                       schema=schema).slice(100, 50)
    assert list(sum(row_bytes(c) for c in batch.columns)) == alone[100:150]


class Batch(list):
    """A list of rows a weak reference can follow (to see when the writer lets it go)."""


def test_the_writer_holds_one_row_group_and_one_batch(tmp_path, many_rows):
    """Five row groups of rows fed in batches of 500: while the writer asks for the next
    batch, it holds no batch before the last it was given, and the Arrow memory in use
    stays under two row groups' worth (a writer keeping every batch until the end holds
    all five)."""
    import weakref
    rows = many_rows
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

    write_table(tmp_path / "x.parquet", fed(), FEATURES, batches=True, group_bytes=NO_BOUND)
    assert len(in_use) == 100
    assert max(in_use) < 2 * one_group, (max(in_use), one_group)
    assert max(in_use[25:]) > one_group / 2  # the measure sees a row group being held
    assert pq.read_metadata(tmp_path / "x.parquet").num_rows == len(rows)


def test_split_size_reads_a_column_at_a_time_the_figures_of_whole_tables(tmp_path, many_rows):
    """The card's split sizes (splitinfo.split_size, read a column at a time to hold less)
    are those of each row group read whole, as `datasets` reads them."""
    from racbench.export.splitinfo import split_size
    names = []
    for k, n in enumerate([0, 3, ROW_GROUP + 5]):
        names.append(f"train-{k:05d}-of-00003.parquet")
        write_table(tmp_path / names[-1], many_rows[:n], FEATURES, group_bytes=1 << 20)
    rows = nbytes = 0
    for name in names:
        shard = pq.ParquetFile(tmp_path / name)
        for group in range(shard.num_row_groups):
            table = shard.read_row_group(group)
            rows, nbytes = rows + table.num_rows, nbytes + table.nbytes
    assert split_size(tmp_path, names) == (rows, nbytes) and rows == ROW_GROUP + 8


@pytest.mark.parametrize("kind, values", [
    (pa.large_string(), ["a", None, "ccc"]),
    (pa.large_binary(), [b"ab", b"", None]),
    (pa.binary(3), [b"abc", None, b"xyz"]),
    (pa.large_list(pa.int32()), [[1, 2], [], None]),
    (pa.list_(pa.int16(), 2), [[1, 2], None, [3, 4]]),
    (pa.large_list(pa.large_string()), [["ab", "c"], [], ["dddd"]]),
    (pa.decimal128(10, 2), [1, None, 3]),
    (pa.struct([("a", pa.large_list(pa.string())), ("b", pa.binary(2))]),
     [{"a": ["x"], "b": b"ab"}, {"a": [], "b": b"cd"}, None]),
])
def test_row_bytes_sizes_every_arrow_layout_a_feature_may_use(kind, values):
    """Large strings, binaries and lists (8-byte offsets), fixed-size binaries and lists
    (no offset) and decimals each get a size, a row's own, near what Arrow holds for the
    column's values (a large_list or fixed-size list of `datasets`' Sequence would
    otherwise stop a shard's writer)."""
    array = pa.array(values, type=kind)
    together = row_bytes(array)
    assert list(together) == [int(row_bytes(array.slice(i, 1))[0]) for i in range(len(array))]
    assert (together >= 0).all() and together.sum() > 0
    validity = sum(b.size for b in [array.buffers()[0]] if b is not None)
    assert together.sum() <= array.nbytes - validity + 16 * len(array)
