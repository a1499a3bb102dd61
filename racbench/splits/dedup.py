"""Canonical problem keys for duplicate and leakage checks."""

from __future__ import annotations

import hashlib
import json

_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"))


def canonical_json(value) -> str:
    """The one JSON form of a row's symbolic and metadata columns and of problem keys:
    keys sorted, no spaces (one encoder, not one made per call as json.dumps does)."""
    return _CANONICAL.encode(value)


def problem_key(problem: dict) -> str:
    """Hash of a problem's symbolic form without its answer or provenance.

    Keys are equal exactly when two rows pose the same problem: same objects, same
    initial state (as a set), same actions, same query or goal.
    """
    text = canonical_json(problem)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
