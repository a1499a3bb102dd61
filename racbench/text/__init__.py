"""The one jinja2 environment: every English sentence racbench writes comes from here.

Templates live in the package (`racbench/templates/<folder>/*.j2`); a user's own
template folder (e.g. phrasing for their PDDL domain) is mounted under a prefix of the
same environment by `user_templates`, so package and user templates share one set of
options and filters.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import jinja2

_USER_FOLDERS: dict[str, jinja2.BaseLoader] = {}
_ENV = jinja2.Environment(
    loader=jinja2.ChoiceLoader([jinja2.PrefixLoader(_USER_FOLDERS),
                                jinja2.PackageLoader("racbench", "templates")]),
    undefined=jinja2.StrictUndefined,
    autoescape=False,
    trim_blocks=True,
    lstrip_blocks=True,
)


def _article(name: object) -> str:
    return "an" if str(name)[:1] in "aeiou" else "a"


def _md_cell(value: object) -> str:
    """A value safe inside a Markdown table cell."""
    return str(value).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


class Clause(str):
    """A clause that starts with an object's name (`f0 is above f1`): a sentence made of
    it keeps the name's case (the `capital` filter), where any other clause starts with
    a capital letter."""

    keeps_case = True


def _capital(clause: object) -> str:
    """A clause's first letter in upper case, unless the clause starts with a name."""
    text = str(clause)
    if getattr(clause, "keeps_case", False):
        return text
    return text[:1].upper() + text[1:]


def leading_name(clause: str, names) -> str:
    """`clause` as a Clause when its first word is one of `names`, else unchanged."""
    first = clause.split(" ", 1)[0]
    return Clause(clause) if first and first in names else clause


_ENV.filters["article"] = _article
_ENV.filters["capital"] = _capital
_ENV.filters["md_cell"] = _md_cell


def environment() -> jinja2.Environment:
    return _ENV


def user_templates(folder: str | Path) -> str:
    """Mount a folder of the user's templates; returns the prefix to name its files by
    (`<prefix>/facts.j2`). FileNotFoundError if it is not a folder."""
    path = Path(folder).resolve()
    if not path.is_dir():
        raise FileNotFoundError(str(folder))
    prefix = "user-" + hashlib.blake2b(str(path).encode(), digest_size=8).hexdigest()
    _USER_FOLDERS.setdefault(prefix, jinja2.FileSystemLoader(str(path)))
    return prefix


class Phrase:
    """Words said only when shown: `str(phrase)` is `say(macro, **kw)`, rendered then.
    A reader carries phrases (what it expects, where it is) down its happy path and a
    message renders one only when it is raised, so a good file renders no template.
    Arguments may be phrases themselves."""

    __slots__ = ("say", "macro", "kw")

    def __init__(self, say, macro: str, /, **kw):
        self.say, self.macro, self.kw = say, macro, kw

    def __str__(self) -> str:
        return self.say(self.macro, **self.kw)


def sayer(folder: str, files: tuple[str, ...]):
    """A `say(macro, **kw)` over the macros of some template files of one folder: a
    world's or an environment's sentences by macro name, whitespace around them trimmed."""
    table: dict = {}

    def say(macro: str, /, **kw) -> str:
        if not table:
            for file in files:
                module = environment().get_template(f"{folder}/{file}").module
                table.update({k: getattr(module, k) for k in dir(module)
                              if not k.startswith("_")})
        return str(table[macro](**kw)).strip()

    return say
