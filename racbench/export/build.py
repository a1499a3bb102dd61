"""Building a recipe into a Hugging Face dataset folder, in parallel, atomically, resumably.

Rows are made in index-range chunks by a process pool; a row depends only on (seed,
config, split, index), so the bytes do not depend on the number of workers. Within a
config, a row whose problem repeats an earlier one (in train, validation, test order)
is redrawn with the next attempt number, which is again worker-independent.

Everything is written under `.<out>.partial/` beside the target and renamed into
place at the end. Each finished config is kept there, so an interrupted build resumes
where it stopped and ends byte-identical to an uninterrupted one.
"""

from __future__ import annotations

import json
import math
import os
import shutil
from dataclasses import asdict, dataclass
from pathlib import Path

from racbench.errors import InputError
from racbench.progress import progress_bar
from racbench.tasks.rows import AcpConfigRows
from racbench.generators.rows import ConfigRows, GenerationError, probe, probe_jobs
from racbench.tasks.gold_trajectories import ScienceGoldRows
from racbench.suites.recipe import ConfigSpec, Recipe
from racbench.splits.names import name_pool
from racbench.splits.strata import position_codes
from racbench.export.card import write_card
from racbench.export.folder import check_out, make_parents, remove_empty
from racbench.export.parquet import write_split
from racbench.export.pool import worker_pool
from racbench.export.schema import trac_features

CHUNK = 500
MIN_CHUNK = 8
MAX_REDRAWS = 64


class BuildError(InputError):
    """A build request we refuse before writing anything."""


@dataclass
class SplitStats:
    rows: int
    files: list[str]
    labels: dict[str, int]
    query_kinds: dict[str, int]
    lengths: dict[str, int]


@dataclass
class ConfigStats:
    name: str
    description: str
    task: str
    objects: int | str  # ACP configs: the range over their problems, e.g. "6-12"
    lengths: list[int]
    query_kinds: list[str]
    names: str
    splits: dict[str, SplitStats]
    redrawn_duplicates: int
    excluded_forms: list[str]


# The generators of the current build, set before the pool forks so workers inherit them.
_GENERATORS: dict[str, ConfigRows | AcpConfigRows] = {}


def _make_chunk(args: tuple[str, str, int, list[int]]) -> list[tuple[dict, str]]:
    name, split, start, codes = args
    gen = _GENERATORS[name]
    out = []
    for offset, code in enumerate(codes):
        row = gen.row(split, start + offset, code)
        out.append((row.columns, row.key))
    return out


def capacity(spec: ConfigSpec, gen: ConfigRows) -> float:
    """An upper bound on distinct problems a config can hold (names x structures)."""
    cfg, world = spec.task, gen.world
    n_states = len(world.space.states) if world.space is not None else math.inf
    names = math.comb(len(name_pool(cfg.names)), cfg.n_objects)
    width = 2 if "conjunction" in cfg.query_kinds else 1
    queries = (2 * len(world.task.atoms)) ** width
    longest = max(cfg.lengths)
    return names * n_states * len(world.task.actions) ** longest * queries


def _probe_job(args: tuple) -> bool:
    cfg, cell, label, variant = args
    return probe(cfg, cell, label, variant)


def _phase(pool, job, jobs: list, progress: bool, desc: str, chunksize: int = 1) -> list:
    """`job` over `jobs`, in the pool if there is one, with a progress bar; in order."""
    results = pool.imap(job, jobs, chunksize=chunksize) if pool is not None else map(job, jobs)
    return list(progress_bar(results, enabled=progress and bool(jobs), total=len(jobs),
                             desc=desc, unit="probes", leave=False))


