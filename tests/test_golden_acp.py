"""The bytes of `acp`'s small golden set do not change unless we mean them to: the other
half of tests/test_golden.py, in a file of its own so that another worker builds it."""

from test_golden import check_small


def test_small_builds_of_acp_match_the_recorded_hashes():
    check_small("acp")
