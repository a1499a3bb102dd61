"""racbench.splits.draws makes the draws random.Random makes, from the same stream:
rows drawn with it keep their bytes."""

import random

from racbench.splits.draws import below, pick, sample, shuffle, shuffle_draws

SIZES = (1, 2, 3, 4, 5, 7, 8, 9, 31, 32, 33, 100, 1000, 4097, 2**32 - 1, 2**32, 2**40 + 3)


def test_below_pick_and_shuffle_draw_as_random_does():
    for seed in range(40):
        ours, theirs = random.Random(seed), random.Random(seed)
        for n in SIZES:
            assert below(ours, n) == theirs.randrange(n)
            seq = list(range(n % 50 + 1))
            assert pick(ours, seq) == theirs.choice(seq)
            mine, other = list(seq), list(seq)
            shuffle(ours, mine)
            theirs.shuffle(other)
            assert mine == other
        # the streams are at the same place afterwards: every later draw agrees
        assert ours.random() == theirs.random()


def test_pick_refuses_an_empty_sequence_as_choice_does():
    rng = random.Random(0)
    for draw in (pick, random.Random(0).choice):
        try:
            draw(rng, []) if draw is pick else draw([])
        except IndexError:
            continue
        raise AssertionError(f"{draw} drew from an empty sequence")


def test_below_refuses_an_empty_range_as_randrange_does():
    """Not a draw for ever: getrandbits(0) is always 0, never below 0."""
    for n in (0, -3):
        try:
            below(random.Random(0), n)
        except ValueError:
            continue
        raise AssertionError(f"below drew from range({n})")


def test_sample_draws_as_random_does():
    """Both of random.sample's ways (a pool, distinct indices: k > 5 and small
    populations switch between them), and the stream left at the same place."""
    for seed in range(30):
        ours, theirs = random.Random(seed), random.Random(seed)
        for n in (1, 2, 5, 10, 20, 21, 22, 40, 45, 46, 100, 1000):
            for k in sorted({0, 1, min(n, 5), min(n, 6), min(n, 10), n // 2, n}):
                seq = [f"name{i}" for i in range(n)]
                assert sample(ours, seq, k) == theirs.sample(seq, k), (n, k)
        assert ours.random() == theirs.random()
    try:
        sample(random.Random(0), [1, 2], 3)
    except ValueError:
        return
    raise AssertionError("sampled more than the population")


def test_shuffle_draws_are_a_shuffles():
    """`shuffle_draws(rng, n)` leaves the stream where shuffling n items does."""
    for seed in range(20):
        ours, theirs = random.Random(seed), random.Random(seed)
        for n in (0, 1, 2, 3, 5, 8, 9, 17, 64, 100):
            shuffle_draws(ours, n)
            theirs.shuffle(list(range(n)))
            assert ours.getstate() == theirs.getstate()
