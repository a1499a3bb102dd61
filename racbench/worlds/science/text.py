"""The only door to English: every sentence comes from a jinja2 macro under templates/science/."""

from __future__ import annotations

from functools import lru_cache

from racbench.text import environment

_FILES = ("look.j2", "responses.j2", "tasks.j2", "errors.j2")


@lru_cache(maxsize=1)
def _macros() -> dict:
    table = {}
    for file in _FILES:
        module = environment().get_template(f"science/{file}").module
        for key in dir(module):
            if not key.startswith("_"):
                table[key] = getattr(module, key)
    return table


def say(macro: str, /, **kw) -> str:
    """Render `macro` with keyword arguments; surrounding whitespace is trimmed."""
    return str(_macros()[macro](**kw)).strip()
