"""Uniform states of TRAC's blocksworld drawn directly: every arrangement of the blocks
in towers equally likely, as the enumerated five-block world draws its 501 states.

An arrangement is a set of towers, each an ordered list of blocks (bottom first); there
are a(n) of n blocks (1, 3, 13, 73, 501, 4051, ...: sets of lists), and
a(m) = sum over k of C(m-1, k-1) k! a(m-k), k the height of the tower that holds the
first of m blocks. A draw picks that height with exactly its share (one integer below
a(m)), the tower's other blocks and their order (an ordered sample) and the first
block's place in it, then the rest of the blocks alike: a dozen draws for ten blocks,
where a walk from a well-mixed state asked for the applicable actions of ten states.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from functools import lru_cache
from math import comb, factorial
from typing import Sequence

from racbench.splits.draws import below, sample


@lru_cache(maxsize=None)
def arrangements(n: int) -> int:
    """a(n): the arrangements of n blocks in towers."""
    if n == 0:
        return 1
    return sum(comb(n - 1, k - 1) * factorial(k) * arrangements(n - k) for k in range(1, n + 1))


@lru_cache(maxsize=None)
def _heights(m: int) -> list[int]:
    """Cumulative counts, by height k = 1..m of the first block's tower, of the
    arrangements of m blocks."""
    total, cum = 0, []
    for k in range(1, m + 1):
        total += comb(m - 1, k - 1) * factorial(k) * arrangements(m - k)
        cum.append(total)
    return cum


def uniform_towers(rng: random.Random, blocks: Sequence[str]) -> list[list[str]]:
    """Towers (bottom first) of one arrangement of `blocks`, drawn uniformly."""
    left, towers = list(blocks), []
    while left:
        m = len(left)
        k = bisect_right(_heights(m), below(rng, arrangements(m))) + 1
        first, others = left[0], left[1:]
        tower = sample(rng, others, k - 1)
        tower.insert(below(rng, k), first)
        towers.append(tower)
        chosen = set(tower)
        left = [b for b in others if b not in chosen]
    return towers


class TowerStates:
    """Uniform states of a grounded TRAC blocksworld (predicates on, ontable, clear),
    as the task's state bits."""

    def __init__(self, task, blocks: Sequence[str]):
        index = task.atom_index
        self.blocks = tuple(blocks)
        self._table = {b: 1 << index[("ontable", b)] for b in blocks}
        self._clear = {b: 1 << index[("clear", b)] for b in blocks}
        self._on = {(x, y): 1 << index[("on", x, y)] for x in blocks for y in blocks if x != y}

    def __call__(self, rng: random.Random) -> int:
        state = 0
        on = self._on
        for tower in uniform_towers(rng, self.blocks):
            state |= self._table[tower[0]] | self._clear[tower[-1]]
            for below_, above in zip(tower, tower[1:]):
                state |= on[(above, below_)]
        return state
