"""The exact oracle (breadth-first search over the full state, entity moves included) and
the baseline that ignores the manual.

The oracle's plan is a shortest winning plan, the first in the order of ACTIONS, so it is
the same on every machine. The state's turn matters only by its parity (entities move
every second turn), so the search keeps one visit per (state, parity).

The baseline reads the grid but not the manual: it guesses the rules (which monster is
of the team to defeat and which item beats it; which entity carries the message, which
is the goal; every entity staying put), plans with the oracle under its guess, and plays
that plan in the true episode.
"""

from __future__ import annotations

import heapq
import random
from collections import deque
from functools import lru_cache
from dataclasses import replace

from racbench.worlds.rules.episode import ACTIONS, LOST, WON, Episode
from racbench.worlds.rules.grammar import Entity, RuleSet


def horizon(size: int) -> int:
    """The step limit of an episode (and of the oracle's search)."""
    return 4 * size * size


def solve(episode: Episode, state: tuple | None = None) -> list[str] | None:
    """A shortest winning plan from `state` (the start by default) within the horizon,
    or None."""
    start = episode.start if state is None else state
    if start[6] == WON:
        return []
    limit = horizon(episode.size) - start[5]
    # nothing moves (the baseline's guess): the turn's parity changes nothing, and a
    # state met again at the other parity is met deeper, where it reaches nothing
    # sooner; dropping it from the key finds the same first shortest plan
    still = not any(episode._moving)
    # entities moving: the plan's length first (A*, `shortest_plan`), then breadth
    # first over the states that may lie on a plan that short (moves made +
    # `_bounder`'s bound <= length): those on a shortest plan and the first ways to
    # them are kept, in the same order, so the same first shortest plan is found among
    # far fewer states (where nothing moves, the plain search is the cheaper)
    length, bound = limit, None
    if not still:
        shortest = shortest_plan(episode, start)
        if shortest is None:
            return None
        length, bound = len(shortest), _bounder(episode)
    key = start[:5] + (start[6],) if still else _key(start)
    parent: dict = {key: None}
    frontier = deque([(start, key, 0)])
    expand = episode.expand
    while frontier:
        state, here, depth = frontier.popleft()
        if depth >= limit:
            continue
        depth += 1
        for action, nxt in expand(state):
            outcome = nxt[6]
            if outcome == LOST:
                continue
            k = nxt[:5] + ((outcome,) if still else (nxt[5] % 2, outcome))  # _key(nxt)
            if k in parent:
                continue
            if outcome != WON and bound is not None:
                h = bound(nxt)
                if h is None or depth + h > length:
                    continue
            parent[k] = (here, action)
            if outcome == WON:
                return _path(parent, k)
            frontier.append((nxt, k, depth))
    return None


def shortest_plan(episode: Episode, state: tuple) -> list[str] | None:
    """A shortest winning plan from `state` within the horizon (as long as `solve`'s,
    not always the same one), or None: A* over the states `solve` searches, with a
    lower bound on the moves still needed (`_bound`), for questions that ask only the
    length (first_target's rows), where breadth-first visits every state nearer."""
    if state[6] == WON:
        return []
    limit = horizon(episode.size) - state[5]
    bound = _bounder(episode)
    h = bound(state)
    if h is None or h > limit:
        return None
    key = _key(state)
    best, parent = {key: 0}, {key: None}
    heap = [(h, 0, 0, state, key)]
    pushed = 0
    expand, pop, push = episode.expand, heapq.heappop, heapq.heappush
    while heap:
        _, back, _, state, here = pop(heap)
        g = -back
        if g > best[here]:
            continue  # reached again more cheaply since
        if state[6] == WON:
            return _path(parent, here)
        if g >= limit:
            continue
        g += 1
        for action, nxt in expand(state):
            outcome = nxt[6]
            if outcome == LOST:
                continue
            k = nxt[:5] + (nxt[5] % 2, outcome)  # _key(nxt)
            if g >= best.get(k, limit + 1):
                continue
            h = 0 if outcome == WON else bound(nxt)
            if h is None or g + h > limit:
                continue
            best[k] = g
            parent[k] = (here, action)
            pushed += 1
            push(heap, (g + h, -g, pushed, nxt, k))  # deepest first among equals
    return None


