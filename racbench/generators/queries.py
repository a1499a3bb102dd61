"""Query and goal literals of a required surface form and truth value.

Shared by projection (queries), planning and goal recognition (goals): a query of
kind 'literal' has one form, a 'conjunction' two, each form being (predicate,
polarity). Conjunctions never repeat an atom.
"""

from __future__ import annotations

import random
from itertools import product

from racbench.generators.world import Form, GoalLiteral, World


def form_cells(world: World, kind: str) -> list[tuple[Form, ...]]:
    """Every ordered tuple of forms a query of this kind can take."""
    width = 1 if kind == "literal" else 2
    return [tuple(f) for f in product(world.forms, repeat=width)]


def pick_query(world: World, rng: random.Random, state: int, forms: tuple[Form, ...],
               truth: bool) -> tuple[GoalLiteral, ...] | None:
    """Literals of the given forms whose conjunction has truth value `truth` in `state`.

    A false conjunction has one or both literals false, the pattern drawn uniformly, so
    that which conjunct fails tells nothing."""
    if len(forms) == 1:
        options = world.literal_choices(state, forms[0], truth)
        return (rng.choice(options),) if options else None
    if truth:
        patterns = [(True, True)]
    else:
        patterns = [(True, False), (False, True), (False, False)]
    rng.shuffle(patterns)
    for pattern in patterns:
        first = world.literal_choices(state, forms[0], pattern[0])
        second = world.literal_choices(state, forms[1], pattern[1])
        if not first or not second:
            continue
        a = rng.choice(first)
        second = [b for b in second if b.atom != a.atom]
        if second:
            return (a, rng.choice(second))
    return None


def pick_goal(world: World, rng: random.Random, start: int, end: int,
              forms: tuple[Form, ...], must_fail_in: tuple[int, ...] = ()) -> tuple[GoalLiteral, ...] | None:
    """A goal of the given forms that holds in `end` but not in `start` (no goal is
    already achieved) nor in any state of `must_fail_in`."""
    avoid = (start,) + must_fail_in
    for _ in range(8):
        goal = pick_query(world, rng, end, forms, True)
        if goal is None:
            return None
        if not any(all(world.holds(s, lit) for lit in goal) for s in avoid):
            return goal
    return None


def goal_exists(world: World, start: int, end: int, forms: tuple[Form, ...]) -> bool:
    """Would some goal of these forms hold in `end` but not in `start`? (No randomness:
    used to give every sequence class the same 'it achieves something' condition.)"""
    options = [world.literal_choices(end, form, True) for form in forms]
    if len(options) == 1:
        return any(not world.holds(start, lit) for lit in options[0])
    first, second = options
    return any(a.atom != b.atom and not (world.holds(start, a) and world.holds(start, b))
               for a in first for b in second)


def form_names(forms: tuple[Form, ...]) -> list[str]:
    return [("" if positive else "not_") + pred for pred, positive in forms]
