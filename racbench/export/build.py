"""Building a recipe into a Hugging Face dataset folder, in parallel, atomically, resumably.

Rows are made in index-range chunks by a process pool; a row depends only on (seed,
config, split, index), so the bytes do not depend on the number of workers. Within a
config, a row whose problem repeats an earlier one (in train, validation, test order)
is redrawn with the next attempt number, which is again worker-independent.

Jobs run in an engine (engines.py): this machine's fork pool, whose workers write each
shard (local_shards.py: a shard repeating a problem of an earlier one is made again
here), or Ray tasks, which probe, check and write each shard themselves
(remote_prepare.py, jobs.write_shard); either way this process plans the shards and
commits each config, and a row and its redraws are the same, so the bytes do not
depend on the engine.

Every config still to build is probed first (its worlds loaded, its problems surveyed,
its splits' sizes checked against what they can give, a first row drawn from each
split), so a config the build must refuse is refused before any row is written; the
probes made are kept in the partial folder (export/resume.py) for the rerun.

Everything is written under `.<out>.partial/` beside the target and renamed into
place at the end. Each finished config is kept there under its own fingerprint
(suites/fingerprint.py), so a build interrupted, or stopped by a config refused late,
resumes where it stopped: a rerun, even of an edited recipe, keeps every finished
config whose fingerprint is unchanged, builds only the others, and ends byte-identical
to a clean build.
"""

from __future__ import annotations

import gc
import json
import math
import os
import shutil
from collections import Counter
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from racbench.errors import InputError, WorkerDied
from racbench.progress import progress_bar
from racbench.suites.fingerprint import config_fingerprint
from racbench.suites.recipe import ConfigSpec, Recipe
from racbench.export.card import config_reads, write_card
from racbench.export.folder import (MANIFEST, check_out, check_partial, make_parents,
                                    partial_path, remove_empty)
from racbench.export.resume import (STATE, ProbeCache, changed_configs, finished_records,
                                    keep_finished, kept_configs, record_finished)
from racbench.export.remote_prepare import prepare_in_workers
from racbench.export.local_shards import LocalShards
from racbench.export.engines import LocalEngine, engine_session
from racbench.export.config_checks import BuildError, checked as _checked
from racbench.export.config_checks import named as _named, naming as _naming
from racbench.export.engine_errors import EngineError, say
from racbench.export.jobs import (GC_EVERY, GENERATORS, further_job, probe_job, shard_jobs,
                                  warm_job, warm_parts)
from racbench.export.split_rows import SplitRows  # noqa: F401 (api.py imports it here)
from racbench.text import sayer
from racbench.worlds.strips.world import kept_spaces, kept_spaces_gone, let_kept_spaces_go

_say = sayer("cli", ("generation.j2", "build.j2"))
SPACES = "spaces"  # in a Ray build's state folder: the state spaces its workers share


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


