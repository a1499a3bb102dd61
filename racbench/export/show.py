"""`racbench show`: rows of a built config, printed readably through templates/cli/show.j2."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

from racbench.errors import InputError
from racbench.export.layout import config_dirs, read_columns, split_files
from racbench.text import environment, sayer

_say = sayer("cli", ("dataset.j2",))


# the columns show.j2 prints for each kind of row a build writes
ROW_LAYOUTS = {
    "task": {"id", "family", "form", "domain", "problem", "n_objects", "context", "question",
             "answer", "optimal_plan_length"},
    "trajectory": {"id", "task", "variation", "split", "n_steps", "final_score",
                   "task_description", "steps"},
    "step": {"id", "task", "variation", "split", "step", "n_steps", "task_description",
             "history", "observation", "action"},  # behaviour cloning, return-conditioned
}


def show_rows(directory: Path, config: str, count: int, split: str | None) -> Iterator[str]:
    folder = Path(directory) / config
    if not folder.is_dir():
        available = [p.name for p in config_dirs(directory)]
        raise InputError(_say("no_such_config", config=config, folder=directory,
                              available=available))
    splits = split_files(folder)
    if not splits:
        raise InputError(_say("no_parquet_files", folder=folder))
    chosen = split or next(iter(splits))
    if chosen not in splits:
        raise InputError(_say("no_such_split", split=chosen, folder=folder,
                              available=list(splits)))
    path = splits[chosen][0]
    table = read_columns(path)  # DamagedShard names a file pyarrow cannot read
    layout = next((name for name, columns in ROW_LAYOUTS.items()
                   if columns <= set(table.column_names)), None)
    if layout is None:
        raise InputError(_say("not_rows", path=path, **{
            name: sorted(columns) for name, columns in ROW_LAYOUTS.items()}))
    template = environment().get_template("cli/show.j2")
    for row in table.slice(0, count).to_pylist():
        yield template.render(row=row, layout=layout)
