"""Verifying a built folder: its configs and shards (racbench/export/layout.py),
rows in chunks over worker processes, one RowCheck per row, the report."""

from __future__ import annotations

import json
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Callable, Iterator, Sequence

from racbench.checks.verify.engines import FD_TIMEOUT, Engine, fd_available, up_available
from racbench.checks.verify.families import check_row
from racbench.checks.verify.fd_context import FD_SEARCH, FdContext
from racbench.checks.verify.fd_search import downward_binary, translator_available
import racbench.checks.verify.replay_imitation as replay_imitation
from racbench.checks.verify.replay import check_science_row
from racbench.checks.verify.replay_next_observation import check_next_observation
from racbench.checks.verify.replay_rules import check_rule_row
from racbench.checks.verify.report import (Claims, EngineMissing, Mismatch, NotADataset,
                                          RowCheck, Skip, Unchecked, VerifyReport)
from racbench.checks.verify.words import say, unusable
from racbench.export.layout import (DamagedShard, config_dirs, num_rows, reading, schema,
                                    split_files)



#: Engine names in RowCheck.engines (fd_context.py names Fast Downward's two).
UP = "unified-planning"
REPLAY = "replay"

#: Rows sent to a worker process at a time.
CHUNK_ROWS = 64

#: Packages of the independent checkers: an exception raised inside them means the checker
#: could not run on the row (unchecked), not that the row is malformed.
ENGINE_PACKAGES = ("unified_planning", "up_fast_downward")


_ENGINE: Engine | None = None
_ENGINE_SETTINGS: tuple | None = None


def engine_for(optimal: bool, fd_timeout: float) -> Engine:
    global _ENGINE, _ENGINE_SETTINGS
    if _ENGINE is None or _ENGINE_SETTINGS != (optimal, fd_timeout):
        _ENGINE = Engine(optimal, fd_timeout)
        _ENGINE_SETTINGS = (optimal, fd_timeout)
    return _ENGINE


def verify_row(row: dict, *, optimal: bool | None = None,
               fd_timeout: float = FD_TIMEOUT) -> RowCheck:
    """Re-derive one row's label (and optimal_plan_length) from its ``symbolic`` JSON
    (science-lab, rule-world and next-observation rows by replay: replay_imitation.py,
    replay.py, replay_rules.py, replay_next_observation.py).

    A planning row goes to unified-planning first; where it refuses (no engine for the
    problem's features, an error inside it or inside Fast Downward run through it), to
    Fast Downward's translator, our finite-domain stepper and Fast Downward's search
    (fd_context.py). ``RowCheck.engines`` names the engines that answered.

    ``optimal``: run the Fast Downward checks (default: when it is installed)."""
    replayed = replay_imitation.check(row)
    if replayed is not None:
        if not replayed.unchecked:
            replayed.engines = replayed.engines or [REPLAY]
        return replayed
    claims = Claims()
    engines = [REPLAY]
    try:
        sym = row["symbolic"]
        sym = json.loads(sym) if isinstance(sym, str) else sym
        if not isinstance(sym, dict):
            raise ValueError(say("symbolic_not_object"))
        if "family" not in sym:
            raise ValueError(say("symbolic_no_family"))
        if sym["family"] == "next_observation":  # replayed in a fresh environment
            check_next_observation(row, sym, claims)
        elif sym.get("world") == "science":  # replayed in a fresh simulator
            check_science_row(row, sym, claims)
        elif sym.get("world") == "rules":  # replayed in a fresh episode
            check_rule_row(row, sym, claims)
        else:
            if not up_available():
                raise EngineMissing(say("needs_unified_planning"))
            if optimal is None:
                optimal = fd_available()
            engine = engine_for(bool(optimal), fd_timeout)
            searches, engines = engine.searches, [UP]
            try:
                check_row(engine, row, sym, claims)
            except Skip:
                raise
            except Unchecked as exc:  # unified-planning refused: Fast Downward alone
                return _fd_check(row, sym, bool(optimal), fd_timeout, str(exc))
            except (KeyError, ValueError, TypeError, IndexError) as exc:
                if not _raised_in_engine(exc):
                    raise
                return _fd_check(row, sym, bool(optimal), fd_timeout, _engine_error(exc))
            except Exception as exc:  # an engine error on this row
                return _fd_check(row, sym, bool(optimal), fd_timeout, _engine_error(exc))
            if engine.searches > searches:
                engines.append(FD_SEARCH)
    except Skip as skip:
        claims.skip("label", str(skip))
    except Unchecked as exc:  # the engines could not run: the row is unchecked, not wrong
        return claims.result(unchecked=str(exc))
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        if _raised_in_engine(exc):
            return claims.result(unchecked=_engine_error(exc))
        claims.fail("symbolic", unusable(exc))
    except Exception as exc:  # an engine error on this row: it is unchecked, go on
        return claims.result(unchecked=_engine_error(exc))
    return claims.result(engines=engines)


