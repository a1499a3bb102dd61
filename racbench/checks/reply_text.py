"""A reply's text made plain for the answer readers, and where its answer is announced.

Markdown is dropped (bold, code spans, "#" headings become "Heading:" lines, which the
list readers take as section labels), and so are LaTeX answer wrappers (`\\boxed{...}`);
a fenced block is kept whole so a plan in ```pddl ... ``` can be read on its own.
Answer markers are the phrases after which lm-evaluation-harness's filters look for the
answer: "the answer is", "Answer:", "Final answer".
"""

from __future__ import annotations

import re

_FENCE = re.compile(r"```[^\n]*\n(.*?)(?:```|\Z)", re.S)
_HEADING = re.compile(r"^[ \t]*#+[ \t]*(.*?)[ \t:]*$", re.M)
_MARKER = re.compile(
    r"\b(?:final\s+answer\b(?:\s*(?:is\b|:|-))?"
    r"|answer\s*(?:is\b|would\s+be\b|will\s+be\b|should\s+be\b|:)"
    r"|(?:correct|right)\s+(?:option|choice)\s+is\b)[ \t]*:?", re.I)
# LaTeX wrappers around an answer, as math-tuned models write it ("$\\boxed{B}$").
_LATEX = re.compile(r"\\(?:boxed|text|textbf|mathrm)\s*\{([^{}]*)\}|\$")
_LATEX_DEPTH = 3  # as in \\boxed{\\textbf{(C)}}; deeper is no answer wrapper
_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'",
                         "\u00a0": " ", "\u2192": "->"})


def plain(reply: str) -> str:
    """The reply without markdown emphasis, code spans, fence lines and LaTeX answer
    wrappers, with Unix line ends and plain quotes."""
    text = str(reply).replace("\r\n", "\n").replace("\r", "\n").translate(_QUOTES)
    for _ in range(_LATEX_DEPTH):  # inside out
        text = _LATEX.sub(r"\1", text)
    text = re.sub(r"^[ \t]*```[^\n]*$", "", text, flags=re.M)
    text = _HEADING.sub(lambda m: f"{m.group(1)}:" if m.group(1) else "", text)
    return text.replace("*", "").replace("`", "").replace("__", "")


def last_fenced(reply: str) -> str | None:
    """The content of the reply's last fenced code block, if it has one."""
    blocks = _FENCE.findall(str(reply).replace("\r\n", "\n"))
    return blocks[-1] if blocks else None


def answer_starts(text: str) -> list[int]:
    """Where the text after each answer marker begins, in order."""
    return [m.end() for m in _MARKER.finditer(text)]
