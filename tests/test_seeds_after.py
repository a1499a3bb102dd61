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


def test_seeded_random_is_random_random():
    """A row's stream (seeding.seeded_random) is `random.Random(seed)`'s: the same
    class, state and draws."""
    from racbench.splits.seeding import seeded_random

    for seed in [0, 1, 2**31, 2**62 + 12345, 2**63 - 1, derive_seed(0, "ge1_planning", "test", 7, 0)]:
        ours, theirs = seeded_random(seed), random.Random(seed)
        assert type(ours) is random.Random and ours.getstate() == theirs.getstate()
        assert [ours.random() for _ in range(3)] + [ours.gauss(0, 1)] == \
            [theirs.random() for _ in range(3)] + [theirs.gauss(0, 1)]
