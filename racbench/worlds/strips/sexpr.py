"""S-expression reading for PDDL, able to say where any token was read.

PDDL files from competition collections mix upper and lower case, carry `;` comments
and wrap freely; every symbol is lower-cased here (PDDL is case-insensitive). Tokens
are split as Fast Downward's translator splits them: `(` and `)` stand alone, a `?`
starts a new token (`(on?x)` reads as `(`, `on`, `?x`, `)`), a `;` starts a comment to
the end of the line, and any character outside ASCII is refused unless it is in a
comment. Lines end at LF, CR LF or CR.

Symbols are kept as plain strings and lists remember the index of their first and
last token; the line and column of a token are found again, from the text, only when an
error needs them. That keeps a multi-megabyte problem file to a few plain strings and
lists per fact.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r"[()]|\?[^\s()?]*|[^\s()?]+")
_COMMENT = re.compile(r";[^\n]*")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
MESSAGE_CHARS = 600  # longer messages (names of any length) lose their middle

SECTIONS = frozenset({":requirements", ":types", ":constants", ":predicates", ":functions",
                      ":action", ":durative-action", ":derived", ":domain", ":objects",
                      ":init", ":goal", ":metric"})

from racbench.errors import InputError
from racbench.text import sayer

_say = sayer("cli", ("pddl.j2",))
_say_fault = sayer("cli", ("internal.j2",))  # faults of racbench's own code


class PDDLError(InputError):
    """A PDDL file we cannot accept; the message names the file, line and column."""

    def __init__(self, message: str, filename: str = "<string>", line: int | None = None,
                 col: int | None = None):
        message = _one_line(message)
        self.filename, self.line, self.col, self.reason = filename, line, col, message
        where = filename if line is None else f"{filename}:{line}:{col}"
        super().__init__(f"{where}: {message}")


def _one_line(message: str) -> str:
    """Control characters escaped, so the message stays one readable line."""
    if not message.isprintable():
        message = "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)
    if len(message) > MESSAGE_CHARS:
        message = f"{message[:400]} [...] {message[-(MESSAGE_CHARS - 408):]}"
    return message


class SList:
    """A parenthesised list: its items (lower-case strings and lists) and the indices
    of its '(' and ')' tokens. No recursive __eq__ or __repr__: lists nest any depth."""

    __slots__ = ("items", "start", "end")

    def __init__(self, start: int):
        self.items: list = []
        self.start = self.end = start

    def __len__(self) -> int:
        return len(self.items)

    def head(self) -> str | None:
        first = self.items[0] if self.items else None
        return first if isinstance(first, str) else None

    def token_of(self, i: int) -> int:
        """Index of the first token of item i (i == len: the closing ')')."""
        k = self.start + 1
        for item in self.items[:i]:
            k = item.end + 1 if isinstance(item, SList) else k + 1
        return k

    def located(self, start: int = 0):
        """(item, index of its first token) for the items from `start` on."""
        k = self.token_of(start)
        for item in self.items[start:]:
            if isinstance(item, SList):
                yield item, item.start
                k = item.end + 1
            else:
                yield item, k
                k += 1


class Source:
    """The text of one PDDL file, its tokens, and where each token stands."""

    def __init__(self, text: str, filename: str = "<string>"):
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        self.text, self.filename = text, filename

    def tokens(self) -> list[str]:
        code = _COMMENT.sub("", self.text)
        if not code.isascii():
            raise self._non_ascii()
        return _TOKEN.findall(code.lower())

    def _non_ascii(self) -> PDDLError:
        for line_no, line in enumerate(self.text.split("\n"), start=1):
            bad = _NON_ASCII.search(line.split(";", 1)[0])
            if bad:
                return PDDLError(_say("non_ascii", char=repr(bad.group()),
                                      code=f"{ord(bad.group()):04X}"),
                                 self.filename, line_no, bad.start() + 1)
        raise AssertionError(_say_fault("non_ascii_without_line"))

    def position(self, k: int) -> tuple[int, int]:
        """Line and column (1-based) of token k; just past the last token if k is beyond."""
        seen = 0
        line_no, line = 1, ""
        for line_no, line in enumerate(self.text.split("\n"), start=1):
            code = line.split(";", 1)[0]
            count = len(_TOKEN.findall(code))
            if k < seen + count:
                for n, match in enumerate(_TOKEN.finditer(code)):
                    if seen + n == k:
                        return line_no, match.start() + 1
            seen += count
        return line_no, len(line.split(";", 1)[0].rstrip()) + 1

    def error(self, k: int, message: str) -> PDDLError:
        return PDDLError(message, self.filename, *self.position(k))


def read(source: Source) -> SList:
    """Read exactly one top-level s-expression."""
    tokens = source.tokens()
    if not tokens:
        raise PDDLError(_say("empty_file"), source.filename, 1, 1)
    stack: list[SList] = []
    top: SList | None = None
    names: dict[str, str] = {}  # one string object per distinct name
    for k, tok in enumerate(tokens):
        if tok == "(":
            node = SList(k)
            if stack:
                stack[-1].items.append(node)
            elif top is not None:
                raise source.error(k, _say("text_after_end"))
            stack.append(node)
        elif tok == ")":
            if not stack:
                raise source.error(k, _say("unbalanced_close"))
            node = stack.pop()
            node.end = k
            if not stack:
                top = node
        else:
            if not stack:
                raise source.error(k, _say("outside_parentheses", token=tok))
            if tok in SECTIONS and not stack[-1].items and len(stack) > 2:
                # a section opening inside another list: some ')' before it is missing
                line, _ = source.position(k)
                raise source.error(stack[-2].start, _say("section_inside", section=tok,
                                                         line=line))
            stack[-1].items.append(names.setdefault(tok, tok))
    if stack:
        raise source.error(stack[-1].start, _say("never_closed"))
    assert top is not None
    return top
