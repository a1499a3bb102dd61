"""`racbench show`: rows of a built config, printed readably through templates/cli/show.j2."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

from racbench.errors import InputError
from racbench.text import environment

SPLIT_ORDER = ("train", "validation", "test")


def show_rows(directory: Path, config: str, count: int, split: str | None) -> Iterator[str]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = Path(directory) / config
    if not folder.is_dir():
        available = sorted(p.name for p in Path(directory).iterdir() if p.is_dir()
                           and not p.name.startswith(".")) if Path(directory).is_dir() else []
        raise InputError(f"no config '{config}' in {directory}; available: "
                         f"{', '.join(available) or 'none (is this a racbench folder?)'}")
    files = sorted(folder.glob("*.parquet"))
    splits = sorted({f.name.split("-")[0] for f in files},
                    key=lambda s: (SPLIT_ORDER.index(s) if s in SPLIT_ORDER else 3, s))
    if not splits:
        raise InputError(f"no Parquet files in {folder}")
    chosen = split or splits[0]
    if chosen not in splits:
        raise InputError(f"no '{chosen}' split in {folder}; available: {', '.join(splits)}")
    path = next(f for f in files if f.name.startswith(chosen + "-"))
    try:
        rows = pq.read_table(path).slice(0, count).to_pylist()
    except (pa.ArrowException, OSError) as exc:
        raise InputError(f"{path}: not a readable Parquet file "
                         f"({' '.join(str(exc).split())})") from None
    template = environment().get_template("cli/show.j2")
    for row in rows:
        yield template.render(row=row, label="true" if row.get("label") == 1 else "false")
