"""The dataset card: YAML front matter that the Hub and `datasets` read, a body people read.

The body opens with what readers look at first: a table of every config's rows per
split, answer balance and difficulty, and figures of those distributions (PNGs
beside the card, see plots.py), read back from the written shards (glance.py).

The front matter carries the Hub's tags (licence, size bucket, task categories of the
row kinds present), `configs:` mapping each config's splits to its Parquet files (the
first is the default, which `load_dataset(DIR)` loads) and `dataset_info` with each
split's size. It stays small whatever the number of configs: features are not repeated
there, since every shard carries them in its schema metadata and `load_dataset` restores
them from it, and each config's long detail goes to configs.json beside the card. The
prose comes from `templates/card/README.md.j2`.
"""

from __future__ import annotations

import os
from pathlib import Path

import yaml

from racbench.version import __version__
from racbench.export.card_section import CARD_END, CARD_START
from racbench.text import environment
from racbench.export.licenses import DEFAULT_LICENSE
from racbench.export.details import CONFIGS_FILE, render_details
from racbench.export.glance import (DIFFICULTY, Glance, answer_shares, glance, split_problems,
                                    spread)
from racbench.export.plots import write_plots
from racbench.export.hub import size_category, task_tags
from racbench.export.splitinfo import split_size

TAGS = ["reasoning-about-actions", "planning", "synthetic", "racbench"]
# which table of columns the card shows for a config's row kind (questions: "task")
ROW_KIND_COLUMNS = {"trajectory": "science", "behaviour_cloning": "steps",
                    "return_conditioned": "steps"}



class _Flow(list):
    """A list written on one line: a config's data files or split sizes."""


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data) -> bool:  # plain YAML, no anchors, for every reader
        return True


_Dumper.add_representer(
    _Flow, lambda dumper, data: dumper.represent_sequence("tag:yaml.org,2002:seq", data,
                                                          flow_style=True))


def front_matter(recipe, stats, sizes: dict) -> dict:
    categories, task_ids = task_tags(s.row_kind for s in stats)
    meta = {
        "pretty_name": recipe.name,
        "license": recipe.license,
        "language": ["en"],
        "annotations_creators": ["machine-generated"],
        "language_creators": ["machine-generated"],
        "multilinguality": ["monolingual"],
        "size_categories": [size_category(_total_rows(sizes))],
        "task_categories": categories,
    }
    if task_ids:
        meta["task_ids"] = task_ids
    meta["tags"] = TAGS
    meta["configs"] = [{
        "config_name": s.name,
        "data_files": _Flow({"split": split, "path": f"{s.name}/{split}-*.parquet"}
                            for split in s.splits),
        **({"default": True} if i == 0 else {}),
    } for i, s in enumerate(stats)]
    meta["dataset_info"] = [{
        "config_name": s.name,
        "splits": _Flow({"name": split, "num_bytes": sizes[s.name][split][1],
                         "num_examples": sizes[s.name][split][0]} for split in s.splits),
    } for s in stats]
    return meta


def _glance_rows(glances: list) -> list[dict]:
    """The 'At a glance' table's cells of each config, and its 'Per split' cells: each
    split's problems and difficulty, for generalization splits (small problems in
    train, larger ones in test) that the pooled figures would hide."""
    return [{"name": g.name, "rows": g.rows, "shares": answer_shares(g),
             **{column: spread(g, column) for column in DIFFICULTY},
             "splits": [{"split": split, "rows": n, "problems": split_problems(g, split),
                         **{column: spread(g, column, split) for column in DIFFICULTY}}
                        for split, n in g.rows.items()]} for g in glances]


def render_card(recipe, seed: int, scale: float, stats, cross_config_leaks: int,
                sizes: dict, glances: list = (), plots: list = ()) -> str:
    header = yaml.dump(front_matter(recipe, stats, sizes), Dumper=_Dumper, sort_keys=False,
                       allow_unicode=True, width=1 << 16)
    body = environment().get_template("card/README.md.j2").render(
        glances=_glance_rows(glances), plots=plots,
        recipe=recipe, seed=seed, scale=scale, version=__version__, stats=stats,
        sizes=sizes, cross_config_leaks=cross_config_leaks, total_rows=_total_rows(sizes),
        default_license=DEFAULT_LICENSE, configs_file=CONFIGS_FILE,
        audit_start=CARD_START, audit_end=CARD_END,
        row_kinds=sorted({ROW_KIND_COLUMNS.get(s.row_kind, "task") for s in stats}))
    return f"---\n{header}---\n\n{body}"


def _total_rows(sizes: dict) -> int:
    return sum(rows for per in sizes.values() for rows, _ in per.values())


def config_reads(folder: Path, stat) -> tuple[dict, Glance]:
    """What the card reads of one config's shards: each split's size (split_size) and
    the config's glance."""
    folder = Path(folder)
    sizes = {split: split_size(folder / stat.name, st.files)
             for split, st in stat.splits.items()}
    return sizes, glance(folder, [stat])[0]


def write_card(folder: Path, recipe, seed: int, scale: float, stats, leaks: int,
               reads: list | None = None) -> None:
    """README.md and configs.json of a folder whose shards are written; `reads`: each
    config's `config_reads`, if made elsewhere (a build's workers), else made here."""
    folder = Path(folder)
    if reads is None:
        reads = [config_reads(folder, s) for s in stats]
    sizes = {s.name: sizes for s, (sizes, _) in zip(stats, reads)}
    glances = [seen for _, seen in reads]
    plots = write_plots(folder, glances)
    _write(folder / CONFIGS_FILE, render_details(recipe, seed, scale, stats, leaks, sizes))
    _write(folder / "README.md", render_card(recipe, seed, scale, stats, leaks, sizes,
                                             glances, plots))


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
