"""`random.Random`'s draws for the hot loops of walks and searches, inlined.

A row of TRAC makes hundreds of draws (steps of walks, shuffles of a search's moves,
literals of goals), and `rng.randrange(n)` is three Python calls deep (`randrange`,
`_randbelow`, `getrandbits`). These functions make the same draws from the same
stream as `randrange(n)`, `choice(seq)`, `shuffle(x)` and `sample(seq, k)` do, one
call deep: Python's own algorithm (rejection sampling on `n.bit_length()` bits, the
same since Python 3.2 and in every version racbench supports), so rows keep their
bytes. They are only for
`random.Random` itself: a subclass that overrides `random` or `getrandbits` draws
differently and must use its own methods (tests/test_draws.py checks the equality).
"""

from __future__ import annotations

import math
import random

from racbench.text import sayer

_say = sayer("cli", ("internal.j2",))  # faults of racbench's own code


def below(rng: random.Random, n: int) -> int:
    """`rng.randrange(n)` for n > 0."""
    if n <= 0:
        raise ValueError(_say("empty_range"))
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def pick(rng: random.Random, seq):
    """`rng.choice(seq)`."""
    n = len(seq)
    if not n:
        raise IndexError(_say("empty_sequence"))
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return seq[r]


def shuffle(rng: random.Random, x: list) -> None:
    """`rng.shuffle(x)`, in place."""
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def shuffle_draws(rng: random.Random, n: int) -> None:
    """The draws `shuffle` makes of a list of `n` items, without a list: for a search
    whose outcome is known before it is run, so the stream goes on where it would."""
    getrandbits = rng.getrandbits
    for i in range(n - 1, 0, -1):
        m = i + 1
        k = m.bit_length()
        while getrandbits(k) >= m:
            pass


def sample(rng: random.Random, population, k: int) -> list:
    """`rng.sample(population, k)` (a sequence, no counts): Python's two ways, a pool
    for a population smaller than a set of k would be, distinct indices otherwise."""
    n = len(population)
    if not 0 <= k <= n:
        raise ValueError(_say("sample_too_large"))
    getrandbits = rng.getrandbits
    result = [None] * k
    setsize = 21  # as random.sample sizes them
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    if n <= setsize:
        pool = list(population)
        for i in range(k):
            m = n - i
            bits = m.bit_length()
            j = getrandbits(bits)
            while j >= m:
                j = getrandbits(bits)
            result[i] = pool[j]
            pool[j] = pool[m - 1]
        return result
    selected = set()
    bits = n.bit_length()
    for i in range(k):
        j = getrandbits(bits)
        while j >= n or j in selected:
            j = getrandbits(bits)
        selected.add(j)
        result[i] = population[j]
    return result
