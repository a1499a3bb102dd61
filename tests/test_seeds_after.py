"""A config's row seeds from the hash of their shared fields worked out once
(splits/seeding.SeedsAfter) are derive_seed's, whatever the fields."""

from __future__ import annotations

import pickle
import random

from racbench.splits.seeding import SeedsAfter, derive_seed


def test_seeds_after_are_derive_seeds():
    rng = random.Random(3)
    for head in [(), (0,), (0, "projection_L2", "train"), (7, "a\x1fb", "", 2.5)]:
        seeds = SeedsAfter(*head)
        again = pickle.loads(pickle.dumps(seeds))  # shipped to a worker: the same seeds
        for _ in range(300):
            more = (rng.randrange(10**6), rng.randrange(40))[:rng.randrange(1, 3)]
            assert seeds(*more) == derive_seed(*head, *more) == again(*more)
        assert seeds() == derive_seed(*head)
