"""The two pure jobs an engine runs for a build: probe a config, and make a chunk of
rows. build.py plans, deduplicates and writes; engines (engines.py: a fork pool here,
ray_engine.py: Ray tasks) only run these, so the bytes never depend on where they ran.
"""

from __future__ import annotations

GC_EVERY = 100_000  # container allocations between young collections while building

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
    gen = generator(name)
    out = []
    for offset, code in enumerate(codes):
        row = gen.row(split, start + offset, code)
        out.append((row.columns, row.key, row.dropped))
    return out


def probe_job(args: tuple):
    """A config's probe, or one share of it (`part`) where its config splits it."""
    name, cfg, seed, splits, part = args
    return cfg.probe(name, seed, splits) if part is None else \
        cfg.probe_part(name, seed, splits, part)
