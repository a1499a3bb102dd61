"""Canonical problem keys for duplicate and leakage checks."""

from __future__ import annotations

import hashlib
import json


def problem_key(problem: dict) -> str:
    """Hash of a problem's symbolic form without its answer or provenance.

    Keys are equal exactly when two rows pose the same problem: same objects, same
    initial state (as a set), same actions, same query or goal.
    """
    text = json.dumps(problem, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
