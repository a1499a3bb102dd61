"""English for ACP rows: facts and actions from the domain's phrasing, questions from
`templates/acp/`.

Facts and actions come from `racbench.text.domain.DomainText` (per-domain
templates with a default phrasing for any PDDL predicate); where that module is not
available, from `templates/acp/fallback.j2`, which writes `pred(a, b)` style clauses.
Questions, options and instructions always come from `templates/acp/<family>.j2` and
`templates/acp/common.j2`: no English sentence lives in Python code.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Sequence

from racbench.text import environment
from racbench.worlds.strips.model import Domain

try:  # the shared phrasing engine, when present
    from racbench.text.domain import DomainText
except ImportError:  # pragma: no cover - depends on the checkout
    DomainText = None


def template(name: str):
    return environment().get_template(f"acp/{name}.j2").module


class AcpText:
    def __init__(self, domain: Domain, obfuscation: str | None = None, paraphrase: int = 0,
                 seed: int = 0):
        self.domain = domain
        self.variant = paraphrase
        self.common = template("common")
        self._engine = None
        if DomainText is not None:
            try:
                self._engine = DomainText(domain, obfuscation=obfuscation, seed=seed)
            except Exception:  # an incompatible engine: keep the fallback phrasing
                self._engine = None
        self._fallback = template("fallback")
        self.fact = lru_cache(maxsize=None)(self._fact)
        self.action = lru_cache(maxsize=None)(self._action)

    def _fact(self, atom: tuple, positive: bool = True) -> str:
        if self._engine is not None:
            return str(self._engine.fact(tuple(atom), positive=positive, variant=self.variant))
        return str(self._fallback.fact(atom[0], list(atom[1:]), positive))

    def _action(self, term: tuple) -> str:
        if self._engine is not None:
            return str(self._engine.action(tuple(term), variant=self.variant))
        return str(self._fallback.action(term[0], list(term[1:])))

    def sentence(self, clause: str) -> str:
        return str(self.common.sentence(clause))

    def state(self, atoms: Sequence[tuple], rng: random.Random) -> str:
        facts = [self.sentence(self.fact(tuple(a))) for a in atoms]
        rng.shuffle(facts)
        return " ".join(facts)

    def conjunction(self, literals: Sequence[tuple[tuple, bool]]) -> str:
        return str(self.common.conjunction([self.fact(tuple(a), p) for a, p in literals]))

    def steps(self, terms: Sequence[tuple]) -> str:
        return str(self.common.steps([self.action(tuple(t)) for t in terms]))

    def original_names(self, objects) -> dict[str, str]:
        """Surface name -> PDDL name of every action, predicate and object renamed by
        obfuscation (empty without it), so PDDL-style answers can use either."""
        obf = getattr(self._engine, "obfuscation", None)
        if not obf:
            return {}
        names = {new: old for old, new in obf.items()}
        names.update({obf.rename(o): o for o in objects})
        return names

    def describe(self) -> str:
        if self._engine is not None and hasattr(self._engine, "describe_domain"):
            try:
                return str(self._engine.describe_domain())
            except Exception:
                return ""
        return ""
