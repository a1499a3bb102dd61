"""The public Python API behind `racbench.generate` and `racbench.build` (see racbench/__init__.py).

`generate` makes one config's rows in this process, exactly as a build makes them (the
same row maker, positions, seeds and redraws of repeated problems), without writing
files; `build` runs the build engine on a recipe.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from racbench.tasks.config import SPLITS, TRAC_DOMAIN, TRAC_FAMILIES, ConfigError, TaskConfig


def task_config(family: str, *, domain: str | None, problem: str | Sequence[str] | None,
                domain_file: str | Path | None, split: str, form: str,
                length: int | Sequence[int], objects: int | None, names: str | None,
                style: str | None, query_kinds: Sequence[str] | None) -> TaskConfig:
    """The config `generate` asks for: TRAC's world and style when no domain is named."""
    if split not in SPLITS:
        raise ConfigError(f"unknown split '{split}'; accepted: {', '.join(SPLITS)}")
    lengths = (length,) if isinstance(length, int) else tuple(length)
    problems = [problem] if isinstance(problem, (str, Path)) else list(problem or ())
    trac = domain is None and domain_file is None
    if trac and family not in TRAC_FAMILIES:
        raise ConfigError(f"family '{family}' needs a domain (domain= a shipped domain, or "
                          f"domain_file= and problem=); without one, racbench asks TRAC's "
                          f"{', '.join(TRAC_FAMILIES)} on TRAC's blocksworld")
    if trac and problems:
        raise ConfigError("problem= needs domain= or domain_file=")
    cfg = TaskConfig(
        family=family,
        domain=TRAC_DOMAIN if trac else (domain or ""),
        domain_file=str(domain_file or ""),
        form=form,
        lengths=lengths,
        problems={split: tuple(str(p) for p in problems)} if problems else {},
        objects=(5 if objects is None else objects) if trac else objects,
        names=names or ("seen" if trac else "problem"),
        style=style or ("trac" if trac else "acp"),
        query_kinds=tuple(query_kinds) if query_kinds else ("literal", "conjunction"),
    )
    return cfg.validate()


def config_name(cfg: TaskConfig) -> str:
    """The name `racbench generate` gives a config (row ids and seeds derive from it)."""
    if cfg.style == "trac":
        return f"{cfg.family}_{'_'.join(f'L{n}' for n in cfg.lengths)}"
    return f"{cfg.family}_{cfg.form}"


def generate_rows(cfg: TaskConfig, n: int, seed: int, split: str) -> list[dict]:
    from racbench.export.build import SplitRows

    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ConfigError(f"n must be a positive integer, got {n!r}")
    if cfg.form == "bool" and n % 2:
        raise ConfigError(f"n must be even for true/false rows (labels are exactly 50/50), "
                          f"got {n}")
    name = config_name(cfg)
    gen = cfg.rows(name, seed, (split,))
    return list(SplitRows(name, gen, split, n, seed, {}))


def build_recipe(recipe, out: str | Path, **options) -> Path:
    from racbench.export.build import build
    from racbench.suites.recipe import Recipe, load_recipe

    loaded = recipe if isinstance(recipe, Recipe) else load_recipe(str(recipe))
    return build(loaded, Path(out), **options)
