import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COMPETITION_PDDL = ROOT / "tests" / "data" / "pddl"  # see its README.md: where they come from


@pytest.fixture
def competition_pddl() -> Path:
    return COMPETITION_PDDL


@pytest.fixture
def flip_first_label():
    """flip(folder, config): the first train row of a built config with its answer
    negated in `symbolic` and `label`, written back; returns the row's id (verify
    must then report that row, and only it)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from racbench.export.layout import split_files

    def flip(folder: Path, config: str) -> str:
        path = split_files(folder / config)["train"][0]
        table = pq.read_table(path).to_pylist()
        sym = json.loads(table[0]["symbolic"])
        sym["answer"] = not sym["answer"]
        table[0]["symbolic"] = json.dumps(sym)
        table[0]["label"] = int(sym["answer"])
        pq.write_table(pa.Table.from_pylist(table, schema=pq.read_schema(path)), path)
        return table[0]["id"]

    return flip


# Authoring scripts (tools/) are not part of the package; tests import them by path.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))


def _shown_kind(family: str, sym: dict):
    """What a bool question shows of its subject besides object names (its cell's kind),
    from the row's symbolic form."""
    types = sym["objects"]

    def literal(lit):
        return (lit["positive"], lit["atom"][0]) + tuple(types[a] for a in lit["atom"][1:])

    if family == "projection":
        return tuple(literal(lit) for lit in sym["subject"])
    if family in ("planning", "goal_recognition"):
        return tuple(literal(lit) for lit in sym["goal"])
    if family == "executability":
        return tuple(a[0] for a in sym["actions"])
    if family == "applicability":
        return (sym["subject"][0],) + tuple(types[a] for a in sym["subject"][1:])
    if family == "validation":
        return ()
    return json.dumps(sym["subject"])


@pytest.fixture
def shown_kind():
    """shown_kind(family, symbolic): the kind of subject a bool row asks about."""
    return _shown_kind


# -- how many xdist workers `-n auto` starts, and the order files are handed to them

def pytest_xdist_auto_num_workers(config):
    """One worker more than the cores this process may run on: some files mostly wait
    (Ray joining and restarting, ScienceWorld's JVM, subprocess builds), and a third
    worker runs another file on the core a waiting one leaves idle."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1


def pytest_collection_modifyitems(config, items):
    from slow_files import costliest_first

    costliest_first(items)
