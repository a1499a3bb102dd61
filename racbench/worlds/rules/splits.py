"""What a build checks and says of a rule world's splits: no assignment of validation or
test in train, the oracle winning every episode, and the baseline's wins."""

from __future__ import annotations

import random

from racbench.errors import GenerationError
from racbench.splits.seeding import derive_seed
from racbench.text import sayer
from racbench.worlds.rules.episode import Episode
from racbench.worlds.rules.oracle import baseline_wins, wins

_say = sayer("cli", ("rules.j2",))
BASELINE_PLAYS = 4  # plays of the baseline per episode (its guesses are random)


def checked_worlds(opts, episodes: int, splits) -> dict:
    """split -> [its world of `episodes` episodes] (worlds/rules/world.py, cached per
    process), the splits' rule combinations checked apart: what every config over a rule
    world asks of it (task rows ask theirs in tasks/rows.py)."""
    from racbench.worlds.rules.world import split_world
    worlds = {s: [split_world(opts, s, 0, episodes)] for s in splits}
    check_splits(worlds)
    return worlds


_CHECKED: dict = {}  # the ids of each split's worlds -> held-out assignments checked


def check_splits(worlds: dict) -> int:
    """`worlds`: split -> its RuleWorlds. A set of splits' episodes passes once: a config
    loads its worlds for every probe job (a projection mc config has an episode world
    each, 600), and checking them all each time took some 9 CPU-s of `dynamics`."""
    key = tuple(sorted((split, tuple(map(id, ws))) for split, ws in worlds.items()))
    if key not in _CHECKED:
        episodes = {split: [ep for w in ws for ep in w.episodes] for split, ws in worlds.items()}
        checked = _check(episodes.get("train", ()),
                         {split: eps for split, eps in episodes.items() if split != "train"})
        # the worlds kept alive with their count: their ids stay theirs
        _CHECKED[key] = (checked, {split: tuple(ws) for split, ws in worlds.items()})
    return _CHECKED[key][0]


def _check(train_episodes, held_out: dict) -> int:
    """Raise if an assignment (monster-team, modifier-element, entity-role) stated in a
    validation or test manual is stated in a train manual; the number of held-out
    assignments checked."""
    train = {p for ep in train_episodes for p in ep.rules.pairs()}
    checked = 0
    for split, episodes in sorted(held_out.items()):
        for w in episodes:
            for pair in w.rules.pairs():
                checked += 1
                if pair in train:
                    raise GenerationError(_say("assignment_in_train", world=w.label,
                                               pair=pair))
    return checked


_RATES: dict = {}  # win rates of a tuple of episodes (configs share their worlds)


def win_rates(worlds) -> tuple[float, float]:
    """(oracle, baseline) win rates over episodes, as fractions: the oracle's plan played
    in a fresh episode; the baseline played BASELINE_PLAYS times an episode."""
    key = tuple(id(w) for w in worlds)
    if key not in _RATES:
        _RATES[key] = (_win_rates(worlds), list(worlds))  # kept alive: ids stay theirs
    return _RATES[key][0]


def _win_rates(worlds) -> tuple[float, float]:
    if not worlds:
        return 0.0, 0.0
    oracle = sum(wins(Episode(w.rules, w.episode.layout), w.plan) for w in worlds)
    base = sum(baseline_wins(w.episode, random.Random(derive_seed("baseline", w.label, k)))
               for w in worlds for k in range(BASELINE_PLAYS))
    return oracle / len(worlds), base / (len(worlds) * BASELINE_PLAYS)


def rule_world_summary(worlds: dict) -> dict:
    """What the card says of a config's rule world: per split the episodes, the oracle's
    and the baseline's win rates (percent), and the held-out assignments checked."""
    splits = {}
    for split, ws in worlds.items():
        ws = [ep for world in ws for ep in world.episodes]
        oracle, base = win_rates(ws)
        splits[split] = {"episodes": len(ws), "oracle_win_pct": round(100 * oracle, 1),
                         "baseline_win_pct": round(100 * base, 1),
                         "unwinnable_redrawn": sum(w.redraws for w in ws)}
    return {"splits": splits,
            "checks": {"held_out_assignments_not_in_train": check_splits(worlds)}}
