"""Names composed from words: doors, qualified twins, terminals, coloured things, and commands.

The patterns live in data (vocab.json 'names', commands.json) so that no wording hides in logic.
"""

from __future__ import annotations

import re
from functools import lru_cache

from racbench.worlds.science.data import load


_NAMES = load("vocab")["names"]
_CLEAN = re.compile(r"[^a-z0-9 ]+")


@lru_cache(maxsize=1 << 16)
def normalize(text: str) -> str:
    """Lower case, punctuation to spaces, single spaces: how typed text and the names it may
    match are compared ('yellow-green paint' is 'yellow green paint'). Cached: scopes are rebuilt
    often and name the same things again."""
    return " ".join(_CLEAN.sub(" ", text.lower()).split())


def _names() -> dict:
    return _NAMES


@lru_cache(maxsize=1)
def commands() -> dict:
    """verb -> command entry (canonical wording, surface forms, slots, separators)."""
    return {entry["verb"]: entry for entry in load("commands")["verbs"]}


_CANONICAL = {e["verb"]: e["canonical"] for e in load("commands")["verbs"]}


def command(verb: str, *args: str) -> str:
    """The canonical command text, e.g. command("move", "apple", "table") -> 'move apple to table'."""
    return _CANONICAL[verb].format(*args)


def command_of(verb: str):
    """`command` for one verb, as a function of its arguments: for the loops that word
    hundreds of commands of a verb a state (valid.py's moves and connections)."""
    return _CANONICAL[verb].format


def door(room: str) -> str:
    return _names()["door"].format(room=room)


def door_aliases(room: str) -> list[str]:
    return [p.format(room=room) for p in _names()["door_aliases"]]


def qualified(name: str, container: str) -> str:
    return _names()["qualified"].format(name=name, container=container)


def inventory_word() -> str:
    return _names()["inventory"]


def twin(name: str, k: int) -> str:
    return _names()["twin"].format(name=name, k=k)


def containing(name: str, contents: list[str]) -> str:
    """'wood cup containing red paint', 'jug containing nothing'."""
    names = _names()
    listed = names["list_joiner"].join(contents) if contents else names["nothing"]
    return names["containing"].format(name=name, contents=listed)


def without_contents(words: str) -> str | None:
    """A reference that says what a container holds, as ScienceWorld's names do, without it
    ('cup containing nothing in table' -> 'cup in table'); None when it says nothing of contents.
    The container is then found by its name alone, whatever order the contents are listed in."""
    sep = _names()["containing"].format(name="", contents="")    # ' containing '
    head, found, tail = words.partition(sep)
    if not found or not head:
        return None
    where = _names()["qualified"].format(name="", container="")   # ' in '
    _, inside, container = tail.rpartition(where)
    return qualified(head, container) if inside else head


def listed_contents(words: str) -> list[str] | None:
    """The contents a reference lists ('cup containing salt and water in table' -> ['salt',
    'water']; 'containing nothing' -> []); None when it lists none."""
    names = _names()
    sep = names["containing"].format(name="", contents="")
    head, found, tail = words.partition(sep)
    if not found or not head:
        return None
    tail = tail.rpartition(names["qualified"].format(name="", container=""))[0] or tail
    if tail == names["nothing"]:
        return []
    return [w for w in re.split(r",\s*|" + re.escape(names["list_joiner"]), tail) if w]


def plane(letter: str | None = None, surface: str | None = None) -> str:
    """'inclined plane C' or 'inclined plane with a paper surface'."""
    if surface is None:
        return _names()["plane_letter"].format(letter=letter)
    return _names()["plane_surface"].format(surface=surface)


def unknown_material(letter: str) -> str:
    return _names()["unknown_material"].format(letter=letter)


def colored(color: str, name: str) -> str:
    return _names()["colored"].format(color=color, name=name)


def staged(stage: str, name: str) -> str:
    """An organism named with its stage word first: 'egg dove egg'."""
    return _names()["staged"].format(stage=stage, name=name)


def in_stage(stage: str, name: str) -> str:
    """A plant named with its stage after it: 'apple seed in the seed stage'."""
    return _names()["in_stage"].format(stage=stage, name=name)


def state_material(state: str, material: str) -> str:
    return _names()["state_material"].format(state=state, material=material)


_TERMINAL = _NAMES["terminal"]
_TERMINAL_ALIASES = tuple(_NAMES["terminal_aliases"])


def terminal(thing: str, term: str) -> str:
    return _TERMINAL.format(thing=thing, terminal=term)


def terminal_aliases(thing: str, term: str) -> list[str]:
    return [p.format(thing=thing, terminal=term) for p in _TERMINAL_ALIASES]


def self_words() -> list[str]:
    return list(_names()["self"])


def box(color: str) -> str:
    return _names()["box"].format(color=color)


def book(title: str) -> str:
    return _names()["book"].format(title=title)


def wire(color: str) -> str:
    return _names()["wire"].format(color=color)


def unknown(letter: str) -> str:
    return _names()["unknown"].format(word=load("vocab")["unknown_name"], letter=letter)
