"""Small ACP generators shared by the ACP tests (real shipped PDDL files)."""

import pytest

from racbench.tasks.config import TaskConfig
from racbench.tasks.rows import ConfigRows

# Small problems keep the whole folder fast; one split is enough for label checks.
SMALL = {"test": ("p04", "p05", "p06")}
_CACHE: dict = {}


def rows_of(family: str, domain: str, form: str, n: int = 12, length: int = 2):
    key = (family, domain, form, n, length)
    if key not in _CACHE:
        cfg = TaskConfig(family=family, domain=domain, form=form, lengths=(length,),
                        problems=SMALL)
        gen = ConfigRows(f"t_{family}_{domain}_{form}", cfg, 11, ("test",))
        _CACHE[key] = [gen.row("test", i, i).columns for i in range(n)]
    return _CACHE[key]


@pytest.fixture
def make_rows():
    return rows_of