def prepare(recipe: Recipe, seed: int, workers: int,
            progress: bool = False) -> dict[str, ConfigRows | AcpConfigRows]:
    """Decide every config's strata (probing in parallel) and check that the request
    can be met, before anything is written. ACP configs (family configs) load and probe
    their problems here, in this process, so forked workers share the explored worlds."""
    trac = [spec for spec in recipe.configs if not spec.is_acp and not spec.is_science]
    jobs = [(spec.task,) + job for spec in trac for job in probe_jobs(spec.task)]
    for spec in trac:
        spec.task.world  # build worlds once, before forking, so workers share them
    acp = [spec for spec in recipe.configs if spec.is_acp]
    _explore_acp(acp, progress)
    with worker_pool(workers) as pool:
        results = _phase(pool, _probe_job, jobs, progress, "prepare", chunksize=8)
        acp_jobs = [(spec.name, spec.task, seed, tuple(spec.splits)) for spec in acp]
        probed = dict(zip((spec.name for spec in acp),
                          _phase(pool if len(acp_jobs) > 1 else None, _probe_acp_job,
                                 acp_jobs, progress, "survey")))
    feasible: dict = {}
    for job, ok in zip(jobs, results):
        feasible.setdefault(job[0], {})[job[1:]] = ok
    gens = {}
    for spec in recipe.configs:
        if spec.is_science:
            gens[spec.name] = ScienceGoldRows(spec.name, spec.task)
            continue
        if spec.is_acp:
            gens[spec.name] = _acp_rows(spec, seed, probed[spec.name])
            continue
        gen = ConfigRows(spec.name, spec.task, seed, feasible[spec.task])
        wanted = sum(spec.splits.values())
        if wanted > capacity(spec, gen):
            raise BuildError(f"config '{spec.name}' asks for {wanted} rows but at most "
                             f"{int(capacity(spec, gen))} distinct problems exist for "
                             f"{spec.task.n_objects} objects; ask for fewer rows or more objects")
        gens[spec.name] = gen
    return gens


def _probe_acp_job(args: tuple) -> tuple[dict, list]:
    name, cfg, seed, splits = args
    return AcpConfigRows(name, cfg, seed, splits, probed=({}, [])).probe_result()


def _explore_acp(specs: list[ConfigSpec], progress: bool) -> None:
    """Explore the worlds of ACP configs in this process, so that the probing and row
    workers forked later share them."""
    if not specs:
        return
    from racbench.worlds.strips.world import WorldTooLarge, world_for
    files = sorted({(domain_file, path) for spec in specs for split in spec.splits
                    for domain_file, paths in [spec.task.files(split)] for path in paths})
    for domain_file, path in progress_bar(files, enabled=progress, desc="explore",
                                          unit="problems", leave=False):
        try:
            world = world_for(domain_file, path)
        except WorldTooLarge:
            continue  # reported by the config's generator
        world.goal_distance, world.reachable_atoms(0)  # shared caches


def _acp_rows(spec: ConfigSpec, seed: int, probed=None) -> AcpConfigRows:
    gen = AcpConfigRows(spec.name, spec.task, seed, tuple(spec.splits), probed)
    for split, wanted in spec.splits.items():
        if wanted > gen.capacity(split):
            raise BuildError(f"config '{spec.name}' asks for {wanted} {split} rows but at most "
                             f"{gen.capacity(split)} distinct {spec.task.family} questions exist "
                             f"in its {split} problems ({', '.join(spec.task.split_problems(split))}); "
                             "ask for fewer rows or more problems")
    return gen


