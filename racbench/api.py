"""What `racbench.generate` and `racbench.build` run (racbench/__init__.py holds the
public functions; nothing here is public).

`generate` makes one config's rows in this process, exactly as a build makes them (the
same row maker, positions, seeds and redraws of repeated problems), without writing
files; its config comes from `racbench.suites.generate`, as `racbench generate`'s does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from racbench.suites.generate import config_name
from racbench.tasks.config import ConfigError, TaskConfig


def _rows(cfg: TaskConfig, n: int, seed: int, split: str) -> list[dict[str, Any]]:
    """The first `n` rows of the config's `split`, as a build of that size writes them."""
    from racbench.export.build import SplitRows

    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ConfigError(f"n must be a positive integer, got {n!r}")
    if cfg.form == "bool" and n % 2:
        raise ConfigError(f"n must be even for true/false rows (labels are exactly 50/50), "
                          f"got {n}")
    name = config_name(cfg)
    gen = cfg.rows(name, seed, (split,))
    return list(SplitRows(name, gen, split, n, seed, {}))


def _build(recipe: Any, out: str | Path, **options: Any) -> Path:
    """Build a recipe given by name, path or as a loaded `Recipe`."""
    from racbench.export.build import build
    from racbench.suites.recipe import Recipe, load_recipe

    loaded = recipe if isinstance(recipe, Recipe) else load_recipe(str(recipe))
    return build(loaded, Path(out), **options)
