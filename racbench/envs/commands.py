"""How a StripsEnv names its ground actions and reads a typed action back.

Each action is listed by its English phrase (DomainText), or by its PDDL form
`(name arg ...)` when another action of the problem reads the same, so every listed
name means one action. Typed text is read case- and space-insensitively, with or
without a final period, as a listed name or as any action's PDDL form.
"""

from __future__ import annotations

from collections import Counter

from racbench.text.domain import DomainText
from racbench.worlds.strips.task import GroundTask


def pddl_form(term: tuple[str, ...]) -> str:
    return "(" + " ".join(term) + ")"


def _key(text: str) -> str:
    return " ".join(text.lower().split()).rstrip(".").rstrip()


class Commands:
    def __init__(self, task: GroundTask, text: DomainText):
        phrases = [text.action(a.term) for a in task.actions]
        counts = Counter(_key(p) for p in phrases)
        self.names = [p if counts[_key(p)] == 1 else pddl_form(a.term)
                      for p, a in zip(phrases, task.actions)]
        self.pddl = [pddl_form(a.term) for a in task.actions]
        self._by_name = {_key(n): k for k, n in enumerate(self.names)}
        self._by_term = task.action_index

    def read(self, text: str) -> int | None:
        """The index of the action `text` names, or None."""
        key = _key(text)
        if key.startswith("(") and key.endswith(")"):
            return self._by_term.get(tuple(key[1:-1].split()))
        return self._by_name.get(key)
