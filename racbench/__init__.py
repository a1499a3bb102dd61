"""racbench: offline text benchmarks about actions and change."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:
    from racbench.checks.score import Score

__version__ = "0.1.0"


def score(row: Mapping[str, Any], reply: Any) -> "Score":
    """Score a model's reply to one dataset row (a dict, as `datasets` yields it).

    The reply may be a bare answer ("B", "true", a plan one action per line) or free
    text ("Yes, because the block is clear.", "The answer is (B).", reasoning then a
    numbered plan). Returns a `Score`: `value` in [0, 1] (`float(result)` gives it),
    `parsed` False when no answer could be read from the reply (value 0.0, so an
    evaluation can count those apart from wrong answers), and `extracted`, the answer
    as read. Imported on first call, so `import racbench` stays light."""
    from racbench.checks.score import score as _score

    return _score(row, reply)
