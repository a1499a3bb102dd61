"""Rows built by the real generators for the scoring tests: ACP families on shipped
domains (small problems) and TRAC rows."""

import pytest

from racbench.tasks.config import TRAC_DOMAIN, TaskConfig
from racbench.tasks.rows import ConfigRows

SMALL = {"test": ("p04", "p05", "p06")}
_CACHE: dict = {}


def _acp_rows(family: str, domain: str, form: str, n: int = 3) -> list[dict]:
    key = (family, domain, form, n)
    if key not in _CACHE:
        cfg = TaskConfig(family=family, domain=domain, form=form, lengths=(2,), problems=SMALL)
        gen = ConfigRows(f"s_{family}_{domain}_{form}", cfg, 5, ("test",))
        _CACHE[key] = [gen.row("test", i, i).columns for i in range(n)]
    return _CACHE[key]


def _trac_rows(task: str, n: int = 6) -> list[dict]:
    key = ("trac", task, n)
    if key not in _CACHE:
        cfg = TaskConfig(task, domain=TRAC_DOMAIN, objects=4, lengths=(1,), names="seen",
                         style="trac")
        gen = ConfigRows("s_trac", cfg, 5, ("train",))
        _CACHE[key] = [gen.row("train", i, i).columns for i in range(n)]
    return _CACHE[key]


@pytest.fixture
def acp_rows():
    """acp_rows(family, domain, form, n): n rows of one ACP config (cached)."""
    return _acp_rows


@pytest.fixture
def trac_rows():
    """trac_rows(task, n): n TRAC rows of one task (cached)."""
    return _trac_rows
