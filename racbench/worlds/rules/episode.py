"""One episode of a rule world: a rule set on a laid-out grid, and its dynamics.

An episode is deterministic from (rule set, layout): the layout places you, the
entities and (rtfm) the items inside a square of `size` cells a side (walls around).
A state is a tuple (you, entity cells, item cells, item held, message held, turn,
outcome); a cell is row * size + column, -1 once a thing is gone (defeated, carried,
picked up).

A turn: you move one cell (up, down, left, right; a move into the wall cannot be made)
or stay. Moving onto an entity meets it; moving onto an item picks it up (you carry one
item at a time: the one you held is left where the new one lay). Then, every second
turn (turns 1, 3, 5...), each entity still there moves by its behaviour, in the order
of the rule set: one that chases takes the step (or stays) that brings it nearest you,
one that flees the step that takes it farthest, ties going to up, down, left, right,
stay in that order; no entity steps onto another. An entity that steps onto you meets
you.

Meeting an entity, rtfm: if the item you hold has the modifier that beats its element,
it is defeated (gone), and if it is of the team to defeat you win; otherwise you lose.
Messenger: the messenger gives you the message (and is gone); the goal wins if you
carry the message and loses otherwise; an enemy loses.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from racbench.worlds.protocol import World
from racbench.worlds.rules.grammar import RuleSet

MOVES = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1), "stay": (0, 0)}
ACTIONS = tuple(MOVES)
ENTITY_STEPS = ("up", "down", "left", "right", "stay")
RUNNING, WON, LOST = 0, 1, -1
MIN_START_DISTANCE = 2  # no entity starts next to you


@dataclass(frozen=True)
class Layout:
    size: int
    agent: int
    entities: tuple[int, ...]
    items: tuple[int, ...]

    def to_json(self) -> dict:
        return {"size": self.size, "agent": self.agent, "entities": list(self.entities),
                "items": list(self.items)}

    @classmethod
    def from_json(cls, data: dict) -> "Layout":
        return cls(data["size"], data["agent"], tuple(data["entities"]), tuple(data["items"]))


def draw_layout(rules: RuleSet, size: int, rng: random.Random) -> Layout:
    """Distinct cells for you, the entities and the items; no entity next to you."""
    while True:
        cells = rng.sample(range(size * size), 1 + len(rules.entities) + len(rules.items))
        agent, rest = cells[0], cells[1:]
        ents = rest[:len(rules.entities)]
        if all(distance(agent, e, size) >= MIN_START_DISTANCE for e in ents):
            return Layout(size, agent, tuple(ents), tuple(rest[len(rules.entities):]))


def distance(a: int, b: int, size: int) -> int:
    return abs(a // size - b // size) + abs(a % size - b % size)


def _inside(cell: int, action: str, size: int) -> int | None:
    """The cell a move leads to from `cell`, or None if the wall is in the way."""
    dr, dc = MOVES[action]
    r, c = cell // size + dr, cell % size + dc
    return r * size + c if 0 <= r < size and 0 <= c < size else None


def cell_name(cell: int, size: int) -> str:
    return f"r{cell // size + 1}c{cell % size + 1}"


@lru_cache(maxsize=None)
def _tables(n: int) -> tuple[list, list, list, list]:
    """A grid's tables, shared by its episodes: where each move leads from each cell
    (None: the wall), an entity's steps from each cell ranked for one that flees and one
    that chases you (see `_ranked`), the distances between cells and the cells' names."""
    cells = range(n * n)
    to = [{a: _inside(c, a, n) for a in ACTIONS} for c in cells]
    entity_moves = [[t for t in (to[c][m] for m in ENTITY_STEPS) if t is not None]
                    for c in cells]
    dist = [[distance(a, b, n) for b in cells] for a in cells]
    ranked = tuple([[_ranked(entity_moves[c], c, dist[agent], chase) for agent in cells]
                    for c in cells] for chase in (False, True))
    return to, ranked, dist, [cell_name(c, n) for c in cells]


def _ranked(steps: list[int], cell: int, dist: list[int], chase: bool) -> tuple[int, ...]:
    """An entity's steps from `cell`, best first: nearest you (chasing) or farthest
    (fleeing), ties in the order of ENTITY_STEPS; cut after staying, which nothing
    blocks. The entity takes the first not taken by another: the step a scan of the
    steps in order, keeping each strictly better one not blocked, would pick."""
    order = sorted(range(len(steps)), key=lambda k: (dist[steps[k]] if chase
                                                     else -dist[steps[k]], k))
    ranked = [steps[k] for k in order]
    return tuple(ranked[:ranked.index(cell) + 1])


