"""option_set's helpers (racbench/tasks/balance.py) written for speed give what the
plain forms give: `_bits` the set bits lowest first, as strips/task.py's iter_bits;
`any_option_set`, which spares a survey's trials where no set exists, what a search of
every four subjects finds; `_set_members`, from which option_set draws its first pair,
every pair some set holds. option_set shuffles with racbench.splits.draws.shuffle
(tests/test_draws.py: Random.shuffle's order and draws); tests/acp/test_survey_speed.py
compares option_set itself with its earlier form."""

from __future__ import annotations

import random
from itertools import combinations

from racbench.splits.seeding import derive_seed
from racbench.tasks.balance import (OPTION_MIN, OPTION_TRIALS, Tally, _bits, _drawn, _set_members,
                                    any_option_set, draw_rng, option_set)
from racbench.tasks.rows import ConfigRows
from racbench.training.levels import level_config
from racbench.worlds.strips.task import iter_bits


def test_bits_are_the_set_bits_lowest_first():
    rng = random.Random(4)
    values = [0, 1, 2, 255, 256, 1 << 200, (1 << 2000) - 1]
    values += [rng.getrandbits(rng.randrange(1, 2100)) for _ in range(500)]
    values += [rng.getrandbits(64) & rng.getrandbits(64) << rng.randrange(900)
               for _ in range(200)]
    for x in values:
        assert _bits(x) == list(iter_bits(x))



def _any_set_plainly(survey) -> bool:
    """Four subjects each right in a draw where the other three are wrong, by trying
    every four of them."""
    both = sorted(survey.seen_both().values())
    right_in = {s: {d for d, here in enumerate(survey.right) if s in here} for s in both}
    wrong_in = {s: set(_bits(survey.wrong[s])) for s in both}
    return any(all(right_in[s].intersection(*(wrong_in[t] for t in four if t != s))
                   for s in four) for four in combinations(both, 4))


def test_any_option_set_is_whether_four_subjects_make_a_set():
    """On rule episodes (most without a set: a third of a stream's survey was their
    failing trials) and on each survey as its first draws come: where it says none,
    OPTION_TRIALS trials of option_set find none either."""
    said = set()
    for game in ("rtfm", "messenger"):
        cfg = level_config("projection", "easy", f"rules/{game}", "mc")
        rows = ConfigRows.loaded(f"any-set-{game}", cfg, 0, ("train",))
        make_pool = rows.family.pool_for("mc")
        for world in rows.worlds["train"][:12]:
            seed = derive_seed("any-set", world.label)
            tally = Tally(world, seed, trials=False)
            for a, b in ((0, 10), (10, 40), (40, 200)):
                tally.add(_drawn(make_pool, world, draw_rng(seed, d), cfg) for d in range(a, b))
                survey = tally.survey()
                found = any_option_set(survey)
                said.add(found)
                assert found == _any_set_plainly(survey), (world.label, b)
                if not found:
                    rng = random.Random(derive_seed(seed, "trials"))
                    assert not any(option_set(survey, rng) for _ in range(OPTION_TRIALS))
    assert said == {True, False}


def _members_plainly(survey) -> list[int]:
    """Per subject, the draws where it is the right one of some set, by trying every
    four subjects."""
    both = sorted(survey.seen_both().values())
    right_in = {s: {d for d, here in enumerate(survey.right) if s in here} for s in both}
    wrong_in = {s: set(_bits(survey.wrong[s])) for s in both}
    members = [0] * len(survey.keys)
    for four in combinations(both, 4):
        draws = {s: right_in[s].intersection(*(wrong_in[t] for t in four if t != s))
                 for s in four}
        if all(draws.values()):
            for s in four:
                members[s] |= sum(1 << d for d in draws[s])
    return members


def _rule_surveys(count: int, trials: bool = False):
    """Surveys of the first `count` episodes of RTFM's and Messenger's easy levels,
    after 10, 40 and 200 draws (most episodes hold few option sets, some none)."""
    for game in ("rtfm", "messenger"):
        cfg = level_config("projection", "easy", f"rules/{game}", "mc")
        rows = ConfigRows.loaded(f"members-{game}", cfg, 0, ("train",))
        make_pool = rows.family.pool_for("mc")
        for world in rows.worlds["train"][:count]:
            seed = derive_seed("members", world.label)
            tally = Tally(world, seed, trials=trials)
            for a, b in ((0, 10), (10, 40), (40, 200)):
                tally.add(_drawn(make_pool, world, draw_rng(seed, d), cfg) for d in range(a, b))
                yield world.label, b, tally.survey()