def _engine_error(exc: BaseException) -> str:
    return say("engine_error", kind=type(exc).__name__, text=" ".join(str(exc).split())[:160])


def _fd_check(row: dict, sym: dict, optimal: bool, fd_timeout: float,
              refused: str) -> RowCheck:
    """The row's claims by Fast Downward's translator, the finite-domain stepper and
    Fast Downward's search, after unified-planning refused it (`refused`: why)."""
    if not translator_available():
        return Claims().result(unchecked=say("neither_engine", up=refused, fd=None))
    claims = Claims()
    made: list[FdContext] = []

    def context(row: dict, sym: dict) -> FdContext:
        made.append(FdContext(row, sym, fd_timeout, optimal and downward_binary() is not None))
        return made[-1]

    try:
        check_row(None, row, sym, claims, context=context)
    except Skip as skip:
        claims.skip("label", str(skip))
    except Unchecked as exc:
        return claims.result(unchecked=say("neither_engine", up=refused, fd=str(exc)))
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        claims.fail("symbolic", unusable(exc))
    except Exception as exc:
        return claims.result(unchecked=say("neither_engine", up=refused,
                                           fd=_engine_error(exc)))
    return claims.result(engines=sorted(made[0].used) if made else [])


def _raised_in_engine(exc: BaseException) -> bool:
    """Whether ``exc`` was raised inside a checker's own code (unified-planning's grounder
    failing on a problem it cannot ground, say), judged by the frame that raised it."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return False
    parts = Path(tb.tb_frame.f_code.co_filename).parts
    return any(package in parts for package in ENGINE_PACKAGES)


def _verify_chunk(job: tuple) -> list[tuple[str, str, str, RowCheck]]:
    config, split, rows, optimal, fd_timeout = job
    out = []
    for row in rows:
        out.append((config, split, str(row.get("id", "?")),
                    verify_row(row, optimal=optimal, fd_timeout=fd_timeout)))
    return out




def find_configs(root: Path) -> dict[str, dict[str, list[Path]]]:
    """config -> split -> Parquet files.  ``root`` is a dataset folder (configs as
    subfolders) or one config folder."""
    root = Path(root)
    if not root.is_dir():
        raise NotADataset(say("no_such_folder", root=root))
    folders = [root] if any(root.glob("*.parquet")) else config_dirs(root)
    configs = {folder.name: split_files(folder) for folder in folders}
    if not configs:
        raise NotADataset(say("no_config_folders", root=root))
    for name, splits in configs.items():
        for files in splits.values():
            try:
                columns = schema(files[0]).names
            except DamagedShard as exc:  # the words every command says, on one line
                raise NotADataset(str(exc)) from None
            if "symbolic" not in columns and not replay_imitation.replays(columns):
                raise NotADataset(say("no_symbolic_column", root=root,
                                      file=files[0].relative_to(root.parent)))
    return configs


def _iter_rows(files: Sequence[Path], limit: int | None) -> Iterator[dict]:
    """The rows of a split, shard by shard. A shard whose footer reads well but whose
    pages do not stops verify as every command stops (`DamagedShard`, exit 2)."""
    import pyarrow.parquet as pq

    left = limit
    for f in files:
        with reading(f):
            batches = pq.ParquetFile(f).iter_batches(batch_size=1024)
        while True:
            with reading(f):  # the pages are read here, batch by batch
                batch = next(batches, None)
                rows = None if batch is None else batch.to_pylist()
            if rows is None:
                break
            if left is not None:
                rows = rows[:left]
                left -= len(rows)
            yield from rows
            if left is not None and left <= 0:
                return


def _split_limits(splits: dict[str, list[Path]], limit: int | None) -> dict[str, int]:
    """Rows to check per split: all, or `limit` spread over the splits (first splits
    take the remainder; a split with fewer rows hands its share on). Every shard's
    footer is read here, before any row is checked: a damaged one (not only a split's
    first, which `find_configs` reads) stops verify with the message every command gives."""
    sizes = {s: sum(num_rows(f) for f in files) for s, files in splits.items()}
    if limit is None:
        return sizes
    out = {s: 0 for s in splits}
    left = limit
    while left > 0 and any(out[s] < sizes[s] for s in splits):
        open_ = [s for s in splits if out[s] < sizes[s]]
        share, extra = divmod(left, len(open_))
        for i, s in enumerate(open_):
            take = min(sizes[s] - out[s], share + (1 if i < extra else 0))
            out[s] += take
            left -= take
    return out


def _jobs(configs, limits, optimal, fd_timeout) -> Iterator[tuple]:
    for config, splits in configs.items():
        for split, files in splits.items():
            if limits[config][split] == 0:
                continue
            chunk: list[dict] = []
            for row in _iter_rows(files, limits[config][split]):
                chunk.append(row)
                if len(chunk) == CHUNK_ROWS:
                    yield (config, split, chunk, optimal, fd_timeout)
                    chunk = []
            if chunk:
                yield (config, split, chunk, optimal, fd_timeout)


def verify_dataset(root: Path, *, limit: int | None = None,
                   configs: Sequence[str] | None = None, optimal: bool | None = None,
                   require_optimal: bool = False, jobs: int | None = 1,
                   fd_timeout: float = FD_TIMEOUT, require_checked: bool = False,
                   per_row: bool = False,
                   progress: Callable[[int], None] | None = None) -> VerifyReport:
    """Verify up to ``limit`` rows per config (default all) of the dataset at ``root``.

    ``optimal``: run Fast Downward checks (None: when installed; a note says when it is
    not, unless ``require_optimal`` which raises EngineMissing); ``jobs``: worker
    processes (None: all cores); ``require_checked``: an unchecked row fails the run
    (exit code 3); ``per_row``: keep one line per row naming the engines that answered
    it (``report.row_lines``).  Raises NotADataset for a folder that is not one."""
    root = Path(root)
    found = find_configs(root)
    if not up_available():
        raise EngineMissing(say("needs_unified_planning"))
    if configs:
        unknown = [c for c in configs if c not in found]
        if unknown:
            raise NotADataset(say("unknown_configs", unknown=unknown, root=root, found=found))
        found = {c: found[c] for c in configs}
    report = VerifyReport(root, require_checked=require_checked)
    have_fd = fd_available()
    if optimal is None or optimal:
        if not have_fd:
            if require_optimal:
                raise EngineMissing(say("fd_missing"))
            report.notes.append(say("fd_missing_skipping"))
        report.optimal = have_fd
    if not translator_available():
        report.notes.append(say("translator_missing_note"))
    limits = {config: _split_limits(splits, limit) for config, splits in found.items()}
    chunks = sum(-(-n // CHUNK_ROWS) for per_split in limits.values() for n in per_split.values())
    work = _jobs(found, limits, report.optimal, fd_timeout)
    workers = min(jobs or os.cpu_count() or 1, chunks)

    def collect(results) -> None:
        for config, split, row_id, check in results:
            report.rows[config] += 1
            report.checked.update(check.checked)
            report.skipped.update(check.skipped)
            if check.unchecked:
                report.unchecked[check.unchecked] += 1
            report.engines.update(check.engines)
            if per_row:
                report.row_lines.append(say("row_engines", config=config, split=split,
                                            row_id=row_id, unchecked=check.unchecked,
                                            engines=check.engines))
            if not check.ok:
                report.mismatches.append(Mismatch(config, split, row_id, check.message))
        if progress is not None:
            progress(len(results))

    if workers <= 1:
        for job in work:
            collect(_verify_chunk(job))
    else:
        # Bounded submission: at most 2 chunks per worker in flight.
        from collections import deque

        with ProcessPoolExecutor(max_workers=workers) as pool:
            pending: deque = deque()
            for job in work:
                pending.append(pool.submit(_verify_chunk, job))
                if len(pending) >= 2 * workers:
                    collect(pending.popleft().result())
            while pending:
                collect(pending.popleft().result())
    for name in found:
        report.rows.setdefault(name, 0)
    return report