def prepare(recipe: Recipe, seed: int, engine, progress: bool = False,
            probes: "ProbeCache | None" = None, keep: bool = True) -> tuple[dict, dict]:
    """Every config's row maker, after probing what its worlds can give (in parallel in
    `engine`), a check that the request can be met and a first row drawn from each
    split, before anything is written; and what makes each row maker elsewhere (see
    MAKERS). Worlds are loaded here first, in this process, so forked workers share
    them. A config refused raises an InputError whose message names it. `probes`, if
    given, holds probe results kept from an earlier run (used instead of probing again)
    and keeps those made here as soon as they are made. An engine whose workers are
    not forks of this process (Ray) does all this in its workers instead
    (remote_prepare.py): this process then loads no world, and the row makers it
    returns are what it needs of them (remote_prepare.Checked). Without `keep`, a
    forking engine's workers check the row makers, and none is returned (the caller
    makes them again when it needs them)."""
    if not engine.forks:
        return prepare_in_workers(recipe, seed, engine, probes)
    _load_ahead(recipe, engine)
    for spec in progress_bar(recipe.configs, enabled=progress, desc="load", unit="configs",
                             leave=False):
        with _naming(spec.name):
            spec.task.warm(tuple(spec.splits))
    kept = {spec.name: probes.get(spec.name) for spec in recipe.configs
            if probes is not None and probes.has(spec.name)}
    cached = {name: result for name, (found, result) in kept.items() if found}
    jobs, shares = [], []
    for spec in recipe.configs:
        if spec.name in cached:
            shares.append([])
            continue
        splits = tuple(spec.splits)
        # a config's worlds are probed as jobs of their own where it can: one config's
        # slow surveys (the lab's, ten variations) then keep every worker busy
        with _naming(spec.name):
            parts = (spec.task.probe_parts(spec.name, seed, splits)
                     if hasattr(spec.task, "probe_parts") else [None])
        # a world's probe is told the rows asked of each split (surveys are sized by them)
        jobs += [(spec.name, spec.task, seed, splits if part is None else dict(spec.splits),
                  part) for part in parts]
        shares.append(parts)
    done, failed, error = _probe_jobs(engine, jobs, progress)
    founds = _founds(recipe, shares, cached, done)
    if error is None:  # the second round: shares a config's join asks for (see probe_further)
        jobs, more = [], []
        for spec, found in zip(recipe.configs, founds):
            parts = further_job((spec.name, spec.task, seed, tuple(spec.splits), found))
            jobs += [(spec.name, spec.task, seed, dict(spec.splits), part) for part in parts]
            more.append(parts)
        done, failed, error = _probe_jobs(engine, jobs, progress)
        for found, part, result in zip((f for f, parts in zip(founds, more) for _ in parts),
                                       (part for parts in more for part in parts), done):
            found[part] = result
    if error is not None:  # the configs before the one whose job failed are kept
        _join(recipe, seed, founds, cached, probes, failed)
        raise _named(error, failed) from None
    probed = _join(recipe, seed, founds, cached, probes)
    makers = {spec.name: (spec.task, seed, tuple(spec.splits), result)
              for spec, result in zip(recipe.configs, probed)}
    if keep or engine.workers <= 1 or len(recipe.configs) <= 1:
        return {spec.name: _checked_or_dropped(recipe, seed, probed, probes, i)
                for i, spec in enumerate(recipe.configs)}, makers
    _check_in_workers(recipe, seed, probed, engine, probes)
    return {}, makers


def _checked_or_dropped(recipe: Recipe, seed: int, probed: list,
                        probes: "ProbeCache | None", i: int):
    """The row maker of the recipe's config `i`, checked (config_checks.checked); a
    config refused has its probe dropped from `probes` (it must change to pass)."""
    spec = recipe.configs[i]
    try:
        with _naming(spec.name):
            return _checked(spec, seed, probed[i])
    except InputError:  # the config must change to pass: its probe is of no more use
        if probes is not None:
            probes.drop(spec.name)
        raise


# while a run's configs are checked by forked workers: (recipe, seed, probe results)
_CHECKING: list = []


def _check_in_workers(recipe: Recipe, seed: int, probed: list, engine,
                      probes: "ProbeCache | None") -> None:
    """Each config's checks (config_checks.checked) made by forked workers, a config a
    job, for a run whose row makers are not kept (made again for its rows, _remake):
    the driver made each and let it go, one config after another, while the workers
    waited. The refusal raised is the first in the recipe's order, as in the driver."""
    _CHECKING[:] = (recipe, seed, probed)  # inherited by the workers forked next
    done = 0
    try:
        with engine.pool() as pool:
            for _ in pool.imap(_check_job, range(len(recipe.configs))):
                done += 1
    except InputError as exc:  # the config must change to pass: its probe is of no more use
        spec = recipe.configs[done]
        if probes is not None:
            probes.drop(spec.name)
        raise _named(exc, spec.name) from None
    except WorkerDied as exc:
        exc.config = recipe.configs[exc.job].name if exc.job is not None else None
        raise
    finally:
        _CHECKING.clear()


def _check_job(i: int) -> None:
    recipe, seed, probed = _CHECKING
    _checked(recipe.configs[i], seed, probed[i])


def _load_ahead(recipe: Recipe, engine) -> None:
    """The recipe's worlds made by the workers, each world a job (jobs.warm_job), for
    this process to read back when it loads them (kept_spaces): enumerating and warming
    a domain's problems one after another here, while the workers waited, was a third of
    an acp build's serial share."""
    parts = warm_parts(recipe)
    if len(parts) > 1 and engine.workers > 1:
        with engine.pool() as pool:  # in order: a refusal names the config a load would
            try:
                list(pool.imap(warm_job, parts))
            except WorkerDied as exc:  # the first config to load the world it was making
                exc.config = exc.job[2] if exc.job is not None else None
                raise


