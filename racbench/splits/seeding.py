"""Per-row random streams derived by hashing, never by `seed + index`.

Neighbouring seeds or indices must not share rows, and a row's stream must not depend
on which worker made it; blake2b of the identifying fields gives both.
"""

from __future__ import annotations

import hashlib
import random
from _random import Random as _CRandom


def derive_seed(*fields: object) -> int:
    """A 63-bit seed from the fields' text, stable across machines and Python runs."""
    text = "\x1f".join(map(str, fields)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1



class SeedsAfter:
    """`SeedsAfter(*fields)(*more) == derive_seed(*fields, *more)`, with the hash of the
    fields' text worked out once (a config's rows share their seed, name and split, and
    differ in their index and attempt only). Pickled as its fields."""

    __slots__ = ("fields", "_head")

    def __init__(self, *fields: object):
        self.fields = fields
        head = "".join(f"{field}\x1f" for field in map(str, fields))  # each then "\x1f"
        self._head = hashlib.blake2b(head.encode(), digest_size=8)

    def __call__(self, *more: object) -> int:
        if not more:
            return derive_seed(*self.fields)
        h = self._head.copy()
        h.update("\x1f".join(map(str, more)).encode())
        return int.from_bytes(h.digest(), "big") >> 1

    def __reduce__(self):
        return SeedsAfter, self.fields


_new_random, _seed_random = random.Random.__new__, _CRandom.seed


def seeded_random(seed: int) -> random.Random:
    """`random.Random(seed)` for an int `seed`: the same stream (the same Mersenne
    Twister state), seeded by the C type's `seed` straight away, without random.py's
    `__init__` and `seed`, which only check for a str or bytes seed before calling it:
    a row makes its own stream, so a build makes one per row."""
    rng = _new_random(random.Random)
    _seed_random(rng, seed)
    rng.gauss_next = None
    return rng
