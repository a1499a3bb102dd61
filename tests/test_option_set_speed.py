"""option_set's helpers (racbench/tasks/balance.py) written for speed give what the
plain forms give: `_bits` the set bits lowest first, as strips/task.py's iter_bits.
option_set shuffles with racbench.splits.draws.shuffle (tests/test_draws.py: Random.shuffle's
order and draws); tests/acp/test_survey_speed.py compares option_set itself with its
earlier form."""

from __future__ import annotations

import random

from racbench.tasks.balance import _bits
from racbench.worlds.strips.task import iter_bits


def test_bits_are_the_set_bits_lowest_first():
    rng = random.Random(4)
    values = [0, 1, 2, 255, 256, 1 << 200, (1 << 2000) - 1]
    values += [rng.getrandbits(rng.randrange(1, 2100)) for _ in range(500)]
    values += [rng.getrandbits(64) & rng.getrandbits(64) << rng.randrange(900)
               for _ in range(200)]
    for x in values:
        assert _bits(x) == list(iter_bits(x))

