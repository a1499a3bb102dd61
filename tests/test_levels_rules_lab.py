"""The rule worlds' and the science lab's difficulty levels are what their tables say:
a stream's rows at each level carry the table's knobs (benchmarks/difficulty_levels.py
measures that they get harder)."""

from __future__ import annotations

import json
import re

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


@pytest.mark.parametrize("game", sorted(RULE_LEVELS))
def test_rule_world_grids_list_more_things_at_each_level(game):
    """Entities (and rtfm's items) grow at every level, so an applicability row's grid
    lists more things at each: a reasoner holding as many as the easy grids list loses
    track of more, yourself included (what makes applicability fall)."""
    entities = [RULE_LEVELS[game][k][2] for k in range(len(LEVELS))]
    assert all(a < b for a, b in zip(entities, entities[1:]))
    listed = []
    for level in LEVELS:
        rows = racbench.stream(f"applicability@rules/{game}", seed=3, level=level).rows(0, 16)
        counts = []
        for row in rows:
            state = json.loads(row["symbolic"])["state"]
            counts.append(1 + sum(c >= 0 for c in state[1]) + sum(c >= 0 for c in state[2]))
            assert row["context"].count(" is at row ") + row["context"].count("You are at row ") \
                == counts[-1]
        listed.append((max(counts), sum(counts) / len(counts)))
    assert all(a[0] < b[0] and a[1] < b[1] for a, b in zip(listed, listed[1:])), listed


MOVE_DELTAS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def answer_from_text(row: dict) -> bool:
    """An applicability row's answer read off its text alone: the grid's size that the
    context states, where you are, and the move the question names."""
    size = re.search(r"The grid has (\d+) rows and (\d+) columns, walled all around",
                     row["context"])
    assert size, "the context does not state the grid's size"
    rows, columns = int(size[1]), int(size[2])
    here = re.search(r"You are at row (\d+), column (\d+)\.", row["context"])
    move = re.search(r"move (up|down|left|right)\?|stay in place\?", row["question"])
    if move[1] is None:  # staying is a move while the game runs
        return True
    dr, dc = MOVE_DELTAS[move[1]]
    r, c = int(here[1]) + dr, int(here[2]) + dc
    return 1 <= r <= rows and 1 <= c <= columns


@pytest.mark.parametrize("game", sorted(RULE_LEVELS))
def test_rule_world_rows_state_what_a_move_needs(game):
    """Whether a move runs into the wall is derivable from the row's text: the context
    states the grid's size and walls beside where you are, at every level (whatever
    its grid)."""
    for level in LEVELS:
        rows = racbench.stream(f"applicability@rules/{game}", seed=5, level=level).rows(0, 24)
        assert {row["label"] for row in rows} == {0, 1}
        for row in rows:
            assert answer_from_text(row) == bool(row["label"]), row["context"]
