"""The only door to English: every sentence comes from a jinja2 macro under templates/science/."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import jinja2

_FILES = ("look.j2", "responses.j2", "tasks.j2", "errors.j2")


def _article(name: str) -> str:
    return "an" if name[:1] in "aeiou" else "a"


def _load(name: str) -> str:
    return resources.files("racbench").joinpath("templates", "science", name).read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _macros() -> dict:
    env = jinja2.Environment(loader=jinja2.FunctionLoader(_load), autoescape=False,
                             trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)
    env.filters["article"] = _article
    table = {}
    for file in _FILES:
        module = env.get_template(file).module
        for key in dir(module):
            if not key.startswith("_"):
                table[key] = getattr(module, key)
    return table


def say(macro: str, /, **kw) -> str:
    """Render `macro` with keyword arguments; surrounding whitespace is trimmed."""
    return str(_macros()[macro](**kw)).strip()