def _bounder(episode: Episode):
    """A lower bound on the moves a state needs to win (None: it cannot), never more
    than one above the bound after any move (so A* expands each state once): an
    entity to meet at distance D needs the moves that close D when you take a step a
    turn and it one every second turn toward you (`_closing`), and in rtfm the item
    that beats it must be reached first unless held; in messenger the messenger is met
    before the goal unless you carry the message."""
    dist = episode._dist
    closing = _closing(2 * episode.size)
    if episode.rules.game == "rtfm":
        targets = [(i, b) for i, (t, b) in enumerate(zip(episode._target, episode._beaten_by))
                   if t and b is not None]

        def bound(state):
            agent, ents, items, held, _, turn, _ = state
            near, best = dist[agent], None
            for i, b in targets:
                cell = ents[i]
                if cell < 0:
                    continue
                h = closing[turn % 2][near[cell]]
                if held != b:
                    h = max(h, near[items[b]])
                if best is None or h < best:
                    best = h
            return best
        return bound
    roles = episode._roles
    goal, messenger = roles.index("goal"), roles.index("message")

    def bound(state):
        agent, ents, _, _, message, turn, _ = state
        near, moves = dist[agent], closing[turn % 2]
        h = moves[near[ents[goal]]]
        return h if message else max(h, moves[near[ents[messenger]]])
    return bound


@lru_cache(maxsize=None)
def _closing(most: int) -> tuple[list[int], list[int]]:
    """Per parity of the turn: the fewest turns that can close each distance up to
    `most`, you taking a step each turn and an entity one on each odd turn."""
    out = []
    for parity in (0, 1):
        moves, closed, t = [0], 0, 0
        for d in range(1, most + 1):
            while closed < d:
                closed += 1 + ((parity + t) % 2)
                t += 1
            moves.append(t)
        out.append(moves)
    return tuple(out)


def _key(state: tuple) -> tuple:
    return state[:5] + (state[5] % 2, state[6])


def _path(parent: dict, key) -> list[str]:
    plan = []
    while parent[key] is not None:
        key, action = parent[key]
        plan.append(action)
    return plan[::-1]


def wins(episode: Episode, plan: list[str]) -> bool:
    """Whether playing `plan` from the start wins before a step cannot be made."""
    state = episode.start
    for action in plan:
        state = episode.step(state, action)
        if state is None:
            return False
        if state[6] == WON:
            return True
    return state[6] == WON


def guessed_rules(rules: RuleSet, rng: random.Random) -> RuleSet:
    """What a player who ignores the manual may believe: the roles (messenger) or the
    teams and the items' strengths (rtfm) dealt out anew at random, everything still."""
    ents = list(rules.entities)
    if rules.game == "rtfm":
        teams = [e.team for e in ents]
        rng.shuffle(teams)
        mods = [it.modifier for it in rules.items]
        elements = [e.element for e in ents]
        rng.shuffle(mods)
        beats = tuple(zip(mods, elements))
        ents = [Entity(e.name, "stays", e.element, t) for e, t in zip(ents, teams)]
        return replace(rules, entities=tuple(ents), beats=beats)
    roles = [e.role for e in ents]
    rng.shuffle(roles)
    return replace(rules, entities=tuple(Entity(e.name, "stays", role=r)
                                         for e, r in zip(ents, roles)))


def baseline_wins(episode: Episode, rng: random.Random) -> bool:
    """One play of the manual-ignoring baseline: plan under guessed rules, play it."""
    guess = Episode(guessed_rules(episode.rules, rng), episode.layout)
    plan = solve(guess)
    return plan is not None and wins(episode, plan)