class Episode:
    """The dynamics of one (rule set, layout)."""

    def __init__(self, rules: RuleSet, layout: Layout):
        self.rules = rules
        self.layout = layout
        self.size = layout.size
        self.start = (layout.agent, layout.entities, layout.items, -1, False, 0, RUNNING)
        beater = {e: m for m, e in rules.beats}
        # rtfm: the item index that beats each entity, and whether it is a target
        self._beaten_by = [next((i for i, it in enumerate(rules.items)
                                 if it.modifier == beater.get(e.element)), None)
                           for e in rules.entities]
        self._target = [e.team == rules.target and bool(rules.target) for e in rules.entities]
        self._roles = [e.role for e in rules.entities]
        self._moving = [e.behaviour != "stays" for e in rules.entities]
        self._chase = [e.behaviour == "chases" for e in rules.entities]
        # where each move leads from each cell (None: the wall), each entity's steps
        # ranked from each cell toward each cell of yours: tables of the grid's size
        # (shared by its episodes), since the oracle's search steps millions of times
        self._to, ranked, self._dist, self._names = _tables(self.size)
        self._ranked = [ranked[c] if m else None for m, c in zip(self._moving, self._chase)]
        self._any_moving = any(self._moving)

    def applicable(self, state: tuple) -> list[str]:
        if state[6] != RUNNING:
            return []
        to = self._to[state[0]]
        return [a for a in ACTIONS if to[a] is not None]

    def step(self, state: tuple, action: str) -> tuple | None:
        """The state after `action`, or None if it cannot be done there."""
        if state[6] != RUNNING:
            return None
        to = self._to[state[0]].get(action)  # None: the wall, or not a move
        return None if to is None else self._after(state, action, to)

    def expand(self, state: tuple) -> list[tuple[str, tuple]]:
        """(move, the state after it) for each move that can be made in `state`, in the
        order of ACTIONS: `step` of each, as the oracle's search asks them."""
        if state[6] != RUNNING:
            return []
        after = self._after
        return [(a, after(state, a, to)) for a, to in self._to[state[0]].items()
                if to is not None]

    def _after(self, state: tuple, action: str, agent: int) -> tuple:
        """The state after `action` (which takes you to cell `agent`) in a running game."""
        _, ents, items, held, message, turn, outcome = state
        if agent in ents:  # the first there
            ents = list(ents)
            outcome, held, message = self._meet(ents.index(agent), ents, held, message)
        if outcome == RUNNING and action != "stay" and agent in items:
            items = list(items)
            got = items.index(agent)
            if held >= 0:
                items[held] = agent
            items[got], held = -1, got
            items = tuple(items)
        if outcome == RUNNING and turn % 2 == 1 and self._any_moving:
            ents = list(ents)
            for i, ranked in enumerate(self._ranked):
                cell = ents[i]
                if cell < 0 or ranked is None:
                    continue
                for to in ranked[cell][agent]:  # the best step not taken by another
                    if to == cell or to not in ents:
                        break
                ents[i] = to
                if to == agent:
                    outcome, held, message = self._meet(i, ents, held, message)
                    if outcome != RUNNING:
                        break
        return (agent, ents if type(ents) is tuple else tuple(ents), items, held, message,
                turn + 1, outcome)

    def _meet(self, i: int, ents: list[int], held: int, message: bool):
        """(outcome, held, message) after meeting entity i (removed if it is gone)."""
        if self.rules.game == "rtfm":
            if held >= 0 and held == self._beaten_by[i]:
                ents[i] = -1
                return (WON if self._target[i] else RUNNING), held, message
            return LOST, held, message
        role = self._roles[i]
        if role == "message":
            ents[i] = -1
            return RUNNING, held, True
        if role == "goal":
            return (WON if message else LOST), held, message
        return LOST, held, message

    execute = World.execute  # (final state, first failing step or None), as every world

    # -- what holds -------------------------------------------------------------------
    def facts(self, state: tuple) -> frozenset[tuple]:
        """Where you, the entities and the items lying about are, what you hold, who is
        defeated (rtfm) or whether you carry the message (messenger), and the outcome."""
        agent, ents, items, held, message, _, outcome = state
        names, rules = self._names, self.rules
        facts = {("at", "you", names[agent])}
        for e, cell in zip(rules.entities, ents):
            if cell >= 0:
                facts.add(("at", e.label, names[cell]))
            elif rules.game == "rtfm":
                facts.add(("defeated", e.label))
        for it, cell in zip(rules.items, items):
            if cell >= 0:
                facts.add(("at", it.name, names[cell]))
        if held >= 0:
            facts.add(("holds", rules.items[held].name))
        if message:
            facts.add(("has_message",))
        if outcome == WON:
            facts.add(("won",))
        if outcome == LOST:
            facts.add(("lost",))
        return frozenset(facts)

    def kind(self, name: str) -> str:
        """A fact argument's kind: you, entity, item or cell."""
        if name == "you":
            return "you"
        if any(e.label == name for e in self.rules.entities):
            return "entity"
        if any(i.name == name for i in self.rules.items):
            return "item"
        return "cell"
