"""The environments' own sentences: every one comes from a macro under templates/envs/."""

from __future__ import annotations

from functools import lru_cache

from racbench.text import environment

_FILES = ("strips.j2", "play.j2", "errors.j2")


@lru_cache(maxsize=1)
def _macros() -> dict:
    table = {}
    for file in _FILES:
        module = environment().get_template(f"envs/{file}").module
        for key in dir(module):
            if not key.startswith("_"):
                table[key] = getattr(module, key)
    return table


def say(macro: str, /, **kw) -> str:
    """Render `macro` with keyword arguments; surrounding whitespace is trimmed."""
    return str(_macros()[macro](**kw)).strip()
