"""Answers read out of a model's free-form reply, one reader per answer type.

Models do not answer "B" or "true": they write "Yes, because the block is clear.",
"The answer is (B).", or reason first and list a plan after. Each reader returns the
canonical text the row scorers accept ("true"/"false", a letter, one action or fact per
line, step numbers "2, 4" or "none"), or None when the reply cannot be read as an
answer of its type, so an unreadable reply is counted apart from a wrong one. Readers
know nothing of the world: whether an extracted phrase names a real action is decided
by the scorer, on the row's own task.

As in lm-evaluation-harness's regex filters ("The answer is (.*)"), an explicit answer
marker ("the answer is", "Answer:", "Final answer") says where to look; without one,
bool and letter replies must commit to one answer: several distinct ones are refused
rather than guessed. Lists and single actions or facts are read by
`racbench.checks.answer_lists`.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from typing import Sequence

from racbench.checks.answer_lists import (extract_action, extract_actions, extract_fact,
                                          extract_facts)
from racbench.checks.reply_text import answer_starts, plain

__all__ = ["extract_bool", "extract_letter", "extract_steps", "extract_actions",
           "extract_facts", "extract_action", "extract_fact", "extract_name"]

# Bare answers the scorer always accepted ("1", "correct", "(true)"...).
_BARE_TRUE = {"true", "yes", "1", "correct", "right"}
_BARE_FALSE = {"false", "no", "0", "incorrect", "wrong"}
_POLARITY = {"yes": True, "true": True, "no": False, "false": False, "correct": True,
             "incorrect": False, "right": True, "wrong": False, "holds": True, "hold": True}
# Where a decisive word counts besides right after an answer marker: yes, true and false
# anywhere; "no" standing alone ("no block is on it" is prose); the verdicts below
# standing alone or said of the statement. "right" and "hold" are words of the worlds
# too ("the right gripper", "(clear b1) holds"): only said of the statement.
_ANYWHERE = {"yes", "true", "false"}
_ALONE = {"no", "correct", "incorrect", "wrong"}
_VERDICTS = {"correct", "incorrect", "wrong", "right", "holds", "hold"}
# What comes just before a verdict said of the statement ("is correct", "that's right",
# "it does not hold", "the statement holds").
_VERDICT_LEADS = {"is", "are", "was", "be", "it's", "that's", "isn't", "wasn't", "not",
                  "it", "this", "that", "statement", "claim", "does", "doesn't"}
_NOT_NEGATED = {"yes", "no"}  # "not yes" is not an answer; "not correct" is "false"
# "Answer true or false." echoed back decides nothing.
_ECHO = re.compile(r"\b(?:true\s+or\s+false|false\s+or\s+true|yes\s+or\s+no|no\s+or\s+yes)\b",
                   re.I)
# Both answers at once ("Yes and no.", "true, but also false"); not "yes, and no block".
_BOTH = re.compile(r"\b(yes|no|true|false)\s*(?:,\s*)?(?:(?:and|but)\s+)?(?:also\s+)?"
                   r"(yes|no|true|false)\b(?!\s*\w)", re.I)
_TOKEN = re.compile(r"[a-z]+(?:'[a-z]+)?|[.!?;,:\n()\[\]\"-]")
_NEGATORS = {"not", "never", "neither", "nor", "cannot"}  # and any "...n't"
# Words that may follow an answer word standing alone ("No because...", "Yes it is",
# "It holds in the resulting state").
_ANSWER_FOLLOWERS = {"because", "since", "as", "it", "that", "in", "after", "here", "now",
                     "then", "so"}


def _bare(text: str) -> str:
    return re.sub(r"[\s.()\[\]:]+", " ", text.strip().lower()).strip()


def _lines_after(text: str, start: int) -> str:
    """The first non-empty line at or after `start` (the rest of the marker's line, or
    the next one when the marker ends its line)."""
    for line in text[start:].split("\n"):
        if line.strip():
            return line
    return ""


# -- yes / no, true / false ---------------------------------------------------------------

def extract_bool(reply) -> str | None:
    """"true", "false" or None.

    A bare word decides as before ("yes", "False", "1", "Wrong"). After an answer marker
    the first decisive word of that line decides ("The answer is no because...",
    "Answer: not correct"). Otherwise the reply's standalone answers ("Yes, because...",
    "**True**", "No.") decide if they agree; failing those, its claims ("the statement
    is false", "that's right", "it does not hold") if they agree. "no" inside prose ("no
    block is on it") is not an answer, nor are verdict words of the world ("the right
    gripper"); negations ("not", "neither ... nor", "isn't") flip every word but yes/no.
    Both answers at once ("Yes and no.") are refused."""
    if isinstance(reply, bool):
        return _word(reply)
    text = plain(str(reply))
    bare = _bare(text)
    if bare in _BARE_TRUE or bare in _BARE_FALSE:
        return "true" if bare in _BARE_TRUE else "false"
    text = _ECHO.sub(" ", text)
    for start in reversed(answer_starts(text)):
        line = _lines_after(text, start)
        if _says_both(line):
            return None
        got = _first_decision(line)
        if got is not None:
            return _word(got)
    if _says_both(text):
        return None
    standalone, claims = set(), set()
    tokens = _TOKEN.findall(text.lower())
    for i, tok in enumerate(tokens):
        value = _decision(tokens, i, first=False)
        if value is None:
            continue
        (standalone if _standalone(tokens, i) else claims).add(value)
    for found in (standalone, claims):
        if len(found) == 1:
            return _word(found.pop())
        if found:
            return None  # both said without a marker: refuse to guess
    return None


def _word(value: bool) -> str:
    return "true" if value else "false"


def _says_both(text: str) -> bool:
    return any(_POLARITY[m.group(1).lower()] != _POLARITY[m.group(2).lower()]
               for m in _BOTH.finditer(text))


def _first_decision(segment: str) -> bool | None:
    tokens = _TOKEN.findall(segment.lower())
    words = [i for i, t in enumerate(tokens) if t[0].isalpha()]
    for i in words:
        value = _decision(tokens, i, first=i == words[0])
        if value is not None:
            return value
    return None


def _decision(tokens: list[str], i: int, first: bool) -> bool | None:
    """What tokens[i] says, if it is a decisive word where it stands (see _ANYWHERE):
    anything but yes/no flipped by a negation up to two words before ("not true", "is
    not correct", "does not hold")."""
    tok = tokens[i]
    if tok not in _POLARITY:
        return None
    before = tokens[max(0, i - 2):i]
    counts = (first or tok in _ANYWHERE or (tok in _ALONE and _standalone(tokens, i))
              or (tok in _VERDICTS and _said_of_statement(tokens, i, before)))
    if not counts:
        return None
    value = _POLARITY[tok]
    if tok not in _NOT_NEGATED and any(b in _NEGATORS or b.endswith("n't") for b in before):
        value = not value
    return value


def _said_of_statement(tokens: list[str], i: int, before: list[str]) -> bool:
    """A verdict after a copula or subject, not before a noun ("the statement is
    correct", not "the correct answer" or "the right gripper")."""
    nxt = tokens[i + 1] if i + 1 < len(tokens) else "."
    return (any(b in _VERDICT_LEADS for b in before)
            and (not nxt[0].isalpha() or nxt in _ANSWER_FOLLOWERS))


def _standalone(tokens: list[str], i: int) -> bool:
    prev = tokens[i - 1] if i else "."
    nxt = tokens[i + 1] if i + 1 < len(tokens) else "."
    return not prev[0].isalpha() and (not nxt[0].isalpha() or nxt in _ANSWER_FOLLOWERS)


# -- option letters -----------------------------------------------------------------------

# Option letters: A-D (four options) unless a row has more (next-observation rows have
# up to sixteen, A-P); the patterns are built per last letter, A-D by default.
OPTION_LETTERS = "ABCDEFGHIJKLMNOP"


@lru_cache(maxsize=None)
def _letter_patterns(last: str) -> tuple[re.Pattern, re.Pattern, re.Pattern]:
    up, low = f"A-{last}", f"a-{last.lower()}"
    letter = re.compile(
        r"\b(?i:option|choice|answer)\s*(?:is\s*)?[:\-]?\s*[(\[]?"
        rf"(?P<word>[{up}]|[{low}](?=[)\].,;:!]|\s*$))(?![\w'])"
        rf"|[(\[](?P<bracket>[{up}{low}])[)\]]"
        rf"|(?<![\w'(\[-])(?P<bare>[{up}])(?![\w'-])")
    marked = re.compile(r"^\s*(?:(?i:option|choice)\s+)?[(\[]?"
                        rf"(?:(?P<a>[{up}])|(?P<b>[{low}])(?=[)\].,;:!]|\s*$))(?![\w'])")
    opening = re.compile(rf"^\s*(?:(?:option|choice)\s+)?(?:[(\[](?P<a>[{up}])[)\]]|(?P<b>[{up}])"
                         r"(?:[.):\]]|\s*$))", re.I)
    return letter, marked, opening


_NEGATED_BEFORE = re.compile(r"(?:\b(?:not|neither|nor|never)|n't)\s+(?:(?:option|choice)\s+)?"
                             r"[(\[]?$", re.I)
_NEGATED_AFTER = re.compile(r"^[)\]]?\s+(?:is|are)\s+(?:not\b|wrong|incorrect|false|invalid)",
                            re.I)
# How far around a letter its negation is looked for ("not option A", "A is wrong").
_WINDOW = 40
# An article, not an option: "A robot", "a block".
_ARTICLE_NEXT = re.compile(r"^\s+[a-z]")
_NOT_ARTICLE = re.compile(r"^\s+(?:is|and|or|nor)\b")


def extract_letter(reply, choices: Sequence[str] = ()) -> str | None:
    """An option letter ("A".."D", as many as `choices`) or None.

    A bare letter decides as before ("B", "(b)", "B."), and so does a reply that is one
    option's text. After an answer marker, the first letter of that line (or the one
    option whose text it repeats). Otherwise the letter that opens the reply ("B. the
    robot...", "**(C)**", "Option D") unless another line opens with another letter (an
    echo of the options), else the one letter the reply claims ("B is correct"); negated
    letters ("not A", "A is wrong") are not claims, and several claims are refused."""
    letters = OPTION_LETTERS[:len(choices)] if choices else "ABCD"
    patterns = _letter_patterns(max(letters[-1], "D"))
    text = plain(str(reply))
    bare = _bare(text).upper()
    if len(bare) == 1 and bare in letters:
        return bare
    texts = [_norm(c) for c in choices]
    if _norm(text) and _norm(text) in texts:
        return letters[texts.index(_norm(text))]
    for start in reversed(answer_starts(text)):
        line = _lines_after(text[start:].lstrip(" \t:"), 0)
        marked = patterns[1].match(line)
        if marked and _letter(marked) == "I" and _pronoun(line[marked.end():]):
            marked = None  # "Answer: I think it is C"
        claims = [_letter(marked)] if marked else _claims(line, letters, patterns[0])
        if claims and claims[0] in letters:
            return claims[0]
        found = _options_in(line, texts)
        if len(found) == 1:
            return letters[found[0]]
    first_line = _lines_after(text, 0)
    first = _opened(first_line, patterns[2])
    others = {_opened(line, patterns[2]) for line in text.split("\n")} - {None, first}
    if first and first in letters and not others and set(
            _claims(first_line, letters, patterns[0])) <= {first}:
        return first
    claims = set(_claims(text, letters, patterns[0]))
    if claims:
        return claims.pop() if len(claims) == 1 else None
    found = _options_in(text, texts)
    return letters[found[0]] if len(found) == 1 else None


def _letter(m: re.Match) -> str:
    return (m.group("a") or m.group("b")).upper()


def _opened(line: str, opening: re.Pattern) -> str | None:
    m = opening.match(line)
    return _letter(m) if m else None


def _pronoun(after: str) -> bool:
    """Whether what follows a capital (A, I) reads as a word after an article or a
    pronoun ("A robot", "I think"), not after an option letter ("A is right")."""
    return bool(_ARTICLE_NEXT.match(after)) and not _NOT_ARTICLE.match(after)


def _claims(text: str, letters: str, pattern: re.Pattern) -> list[str]:
    """The letters `text` puts forward, in order, without the negated ones."""
    out = []
    for m in pattern.finditer(text):
        letter = m.group("word") or m.group("bracket") or m.group("bare")
        before, after = text[max(0, m.start() - _WINDOW):m.start()], text[m.end():m.end() + _WINDOW]
        if m.group("bare") in ("A", "I") and _pronoun(after):
            continue
        if _NEGATED_BEFORE.search(before) or _NEGATED_AFTER.match(after):
            continue
        letter = letter.upper()
        if letter in letters and letter not in out:
            out.append(letter)
    return out


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w-]+", " ", str(text).lower()).split())


def _options_in(text: str, texts: list[str]) -> list[int]:
    """Indices of the options whose text the reply repeats (an option contained in
    another repeated one does not count on its own)."""
    here = f" {_norm(text)} "
    found = [i for i, t in enumerate(texts) if t and f" {t} " in here]
    return [i for i in found if not any(j != i and f" {texts[i]} " in f" {texts[j]} "
                                        for j in found)]


# -- step numbers -------------------------------------------------------------------------

# "none" in words; "every step can be executed" is the executability rows' "none".
_NONE = re.compile(r"^\W*(?:none|nothing|no\s+(?:such\s+)?steps?\b|"
                   r"there\s+(?:is|are)\s+(?:none|no\b)|n/a\b|\[\s*\]|"
                   r"(?:every|each|all)\s+(?:of\s+the\s+)?(?:steps?|actions?)\s+(?:\w+\s+)?"
                   r"can\s+be\s+executed)", re.I)
_ORDINALS = {w: i for i, w in enumerate(("first", "second", "third", "fourth", "fifth",
                                         "sixth", "seventh", "eighth", "ninth", "tenth"), 1)}
_NUMBER = re.compile(r"(?<![\w.-])(\d+)(?:st|nd|rd|th)?(?![\w-]|\.\d)|\b(" +
                     "|".join(_ORDINALS) + r")\s+(?:step|action)\b", re.I)
_WORD_TERM = re.compile(r"\([^()]*[A-Za-z][^()]*\)")  # a PDDL term, whose names carry digits
_BECAUSE = re.compile(r"\b(?:because|since|as|which|so|while|whereas|but)\b|\s[-–—]\s", re.I)
_ALTERNATIVES = re.compile(r"\d\s+or\s+(?:steps?\s+)?\d", re.I)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_LIST_LINE = re.compile(r"^\W*(?:steps?\s*)?\d+(?:\s*(?:,|and|&)\s*(?:steps?\s*)?\d+)*\W*$",
                        re.I)


def extract_steps(reply) -> str | None:
    """Step numbers, 1-based, as "2, 4" (in order of mention), "none", or None.

    After an answer marker, the numbers of its first sentence; otherwise a list of
    numbers ("2, 4", "- Step 2" lines) or the sentences that name steps, which must
    agree. Explanations after "because", "since"... and the names inside PDDL terms
    do not count; "none", "no step" and "there is none" are the empty answer."""
    text = _WORD_TERM.sub(" ", plain(str(reply)))
    for start in reversed(answer_starts(text)):
        got = _sentence_steps(text[start:].lstrip(" \t:"), first_only=True)
        if got is not None:
            return got
    lines = [l for l in text.split("\n") if _LIST_LINE.match(l)]
    if lines:
        return _steps_text(_numbers(" ".join(lines)))
    return _sentence_steps(text, first_only=False)


def _sentence_steps(text: str, first_only: bool) -> str | None:
    answers = []
    for sentence in _SENTENCE.split(text.strip()):
        if not sentence.strip():
            continue
        if _NONE.match(sentence):
            answers.append("none")
        else:
            if _ALTERNATIVES.search(sentence):
                return None  # "2 or 3": not one answer
            numbers = _numbers(_BECAUSE.split(sentence)[0]) or _numbers(sentence)
            if not numbers:
                continue
            answers.append(_steps_text(numbers))
        if first_only:
            break
    distinct = set(answers)
    return distinct.pop() if len(distinct) == 1 else None


def _numbers(text: str) -> list[int]:
    """Step numbers in order; ordinals ("the third step") only where no digit is given,
    so "the first step that fails is step 3" says 3."""
    found = [m for m in _NUMBER.finditer(text)]
    digits = [int(m.group(1)) for m in found if m.group(1)]
    numbers = digits or [_ORDINALS[m.group(2).lower()] for m in found if m.group(2)]
    return list(dict.fromkeys(numbers))


def _steps_text(numbers: list[int]) -> str:
    return ", ".join(map(str, numbers)) if numbers else "none"



# -- one name among given ones ------------------------------------------------------------

def extract_name(reply, names: Sequence[str]) -> str | None:
    """The one of `names` (things on a rule world's grid: "gleaming sword", "fire
    goblin") the reply gives: on the line after its last answer marker if that names
    one, else in the whole reply. A name is matched whole, any case; failing any, by
    its last word where only one name ends so ("the sword"). None if the reply names
    none of them, or several different ones."""
    text = plain(str(reply))
    for start in reversed(answer_starts(text)):
        found = _names_in(_lines_after(text, start), names)
        if found:
            return found[0] if len(found) == 1 else None
    found = _names_in(text, names)
    return found[0] if len(found) == 1 else None


def _names_in(text: str, names: Sequence[str]) -> list[str]:
    """The distinct names said in `text`: whole names, or failing any, unique last words."""
    low = text.lower()

    def said(words: str) -> bool:
        return re.search(rf"(?<![\w-]){re.escape(words.lower())}(?![\w-])", low) is not None

    whole = [n for n in names if said(n)]
    # a name inside a longer one said ("goblin" in "fire goblin") is not said by itself
    whole = [n for n in whole if not any(n != m and n.lower() in m.lower() for m in whole)]
    if whole:
        return whole
    heads = Counter(n.split()[-1].lower() for n in names)
    return [n for n in names if heads[n.split()[-1].lower()] == 1 and said(n.split()[-1])]
