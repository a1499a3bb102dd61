"""Rows built by the real generators for the scoring tests: ACP families on shipped
domains (small problems) and TRAC rows."""

import json

from racbench.generators.base import TaskConfig
from racbench.generators.rows import ConfigRows
from racbench.tasks.config import AcpConfig
from racbench.tasks.rows import AcpConfigRows
from racbench.tasks.symbolic import symbolic_task

SMALL = {"test": ("p04", "p05", "p06")}
_CACHE: dict = {}


def acp_rows(family: str, domain: str, form: str, n: int = 3) -> list[dict]:
    key = (family, domain, form, n)
    if key not in _CACHE:
        cfg = AcpConfig(family=family, domain=domain, form=form, length=2, problems=SMALL)
        gen = AcpConfigRows(f"s_{family}_{domain}_{form}", cfg, 5, ("test",))
        _CACHE[key] = [gen.row("test", i, i).columns for i in range(n)]
    return _CACHE[key]


def trac_rows(task: str, n: int = 6) -> list[dict]:
    key = ("trac", task, n)
    if key not in _CACHE:
        gen = ConfigRows("s_trac", TaskConfig(task, 4, (1,)), 5)
        _CACHE[key] = [gen.row("train", i, i).columns for i in range(n)]
    return _CACHE[key]


def task_of(row: dict):
    """The row's problem, to phrase its answer the way the row phrases facts and actions."""
    return symbolic_task(row["symbolic"], json.loads(row["metadata"])["render"])
