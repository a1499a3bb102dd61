"""The pure jobs an engine runs for a build: probe a config, make a chunk of rows, and
write a shard. build.py plans and commits; the workers write each shard from its
chunks (write_shard) or making its rows themselves, or a run of a config's small
shards (write_shard_run, on Ray), deduplicating each against the shards before it
(a local build's worker is not told them: its driver checks, local_shards.py).
Engines (engines.py: a fork pool here, ray_engine.py: Ray tasks) only run these, so
the bytes never depend on where they ran.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from racbench.export.config_checks import naming
from racbench.export.engine_errors import EngineError, say
from racbench.export.parquet import ROWS_PER_SHARD, n_shards, shard_name, write_table
from racbench.export.split_rows import CHUNK, SplitRows, chunk_size, made_rows
from racbench.splits.strata import position_codes

GC_EVERY = 100_000  # container allocations between young collections while building
# a shard's rows go to the writer, and come from a worker's chunk, in parts of at most a
# fiftieth (a twenty-fifth) of a shard of their row maker: a science gold shard of 200
# trajectories with valid actions then goes 4 (8) trajectories at a time, not a chunk
# of 63 and the whole shard (measured on inclined-plane-friction-named-surfaces: 200 of
# its trajectories are 45 MiB as Python rows, 166 MiB as Arrow, which the writer must
# hold: a row group was then the whole shard; it is now at most parquet.GROUP_BYTES)
BATCHES_PER_SHARD = 50
CHUNKS_PER_SHARD = 25

# What the engine asks of a config (`spec.task`: a TaskConfig, a ScienceGoldConfig):
# `worlds_key` (configs sharing worlds are built in one run), `warm(splits)` (load
# worlds before workers fork), `probe(...)` (optionally split into jobs, one per
# world: `probe_parts(...)`, `probe_part(...)`), `rows(...)` and `release()` (let the
# run's worlds go). The row makers of the current build, each its config's
# `rows(...)`, are set before the pool forks so workers inherit them: a row maker has
# `row(split, index, code, attempt) -> Row`, `features`, `capacity(split)`,
# `summary()` and `split_counts(rows)`. A worker that is not a fork of this process (a
# Ray worker) finds instead what makes them in MAKERS: name -> (task, seed, splits,
# probe result), and makes each the first time it needs it.
GENERATORS: dict[str, object] = {}
MAKERS: dict[str, tuple] = {}


def generator(name: str):
    gen = GENERATORS.get(name)
    if gen is None:
        task, seed, splits, probed = MAKERS[name]
        gen = GENERATORS[name] = task.rows(name, seed, splits, probed)
    return gen


def make_chunk(args: tuple[str, str, int, list[int]]) -> list[tuple[dict, str, int]]:
    """Rows `start`.. of a split: (columns, problem key, questions dropped for budget)."""
    name, split, start, codes = args
    return [(row.columns, row.key, row.dropped) for row in made_rows(generator(name), split,
                                                                      start, codes)]


def warm_parts(recipe) -> list[tuple]:
    """The worlds of `recipe` that its workers can make ahead (`warm_part`: inside
    `kept_spaces`, a STRIPS problem's space and caches, kept for every process of the
    build to read back), as warm_job arguments (part, task, the first config to load
    it), each world once, in the order the recipe's configs first ask for them."""
    parts: dict = {}
    for spec in recipe.configs:
        if hasattr(spec.task, "warm_parts"):
            for part in spec.task.warm_parts(tuple(spec.splits)):
                parts.setdefault(part, (spec.task, spec.name))
    return [(part, task, config) for part, (task, config) in parts.items()]


def warm_job(args: tuple) -> None:
    """One world made ahead (a world too large to enumerate is marked so for the loads
    after, which then do not enumerate it again); a world refused is refused here,
    naming the config, and any other error surfaces as it is."""
    part, task, config = args
    with naming(config):
        task.warm_part(part)


def further_job(args: tuple) -> list:
    """A config's second round of probe shares, given its first round's results
    (`found`: part -> result; None: its probe is not joined from shares): the parts its
    join would survey further (TaskConfig.probe_further), run as probe_job jobs of their
    own like the first round's; none for most configs."""
    name, task, seed, splits, found = args
    if found is None or list(found) == [None] or not hasattr(task, "probe_further"):
        return []
    with naming(name):
        return task.probe_further(name, seed, tuple(splits), found)