def _probe_jobs(engine, jobs: list, progress: bool) -> tuple[list, str | None,
                                                              InputError | None]:
    """Run probe jobs in `engine`: (their results in order, up to the first that
    failed; the config of the job that failed and its error, or None, None)."""
    one = isinstance(engine, LocalEngine) and len(jobs) <= 1  # no pool for one job here
    done: list = []
    if not jobs:
        return done, None, None
    try:
        with engine.pool(1 if one else None) as pool:
            results = pool.imap(probe_job, jobs) if pool is not None else map(probe_job, jobs)
            for result in progress_bar(results, enabled=progress, total=len(jobs),
                                       desc="probe", unit="jobs", leave=False):
                done.append(result)
    except InputError as exc:  # the job that failed is the one after those done
        return done, jobs[len(done)][0], exc
    except WorkerDied as exc:
        exc.config = exc.job[0] if exc.job is not None else None
        raise
    return done, None, None


def _founds(recipe: Recipe, shares: list, cached: dict, done: list) -> list:
    """Each config's jobs' results (part -> result), in recipe order, from `done` (the
    jobs' results in order, perhaps cut short by a failure); None for a config whose
    probe is cached, or whose jobs did not all finish."""
    results, founds = iter(done), []
    left = len(done)
    for spec, parts in zip(recipe.configs, shares):
        if spec.name in cached or len(parts) > left:
            founds.append(None)
            left = 0 if spec.name not in cached else left
            continue
        founds.append({part: next(results) for part in parts})
        left -= len(parts)
    return founds


def _join(recipe: Recipe, seed: int, founds: list, cached: dict,
          probes: "ProbeCache | None", failed: str | None = None) -> list:
    """Each config's probe result, from the cache or joined from its jobs' results
    (`founds`, see _founds), kept in `probes` as soon as made; stops before the
    config `failed` (whose job failed), keeping those before it."""
    probed = []
    for spec, found in zip(recipe.configs, founds):
        if spec.name == failed:
            break
        if spec.name in cached:
            probed.append(cached[spec.name])
            continue
        with _naming(spec.name):
            probed.append(found[None] if list(found) == [None] else
                          spec.task.probe(spec.name, seed, tuple(spec.splits), found))
        if probes is not None:
            probes.put(spec.name, probed[-1])
    return probed


@contextmanager
def _rare_collections():
    """Making rows allocates millions of short-lived containers and next to no
    reference cycles, so the collector's default pass every 700 allocations is mostly
    wasted (a tenth of a build); passes are made rarer while building, in the worker
    processes forked meanwhile too."""
    before = gc.get_threshold()
    gc.set_threshold(GC_EVERY, *before[1:])
    frozen_before = gc.get_freeze_count()
    _FREEZE[0] = not frozen_before  # what outlives a release of worlds is not gone over again
    try:
        yield
    finally:
        if _FREEZE[0]:  # a caller's own freeze is left alone
            gc.unfreeze()
        _FREEZE[0] = False
        gc.set_threshold(*before)


# set while a build runs (`_rare_collections`): `_release` then freezes what survives
_FREEZE = [False]


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
        raise BuildError(_say("scale_not_positive", scale=scale))
    if not out.name:
        raise BuildError(_say("out_has_no_name", out=out))
    check_out(out, overwrite)
    recipe_run = recipe.scaled(scale) if scale != 1.0 else recipe
    # worlds let go once probed are loaded again for their rows: their spaces read back
    with engine_session(engine, workers, address) as runner, kept_spaces():
        return _build(recipe, recipe_run, out, seed, scale, progress, runner, say)


