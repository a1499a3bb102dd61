"""Lists of actions or facts, and single ones, read out of a free-form reply.

Replies list items one per line (numbered, bulleted, in a code fence), inline ("(a),
(b) and then (c)", "[(a), (b)]"), or in sections ("Positive effects: ... Negative
effects: ..."), often after a preamble ("Here is the plan:") and before an
explanation. PDDL terms are read wherever they stand, as ACPBench's evaluators read
them; "move(a, b)" and "not (p a)" are rewritten as PDDL. Lines that start with a term
are the list when there are any, so terms inside an explanation do not join it. Items
phrased in English are kept as written, one per line, for the scorer to match against
the row's own phrasings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from racbench.checks.reply_text import answer_starts, last_fenced, plain

__all__ = ["extract_actions", "extract_facts", "extract_action", "extract_fact"]

_TERM = re.compile(r"\((?:[^()]|\([^()]*\))*\)")  # (a b) or (not (a b))
_CALL = re.compile(r"(?<![\w(-])([A-Za-z][\w-]*)\(([^()]*)\)")  # move(a, b)
_NOT = re.compile(r"(?<![(\w-])(?:not|¬)\s*(\([^()]*\))", re.I)  # not (p a), ¬(p a)
_BULLET = re.compile(r"^(?:[-+•>]+\s*|\(?\d+[.):]\)?\s*|\d+\s+(?=\()|step\s*\d+\s*[.:)-]?\s*)",
                     re.I)
_LEAD = re.compile(r"^(?:[\[\"',:;]|(?:first(?:ly)?|then|next|after\s+that|afterwards|"
                   r"finally|lastly|and)\b)\s*", re.I)
_LABEL = re.compile(r"^([A-Za-z][^():\n]{0,60}?)\s*:\s*(.*)$")
_GAP = re.compile(r"^(?:[\s,;.:>=\[\]\"'-]|\b(?:and|or|then|followed\s+by|next|finally)\b)*$",
                  re.I)
# A whole item saying the list is empty ("nothing is on top of b1" is a fact, not this).
_NONE = re.compile(r"^\W*(?:none\b.*|nothing|no|n/a|\[\s*\]|\{\s*\}"
                   r"|(?:there\s+(?:is|are)\s+)?no\s+(?:\w+\s+)?(?:actions?|facts?)\b.*"
                   r"|there\s+(?:is|are)\s+none\b.*)\W*$", re.I)
# Between phrased items: ";", "then", "and finally", ", next,", sentence ends, "->",
# ", (2) "; not bare commas or "and", which obfuscated and paraphrased phrasings contain
# ("unravel tulip1, sponge1 and sprocket1"): the scorer splits those on the row's own
# phrasings (racbench.checks.score).
_PHRASE_SPLIT = re.compile(r"\s*(?:;|,?\s*(?:and\s+)?\b(?:then|finally|lastly|afterwards|"
                           r"after\s+that)\b,?|,\s*next\b,?|(?<=\w)\.\s+|\s->\s"
                           r"|,\s*(?=\(\d+\)\s))\s*", re.I)
_NEGATIVE = re.compile(r"\b(?:false|negative|delete[sd]?|deletions?|removed?|no\s+longer|lost)\b",
                       re.I)
_POSITIVE = re.compile(r"\b(?:true|positive|add(?:ed|s)?|additions?)\b", re.I)


def extract_actions(reply) -> str | None:
    """Actions one per line ("none" for an empty list), or None if the reply has none."""
    return _joined(_read(reply, facts=False))


def extract_facts(reply) -> str | None:
    """Literals one per line, "(not (p a))" for the negative ones; "none"; or None."""
    return _joined(_read(reply, facts=True))


def extract_action(reply) -> str | None:
    """The one action the reply names ("none" if it says none); None if it names
    several different ones or none at all."""
    return _single(_read(reply, facts=False))


def extract_fact(reply) -> str | None:
    """The one fact the reply names, as `extract_action` does for actions."""
    return _single(_read(reply, facts=True))


def _joined(items: list[str] | None) -> str | None:
    if items is None:
        return None
    return "\n".join(items) if items else "none"


def _single(items: list[str] | None) -> str | None:
    if items is None:
        return None
    distinct = list(dict.fromkeys(items))
    if len(distinct) > 1:
        return None
    return distinct[0] if distinct else "none"


@dataclass
class _Section:
    label: str = ""
    lines: list[tuple[str, bool]] = field(default_factory=list)  # (text, bulleted)

    @property
    def polarity(self) -> bool | None:
        if _NEGATIVE.search(self.label):
            return False
        return True if _POSITIVE.search(self.label) else None


def _read(reply, facts: bool) -> list[str] | None:
    """The items of the reply ([] for "none"), or None if it has no text. Where to look:
    the last code fence, else the whole reply; then only what follows the last answer
    marker. Which terms: those starting lines if any line starts with one, else all;
    for facts, every section labelled true or false (negating the false ones), else the
    last section with terms. Without terms, the English items of `_phrased`."""
    text = str(reply)
    text = last_fenced(text) or text
    text = plain(text)
    starts = answer_starts(text)
    if starts:
        text = text[starts[-1]:]
    text = _NOT.sub(r"(not \1)", _CALL.sub(_call_term, text))
    sections = _sections(text)
    if not any(s.lines for s in sections):
        return None
    leading = any(_leading_terms(t) for s in sections for t, _ in s.lines)
    found = [(s, [x for t, _ in s.lines
                  for x in (_leading_terms(t) if leading else _terms(t))]) for s in sections]
    found = [(s, terms) for s, terms in found if terms]
    if found:
        polar = [(s, terms) for s, terms in found if s.polarity is not None] if facts else []
        if polar:
            return [t if s.polarity or t.startswith("(not ") else f"(not {t})"
                    for s, terms in polar for t in terms]
        return found[-1][1]
    return _phrased(sections, facts)


def _call_term(m: re.Match) -> str:
    return "(" + " ".join([m.group(1)] + m.group(2).replace(",", " ").split()) + ")"


def _sections(text: str) -> list[_Section]:
    sections = [_Section()]
    for raw in text.split("\n"):
        line = _strip_lead(raw.strip())
        bulleted = line != raw.strip()
        label = _LABEL.match(line)
        if label:
            # a heading ("Plan:") or a true/false label starts a section; otherwise the
            # label only introduces its line ("Step 1: go to room2: (move r1 r2)")
            heading = _Section(label.group(1))
            line = _strip_lead(label.group(2))
            if not line or heading.polarity is not None:
                sections.append(heading)
        if line:
            sections[-1].lines.append((line, bulleted))
    return sections


def _strip_lead(line: str) -> str:
    while True:
        m = _BULLET.match(line) or _LEAD.match(line)
        if not m or not m.end():
            return line
        line = line[m.end():].lstrip()


def _is_term(m: re.Match) -> bool:
    """Not a numbering "(1)" or option "(B)"."""
    inside = m.group(0)[1:-1].split()
    return bool(inside) and not (len(inside) == 1 and (inside[0].isdigit() or len(inside[0]) == 1))


def _term_text(m: re.Match) -> str:
    """The term with single spaces: "( move, a  b )" -> "(move a b)"."""
    spaced = " ".join(m.group(0).replace(",", " ").split())
    return spaced.replace("( ", "(").replace(" )", ")")


def _leading_terms(line: str) -> list[str]:
    """The terms a line starts with, while only separators stand between them."""
    out, pos = [], 0
    for m in _TERM.finditer(line):
        if not _GAP.match(line[pos:m.start()]) or not _is_term(m):
            break
        out.append(_term_text(m))
        pos = m.end()
    return out


def _terms(line: str) -> list[str]:
    return [_term_text(m) for m in _TERM.finditer(line) if _is_term(m)]


def _phrased(sections: list[_Section], facts: bool) -> list[str] | None:
    """Items in English: the bulleted lines of the last section with text (all its lines
    if none is bulleted), split at `_PHRASE_SPLIT`; lines saying "none" are not items.
    Facts listed under a "false" label cannot be negated in words without knowing the
    world: refused."""
    polar = [s for s in sections if s.lines and s.polarity is not None] if facts else []
    chosen = [s for s in polar if s.polarity] if polar else [[s for s in sections if s.lines][-1]]
    if any(not s.polarity and _items(s) for s in polar):
        return None
    return [item for s in chosen for item in _items(s)]


def _items(section: _Section) -> list[str]:
    lines = [t for t, bulleted in section.lines if bulleted] or [t for t, _ in section.lines]
    out = []
    for line in lines:
        for part in _PHRASE_SPLIT.split(line):
            part = _strip_lead(part.strip()).strip(" .\"'[]")
            if part and not _NONE.match(part):
                out.append(part)
    return out
