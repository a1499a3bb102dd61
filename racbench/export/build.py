"""Building a recipe into a Hugging Face dataset folder, in parallel, atomically, resumably.

Rows are made in index-range chunks by a process pool; a row depends only on (seed,
config, split, index), so the bytes do not depend on the number of workers. Within a
config, a row whose problem repeats an earlier one (in train, validation, test order)
is redrawn with the next attempt number, which is again worker-independent.

Jobs run in an engine (engines.py): this machine's fork pool, or Ray tasks; either
way this process plans the jobs, reads their results in order and writes every file,
so the bytes do not depend on the engine either.

Everything is written under `.<out>.partial/` beside the target and renamed into
place at the end. Each finished config is kept there, so an interrupted build resumes
where it stopped and ends byte-identical to an uninterrupted one.
"""

from __future__ import annotations

import gc
import itertools
import json
import math
import os
import shutil
from collections import Counter
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Iterator

from racbench.errors import GenerationError, InputError
from racbench.progress import progress_bar
from racbench.suites.recipe import ConfigSpec, Recipe
from racbench.splits.strata import position_codes
from racbench.export.card import write_card
from racbench.export.folder import (MANIFEST, check_out, check_partial, make_parents,
                                    partial_path, remove_empty)
from racbench.export.parquet import ROWS_PER_SHARD, ShardWriter
from racbench.export.engines import LocalEngine, engine_session
from racbench.export.jobs import GC_EVERY, GENERATORS, make_chunk, probe_job
from racbench.text import sayer

CHUNK = 500
MIN_CHUNK = 8
MAX_REDRAWS = 64
_say = sayer("cli", ("generation.j2", "build.j2"))


class BuildError(InputError):
    """A build request we refuse before writing anything."""


@dataclass
class SplitStats:
    rows: int
    files: list[str]
    labels: dict[str, int]
    kinds: dict[str, int]  # rows per form (task rows) or simplification setting (trajectories)
    lengths: dict[str, int]


@dataclass
class ConfigStats:
    name: str
    description: str
    task: str
    row_kind: str  # bool, mc, open (task rows) or trajectory
    objects: int | str  # the range over a config's problems, e.g. "6-12"
    lengths: list[int]
    query_kinds: list[str]
    world: str  # the domain (or science task) its problems come from
    names: str
    splits: dict[str, SplitStats]
    redrawn_duplicates: int
    excluded_forms: list[str]
    # what a generated world says of its splits (a rule world: win rates), for the card
    world_summary: dict = field(default_factory=dict)
    dropped_for_budget: int = 0  # questions whose proof ran out of search budget


def _phase(pool, job, jobs: list, progress: bool, desc: str, chunksize: int = 1) -> list:
    """`job` over `jobs`, in the pool if there is one, with a progress bar; in order."""
    results = pool.imap(job, jobs, chunksize=chunksize) if pool is not None else map(job, jobs)
    return list(progress_bar(results, enabled=progress and bool(jobs), total=len(jobs),
                             desc=desc, unit="jobs", leave=False))


def prepare(recipe: Recipe, seed: int, engine, progress: bool = False
            ) -> tuple[dict, dict]:
    """Every config's row maker, after probing what its worlds can give (in parallel in
    `engine`), and a check that the request can be met, before anything is written; and
    what makes each row maker elsewhere (see MAKERS). Worlds are loaded here first, in
    this process, so forked workers share them."""
    for spec in progress_bar(recipe.configs, enabled=progress, desc="load", unit="configs",
                             leave=False):
        spec.task.warm(tuple(spec.splits))
    jobs, shares = [], []
    for spec in recipe.configs:
        splits = tuple(spec.splits)
        # a config's worlds are probed as jobs of their own where it can: one config's
        # slow surveys (the lab's, ten variations) then keep every worker busy
        parts = (spec.task.probe_parts(spec.name, seed, splits)
                 if hasattr(spec.task, "probe_parts") else [None])
        # a world's probe is told the rows asked of each split (surveys are sized by them)
        jobs += [(spec.name, spec.task, seed, splits if part is None else dict(spec.splits),
                  part) for part in parts]
        shares.append(parts)
    one = isinstance(engine, LocalEngine) and len(jobs) == 1  # no pool for one job here
    with engine.pool(1 if one else None) as pool:
        done = iter(_phase(pool, probe_job, jobs, progress, "probe"))
    probed = []
    for spec, parts in zip(recipe.configs, shares):
        found = {part: next(done) for part in parts}
        probed.append(found[None] if parts == [None] else
                      spec.task.probe(spec.name, seed, tuple(spec.splits), found))
    gens, makers = {}, {}
    for spec, result in zip(recipe.configs, probed):
        gen = spec.task.rows(spec.name, seed, tuple(spec.splits), result)
        for split, wanted in spec.splits.items():
            if wanted > gen.capacity(split):
                raise BuildError(_say("capacity", config=spec.name, split=split,
                                      wanted=wanted, offered=int(gen.capacity(split))))
        gens[spec.name] = gen
        makers[spec.name] = (spec.task, seed, tuple(spec.splits), result)
    return gens, makers


