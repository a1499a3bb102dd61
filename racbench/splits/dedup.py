"""Canonical problem keys for duplicate and leakage checks.

A key hashes a problem's canonical JSON split in two objects: its long string members
first (a domain's PDDL, which every row of a world repeats, hashed once a process and
its hash state copied), then every other member. Each text is canonical JSON, so the
pair is one problem's exactly: two problems get equal keys exactly when their whole
canonical JSON is equal (keys are compared within a build, never stored in its bytes).
"""

from __future__ import annotations

import hashlib
import json

_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"))


class Encoded(str):
    """A member of a symbolic form given as its canonical JSON text already (see
    symbolic_and_key): a list or an object (a state, actions, objects), never a string."""


def canonical_json(value) -> str:
    """The one JSON form of a row's symbolic and metadata columns and of problem keys:
    keys sorted, no spaces (one encoder, not one made per call as json.dumps does)."""
    return _CANONICAL.encode(value)


def symbolic_and_key(symbolic: dict, answer: str = "answer", names=None) -> tuple[str, str]:
    """(canonical_json(symbolic), problem_key of it without its `answer`), each value
    encoded once: the two texts share every top-level member but the answer, so the
    key's text is the full text's members less one (same bytes as encoding each).
    `names` (a row's text.phrasing.Names), if given, renames the objects as it encodes:
    the texts of `names.symbolic(symbolic)`, without building that copy first."""
    if not _STR_KEYS.issuperset(map(type, symbolic)) or names is not None and "atom" in symbolic:
        encoded = {k: json.loads(v) for k, v in symbolic.items() if type(v) is Encoded}
        if names is not None:  # what is encoded is renamed already
            symbolic = names.symbolic({k: v for k, v in symbolic.items() if k not in encoded})
        symbolic = {**symbolic, **encoded}
        return canonical_json(symbolic), problem_key(
            {k: v for k, v in symbolic.items() if k != answer})
    # in one pass: each member's text (a string is its own JSON, kept, renamed or not:
    # names rename no string), and the key's members (all but the answer, long strings
    # apart)
    member = names.encoded if names is not None else None
    found, keyed = kept_json, _MEMBERS.get
    members, longs, own = [], (), []
    for k, v in sorted(symbolic.items()):
        kind = type(v)
        if kind is str:
            text = found(v) or json_str(v)
        elif kind is Encoded:
            text = v
        elif kind is bool or v is None:
            text = _SCALARS[v]
        else:
            text = _encoded(v) if member is None else member(v, k)
        m = (keyed(k) or _member(k)) + text
        members.append(m)
        if k == answer:
            continue
        if kind is not Encoded and isinstance(v, str) and len(v) >= LONG:
            longs += ((k, v),)
        else:
            own.append(m)
    return "{" + ",".join(members) + "}", key_of(longs, "{" + ",".join(own) + "}")


def object_json(value: dict, given: dict[str, str] | None = None) -> str:
    """canonical_json(value) of a dict (a row's metadata), members named in `given`
    encoded already (their canonical JSON), strings and scalars without the encoder's
    call: the same text (keys sorted; other values, and a dict with a key that is not a
    string, encoded by canonical_json)."""
    if not _STR_KEYS.issuperset(map(type, value)):
        return canonical_json(value)
    given = given or {}
    parts = []
    for k in sorted(value):
        parts.append((_MEMBERS.get(k) or _member(k)) + given[k] if k in given else
                     member_json(k, value[k]))
    return "{" + ",".join(parts) + "}"


def member_json(key: str, value) -> str:
    """A member `key` (a string) of a dict as object_json writes it: its key's JSON,
    ":", and its value's."""
    kind = type(value)
    return (_MEMBERS.get(key) or _member(key)) + (
        (kept_json(value) or json_str(value)) if kind is str else
        scalar_json(value) if kind is int or kind is bool or value is None else
        canonical_json(value))


_STR_KEYS = frozenset((str,))  # keys all plain strings: issuperset(map(type, d)), in C
_LONG_TEXTS: dict[str, str] = {}  # long strings every row repeats (a domain's PDDL), encoded
LONG = 256
_TEXTS: dict[str, str] = {}  # short strings (names, predicates, keys), encoded
TEXTS = 100_000
kept_json = _TEXTS.get  # `kept_json(text) or json_str(text)`: json_str without its call


def json_str(text: str) -> str:
    """canonical_json(text) of a string, kept: rows repeat the same few hundred names,
    predicates and keys, each encoded once a process (a long one once in a while)."""
    found = _TEXTS.get(text)
    if found is None:
        if len(text) >= LONG:
            return _encoded(text)
        if len(_TEXTS) >= TEXTS:
            _TEXTS.clear()
        found = _TEXTS[text] = _CANONICAL.encode(text)
    return found


_SCALARS = {True: "true", False: "false", None: "null"}
_MEMBERS: dict[str, str] = {}  # a key of a row's JSON object -> its JSON and ":", kept


def _member(key: str) -> str:
    """`json_str(key) + ":"`, kept: rows repeat the same dozen keys."""
    found = _MEMBERS.get(key)
    if found is None:
        if len(_MEMBERS) >= TEXTS:
            _MEMBERS.clear()
        found = _MEMBERS[key] = json_str(key) + ":"
    return found


def scalar_json(value) -> str:
    """canonical_json(value), a row's answers and flags (True, False, None, an int)
    without the encoder's call (the same text: JSON's literals, an int's digits)."""
    kind = type(value)
    if kind is bool or value is None:
        return _SCALARS[value]
    if kind is int:
        return int.__repr__(value)
    return _CANONICAL.encode(value)


def _encoded(value) -> str:
    """canonical_json(value), a long string (every row of a domain stores its PDDL, the
    same string object) encoded once."""
    if type(value) is not str:
        return scalar_json(value)
    if len(value) < LONG:
        return _CANONICAL.encode(value)
    found = _LONG_TEXTS.get(value)
    if found is None:
        if len(_LONG_TEXTS) >= 64:
            _LONG_TEXTS.clear()
        found = _LONG_TEXTS[value] = _CANONICAL.encode(value)
    return found


def problem_key(problem: dict) -> str:
    """Hash of a problem's symbolic form without its answer or provenance.

    Keys are equal exactly when two rows pose the same problem: same objects, same
    initial state (as a set), same actions, same query or goal; that is, exactly when
    their canonical JSON is equal (hashed as the module's docstring says).
    """
    if not _STR_KEYS.issuperset(map(type, problem)):
        # keys the encoder turns into strings: the object its JSON reads back as
        problem = json.loads(canonical_json(problem))
    items = sorted(problem.items())
    longs = tuple((k, v) for k, v in items if isinstance(v, str) and len(v) >= LONG)
    own = {k: v for k, v in items if not (isinstance(v, str) and len(v) >= LONG)}
    return key_of(longs, canonical_json(own))


_PREFIXES: dict[tuple, object] = {}  # long string members -> the hash state after them


def key_of(longs: tuple, own: str) -> str:
    """The key of a problem: the hash of `longs` (its long string members, (key, value)
    in key order) as canonical JSON, kept, then of `own` (its other members' canonical
    JSON)."""
    state = _PREFIXES.get(longs)
    if state is None:
        if len(_PREFIXES) >= 64:  # worlds of configs built long ago
            _PREFIXES.clear()
        text = "{" + ",".join([f"{json_str(k)}:{_encoded(v)}" for k, v in longs]) + "}"
        state = _PREFIXES[longs] = hashlib.blake2b(text.encode(), digest_size=16)
    state = state.copy()
    state.update(own.encode())
    return state.hexdigest()
