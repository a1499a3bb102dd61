from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COMPETITION_PDDL = ROOT / "tests" / "data" / "pddl"  # see its README.md: where they come from


@pytest.fixture
def competition_pddl() -> Path:
    return COMPETITION_PDDL
