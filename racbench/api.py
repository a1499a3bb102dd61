"""What `racbench.generate` and `racbench.build` run (racbench/__init__.py holds the
public functions; nothing here is public).

`generate` makes one config's rows in this process, exactly as a build makes them (the
same row maker, positions, seeds and redraws of repeated problems), without writing
files; its config comes from `racbench.suites.generate`, as `racbench generate`'s does,
or for the science lab's gold rows (`science=TASK`) from a ScienceGoldConfig.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from racbench.suites.generate import config_name
from racbench.tasks.config import ConfigError, TaskConfig
from racbench.text import sayer

_say = sayer("cli", ("api.j2",))


def _rows(cfg: TaskConfig, n: int, seed: int, split: str) -> list[dict[str, Any]]:
    """The first `n` rows of the config's `split`, as a build of that size writes them."""
    from racbench.export.build import SplitRows

    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ConfigError(_say("bad_n", n=repr(n)))
    if cfg.form == "bool" and n % 2:
        raise ConfigError(_say("odd_bool_n", n=n))
    name = config_name(cfg)
    gen = cfg.rows(name, seed, (split,))
    return list(SplitRows(name, gen, split, n, seed, {}))


def _gold_rows(kind: str, task: str, n: int, split: str, simplifications: str,
               history: int | None, valid_actions: bool, dataset: bool):
    """The first `n` gold rows (trajectories, or behaviour-cloning or return-conditioned
    steps) of one science task's `split`, as a build of that config writes them."""
    from racbench.export.build import SplitRows
    from racbench.tasks.gold_trajectories import (DEFAULT_HISTORY, ROW_KINDS,
                                                  ScienceGoldConfig)

    if kind not in ROW_KINDS:
        raise ConfigError(_say("bad_gold_kind", kinds=ROW_KINDS, kind=repr(kind)))
    if kind == "trajectory" and history is not None:
        raise ConfigError(_say("history_of_trajectory"))
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ConfigError(_say("bad_n", n=repr(n)))
    if not isinstance(simplifications, str):
        raise ConfigError(_say("bad_simplifications", value=repr(simplifications)))
    cfg = ScienceGoldConfig(str(task), (simplifications,), bool(valid_actions), kind,
                            DEFAULT_HISTORY if history is None else history)
    try:
        cfg.validate()
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    if split not in ("train", "validation", "test"):
        raise ConfigError(_say("unknown_split", split=repr(split)))
    gen = cfg.rows(f"{kind}-{task}", 0, (split,))
    if n > gen.capacity(split):
        raise ConfigError(_say("too_many_gold_rows", split=repr(split), task=task,
                               capacity=gen.capacity(split)))
    rows = list(SplitRows(f"{kind}-{task}", gen, split, n, 0, {}))
    if not dataset:
        return rows
    import datasets

    return datasets.Dataset.from_list(rows, features=gen.features)


def _build(recipe: Any, out: str | Path, **options: Any) -> Path:
    """Build a recipe given by name, path or as a loaded `Recipe`."""
    from racbench.export.build import build
    from racbench.suites.recipe import Recipe, load_recipe

    loaded = recipe if isinstance(recipe, Recipe) else load_recipe(str(recipe))
    return build(loaded, Path(out), **options)
