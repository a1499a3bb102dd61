"""S-expression reading for PDDL, keeping line and column of every token.

PDDL files from competition collections mix upper and lower case, carry `;` comments
and wrap freely; every symbol is lower-cased here (PDDL is case-insensitive) and keeps
its position so that a later error can point at the file, line and column.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import InputError


class PDDLError(InputError):
    """A PDDL file we cannot accept; the message names the file, line and column."""

    def __init__(self, message: str, filename: str = "<string>", line: int | None = None,
                 col: int | None = None):
        self.filename, self.line, self.col, self.reason = filename, line, col, message
        where = filename if line is None else f"{filename}:{line}:{col}"
        super().__init__(f"{where}: {message}")


class Symbol(str):
    """A lower-cased PDDL token that remembers where it was read."""

    line: int
    col: int

    def __new__(cls, text: str, line: int, col: int) -> "Symbol":
        obj = super().__new__(cls, text.lower())
        obj.line, obj.col = line, col
        return obj


@dataclass
class SList:
    """A parenthesised list and the position of its opening parenthesis."""

    items: list
    line: int
    col: int

    def __iter__(self):
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]

    def head(self) -> str | None:
        return self.items[0] if self.items and isinstance(self.items[0], Symbol) else None


SECTIONS = frozenset({":requirements", ":types", ":constants", ":predicates", ":functions",
                      ":action", ":durative-action", ":derived", ":domain", ":objects",
                      ":init", ":goal", ":metric"})


def tokenize(text: str, filename: str) -> list[tuple[str, int, int]]:
    """Split into '(' , ')' and symbols, dropping comments; positions are 1-based."""
    tokens: list[tuple[str, int, int]] = []
    for line_no, line in enumerate(text.splitlines(), start=1):
        i, n = 0, len(line)
        while i < n:
            ch = line[i]
            if ch == ";":
                break
            if ch.isspace():
                i += 1
            elif ch in "()":
                tokens.append((ch, line_no, i + 1))
                i += 1
            else:
                j = i
                while j < n and not line[j].isspace() and line[j] not in "();":
                    j += 1
                tokens.append((line[i:j], line_no, i + 1))
                i = j
    return tokens


def read(text: str, filename: str = "<string>") -> SList:
    """Read exactly one top-level s-expression from `text`."""
    tokens = tokenize(text, filename)
    if not tokens:
        raise PDDLError("empty file; expected '(define ...)'", filename, 1, 1)
    stack: list[SList] = []
    top: SList | None = None
    for tok, line, col in tokens:
        if tok == "(":
            node = SList([], line, col)
            if stack:
                stack[-1].items.append(node)
            elif top is not None:
                raise PDDLError("text after the end of the definition; expected end of file",
                                filename, line, col)
            stack.append(node)
        elif tok == ")":
            if not stack:
                raise PDDLError("unbalanced ')'; expected end of file", filename, line, col)
            node = stack.pop()
            if not stack:
                top = node
        else:
            if not stack:
                raise PDDLError(f"unexpected '{tok}' outside parentheses; expected '('",
                                filename, line, col)
            if tok.lower() in SECTIONS and not stack[-1].items and len(stack) > 2:
                # a section opening inside another list: some ')' before it is missing
                blame = stack[-2]
                raise PDDLError(f"this '(' is never closed: section {tok.lower()} at line "
                                f"{line} starts inside it", filename, blame.line, blame.col)
            stack[-1].items.append(Symbol(tok, line, col))
    if stack:
        node = stack[-1]
        raise PDDLError("missing ')': this '(' is never closed", filename, node.line, node.col)
    assert top is not None
    return top
