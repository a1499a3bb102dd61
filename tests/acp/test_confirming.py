"""A bool survey's confirming draws are not spent on answers already seen: a draw made
for one answer of a kind counts every answer of that kind its pool shows, and a kind
whose positives were not seen SURVEY_MIN times gets no draws for its negatives.

(The CPU this saves is measured by benchmarks/acp_probes.py, not here.)
"""

from __future__ import annotations

from collections import Counter

import pytest

from racbench.splits.seeding import derive_seed
from racbench.tasks import FAMILIES
from racbench.tasks.balance import SURVEY_MIN, survey_cells
from racbench.tasks.config import TaskConfig
from racbench.tasks.goal_recognition import bool_pool as goal_pool
from racbench.tasks.question import Target
from racbench.worlds.strips.shipped import shipped_files
from racbench.worlds.strips.world import world_for
import random


def _world(domain: str, problem: str):
    domain_file, problems = shipped_files(domain, [problem])
    return world_for(domain_file, problems[0])


@pytest.mark.parametrize("domain,problem,family", [
    ("logistics", "p04", "planning"), ("depots", "p03", "goal_recognition")])
def test_no_draw_for_an_answer_already_seen(domain, problem, family):
    """Replays a survey's draws (the real pools of the family) and checks that each
    confirming draw was for an answer its kind had not yet shown SURVEY_MIN times in
    the draws before it, and for a negative only where the positives had (goal
    recognition, negatives first: for a positive only where a kind of negative had);
    the offered cells are those the counts of every draw's pools give."""
    world = _world(domain, problem)
    cfg = TaskConfig(family=family, form="bool", domain=domain, lengths=(2,)).validate()
    family_ = FAMILIES[family]
    drawn = []

    def make_pool(*args):
        pool = family_.bool_pool(*args)
        drawn.append((args[3] if len(args) > 3 else None, pool))
        return pool

    first_negatives = getattr(family_.bool_pool, "negatives_first", False)
    make_pool.negatives_first = first_negatives
    assert first_negatives == (family == "goal_recognition")
    seed = derive_seed("test-confirming", domain, problem, family)
    variants = len(family_.negative_kinds)
    cells = survey_cells(make_pool, world, cfg, seed, variants, family_.targeted)
    shown: Counter = Counter()
    confirming = 0
    for target, pool in drawn:
        if target is not None:
            confirming += 1
            kind = target.cell[1]
            key = (kind, True) if target.label else (kind, False, target.variant)
            assert shown[key] < SURVEY_MIN, key  # not yet settled
            negatives = [shown[(kind, False, v)] >= SURVEY_MIN for v in range(variants)]
            if first_negatives:  # goal recognition: positives once a negative is settled
                assert not target.label or any(negatives), kind
            elif not target.label:
                assert shown[(kind, True)] >= SURVEY_MIN, kind  # its positives were
        if pool is not None:
            for kind in pool.kinds(True):
                shown[(kind, True)] += 1
            for kind, v in pool.variants():
                shown[(kind, False, v)] += 1
    assert confirming > 0 and cells.offered  # the survey is not trivial
    for (length, kind), kept in cells.offered.items():
        assert shown[(kind, True)] >= SURVEY_MIN
        assert kept == tuple(v for v in range(len(family_.negative_kinds))
                             if shown[(kind, False, v)] >= SURVEY_MIN)


def test_a_goal_recognition_draw_for_a_negative_lists_every_negative_walked():
    """Drawing for one kind of negative finds a far goal, then walks from the state
    until one of that kind is found: the pool lists the goal's positive and the other
    kind's negatives walked on the way too (a survey counts them), while a row picks
    the wanted kind only."""
    world = _world("depots", "p03")
    cfg = TaskConfig(family="goal_recognition", form="bool", domain="depots",
                     lengths=(2,)).validate()
    rng = random.Random(3)
    kinds = Counter()
    for _ in range(300):
        pool = goal_pool(world, rng, cfg.at_length(2))
        if pool is not None:
            kinds.update(pool.kinds(True))
    kind = kinds.most_common(1)[0][0]
    picked_kinds, other = Counter(), 0
    for variant in (0, 1):
        target = Target("bool", False, variant=variant, cell=(2, kind))
        for _ in range(60):
            pool = goal_pool(world, rng, cfg.at_length(2), target)
            if pool is None:
                continue
            assert kind in pool.kinds(True)
            shown = {v for k, v in pool.variants() if k == kind}
            other += bool(shown - {variant})
            picked = pool.pick(rng, False, kind, variant)
            assert picked is None or picked[3] == variant
            picked_kinds[variant] += picked is not None
    assert other > 0 and picked_kinds[0] > 0 and picked_kinds[1] > 0