def _build(recipe: Recipe, recipe_run: Recipe, out: Path, seed: int, scale: float,
           progress: bool, engine, say=None) -> Path:
    partial = partial_path(out)
    fingerprints = {spec.name: config_fingerprint(spec, seed) for spec in recipe_run.configs}
    resume = check_partial(partial)  # an unfinished racbench build there (else nothing)
    kept = kept_configs(partial, fingerprints) if resume else set()
    changed = changed_configs(partial, fingerprints, kept) if resume else []
    todo = [spec.name for spec in recipe_run.configs if spec.name not in kept]
    probes = ProbeCache(partial, fingerprints)
    reused = [name for name in todo if probes.has(name)] if resume else []

    created = make_parents(partial)
    manifest = partial / MANIFEST
    try:
        if resume:  # what is not kept (other configs, stale ones, half-written) goes
            keep_finished(partial, kept, {name: fingerprints[name] for name in todo})
        (partial / STATE).mkdir(parents=True, exist_ok=True)
        if not engine.forks:  # workers share the spaces they enumerate (see ray_engine)
            (partial / STATE / SPACES).mkdir(exist_ok=True)
            engine.spaces = str(partial / STATE / SPACES)
        manifest.write_text(json.dumps({"recipe": recipe.name}))
    except OSError as exc:
        if not (kept or reused):
            shutil.rmtree(partial, ignore_errors=True)
            remove_empty(created)
        raise BuildError(_say("cannot_write", path=partial, reason=exc.strerror)) from None

    if (kept or reused) and say is not None:
        say(_say("resuming", out=out, kept=len(kept), total=len(recipe_run.configs),
                 probed=len(reused), building=todo, changed=changed))
    # every config still to build is probed before any row is written: a refusal comes
    # now, not after hours of rows; the probes are kept for the rerun of a fixed recipe
    try:
        plans = _probe_all(recipe_run, set(todo), seed, engine, progress, probes)
    except (InputError, KeyboardInterrupt, WorkerDied) as exc:
        shutil.rmtree(partial / STATE / SPACES, ignore_errors=True)  # made again if need be
        finished = finished_configs(out)
        if not finished and (isinstance(exc, KeyboardInterrupt) or not probes.saved()):
            shutil.rmtree(partial, ignore_errors=True)
            remove_empty(created)
        elif isinstance(exc, InputError) and say is not None:
            say(_say("refused_kept", out=out, kept=finished, total=len(recipe_run.configs),
                     probed=probes.saved()))
        if isinstance(exc, WorkerDied):
            raise _died(exc, out, finished, len(recipe_run.configs), probes.saved()) from None
        raise

    total = sum(sum(s.splits.values()) for s in recipe_run.configs)
    bar = progress_bar(enabled=progress, total=total, unit="rows", desc=recipe.name)
    stats = []
    writing_card = False
    try:
        for i, (batch, plan) in enumerate(plans):
            gens, makers = plan() if plan is not None else ({}, {})
            GENERATORS.clear()
            if engine.forks:  # this process's row makers, for the workers it forks
                GENERATORS.update(gens)
            workers = engine.workers
            with engine.pool(makers=makers, worlds=batch.configs[0].task.worlds_key) as pool:
                if i == len(plans) - 1:  # no world is loaded again: the kept spaces go
                    let_kept_spaces_go()  # while the rows are made (its workers forked)
                if not getattr(pool, "writes_shards", False):  # a fork pool, or none
                    pool = LocalShards(pool, workers)
                stats += _build_in_workers(pool, batch, gens, partial, seed, workers, bar,
                                           kept, fingerprints, probes)
            kept_spaces_gone()  # before the card's pool forks
            GENERATORS.clear()
            gens = makers = None
            # the next batch's worlds replace these
            _release([spec for spec in batch.configs if spec.name not in kept])
        card = (str(partial), recipe_run, seed, scale, stats)
        writing_card = True  # a worker lost from here on was reading shards or writing it
        if engine.forks:
            # the shards read back for the card (sizes, glances) a config a job: the
            # driver alone took seconds over them at the end of a build
            reads = None
            if engine.workers > 1 and len(stats) > 1:
                with engine.pool() as pool:
                    reads = list(pool.imap(_card_reads, [(str(partial), s) for s in stats]))
            card_job(card, reads)
        else:  # written by a worker, like the shards: this process draws no figure
            with engine.pool() as pool:
                list(pool.imap(card_job, [card]))
    except (InputError, KeyboardInterrupt, WorkerDied) as exc:
        # a config refused while writing, Ctrl-C, or a worker killed (out of memory...):
        # keep the finished configs for a rerun to resume from (one of a fixed recipe),
        # else leave nothing behind
        shutil.rmtree(partial / STATE / SPACES, ignore_errors=True)  # made again if need be
        finished = finished_configs(out)
        for work in partial.glob("*.tmp"):  # the config being written when it stopped
            shutil.rmtree(work, ignore_errors=True)
        if not finished:
            shutil.rmtree(partial, ignore_errors=True)
            remove_empty(created)
        elif isinstance(exc, InputError) and say is not None:
            say(_say("refused_kept", out=out, kept=finished, total=len(recipe_run.configs),
                     probed=0))
        if isinstance(exc, WorkerDied):
            raise _died(exc, out, finished, len(recipe_run.configs), 0,
                        card=writing_card) from None
        raise
    finally:
        bar.close()
        GENERATORS.clear()
    shutil.rmtree(partial / STATE)
    manifest.unlink()
    if out.exists():
        shutil.rmtree(out)
    os.replace(partial, out)
    return out