def probe_job(args: tuple):
    """A config's probe, or one share of it (`part`) where its config splits it."""
    name, cfg, seed, splits, part = args
    return cfg.probe(name, seed, splits) if part is None else \
        cfg.probe_part(name, seed, splits, part)


@dataclass(frozen=True)
class ShardJob:
    """One shard of a split to write: rows `start`.. (`codes` are theirs) of the `n` of
    `split`, shard `shard` of `total`, into the folder `folder`; made as chunk jobs
    (`chunks()`) of `size` rows."""
    name: str
    split: str
    n: int
    shard: int
    total: int
    start: int
    codes: list
    size: int
    folder: str

    def chunks(self) -> list[tuple]:
        """The shard's rows as make_chunk jobs."""
        return [(self.name, self.split, self.start + s, self.codes[s:s + self.size])
                for s in range(0, len(self.codes), self.size)]


@dataclass(frozen=True)
class ShardDone:
    """What a written shard tells the driver: its problem keys in row order, the card's
    counts of its rows (gen.split_counts), redraws, questions dropped, its file name."""
    keys: list
    counts: tuple
    redrawn: int
    dropped: int
    file: str


def shard_jobs(name: str, gen, splits: dict, seed: int, workers: int,
               folder: str) -> list[ShardJob]:
    """A config's shards, split by split in order, as a local build cuts them."""
    per_shard = getattr(gen, "rows_per_shard", None) or ROWS_PER_SHARD  # big rows: fewer
    jobs = []
    for split, n in splits.items():
        codes = position_codes(seed, name, split, n)
        total = n_shards(n, per_shard)
        size = min(chunk_size(n, workers), max(1, per_shard // CHUNKS_PER_SHARD))
        jobs += [ShardJob(name, split, n, k, total, k * per_shard,
                          codes[k * per_shard:(k + 1) * per_shard], size, folder)
                 for k in range(total)]
    return jobs


def write_shard(job: ShardJob, *inputs, chunks=None) -> ShardDone:
    """Write one shard from `inputs`: the results of its chunk jobs in order (none: its
    rows are made here, as make_chunk makes them), and the ShardDone of every shard of
    its config before it, alone or in runs (write_shard_run's), whose problems its rows
    must not repeat: a row that does is redrawn (SplitRows). `chunks`, if given, is an
    iterator of the chunk results instead, each let go once its rows are written. The
    rows go to the Parquet writer in batches as they are made (parquet.write_table), so
    a shard is never held whole as Python rows."""
    if chunks is None:
        chunks = [part for part in inputs if isinstance(part, list)]
    earlier = [done for part in inputs if not isinstance(part, list)
               for done in ((part,) if isinstance(part, ShardDone) else part)]
    gen = generator(job.name)
    seen = {key: None for done in earlier for key in done.keys}
    made = SplitRows(job.name, gen, job.split, job.n, 0, seen,
                     iter(chunks) if chunks else None, start=job.start, codes=job.codes)
    chunks = inputs = None  # the chunks are released as SplitRows goes past them
    counts = (Counter(), Counter(), Counter())

    def counted():
        for batch in made.batches(write_batch(gen)):
            for total, part in zip(counts, gen.split_counts(batch)):
                total.update(part)
            yield batch

    name = shard_name(job.split, job.shard, job.total)
    try:
        write_table(Path(job.folder) / name, counted(), gen.features, batches=True)
    except OSError as exc:
        raise EngineError(say("shard_unwritable", folder=job.folder,
                              reason=exc.strerror or str(exc))) from None
    return ShardDone(made.keys, counts, made.redrawn, made.dropped, name)


def write_batch(gen) -> int:
    """Rows handed to the Parquet writer at a time: a fiftieth of a shard of the row
    maker's (big rows, fewer), at most a chunk's."""
    return max(1, min(CHUNK, (getattr(gen, "rows_per_shard", None) or ROWS_PER_SHARD)
                      // BATCHES_PER_SHARD))


def write_shard_run(run: list[ShardJob], *earlier) -> tuple[ShardDone, ...]:
    """Write a run of one config's shards in order, their rows made here (write_shard
    each), after `earlier`: the shards of the config before the run."""
    done: list[ShardDone] = []
    for job in run:
        done.append(write_shard(job, *earlier, *done))
    return tuple(done)
