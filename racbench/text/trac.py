"""TRAC's blocksworld phrasing: facts, actions and goals through templates/blocksworld/.

The grammar never decides what is true (TextWorld's rule): generators pass already
decided literals and actions, this module only phrases them. Each clause is rendered
once per distinct (symbol, names) and cached, which keeps row rendering cheap.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from racbench.text import environment


class Verbalizer:
    """Clauses and sentences for one domain's templates (`templates/<domain>/`)."""

    def __init__(self, domain: str):
        self.domain = domain
        self._facts = environment().get_template(f"{domain}/facts.j2").module
        self._actions = environment().get_template(f"{domain}/actions.j2").module
        self._parts = environment().get_template(f"{domain}/parts.j2").module
        self.fact = lru_cache(maxsize=None)(self._fact)
        self.action = lru_cache(maxsize=None)(self._action)
        self.sentence = lru_cache(maxsize=None)(self._sentence)

    def _fact(self, atom: tuple[str, ...], positive: bool = True) -> str:
        macro = getattr(self._facts, atom[0])
        return str(macro(*atom[1:], positive=positive))

    def _action(self, term: tuple[str, ...]) -> str:
        return str(getattr(self._actions, term[0])(*term[1:]))

    def _sentence(self, clause: str) -> str:
        return str(self._parts.sentence(clause))

    def fact_sentence(self, atom: tuple[str, ...], positive: bool = True) -> str:
        return self.sentence(self.fact(atom, positive))

    def action_sentence(self, term: tuple[str, ...]) -> str:
        return self.sentence(self.action(term))

    def conjunction(self, literals: Sequence[tuple[tuple[str, ...], bool]]) -> str:
        """A goal clause: literals joined with 'and'."""
        return str(self._parts.conjunction([self.fact(a, p) for a, p in literals]))

    def goal_statement(self, literals: Sequence[tuple[tuple[str, ...], bool]]) -> str:
        return str(self._parts.goal_statement(self.conjunction(literals)))