def _died(exc: WorkerDied, out: Path, kept: int, total: int, probed: int,
          card: bool = False) -> WorkerDied:
    """The error a build stops with when a worker died: how, the config it was
    building (if known) or that it was writing the card, and what a rerun resumes from."""
    return WorkerDied(_say("worker_died", how=str(exc), config=exc.config, out=out,
                           kept=kept, total=total, probed=probed, card=card),
                      exc.job, exc.config)


def _probe_all(recipe: Recipe, todo: set[str], seed: int, engine, progress: bool,
               probes: "ProbeCache | None" = None) -> list:
    """The recipe's runs of configs over the same worlds (see _world_batches), in order,
    each with what gives its row makers: None if all its configs are kept, else a
    function returning (gens, makers). Every config in `todo` is probed here, run by
    run from the last (the configs a build would reach last are refused first), each
    run's worlds let go before the next's load; the first run to build, probed last,
    keeps its row makers, and the others are remade from their probe results (loading
    their worlds again, one run at a time) when their turn comes. Raises what
    `prepare` raises."""
    batches = _world_batches(recipe)
    probed: list[tuple[Recipe, Recipe | None]] = [
        (batch, replace(batch, configs=tuple(s for s in batch.configs if s.name in todo))
         if any(s.name in todo for s in batch.configs) else None) for batch in batches]
    runs = [run for _, run in probed if run is not None]
    plans = []
    for batch, run in reversed(probed):
        if run is None:
            plans.append((batch, None))
            continue
        keep = run is runs[0] or not engine.forks  # nothing of a run is held here on Ray
        gens, makers = prepare(run, seed, engine, progress, probes, keep)
        if keep:
            plans.append((batch, lambda gens=gens, makers=makers: (gens, makers)))
            continue
        del gens  # its worlds go now, not once the next run's are loaded
        _release(run.configs)
        plans.append((batch, lambda run=run, makers=makers: _remake(run, makers)))
    return plans[::-1]


def _release(configs) -> None:
    """Let the worlds of `configs` go: once per kind of config (a release lets go of
    every world of its kind, and collects garbage, which takes a while)."""
    for task in {type(spec.task): spec.task for spec in configs}.values():
        task.release()
    if _FREEZE[0]:
        # every kind's worlds are gone (each release collected): what survives is
        # long-lived (probe results, modules), and the next releases' collections skip
        # it; they took a seventh of an acp build's main process going over it again
        gc.freeze()


def _remake(run: Recipe, makers: dict) -> tuple[dict, dict]:
    """A probed run's row makers again, from its probe results: its worlds are loaded
    here (so forked workers share them) and not probed twice."""
    for spec in run.configs:
        spec.task.warm(tuple(spec.splits))
    gens = {name: task.rows(name, seed, splits, result)
            for name, (task, seed, splits, result) in makers.items()}
    return gens, makers


def finished_configs(out: Path) -> int:
    """How many configs an unfinished build of `out` has finished and kept (what a rerun
    resumes from)."""
    return len(finished_records(partial_path(Path(os.path.abspath(out)))))


def _kept_config(spec: ConfigSpec, record: dict, bar) -> ConfigStats:
    """The statistics of a config kept from an earlier run, from its record."""
    data = dict(record["stats"])
    # the record's keys are sorted: restore the recipe's split order, which the card keeps
    data["splits"] = {k: SplitStats(**data["splits"][k]) for k in spec.splits}
    bar.update(sum(s.rows for s in data["splits"].values()))
    return ConfigStats(**data)


