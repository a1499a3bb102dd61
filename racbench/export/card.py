"""The dataset card: YAML front matter that `datasets` reads, and a body people read.

The front matter's `configs:` maps each config to its Parquet files, which is what
makes `datasets.load_dataset(DIR, CONFIG)` work offline; `dataset_info` repeats the
declared features and split sizes. The prose comes from `templates/card/README.md.j2`.
"""

from __future__ import annotations

import os
from dataclasses import asdict
from pathlib import Path

import yaml
from datasets import DatasetInfo

from .. import __version__
from ..audit import CARD_END, CARD_START
from ..generators.text import environment
from .schema import trac_features


def _features_yaml(features) -> list:
    return DatasetInfo(features=features)._to_yaml_dict()["features"]


def front_matter(recipe, stats, features: dict) -> dict:
    """`dataset_info` declares each config's own features (TRAC, ACP or science rows)."""
    return {
        "pretty_name": recipe.name,
        "language": ["en"],
        "license": "mit",
        "task_categories": ["text-classification"],
        "tags": ["reasoning-about-actions", "planning", "synthetic", "racbench"],
        "configs": [{
            "config_name": s.name,
            "data_files": [{"split": split, "path": f"{s.name}/{split}-*.parquet"}
                           for split in s.splits],
        } for s in stats],
        "dataset_info": [{
            "config_name": s.name,
            "features": _features_yaml(features.get(s.name) or trac_features()),
        } for s in stats],
    }


def render_card(recipe, seed: int, scale: float, stats, cross_config_leaks: int,
                features: dict | None = None) -> str:
    header = yaml.safe_dump(front_matter(recipe, stats, features or {}), sort_keys=False,
                            allow_unicode=True)
    body = environment().get_template("card/README.md.j2").render(
        recipe=recipe, seed=seed, scale=scale, version=__version__,
        stats=[asdict(s) for s in stats], cross_config_leaks=cross_config_leaks,
        total_rows=sum(st.rows for s in stats for st in s.splits.values()),
        audit_start=CARD_START, audit_end=CARD_END, row_kinds=_row_kinds(features or {}))
    return f"---\n{header}---\n\n{body}"


def _row_kinds(features: dict) -> list[str]:
    """Which row layouts the folder holds, to describe only their columns."""
    kinds = set()
    for f in features.values():
        kinds.add("acp" if "family" in f else "science" if "steps" in f else "trac")
    return sorted(kinds) or ["trac"]


def write_card(path: Path, recipe, seed: int, scale: float, stats, leaks: int,
               features: dict | None = None) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(render_card(recipe, seed, scale, stats, leaks, features))
    os.replace(tmp, path)
