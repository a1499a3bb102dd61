"""The rule worlds' fast paths give what their plain forms gave (racbench/worlds/rules/):
an entity's step read off a ranked table, a turn stepped once per state for all moves
(`Episode.expand`), the oracle's search skipping the turn's parity where nothing moves,
and one phrasing shared by every world. Each is compared here with the plain form it
replaced, written out below, on episodes of every shape the recipes draw and on the
baseline's guesses."""

from __future__ import annotations

import random
from collections import deque

import pytest

from racbench.worlds.rules.episode import (ACTIONS, ENTITY_STEPS, LOST, RUNNING, WON, Episode,
                                           _inside)
from racbench.worlds.rules.grammar import RuleOptions
from racbench.worlds.rules.oracle import guessed_rules, horizon, shortest_plan, solve
from racbench.worlds.rules.text import RulesText
from racbench.worlds.rules.world import make_episode, split_world

SETTINGS = (RuleOptions.for_game("rtfm"),
            RuleOptions.for_game("rtfm", depth=4, irrelevant=4, entities=4, grid=5),
            RuleOptions.for_game("messenger", overlap=False),
            RuleOptions.for_game("messenger", overlap=False, entities=4, depth=3))


def plain_step(ep: Episode, state: tuple, action: str) -> tuple | None:
    """A turn as the module's text says it, each entity scanning its steps in order."""
    agent, ents, items, held, message, turn, outcome = state
    if outcome != RUNNING or action not in ACTIONS:
        return None
    size = ep.size
    agent = _inside(agent, action, size)
    if agent is None:
        return None
    ents = list(ents)
    if agent in ents:
        outcome, held, message = ep._meet(ents.index(agent), ents, held, message)
    if outcome == RUNNING and action != "stay" and agent in items:
        items = list(items)
        got = items.index(agent)
        if held >= 0:
            items[held] = agent
        items[got], held = -1, got
        items = tuple(items)
    if outcome == RUNNING and turn % 2 == 1:
        for i, e in enumerate(ep.rules.entities):
            cell = ents[i]
            if cell < 0 or e.behaviour == "stays":
                continue
            best, best_d = cell, None
            for step in ENTITY_STEPS:
                to = _inside(cell, step, size)
                if to is None or to != cell and to in ents:
                    continue
                d = abs(to // size - agent // size) + abs(to % size - agent % size)
                if best_d is None or (d < best_d if e.behaviour == "chases" else d > best_d):
                    best, best_d = to, d
            ents[i] = best
            if best == agent:
                outcome, held, message = ep._meet(i, ents, held, message)
                if outcome != RUNNING:
                    break
    return (agent, tuple(ents), items, held, message, turn + 1, outcome)


def plain_solve(ep: Episode, start: tuple) -> list[str] | None:
    """Breadth first over (state, turn parity), moves in the order of ACTIONS."""
    if start[6] == WON:
        return []
    limit = horizon(ep.size) - start[5]
    key = start[:5] + (start[5] % 2, start[6])
    parent = {key: None}
    frontier = deque([(start, key, 0)])
    while frontier:
        state, here, depth = frontier.popleft()
        if depth >= limit:
            continue
        for action in ACTIONS:
            nxt = plain_step(ep, state, action)
            if nxt is None or nxt[6] == LOST:
                continue
            k = nxt[:5] + (nxt[5] % 2, nxt[6])
            if k in parent:
                continue
            parent[k] = (here, action)
            if nxt[6] == WON:
                plan = []
                while parent[k] is not None:
                    k, move = parent[k]
                    plan.append(move)
                return plan[::-1]
            frontier.append((nxt, k, depth + 1))
    return None


def _episodes(opts, n: int, guesses: int):
    """Episodes of every split, and the baseline's guesses of them (nothing moves)."""
    for split in ("train", "validation", "test"):
        for i in range(n):
            ep = make_episode(opts, split, 7, i)
            yield ep.episode
            for k in range(guesses):
                yield Episode(guessed_rules(ep.rules, random.Random(k)), ep.episode.layout)


@pytest.mark.parametrize("opts", SETTINGS, ids=lambda o: f"{o.game}-{o.entities}-{o.depth}")
def test_a_turn_is_the_plain_turn(opts):
    """step and expand on random walks (entities chasing and fleeing into each other,
    meetings, pick-ups, the game's end) give the plain turn's states."""
    rng = random.Random(opts.entities)
    walked = 0
    for ep in _episodes(opts, 6, 1):
        state = ep.start
        for _ in range(300):
            plain = [(a, plain_step(ep, state, a)) for a in ACTIONS]
            assert [ep.step(state, a) for a in ACTIONS] == [s for _, s in plain]
            assert ep.expand(state) == [(a, s) for a, s in plain if s is not None]
            assert ep.step(state, "jump") is None
            going = [s for _, s in plain if s is not None]
            state = rng.choice(going) if going and rng.random() < 0.95 else ep.start
            walked += 1
    assert walked > 5000


@pytest.mark.parametrize("opts", SETTINGS, ids=lambda o: f"{o.game}-{o.entities}-{o.depth}")
def test_the_oracle_finds_the_plain_search_plan(opts):
    """The same first shortest plan from the start and from states along and
    off the plan, on episodes and on the baseline's still guesses."""
    rng = random.Random(len(opts.game))
    solved = 0
    for ep in _episodes(opts, 4, 2):
        states = [ep.start]
        for _ in range(3):
            going = [s for _, s in ep.expand(states[-1]) if s[6] == RUNNING]
            if not going:
                break
            states.append(rng.choice(going))
        for state in states:
            plan = solve(ep, state)
            assert plan == plain_solve(ep, state)
            solved += plan is not None
    assert solved > 50


def test_worlds_share_one_phrasing_that_says_what_a_fresh_one_says():
    """Every rule world hands out the same phrasing; what it says of a move (kept per
    change) is what a phrasing made afresh says."""
    world = split_world(SETTINGS[0], "test", 0, 4)
    other = split_world(SETTINGS[2], "test", 0, 4)
    text = world.text()
    assert text is other.text() is world.text("ignored", style="x")
    rng = random.Random(5)
    said = 0
    for _ in range(400):
        state = world.sample_state(rng)
        for move in ACTIONS:
            fresh = RulesText()
            nxt, got = world.observe(state, move, text)
            assert (nxt, got) == world.observe(state, move, fresh)
            said += 1
    assert said == 2000


@pytest.mark.parametrize("opts", SETTINGS[:3], ids=lambda o: f"{o.game}-{o.entities}")
def test_remembered_plan_lengths_are_the_searchs(opts, monkeypatch):
    """What an episode remembers of a state's shortest plan (the oracle's plan's states,
    the states along each plan found since) is what a search from that state finds,
    also once the memory has started afresh (a small REMEMBERED forces it)."""
    import racbench.worlds.rules.world as rule_world
    monkeypatch.setattr(rule_world, "REMEMBERED", 50)
    world = split_world(opts, "train", 0, 5)
    rng = random.Random(11)
    asked = remembered = 0
    for _ in range(600):
        i, state = world.sample_state(rng)
        ep = world.episodes[i]
        had = state in ep._lengths
        plan = plain_solve(ep.episode, state)
        assert ep.plan_length(state) == (None if plan is None else len(plan))
        asked += 1
        remembered += had
    assert asked == 600 and 100 < remembered < 600


@pytest.mark.parametrize("opts", SETTINGS, ids=lambda o: f"{o.game}-{o.entities}-{o.depth}")
def test_a_star_finds_plans_as_short_as_the_plain_search(opts):
    """shortest_plan (A* under a lower bound on the moves left) wins in as many moves as
    the plain breadth-first search's plan, from the start and from states along and off
    the plan, or finds none where it finds none (states late in the horizon)."""
    rng = random.Random(3 + opts.entities)
    asked = unwinnable = 0
    for ep in _episodes(opts, 4, 0):
        states = [ep.start]
        for _ in range(6):
            going = [s for _, s in ep.expand(states[-1]) if s[6] == RUNNING]
            if not going:
                break
            states.append(rng.choice(going))
        late = horizon(ep.size) - 3
        states += [s[:5] + (late + (s[5] % 2), s[6]) for s in states]
        for state in states:
            plain, fast = plain_solve(ep, state), shortest_plan(ep, state)
            assert (fast is None) == (plain is None)
            if plain is not None:
                assert len(fast) == len(plain)
                for move in fast:
                    state = ep.step(state, move)
                assert state[6] == WON
            asked += 1
            unwinnable += plain is None
    assert asked > 100 and unwinnable > 0