def _finish_config(spec: ConfigSpec, gen, partial: Path, splits: dict[str, SplitStats],
                   keys_by_split: dict[str, list[str]], redrawn: int, dropped: int,
                   fingerprint: str, probes: ProbeCache) -> ConfigStats:
    """Commit a config whose shards are all in `.<out>.partial/NAME.tmp`: the folder
    renamed into place, then its record (fingerprint, statistics, problem keys) logged,
    which marks it finished; its probe, needed no more, goes."""
    work = partial / f"{spec.name}.tmp"
    summary = gen.summary()
    if summary["row_kind"] in ("bool", "mc", "open"):  # question rows: the lengths they have
        # (applicability asks about a state, with no sequence: 0, whatever the config's
        # default length)
        summary["lengths"] = sorted({int(k) for st in splits.values() for k in st.lengths})
    stats = ConfigStats(name=spec.name, description=spec.description, splits=splits,
                        redrawn_duplicates=redrawn, dropped_for_budget=dropped, **summary)
    final = partial / spec.name
    shutil.rmtree(final, ignore_errors=True)
    os.replace(work, final)
    record_finished(partial, spec.name, fingerprint, asdict(stats), keys_by_split)
    probes.drop(spec.name)
    return stats


def _build_in_workers(pool, batch: Recipe, gens: dict, partial: Path, seed: int,
                      workers: int, bar, kept: set[str], fingerprints: dict,
                      probes: ProbeCache) -> list:
    """The batch's configs built by a pool whose workers write the shards themselves
    (`pool.write_shards`, see jobs.write_shard: Ray's, or local_shards.LocalShards)
    into each config's `NAME.tmp` folder; this process plans the shards and commits
    each config once its shards are written. The same rows, redrawn alike, in the same
    shards, whatever the engine and the number of workers."""
    todo = [spec for spec in batch.configs if spec.name not in kept]
    planned = {}
    for spec in todo:
        work = partial / f"{spec.name}.tmp"
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        planned[spec.name] = shard_jobs(spec.name, gens[spec.name], spec.splits, seed,
                                        workers, str(work))
    results = pool.write_shards([job for spec in todo for job in planned[spec.name]])
    records = finished_records(partial) if kept & {spec.name for spec in batch.configs} else {}
    stats = []
    for spec in batch.configs:
        if spec.name in kept:
            stats.append(_kept_config(spec, records[spec.name], bar))
            continue
        splits: dict[str, SplitStats] = {}
        keys_by_split: dict[str, list[str]] = {}
        redrawn = dropped = 0
        for split, n in spec.splits.items():
            counts, files = [Counter(), Counter(), Counter()], []
            keys_by_split[split] = []
            for job in planned[spec.name]:
                if job.split != split:
                    continue
                done = next(results)
                for total, part in zip(counts, done.counts):
                    total.update(part)
                keys_by_split[split] += done.keys
                redrawn += done.redrawn
                dropped += done.dropped
                files.append(done.file)
                bar.update(len(done.keys))
            splits[split] = _split_stats(n, counts, files)
        work = partial / f"{spec.name}.tmp"
        missing = [f for st in splits.values() for f in st.files if not (work / f).is_file()]
        if missing:  # written by a worker on another machine, not in a shared folder
            raise EngineError(say("shards_elsewhere", folder=work, files=missing))
        stats.append(_finish_config(spec, gens[spec.name], partial, splits, keys_by_split,
                                    redrawn, dropped, fingerprints[spec.name], probes))
    return stats


def _split_stats(n: int, counts: list[Counter], files: list[str]) -> SplitStats:
    labels, kinds, lengths = (dict(sorted((str(k), v) for k, v in c.items())) for c in counts)
    return SplitStats(rows=n, files=files, labels=labels, kinds=kinds, lengths=lengths)


def card_job(args: tuple, reads: list | None = None) -> None:
    """Write the card, its side files and figures into the unfinished folder `partial`,
    with the count of problems leaking across configs (from their kept keys); `reads`:
    each config's shards read for it (card.config_reads), if made by workers."""
    partial, recipe, seed, scale, stats = args
    partial = Path(partial)
    write_card(partial, recipe, seed, scale, stats, _cross_config_leaks(recipe, partial),
               reads)


def _card_reads(args: tuple) -> tuple:
    partial, stat = args
    return config_reads(Path(partial), stat)


def _cross_config_leaks(recipe: Recipe, partial: Path) -> int:
    """Problems of any train split that reappear in another config's validation/test."""
    records = finished_records(partial)
    keys = {spec.name: records[spec.name]["keys"] for spec in recipe.configs}
    train = {k for per in keys.values() for k in per.get("train", [])}
    return sum(1 for name, per in keys.items() for split, ks in per.items()
               if split != "train" for k in ks if k in train)
