"""The records a row is drawn from: what a row must be (`Target`) and the question a
family sampled for it (`Question`), below both the families' helpers (base.py) and
the balancing that picks subjects and options (balance.py)."""

from __future__ import annotations

from dataclasses import dataclass, field

LETTERS = "ABCD"
N_OPTIONS = 4


@dataclass(frozen=True)
class Target:
    """What a row must be: its form, and the label (bool), the correct option's index
    (mc) or nothing (open); bool rows also fix their cell (sequence length and kind of
    subject, see balance.survey_cells) and `variant`, the kind of negative."""

    form: str
    label: bool = True
    index: int = 0
    variant: int = 0
    cell: object = None  # bool: (length, kind of subject)
    survey: object = None  # mc: the balance.Survey of the problem


@dataclass
class Question:
    sid: int  # state id in the world
    subject: object = None  # JSON-ready: an atom, a literal, an action term or a step
    actions: list[int] = field(default_factory=list)  # the sequence or plan, if any
    goal: list[tuple[tuple, bool]] | None = None  # literals; None = no goal in the row
    options: list | None = None  # JSON-ready symbolic options (mc)
    answer: object = None  # bool (bool rows), option index (mc), JSON-ready (open)
    answer_text: str = ""  # the `answer` column for open rows
    optimal_plan_length: int | None = None
    meta: dict = field(default_factory=dict)


_SCALARS = frozenset({str, int, bool, float, type(None)})


def json_key(x):
    """A hashable form of a JSON-ready value (lists become tuples)."""
    # surveys key every option of every draw: scalars (most items) are kept as they
    # are without a call
    if isinstance(x, list):
        return tuple([i if type(i) in _SCALARS else json_key(i) for i in x])
    if isinstance(x, dict):
        return tuple(sorted([(k, v if type(v) in _SCALARS else json_key(v))
                             for k, v in x.items()]))
    return x
