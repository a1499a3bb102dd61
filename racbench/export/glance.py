"""What readers look at first in a card: each config's rows per split, answer balance and
difficulty (objects, sequence length, optimal plan length), read back from the written
shards, so that a resumed build and an uninterrupted one show the same figures.

`glance(folder, stats)` gives per config and column a Counter of values per split;
`summaries` turns them into the table cells of the card, `plots.py` into its figures.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow.parquet as pq

# the difficulty columns (the card's templates name them); science trajectories have none
DIFFICULTY = ("n_objects", "sequence_length", "optimal_plan_length")
NO_PLAN = "none"  # optimal_plan_length is null: no plan reaches the row's goal


PROBLEM = "problem"  # the problem file (stem) a task row was drawn from
MAX_PROBLEMS_LISTED = 12  # a split drawing on more is summarised by their number


@dataclass
class Glance:
    """One config: counts of each difficulty column's values per split, of answers
    (bool: true/false, mc: letters) per split, and of the problems each split's rows
    were drawn from (empty for rows without a problem column)."""

    name: str
    row_kind: str
    rows: dict[str, int]
    answers: dict[str, Counter]
    columns: dict[str, dict[str, Counter]]
    problems: dict[str, Counter] = field(default_factory=dict)


def glance(folder: Path, stats) -> list[Glance]:
    out = []
    for s in stats:
        columns: dict[str, dict[str, Counter]] = {}
        problems: dict[str, Counter] = {}
        for split, st in s.splits.items():
            for name in st.files:
                shard = pq.ParquetFile(Path(folder) / s.name / name)
                present = [c for c in DIFFICULTY if c in shard.schema_arrow.names]
                has_problem = PROBLEM in shard.schema_arrow.names
                table = shard.read(columns=present + ([PROBLEM] if has_problem else []))
                for column in present:
                    counts = columns.setdefault(column, {}).setdefault(split, Counter())
                    counts.update(NO_PLAN if v is None else v
                                  for v in table.column(column).to_pylist())
                if has_problem:
                    problems.setdefault(split, Counter()).update(
                        table.column(PROBLEM).to_pylist())
        answers = ({split: Counter(st.labels) for split, st in s.splits.items()}
                   if s.row_kind in ("bool", "mc") else {})
        out.append(Glance(s.name, s.row_kind, {k: v.rows for k, v in s.splits.items()},
                          answers, columns, problems))
    return out


def answer_shares(g: Glance) -> list[tuple[str, float]]:
    """(answer, share of the config's rows) in answer order, over all splits."""
    total = Counter()
    for counts in g.answers.values():
        total.update(counts)
    n = sum(total.values())
    return [(answer, total[answer] / n) for answer in sorted(total)] if n else []


def spread(g: Glance, column: str, split: str | None = None) -> dict | None:
    """min, max and mean of a column over all splits, or over `split` alone (numbers
    only), and how many rows have no value (no plan); None if the config has no such
    column."""
    if column not in g.columns:
        return None
    total = Counter()
    for name, counts in g.columns[column].items():
        if split is None or name == split:
            total.update(counts)
    numbers = {v: n for v, n in total.items() if v != NO_PLAN}
    count = sum(numbers.values())
    return {"min": min(numbers) if numbers else None, "max": max(numbers) if numbers else None,
            "mean": sum(v * n for v, n in numbers.items()) / count if count else None,
            "missing": total.get(NO_PLAN, 0)}


def split_problems(g: Glance, split: str) -> dict:
    """The problems a split's rows were drawn from: their names, sorted (None when
    there are more than MAX_PROBLEMS_LISTED), and how many there are."""
    names = sorted(g.problems.get(split, ()))
    return {"names": names if len(names) <= MAX_PROBLEMS_LISTED else None,
            "count": len(names)}