def build(recipe: Recipe, out: Path, *, seed: int | None = None, scale: float = 1.0,
          workers: int | None = None, overwrite: bool = False, progress: bool = True) -> Path:
    """Build `recipe` into the folder `out`; see the module's text. Raises an InputError
    subclass for a request we refuse, before writing anything."""
    out = Path(os.path.abspath(out))
    seed = recipe.seed if seed is None else seed
    if not math.isfinite(scale) or scale <= 0:
        raise BuildError(f"scale must be a finite number above 0, got {scale}")
    if not out.name:
        raise BuildError(f"--out {out} is not a folder a build can create")
    check_out(out, overwrite)
    recipe_run = recipe.scaled(scale) if scale != 1.0 else recipe
    workers = workers or os.cpu_count() or 1
    gens = prepare(recipe_run, seed, workers, progress)

    partial = out.parent / f".{out.name}.partial"
    created = make_parents(partial)
    fingerprint = recipe.fingerprint(seed, scale)
    manifest = partial / "build.json"
    if partial.exists():
        try:
            same = json.loads(manifest.read_text()).get("fingerprint") == fingerprint
        except (OSError, ValueError):
            same = False
        if not same:
            shutil.rmtree(partial)
    try:
        (partial / ".state").mkdir(parents=True, exist_ok=True)
        manifest.write_text(json.dumps({"fingerprint": fingerprint, "recipe": recipe.name}))
    except OSError as exc:
        shutil.rmtree(partial, ignore_errors=True)
        remove_empty(created)
        raise BuildError(f"cannot write {partial}: {exc.strerror}") from None

    total = sum(sum(s.splits.values()) for s in recipe_run.configs)
    bar = progress_bar(enabled=progress, total=total, unit="rows", desc=recipe.name)
    _GENERATORS.clear()
    _GENERATORS.update(gens)
    try:
        with worker_pool(workers) as pool:
            stats = [_build_config(spec, gens[spec.name], partial, seed, pool, bar)
                     for spec in recipe_run.configs]
        leaks = _cross_config_leaks(recipe_run, partial)
        write_card(partial, recipe_run, seed, scale, stats, leaks)
    except InputError:  # a request found impossible while writing: leave nothing behind
        shutil.rmtree(partial, ignore_errors=True)
        remove_empty(created)
        raise
    finally:
        bar.close()
        _GENERATORS.clear()
    shutil.rmtree(partial / ".state")
    manifest.unlink()
    if out.exists():
        shutil.rmtree(out)
    os.replace(partial, out)
    return out


