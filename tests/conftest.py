from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_PDDL = ROOT.parent / "shared" / "pddl"


@pytest.fixture
def shared_pddl() -> Path:
    if not SHARED_PDDL.is_dir():
        pytest.skip(f"planning-competition files not found at {SHARED_PDDL} (../shared absent)")
    return SHARED_PDDL
