"""Rewrite the shipped STRIPS problem files and domains.yaml byte-identically.

The generators live in the package (`racbench/worlds/strips/generators.py`), where the
difficulty levels' generated problems come from too; this script runs them:

    python tools/problem_generators.py
"""

from __future__ import annotations

from racbench.worlds.strips.generators import *  # noqa: F401,F403 (tests import them here)
from racbench.worlds.strips.generators import main

if __name__ == "__main__":
    raise SystemExit(main())