def _build_config(spec: ConfigSpec, gen: ConfigRows | AcpConfigRows, partial: Path, seed: int,
                  pool, bar) -> ConfigStats:
    done = partial / ".state" / f"{spec.name}.stats.json"
    if done.exists() and (partial / spec.name).is_dir():
        data = json.loads(done.read_text())
        # the file's keys are sorted: restore the recipe's split order, which the card keeps
        data["splits"] = {k: SplitStats(**data["splits"][k]) for k in spec.splits}
        bar.update(sum(s.rows for s in data["splits"].values()))
        return ConfigStats(**data)
    work = partial / f"{spec.name}.tmp"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    seen: dict[str, tuple[str, int]] = {}
    redrawn = 0
    splits: dict[str, SplitStats] = {}
    keys_by_split: dict[str, list[str]] = {}
    for split, n in spec.splits.items():
        codes = position_codes(seed, spec.name, split, n)
        # small splits of slow rows (science trajectories) still spread over all workers
        size = max(MIN_CHUNK, min(CHUNK, -(-n // (4 * _workers(pool)))))
        jobs = [(spec.name, split, s, codes[s:s + size]) for s in range(0, n, size)]
        chunks = pool.imap(_make_chunk, jobs) if pool is not None else map(_make_chunk, jobs)
        rows, keys = [], []
        for chunk in chunks:
            for columns, key in chunk:
                index = len(rows)
                attempt = 0
                while key in seen:
                    attempt += 1
                    redrawn += 1
                    if attempt > MAX_REDRAWS:
                        raise GenerationError(
                            f"config '{spec.name}': {MAX_REDRAWS} redraws in a row repeated "
                            f"earlier problems; it asks for more distinct problems than "
                            f"{_offer(spec)} offer — ask for fewer rows")
                    row = gen.row(split, index, codes[index], attempt)
                    columns, key = row.columns, row.key
                seen[key] = (split, index)
                rows.append(columns)
                keys.append(key)
            bar.update(len(chunk))
        files = write_split(work, split, rows, features_of(gen))
        splits[split] = _split_stats(rows, files)
        keys_by_split[split] = keys
    if spec.is_science:
        cfg = spec.task
        stats = ConfigStats(
            name=spec.name, description=spec.description, task=cfg.task, objects="-",
            lengths=[], query_kinds=[], names=",".join(s or "none" for s in cfg.simplifications),
            splits=splits, redrawn_duplicates=redrawn, excluded_forms=[])
    elif spec.is_acp:
        cfg = spec.task
        worlds = [w for ws in gen.worlds.values() for w in ws]
        sizes = sorted(len(w.objects) for w in worlds)
        stats = ConfigStats(
            name=spec.name, description=spec.description, task=cfg.family,
            objects=f"{sizes[0]}-{sizes[-1]}" if sizes[0] != sizes[-1] else sizes[0],
            lengths=[cfg.length], query_kinds=[cfg.form], names=cfg.domain_label,
            splits=splits, redrawn_duplicates=redrawn, excluded_forms=list(gen.excluded))
    else:
        stats = ConfigStats(
            name=spec.name, description=spec.description, task=spec.task.task,
            objects=spec.task.n_objects, lengths=list(spec.task.lengths),
            query_kinds=list(spec.task.query_kinds), names=spec.task.names, splits=splits,
            redrawn_duplicates=redrawn,
            excluded_forms=[_cell_text(c) for c in gen.excluded])
    (partial / ".state" / f"{spec.name}.keys.json").write_text(json.dumps(keys_by_split))
    final = partial / spec.name
    shutil.rmtree(final, ignore_errors=True)
    os.replace(work, final)
    done.write_text(json.dumps(asdict(stats), sort_keys=True))  # last: marks it finished
    return stats


def _workers(pool) -> int:
    return pool._processes if pool is not None else 1


def features_of(gen):
    """The declared features a config's generator writes (TRAC's unless it says)."""
    return getattr(gen, "features", None) or trac_features()


def _offer(spec: ConfigSpec) -> str:
    if spec.is_acp:
        return f"the problems of {spec.task.domain_label}"
    return f"{spec.task.n_objects} objects"


def _split_stats(rows: list[dict], files: list[str]) -> SplitStats:
    def count(values) -> dict[str, int]:
        out: dict[str, int] = {}
        for v in values:
            out[str(v)] = out.get(str(v), 0) + 1
        return dict(sorted(out.items()))

    if rows and "steps" in rows[0]:  # science gold: every trajectory reaches its score
        return SplitStats(rows=len(rows), files=files,
                          labels=count(f"final score {r['final_score']:.2f}" for r in rows),
                          query_kinds=count(r["simplifications"] or "none" for r in rows),
                          lengths=count(r["n_steps"] for r in rows))
    if rows and "form" in rows[0]:  # ACP rows: labels of bool rows, answers otherwise
        return SplitStats(rows=len(rows), files=files,
                          labels=count(r["answer"] if r["form"] != "open" else "open"
                                       for r in rows),
                          query_kinds=count(r["form"] for r in rows),
                          lengths=count(r["sequence_length"] for r in rows))
    return SplitStats(rows=len(rows), files=files,
                      labels=count("true" if r["label"] else "false" for r in rows),
                      query_kinds=count(r["query_kind"] for r in rows),
                      lengths=count(r["n_actions"] for r in rows))


def _cell_text(cell: tuple) -> str:
    return json.dumps(cell)


def _cross_config_leaks(recipe: Recipe, partial: Path) -> int:
    """Problems of any train split that reappear in another config's validation/test."""
    keys = {spec.name: json.loads((partial / ".state" / f"{spec.name}.keys.json").read_text())
            for spec in recipe.configs}
    train = {k for per in keys.values() for k in per.get("train", [])}
    return sum(1 for name, per in keys.items() for split, ks in per.items()
               if split != "train" for k in ks if k in train)
