"""Scoring a model's reply to a racbench row: `score(row, reply) -> Score`.

The reply may be a bare answer ("B", "true", a plan one action per line) or free text
("Yes, because...", "The answer is (B).", reasoning and then a numbered plan): the
answer is first read out of it by `racbench.checks.answers`, by the row's answer type.
A reply with no readable answer scores 0.0 with `parsed` False, so an evaluation can
count unreadable replies apart from wrong ones.

bool rows (TRAC's included): 1.0 when the reply says the row's label (true/yes or false/no).
mc rows: 1.0 when the reply names the correct option, by letter or by its text.
open ACP rows: scored by the family's verifier on the row's own symbolic problem
(simulation for plans, set equality for sets of actions/facts/steps, search for
reachability and landmarks); see `racbench/tasks/scoring.py` for the plan scale (1.0
valid and optimal, 0.5 valid but longer, 0.0 otherwise). An open answer is parsed when
every item names an action or fact of the row's problem, in PDDL or as the row phrases
it; an unknown PDDL term is a wrong answer, an unmatched English line an unreadable one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from racbench.checks import answers

# What each family's open rows ask for, which says how to read it from a reply.
OPEN_ANSWERS = {
    "applicability": "actions", "plan_generation": "actions", "planning": "actions",
    "reachability": "actions", "action_reachability": "actions",
    "progression": "facts", "projection": "facts",
    "next_action": "action", "landmarks": "fact",
    "justification": "steps", "executability": "steps", "validation": "steps",
}
_READERS: dict[str, Callable[[Any], str | None]] = {
    "actions": answers.extract_actions, "action": answers.extract_action,
    "facts": answers.extract_facts, "fact": answers.extract_fact,
    "steps": answers.extract_steps,
}


@dataclass(frozen=True)
class Score:
    """A reply's score: `value` in [0, 1]; `parsed` False when no answer of the row's
    type could be read (then `value` is 0.0); `extracted` the answer as read ("true",
    "B", "2, 4", one action or fact per line, PDDL or the reply's own English), None
    when the reply held nothing of the kind. `float(score)` is the value."""

    value: float
    parsed: bool
    extracted: str | None

    def __float__(self) -> float:
        return self.value


def score(row: Mapping[str, Any], reply: Any) -> Score:
    """The reply's score on the row, by the row's form."""
    form = row["form"]
    if form == "bool":
        return _compare(answers.extract_bool(reply), row["answer"])
    if form == "mc":
        return _compare(answers.extract_letter(reply, row.get("choices") or ()), row["answer"])
    return _score_open(row, reply)


def _compare(got: str | None, truth: str) -> Score:
    return Score(float(got == truth), got is not None, got)


def _score_open(row: Mapping[str, Any], reply: Any) -> Score:
    from racbench.tasks import FAMILIES
    from racbench.tasks.symbolic import symbolic_task

    kind = OPEN_ANSWERS[row["family"]]
    got = _READERS[kind](reply)
    if got is None:
        return Score(0.0, False, None)
    meta = json.loads(row.get("metadata") or "{}")
    st = symbolic_task(row["symbolic"], meta.get("render"))
    if not _readable(st, kind, got):
        return Score(0.0, False, got)
    value = FAMILIES[row["family"]].score_open(st, got)
    return Score(min(1.0, max(0.0, float(value))), True, got)


def _readable(st, kind: str, text: str) -> bool:
    """Whether every item of the extracted answer is an action or fact in PDDL form or
    phrased as the row phrases one (any fact of the problem: the family decides whether
    it is the right one)."""
    if kind in ("actions", "action"):
        return st.parse_actions(text) is not None
    if kind in ("facts", "fact"):
        atoms = list(st.task.atoms) + sorted(st.task.static_atoms)
        return st.parse_literals(text, atoms) is not None
    return True
