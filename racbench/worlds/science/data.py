"""Loads the science world's data tables once (materials, archetypes, house, vocabularies, task pools)."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=None)
def load(name: str) -> dict:
    """Return the parsed JSON table `racbench/data/science/<name>.json` (cached, never mutate)."""
    text = resources.files("racbench").joinpath("data", "science", f"{name}.json").read_text(encoding="utf-8")
    table = json.loads(text)
    table.pop("_doc", None)
    return table