def test_set_members_are_the_pairs_some_set_holds_and_option_set_starts_there():
    """option_set's first pair is one some option set holds: on rule episodes most
    pairs are in none, and a search from one spent its whole budget and failed (nine
    trials in ten on dynamics' projection mc), the row then drawing another world."""
    tried = found = 0
    for label, b, survey in _rule_surveys(12):
        members = _set_members(survey)
        assert members == _members_plainly(survey), (label, b)
        if any(members):
            rng = random.Random(derive_seed("members", label, b))
            for _ in range(OPTION_TRIALS):
                got = option_set(survey, rng)
                tried, found = tried + 1, found + (got is not None)
                if got is not None:
                    assert members[got[0][1]] >> got[0][0] & 1, (label, b, got)
    assert tried and found / tried > 0.6, (found, tried)


def test_sets_are_common_where_a_tenth_of_first_pairs_is_in_one():
    """`has_sets`, which makes a config exact and a survey stop drawing, asks that a
    first pair drawn as option_set draws it be in some set with a chance of OPTION_MIN
    / OPTION_TRIALS or more; `some_sets`, which lets an exact config's rows use the
    problem, that one set exists. A config held to the few sets of problems where they
    are rare offers too few distinct questions (tests/acp/test_build.py's
    satellite_progression_mc)."""
    seen = set()
    for label, b, survey in _rule_surveys(12, trials=True):
        members = _members_plainly(survey)
        starts = [d for d, here in enumerate(survey.right) if here]
        share = sum(sum(members[s] >> d & 1 for s in survey.right[d]) / len(survey.right[d])
                    for d in starts) / len(starts) if starts else 0.0
        assert survey.has_sets == (share * OPTION_TRIALS >= OPTION_MIN), (label, b, share)
        assert survey.some_sets == any(members), (label, b)
        seen.add((survey.has_sets, survey.some_sets))
    assert seen == {(False, False), (False, True), (True, True)}, seen


def _members_one_by_one(survey, budget: int) -> list[int] | None:
    """`_set_members` as it was first written: every subject from a position on looked
    at one by one, a unit of `budget` each, every set noted alone; None once spent."""
    subjects = sorted(survey.seen_both().values())
    right_in = {s: sum(1 << d for d, here in enumerate(survey.right) if s in here)
                for s in subjects}
    members, left = [0] * len(survey.keys), [budget]

    def extend(start, chosen, open_draws, wrong_in_all):
        if len(chosen) == 4:
            for s, here in zip(chosen, open_draws):
                members[s] |= here
            return False
        for k in range(start, len(subjects)):
            left[0] -= 1
            if left[0] < 0:
                return None
            s = subjects[k]
            wrong = survey.wrong[s]
            mine = right_in[s] & wrong_in_all
            if mine and all(a & wrong for a in open_draws):
                found = extend(k + 1, chosen + [s], [a & wrong for a in open_draws] + [mine],
                               wrong_in_all & wrong)
                if found is not False:
                    return found
        return False

    return None if extend(0, [], [], -1) is None else members


def test_set_members_end_where_the_budget_of_subjects_looked_at_ends(monkeypatch):
    """Listing a first three's fourths together and charging the subjects that do not
    fit in one go gives the same members, and runs out of budget (None) exactly where
    looking at subjects one by one did, whatever the budget."""
    from racbench.tasks import balance

    ended = listed = 0
    surveys = [survey for _, b, survey in _rule_surveys(6) if b == 200]
    for budget in (7, 60, 400, 3_000, 20_000):
        monkeypatch.setattr(balance, "ANY_SET_BUDGET", budget)
        for survey in surveys:
            want = _members_one_by_one(survey, budget)
            assert _set_members(survey) == want, budget
            ended, listed = ended + (want is None), listed + (want is not None and any(want))
    assert ended and listed, (ended, listed)


def test_a_pickled_survey_keeps_its_option_sets_members():
    """A probe's surveys go to the build's driver and its row workers pickled: each
    worked the members out again from the draws (a fifteenth of an acp build)."""
    import pickle

    for label, b, survey in _rule_surveys(3, trials=True):
        listed = survey._listed()
        again = pickle.loads(pickle.dumps(survey))
        assert again._members == listed, (label, b)
