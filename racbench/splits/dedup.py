"""Canonical problem keys for duplicate and leakage checks."""

from __future__ import annotations

import hashlib
import json

_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"))


def canonical_json(value) -> str:
    """The one JSON form of a row's symbolic and metadata columns and of problem keys:
    keys sorted, no spaces (one encoder, not one made per call as json.dumps does)."""
    return _CANONICAL.encode(value)


def symbolic_and_key(symbolic: dict, answer: str = "answer") -> tuple[str, str]:
    """(canonical_json(symbolic), problem_key of it without its `answer`), each value
    encoded once: the two texts share every top-level member but the answer, so the
    key's text is the full text's members less one (same bytes as encoding each)."""
    if not all(type(k) is str for k in symbolic):
        return canonical_json(symbolic), problem_key(
            {k: v for k, v in symbolic.items() if k != answer})
    members = [(k, f"{_CANONICAL.encode(k)}:{_encoded(v)}") for k, v in sorted(symbolic.items())]
    full = "{" + ",".join(m for _, m in members) + "}"
    key = "{" + ",".join(m for k, m in members if k != answer) + "}"
    return full, _hash(key)


_LONG_TEXTS: dict[str, str] = {}  # long strings every row repeats (a domain's PDDL), encoded
LONG = 256


def _encoded(value) -> str:
    """canonical_json(value), a long string (every row of a domain stores its PDDL, the
    same string object) encoded once."""
    if type(value) is not str or len(value) < LONG:
        return _CANONICAL.encode(value)
    found = _LONG_TEXTS.get(value)
    if found is None:
        if len(_LONG_TEXTS) >= 64:
            _LONG_TEXTS.clear()
        found = _LONG_TEXTS[value] = _CANONICAL.encode(value)
    return found


def _hash(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def problem_key(problem: dict) -> str:
    """Hash of a problem's symbolic form without its answer or provenance.

    Keys are equal exactly when two rows pose the same problem: same objects, same
    initial state (as a set), same actions, same query or goal.
    """
    return _hash(canonical_json(problem))
