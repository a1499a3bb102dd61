"""Scoring a model's reply to a racbench row: `score(row, reply) -> Score`.

The reply may be a bare answer ("B", "true", a plan one action per line) or free text
("Yes, because...", "The answer is (B).", reasoning and then a numbered plan): the
answer is first read out of it by `racbench.checks.answers`, by the row's answer type.
A reply with no readable answer scores 0.0 with `parsed` False, so an evaluation can
count unreadable replies apart from wrong ones.

bool rows (TRAC's included): 1.0 when the reply says the row's label (true/yes or false/no).
mc rows: 1.0 when the reply names the correct option, by letter or by its text.
open rows: scored by the family's verifier on the row's own symbolic problem
(simulation for plans, set equality for sets of actions/facts/steps, search for
reachability and landmarks); see `racbench/tasks/scoring.py` for the plan scale (1.0
valid and optimal, 0.5 valid but longer, 0.0 otherwise). An open answer is parsed when
every item names an action or fact of the row's problem, in PDDL or as the row phrases
it (a line listing phrased items with commas or "and" is split where the row's
phrasings say); an unknown PDDL term is a wrong answer, an unmatched English line an
unreadable one. A rule world's open first_target row asks for one thing on its grid:
the reply is parsed when it names exactly one (`answers.extract_name`).
"""

from __future__ import annotations

import json
import re
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping

from racbench.checks import answers
from racbench.errors import InputError
from racbench.text import sayer

_say = sayer("cli", ("score.j2",))

# What each family's open rows ask for, which says how to read it from a reply.
OPEN_ANSWERS = {
    "applicability": "actions", "plan_generation": "actions", "planning": "actions",
    "reachability": "actions", "action_reachability": "actions",
    "progression": "facts", "projection": "facts",
    "next_action": "action", "landmarks": "fact",
    "justification": "steps", "executability": "steps", "validation": "steps",
    "first_target": "name",  # a thing on a rule world's grid (tasks/first_target.py)
}
_READERS: dict[str, Callable[[Any], str | None]] = {
    "actions": answers.extract_actions, "action": answers.extract_action,
    "facts": answers.extract_facts, "fact": answers.extract_fact,
    "steps": answers.extract_steps,
}
# Where a line may list several phrased items ("a, b and c"); kept by the split.
_LISTED = re.compile(r"(,\s*(?:and\s+)?|\s+and\s+)")
# The most parts between those one phrasing may span (an obfuscated action names its
# objects "a, b, c and d"; four parts in the shipped domains).
_MAX_ITEM_PARTS = 12


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
    """The reply's score on the row, by the row's form; a row missing what scoring
    reads raises InputError naming the field."""
    form = _field(row, "form")
    if form == "bool":
        return _compare(answers.extract_bool(reply), _field(row, "answer"))
    if form == "mc":
        return _compare(answers.extract_letter(reply, row.get("choices") or ()),
                        _field(row, "answer"))
    if form == "open":
        return _score_open(row, reply)
    raise InputError(_say("unknown_form", form=form))


def _compare(got: str | None, truth: str) -> Score:
    return Score(float(got == truth), got is not None, got)


def _score_open(row: Mapping[str, Any], reply: Any) -> Score:
    from racbench.tasks import FAMILIES
    from racbench.tasks.symbolic import symbolic_task

    family = _field(row, "family")
    if family not in OPEN_ANSWERS:
        raise InputError(_say("no_open_answers", family=family, accepted=list(OPEN_ANSWERS)))
    kind = OPEN_ANSWERS[family]
    sym = _json_field(row, "symbolic")
    if kind == "name":
        return _score_name(FAMILIES[family], sym, reply)
    with _symbolic_fields(sym):
        st = symbolic_task(sym, _json_field(row, "metadata", "{}").get("render"))
        got = _READERS[kind](reply)
        if got is None:
            return Score(0.0, False, None)
        items = _row_items(st, kind, got)
        if items is None:
            return Score(0.0, False, got)
        value = FAMILIES[family].score_open(st, items)
    return Score(min(1.0, max(0.0, float(value))), True, items)


def _score_name(family, sym: dict, reply: Any) -> Score:
    """A rule-world row's open answer: the one thing on its grid the reply names, scored
    by the family on the row's rule set."""
    from racbench.tasks.first_target import on_grid
    from racbench.worlds.rules.grammar import RuleSet

    with _symbolic_fields(sym):
        rules = RuleSet.from_json(sym["rules"])
    got = answers.extract_name(reply, on_grid(rules))
    if got is None:
        return Score(0.0, False, None)
    return Score(float(family.score_open(rules, got)), True, got)


def _field(row: Mapping[str, Any], name: str) -> Any:
    if name not in row:
        raise InputError(_say("no_field", name=name))
    return row[name]


def _json_field(row: Mapping[str, Any], name: str, default: str | None = None) -> dict:
    """A JSON object column (symbolic, metadata), as a dict; `default` when absent or
    empty, if given."""
    value = _field(row, name) if default is None else row.get(name) or default
    if isinstance(value, Mapping):
        return dict(value)
    try:
        value = json.loads(value)
    except (TypeError, ValueError) as exc:
        raise InputError(_say("not_json", name=name, reason=exc)) from None
    if not isinstance(value, dict):
        raise InputError(_say("not_object", name=name))
    return value


@contextmanager
def _symbolic_fields(sym: dict) -> Iterator[None]:
    """A field missing from the row's symbolic JSON (the task's `domain_pddl`, a
    family's `subject`) raised as the InputError it is, naming the field."""
    try:
        yield
    except KeyError as exc:
        key = exc.args[0] if exc.args else None
        if not isinstance(key, str) or key in sym:
            raise
        raise InputError(_say("no_symbolic_field", key=key)) from None


def _row_items(st, kind: str, text: str) -> str | None:
    """The extracted answer with its phrased lines split into the row's items ("a, b and
    c" is three actions where a, b and c are phrasings of the row); None if a line is
    no item, or a single-item answer names several."""
    if _readable(st, kind, text):
        return text
    items = []
    for line in text.split("\n"):
        parts = _listed_items(st, kind, line)
        if parts is None:
            return None
        items.extend(parts)
    if kind in ("action", "fact") and len(set(items)) > 1:
        return None
    return "\n".join(items)


def _listed_items(st, kind: str, line: str) -> list[str] | None:
    """The line as consecutive items of the row, cut at commas and "and": phrasings hold
    both themselves ("at waypoint2, rover1 calibrates camera1", "unravel tulip1, sponge1
    and sprocket1"), so only the row's phrasings say where one ends. Found from the end
    (an item is tried only before a readable rest, shortest first), so a line of prose
    costs a few tries, not one per pair of its commas."""
    pieces = _LISTED.split(line)  # text, separator, text, ...
    ends = len(pieces) // 2 + 1
    rest: list[list[str] | None] = [None] * ends + [[]]  # rest[i]: the items from piece i
    for i in range(ends - 1, -1, -1):
        for j in range(i + 1, min(ends, i + _MAX_ITEM_PARTS) + 1):
            item = "".join(pieces[2 * i:2 * j - 1])
            if rest[j] is not None and _readable(st, kind, item):
                rest[i] = [item] + rest[j]
                break
    return rest[0]


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
