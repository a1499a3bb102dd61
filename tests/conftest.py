import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COMPETITION_PDDL = ROOT / "tests" / "data" / "pddl"  # see its README.md: where they come from


@pytest.fixture
def competition_pddl() -> Path:
    return COMPETITION_PDDL


# Authoring scripts (tools/) are not part of the package; tests import them by path.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
