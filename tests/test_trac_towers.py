"""TRAC's ten-block world draws its states uniformly, as the enumerated five-block world
does (worlds/strips/towers.py): each arrangement of the blocks in towers alike."""

from __future__ import annotations

import random
from collections import Counter
from math import comb, factorial

from racbench.worlds.strips.towers import TowerStates, arrangements
from racbench.worlds.strips.world import trac_world


def test_arrangements_count_the_enumerated_worlds_states():
    for n in range(1, 6):
        world = trac_world(n)
        assert world.explicit and world.n_states == arrangements(n)


def test_five_blocks_drawn_uniformly_over_the_enumerated_states():
    world = trac_world(5)
    draw = TowerStates(world.task, list(world.objects))
    states = {int(s) for s in world.states}
    rng = random.Random(11)
    n = 100_200  # 200 a state
    seen = Counter(draw(rng) for _ in range(n))
    assert set(seen) == states  # every state, and only reachable ones
    expected = n / len(states)
    chi2 = sum((seen[s] - expected) ** 2 / expected for s in states)
    assert chi2 < 500 + 4 * 1000 ** 0.5  # 500 degrees of freedom: mean 500, sd 31.6


def _towers(world, bits: int) -> int:
    """The number of towers of a state (blocks on the table), checking it is one."""
    atoms = [world.task.atoms[i] for i in range(len(world.task.atoms)) if bits >> i & 1]
    blocks = list(world.objects)
    table = {a[1] for a in atoms if a[0] == "ontable"}
    on = {a[1]: a[2] for a in atoms if a[0] == "on"}
    clear = {a[1] for a in atoms if a[0] == "clear"}
    assert len(table) + len(on) == len(blocks) and not table & set(on)  # each sits once
    under = Counter(on.values())
    assert max(under.values(), default=1) == 1  # one block on another at most
    assert clear == {b for b in blocks if b not in under}
    return len(table)


def test_ten_blocks_drawn_uniformly_by_their_number_of_towers():
    """The share of states with k towers is exactly Lah(10, k) / a(10); a walk's states
    (degree-weighted, the old draw) favour some tower counts over others."""
    world = trac_world(10)
    assert not world.explicit
    n = 20_000
    rng = random.Random(5)
    seen = Counter(_towers(world, world.sample_state(rng)) for _ in range(n))
    total = arrangements(10)
    chi2 = 0.0
    for k in range(1, 11):
        lah = comb(9, k - 1) * factorial(10) // factorial(k)
        expected = n * lah / total
        if expected >= 5:
            chi2 += (seen[k] - expected) ** 2 / expected
    assert chi2 < 30  # 7 or 8 degrees of freedom: p < 0.001 beyond this
