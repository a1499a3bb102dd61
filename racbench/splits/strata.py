"""Exact balance by construction: each row's stratum is fixed by its position.

A stratum is one value per factor (label, query kind, surface form...). Positions in a
split are mapped through a seeded permutation to codes 0..n-1, and a code is read as
a mixed-radix number whose fastest digit is the label. Any two codes 2m and 2m+1 then
share every factor but the label, so labels are balanced to within one row in every
cell of every factor combination, and exactly overall when n is even.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from racbench.splits.seeding import derive_seed


@dataclass(frozen=True)
class Stratum:
    label: bool
    cell: tuple  # the other factors' values, task-specific
    variant: int = 0  # which kind of negative (ignored for positives)


def position_codes(seed: int, config: str, split: str, n: int) -> list[int]:
    """A seeded permutation of range(n): code of the row at each position."""
    codes = list(range(n))
    random.Random(derive_seed(seed, config, split, "strata")).shuffle(codes)
    return codes


def stratum_for(code: int, groups: Sequence[Sequence[tuple]], variants: int = 1) -> Stratum:
    """Label from the lowest digit, then the negative variant, then a group (e.g. query
    kind), then a cell in it.

    Groups are weighted equally whatever their sizes, so literal and conjunctive
    queries each make half of a mixed config although they have 6 and 36 forms; the
    negative variants split the negatives exactly when n is a multiple of 4.
    """
    label, variant, g, i = stratum_digits(code, groups, variants)
    return _stratum(bool(label), groups[g][i], variant)


def stratum_digits(code: int, groups: Sequence[Sequence[tuple]], variants: int = 1
                   ) -> tuple[int, int, int, int]:
    """The digits `stratum_for` reads a code as: (label, variant, group, cell in the
    group), plain ints, so rows can key what they keep per stratum by them."""
    code, label = divmod(code, 2)
    code, variant = divmod(code, variants)
    code, g = divmod(code, len(groups))
    return label, variant, g, code % len(groups[g])


# a split's codes fall in a few strata, each made once (a frozen dataclass is slow to
# make, and every row asked for one)
_stratum = lru_cache(maxsize=4096)(Stratum)
