"""A rule world's phrasing: facts and moves from templates/rules/facts.j2, the manual's
statements from templates/rules/manual.j2."""

from __future__ import annotations

from functools import lru_cache

from racbench.text import environment
from racbench.text.phrasing import TaskText, template


CHANGES_KEPT = 1 << 16  # changes said, kept (past this many they are said afresh)


def _module(name: str):
    return environment().get_template(f"rules/{name}.j2").module


class RulesText(TaskText):
    """Facts name things as the grid shows them; a move is what you do."""

    def __init__(self):
        self.variant = 0
        self.style = "acp"
        self.common = template("common")
        self._facts = _module("facts")
        self.fact = lru_cache(maxsize=None)(self._fact)
        self.action = lru_cache(maxsize=None)(self._action)
        self._sentences: dict = {}
        self._changes: dict = {}  # (made, unmade) -> what a move changed, said

    def _fact(self, atom: tuple, positive: bool = True) -> str:
        return str(getattr(self._facts, atom[0])(*atom[1:], positive=positive))

    def _action(self, term: tuple) -> str:
        return str(self._facts.move(term[0]))

    def describe(self) -> str:
        return ""

    def original_names(self, objects) -> dict[str, str]:
        return {}

    def observation(self, manual: str, size: int, grid: str, held: str, goal: str) -> str:
        """The manual, the grid's size and walls then where everything is, what you hold
        and the goal."""
        return str(self._facts.state(manual, size, grid, self.inventory(held), goal))

    def inventory(self, held: str) -> str:
        return str(self._facts.inventory(held))

    def task(self, manual: str, size: int, goal: str) -> str:
        """The manual, the grid's size and walls, and the goal, as an imitation row's task
        description."""
        return str(self._facts.task(manual, size, goal))

    def changes(self, made, unmade) -> str:
        """What a move changed: facts made true, then facts made false (as negations);
        kept per change (moves change the same few facts again and again)."""
        key = (tuple(map(tuple, made)), tuple(map(tuple, unmade)))
        said = self._changes.get(key)
        if said is None:
            if len(self._changes) >= CHANGES_KEPT:
                self._changes.clear()
            said = self._changes[key] = str(self._facts.changes(
                [self.sentence(self.fact(f)) for f in key[0]],
                [self.sentence(self.fact(f, False)) for f in key[1]]))
        return said

    def blocked(self, why: str = "blocked") -> str:
        """Why a move changed nothing: `blocked` (a wall), `over`, `not_a_move`."""
        return str(getattr(self._facts, why)())

    def goal(self, game: str, target: str) -> str:
        return str(self._facts.goal(game, target))


def manual_sentences(rules) -> list[str]:
    """The manual, one sentence a statement, in the rule set's order."""
    t = _module("manual")
    return [str(getattr(t, s.kind)(s.variant, *s.args)).strip() for s in rules.statements]
