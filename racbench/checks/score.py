"""Scoring answers to racbench rows: `score(row, answer) -> float` in [0, 1].

bool rows: 1.0 when the answer says the row's label (true/yes/1 or false/no/0).
mc rows: 1.0 when the answer names the correct option, by letter ("B", "(B)", "B.")
or by repeating the option's text.
open ACP rows: scored by the family's verifier on the row's own symbolic problem
(simulation for plans, set equality for sets of actions/facts/steps, search for
reachability and landmarks); see `racbench/tasks/scoring.py` for the plan scale (1.0
valid and optimal, 0.5 valid but longer, 0.0 otherwise).
"""

from __future__ import annotations

import json
import re

TRUE_WORDS = {"true", "yes", "1", "correct"}
FALSE_WORDS = {"false", "no", "0", "incorrect"}


def _clean(text: str) -> str:
    return re.sub(r"[\s.()\[\]:]+", " ", str(text).strip().lower()).strip()


def score(row: dict, answer) -> float:
    form = row.get("form")
    if form is None:  # a TRAC row: label only
        return float(_bool(answer) == bool(row["label"]))
    if form == "bool":
        return float(_bool(answer) == (row["answer"] == "true"))
    if form == "mc":
        got = _clean(answer)
        if got.upper() == row["answer"]:
            return 1.0
        choices = row.get("choices") or []
        index = row.get("answer_index", -1)
        return float(0 <= index < len(choices) and got == _clean(choices[index]))
    from racbench.tasks import FAMILIES
    from racbench.tasks.symbolic import symbolic_task
    family = FAMILIES[row["family"]]
    meta = json.loads(row.get("metadata") or "{}")
    st = symbolic_task(row["symbolic"], meta.get("render"))
    value = family.score_open(st, str(answer))
    return min(1.0, max(0.0, float(value)))


def _bool(answer) -> bool | None:
    if isinstance(answer, bool):
        return answer
    text = _clean(answer)
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    return None
