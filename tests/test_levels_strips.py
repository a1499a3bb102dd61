"""The levels of the shipped STRIPS domains: their knobs are what the tables say, and
the problems of each level are measurably no smaller than the last level's (the most
true facts of a reachable state, the reachable states: what the bounded reasoner of
benchmarks/difficulty_levels.py must hold and search), only train problems."""

import pytest

from racbench.tasks.config import ConfigError
from racbench.tasks.options import DEFAULT_SPLIT_PROBLEMS
from racbench.training.levels import (DOMAIN_LENGTHS, DOMAIN_PROBLEMS, LEVELS,
                                      domain_problems, level_config, problem_size)
from racbench.training.stream import Stream
from racbench.worlds.strips.shipped import shipped_domains


def test_every_shipped_domain_has_levels_of_train_problems_only():
    assert sorted(DOMAIN_PROBLEMS) == sorted(shipped_domains())
    train = set(DEFAULT_SPLIT_PROBLEMS["train"])
    for domain, levels in DOMAIN_PROBLEMS.items():
        assert len(levels) == len(LEVELS), domain
        for problems in levels:
            assert problems and set(problems) <= train, (domain, problems)
    assert list(DOMAIN_LENGTHS) == sorted(set(DOMAIN_LENGTHS))  # lengths grow


@pytest.mark.parametrize("domain", sorted(DOMAIN_PROBLEMS))
def test_a_levels_config_and_rows_use_the_tables_problems_and_length(domain):
    for k, level in enumerate(LEVELS):
        cfg = level_config("projection", level, domain)
        assert cfg.problems == {"train": domain_problems(domain)[k]}
        assert cfg.lengths == (DOMAIN_LENGTHS[k],) and cfg.domain == domain
    row = Stream(f"projection@{domain}", level="hard").row(0)
    assert row["problem"] in DOMAIN_PROBLEMS[domain][2]
    assert row["sequence_length"] == DOMAIN_LENGTHS[2]


@pytest.mark.parametrize("domain", sorted(DOMAIN_PROBLEMS))
def test_each_levels_problems_are_no_smaller_than_the_last_levels(domain):
    largest, mean = [], []  # per level: (most true facts of a state, most reachable
    for problems in DOMAIN_PROBLEMS[domain]:  # states); the mean of the first over problems
        sizes = [problem_size(domain, p) for p in problems]
        largest.append((max(s for s, _ in sizes), max(n for _, n in sizes)))
        mean.append(sum(s for s, _ in sizes) / len(sizes))
    for lower, higher in zip(largest, largest[1:]):
        assert higher[0] >= lower[0] and higher[1] >= lower[1], (domain, largest)
    assert mean[0] < mean[1] < mean[2], (domain, mean)  # easy < medium < hard


def test_an_unknown_world_names_what_is_accepted():
    with pytest.raises(ConfigError, match="unknown domain 'nowhere'; accepted: .*ferry"):
        level_config("projection", "easy", "nowhere")
