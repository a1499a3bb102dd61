"""The rule worlds' and the science lab's difficulty levels are what their tables say:
a stream's rows at each level carry the table's knobs (benchmarks/difficulty_levels.py
measures that they get harder)."""

from __future__ import annotations

import json

import pytest

import racbench
from racbench.training.levels import LEVELS, RULE_LEVELS, RULE_STREAM_EPISODES, level_config
from racbench.worlds.rules.grammar import BASE_DEPTH


@pytest.mark.parametrize("game", sorted(RULE_LEVELS))
def test_rule_world_rows_have_their_levels_knobs(game):
    manuals = []
    for k, level in enumerate(LEVELS):
        hops, irrelevant, entities, grid, length = RULE_LEVELS[game][k]
        options = dict(level_config("projection", level, f"rules/{game}").rule_options)
        assert options == {"depth": BASE_DEPTH[game] + hops, "irrelevant": irrelevant,
                           "entities": entities, "grid": grid,
                           "episodes": RULE_STREAM_EPISODES}
        for row in racbench.stream(f"projection@rules/{game}", seed=3, level=level).rows(0, 3):
            sym = json.loads(row["symbolic"])
            rules, statements = sym["rules"], sym["rules"]["statements"]
            assert row["sequence_length"] == len(sym["actions"]) == length
            assert sym["layout"]["size"] == grid and len(rules["entities"]) == entities
            assert sum(kind == "alias" for kind, *_ in statements) == hops * entities
            assert sum(not relevant for _, _, relevant, _ in statements) == irrelevant
            manuals.append((k, len(statements)))
    # the manual grows with the level: a reader of the easy manual's length knows less
    longest = {k: max(n for j, n in manuals if j == k) for k in range(len(LEVELS))}
    shortest = {k: min(n for j, n in manuals if j == k) for k in range(len(LEVELS))}
    assert all(shortest[k + 1] > longest[k] for k in range(len(LEVELS) - 1))