@contextmanager
def _rare_collections():
    """Making rows allocates millions of short-lived containers and next to no
    reference cycles, so the collector's default pass every 700 allocations is mostly
    wasted (a tenth of a build); passes are made rarer while building, in the worker
    processes forked meanwhile too."""
    before = gc.get_threshold()
    gc.set_threshold(GC_EVERY, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _world_batches(recipe: Recipe) -> list[Recipe]:
    """The recipe as runs of consecutive configs over the same worlds (one domain's
    problems, one science task): each run is prepared, built and let go before the
    next, so a build holds one domain's state spaces at a time, not every domain's."""
    runs: list[list[ConfigSpec]] = []
    last = object()
    for spec in recipe.configs:
        key = spec.task.worlds_key
        if runs and key == last:
            runs[-1].append(spec)
        else:
            runs.append([spec])
        last = key
    return [replace(recipe, configs=tuple(run)) for run in runs]


@_rare_collections()
def build(recipe: Recipe, out: Path, *, seed: int | None = None, scale: float = 1.0,
          workers: int | None = None, overwrite: bool = False, progress: bool = True,
          engine: str = "local", address: str | None = None, say=None) -> Path:
    """Build `recipe` into the folder `out`; see the module's text. `engine` is where the
    jobs run: "local" (a fork pool of `workers` processes) or "ray" (Ray tasks on the
    cluster at `address`, or on a Ray instance started here). `say`, if given, is told
    in a line that an unfinished build is being resumed. Raises an InputError subclass
    for a request we refuse, before writing anything."""
    out = Path(os.path.abspath(out))
    seed = recipe.seed if seed is None else seed
    if not math.isfinite(scale) or scale <= 0:
        raise BuildError(f"scale must be a finite number above 0, got {scale}")
    if not out.name:
        raise BuildError(f"--out {out} is not a folder a build can create")
    check_out(out, overwrite)
    recipe_run = recipe.scaled(scale) if scale != 1.0 else recipe
    with engine_session(engine, workers, address) as runner:
        return _build(recipe, recipe_run, out, seed, scale, progress, runner, say)


def _build(recipe: Recipe, recipe_run: Recipe, out: Path, seed: int, scale: float,
           progress: bool, engine, say=None) -> Path:
    batches = _world_batches(recipe_run)
    gens, makers = prepare(batches[0], seed, engine, progress)  # bad requests stop here

    partial = partial_path(out)
    fingerprint = recipe.fingerprint(seed, scale)
    resume = check_partial(partial, fingerprint)
    created = make_parents(partial)
    manifest = partial / MANIFEST
    if partial.exists() and not resume:  # an unfinished build of another recipe
        shutil.rmtree(partial)
    try:
        (partial / ".state").mkdir(parents=True, exist_ok=True)
        manifest.write_text(json.dumps({"fingerprint": fingerprint, "recipe": recipe.name}))
    except OSError as exc:
        shutil.rmtree(partial, ignore_errors=True)
        remove_empty(created)
        raise BuildError(f"cannot write {partial}: {exc.strerror}") from None

    if resume and say is not None:
        kept = finished_configs(out)
        say(_say("resuming", out=out, kept=kept, total=len(recipe_run.configs)))
    total = sum(sum(s.splits.values()) for s in recipe_run.configs)
    bar = progress_bar(enabled=progress, total=total, unit="rows", desc=recipe.name)
    stats = []
    try:
        for i, batch in enumerate(batches):
            if i:  # a resumed build prepares only the configs an earlier run left unbuilt
                todo = replace(batch, configs=tuple(
                    spec for spec in batch.configs if not _finished(spec, partial)))
                gens, makers = prepare(todo, seed, engine, progress)
            GENERATORS.clear()
            GENERATORS.update(gens)
            workers = engine.workers
            with engine.pool(makers=makers) as pool:
                chunks = _submit(pool, batch, partial, seed, workers)
                stats += [_build_config(spec, gens.get(spec.name), partial, seed, chunks,
                                        workers, bar)
                          for spec in batch.configs]
            GENERATORS.clear()
            gens = makers = None
            for spec in batch.configs:  # the next batch's worlds replace these
                spec.task.release()
        leaks = _cross_config_leaks(recipe_run, partial)
        write_card(partial, recipe_run, seed, scale, stats, leaks)
    except InputError:  # a request found impossible while writing: leave nothing behind
        shutil.rmtree(partial, ignore_errors=True)
        remove_empty(created)
        raise
    except KeyboardInterrupt:  # keep finished configs to resume from, else nothing
        if not finished_configs(out):
            shutil.rmtree(partial, ignore_errors=True)
            remove_empty(created)
        raise
    finally:
        bar.close()
        GENERATORS.clear()
    shutil.rmtree(partial / ".state")
    manifest.unlink()
    if out.exists():
        shutil.rmtree(out)
    os.replace(partial, out)
    return out


def finished_configs(out: Path) -> int:
    """How many configs an unfinished build of `out` has finished and kept (what a rerun
    resumes from)."""
    state = partial_path(Path(os.path.abspath(out))) / ".state"
    try:
        return sum(1 for p in state.iterdir() if p.name.endswith(".stats.json"))
    except OSError:
        return 0


def _finished(spec: ConfigSpec, partial: Path) -> bool:
    """Was this config built by an earlier, interrupted run of the same build?"""
    return ((partial / ".state" / f"{spec.name}.stats.json").exists()
            and (partial / spec.name).is_dir())


def _submit(pool, batch: Recipe, partial: Path, seed: int, workers: int) -> Iterator | None:
    """The row chunks of every config of the batch still to build, handed to the pool at
    once and yielded in order: workers go on with the next split and the next config
    while this process writes and deduplicates, instead of waiting at every split's
    end. None without a pool."""
    if pool is None:
        return None
    jobs = [job for spec in batch.configs if not _finished(spec, partial)
            for split, n in spec.splits.items()
            for job in _split_jobs(spec.name, split, n, seed, workers)]
    return pool.imap(make_chunk, jobs)


def _split_jobs(name: str, split: str, n: int, seed: int, workers: int) -> list[tuple]:
    """A split's rows as chunk jobs (name, split, first index, position codes) for
    make_chunk."""
    codes = position_codes(seed, name, split, n)
    size = _chunk_size(n, workers)
    return [(name, split, s, codes[s:s + size]) for s in range(0, n, size)]


def _chunk_size(n: int, workers: int) -> int:
    # small splits of slow rows (science trajectories) still spread over all workers
    return max(MIN_CHUNK, min(CHUNK, -(-n // (4 * workers))))


def _build_config(spec: ConfigSpec, gen, partial: Path, seed: int, chunks: Iterator | None,
                  workers: int, bar) -> ConfigStats:
    """Write one config's splits, its rows taken from `chunks` (see _submit) or made
    here."""
    done = partial / ".state" / f"{spec.name}.stats.json"
    if _finished(spec, partial):
        data = json.loads(done.read_text())
        # the file's keys are sorted: restore the recipe's split order, which the card keeps
        data["splits"] = {k: SplitStats(**data["splits"][k]) for k in spec.splits}
        bar.update(sum(s.rows for s in data["splits"].values()))
        return ConfigStats(**data)
    work = partial / f"{spec.name}.tmp"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    seen: dict[str, tuple[str, int]] = {}
    redrawn = dropped = 0
    splits: dict[str, SplitStats] = {}
    keys_by_split: dict[str, list[str]] = {}
    for split, n in spec.splits.items():
        count = -(-n // _chunk_size(n, workers))  # the split's jobs in _submit
        made = SplitRows(spec.name, gen, split, n, seed, seen,
                         None if chunks is None else itertools.islice(chunks, count), bar.update)
        per_shard = getattr(gen, "rows_per_shard", None) or ROWS_PER_SHARD  # big rows: fewer
        shards = ShardWriter(work, split, n, gen.features, per_shard)
        counts = [Counter(), Counter(), Counter()]
        for rows in made.batches(per_shard):
            shards.write(rows)
            for total, part in zip(counts, gen.split_counts(rows)):
                total.update(part)
        redrawn += made.redrawn
        dropped += made.dropped
        splits[split] = _split_stats(n, counts, shards.files)
        keys_by_split[split] = made.keys
    summary = gen.summary()
    if summary["row_kind"] in ("bool", "mc", "open"):  # question rows: the lengths they have
        # (applicability asks about a state, with no sequence: 0, whatever the config's
        # default length)
        summary["lengths"] = sorted({int(k) for st in splits.values() for k in st.lengths})
    stats = ConfigStats(name=spec.name, description=spec.description, splits=splits,
                        redrawn_duplicates=redrawn, dropped_for_budget=dropped, **summary)
    (partial / ".state" / f"{spec.name}.keys.json").write_text(json.dumps(keys_by_split))
    final = partial / spec.name
    shutil.rmtree(final, ignore_errors=True)
    os.replace(work, final)
    done.write_text(json.dumps(asdict(stats), sort_keys=True))  # last: marks it finished
    return stats


class SplitRows:
    """The `n` rows of one split, made in order, and their problem keys. A row whose
    problem repeats one in `seen` (earlier splits and rows of the config, which it
    extends) is redrawn here with the next attempt number, so the rows do not depend on
    the number of workers; `redrawn` counts those draws, `dropped` the questions
    dropped for budget while drawing the rows kept and redrawn. Rows come from `chunks`, the
    split's chunk results in order (made by a pool's workers, which find `gen` in
    GENERATORS), or are made here."""

    def __init__(self, name: str, gen, split: str, n: int, seed: int, seen: dict,
                 chunks: Iterator | None = None, on_chunk=None):
        self.name, self.gen, self.split, self.n, self.seed = name, gen, split, n, seed
        self.seen, self.chunks, self.on_chunk = seen, chunks, on_chunk
        self.keys: list[str] = []
        self.redrawn = self.dropped = 0

    def batches(self, size: int) -> Iterator[list[dict]]:
        """The rows in lists of `size` (the last may be shorter): a split is never held
        whole in memory."""
        batch = []
        for columns in self:
            batch.append(columns)
            if len(batch) == size:
                yield batch
                batch = []
        if batch:
            yield batch

    def __iter__(self) -> Iterator[dict]:
        name, gen, split = self.name, self.gen, self.split
        codes = position_codes(self.seed, name, split, self.n)
        chunks = self.chunks
        if chunks is None:
            size = _chunk_size(self.n, 1)
            chunks = ([(r.columns, r.key, r.dropped) for r in (gen.row(split, s + o, c)
                                                     for o, c in enumerate(codes[s:s + size]))]
                      for s in range(0, self.n, size))
        for chunk in chunks:
            for columns, key, dropped in chunk:
                index = len(self.keys)
                self.dropped += dropped
                attempt = 0
                while key in self.seen:
                    attempt += 1
                    self.redrawn += 1
                    if attempt > MAX_REDRAWS:
                        raise GenerationError(_say("too_few_problems", config=name,
                                                   split=split, wanted=self.n, made=index,
                                                   redraws=MAX_REDRAWS))
                    row = gen.row(split, index, codes[index], attempt)
                    columns, key = row.columns, row.key
                    self.dropped += row.dropped
                self.seen[key] = (split, index)
                self.keys.append(key)
                yield columns
            if self.on_chunk is not None:
                self.on_chunk(len(chunk))


def _split_stats(n: int, counts: list[Counter], files: list[str]) -> SplitStats:
    labels, kinds, lengths = (dict(sorted((str(k), v) for k, v in c.items())) for c in counts)
    return SplitStats(rows=n, files=files, labels=labels, kinds=kinds, lengths=lengths)


def _cross_config_leaks(recipe: Recipe, partial: Path) -> int:
    """Problems of any train split that reappear in another config's validation/test."""
    keys = {spec.name: json.loads((partial / ".state" / f"{spec.name}.keys.json").read_text())
            for spec in recipe.configs}
    train = {k for per in keys.values() for k in per.get("train", [])}
    return sum(1 for name, per in keys.items() for split, ks in per.items()
               if split != "train" for k in ks if k in train)
