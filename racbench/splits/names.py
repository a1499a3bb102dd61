"""Object-name pools and their fixed division into seen and unseen names (GE3).

The division is a property of each name alone (a hash), so adding a colour to the
vocabulary never moves another colour between the pools.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib import resources

from racbench.text import sayer

_say = sayer("cli", ("internal.j2",))  # faults of racbench's own code

POOLS = ("seen", "unseen")
UNSEEN_SHARE = 0.3


def _load(vocab: str) -> list[str]:
    text = resources.files("racbench.data").joinpath("vocab", f"{vocab}.txt").read_text()
    return sorted({line.strip() for line in text.splitlines()
                   if line.strip() and not line.startswith("#")})


def _is_unseen(name: str) -> bool:
    digest = hashlib.blake2b(name.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64 < UNSEEN_SHARE


@lru_cache(maxsize=None)
def name_pool(pool: str, vocab: str = "colours") -> tuple[str, ...]:
    """The sorted names of `pool` ('seen' or 'unseen')."""
    if pool not in POOLS:
        raise ValueError(_say("unknown_pool", pool=pool, accepted=POOLS))
    return tuple(n for n in _load(vocab) if _is_unseen(n) == (pool == "unseen"))
