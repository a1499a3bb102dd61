"""From typed text to candidate actions over the things in scope.

Each command template is a verb (with surface variants) and up to two argument slots joined by
separator words. The text after the verb is split at every separator occurrence, each side is
looked up among the current scope's referents, and every consistent reading becomes a candidate.
One candidate runs; several make the caller ask a numbered clarification; none gets an answer
that names the words we could not place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from racbench.worlds.science.data import load
from racbench.worlds.science.naming import commands, listed_contents, normalize, without_contents
from racbench.worlds.science.scope import Scope
from racbench.worlds.science.world import AGENT, ROOM as ROOM_KIND

OBJ, ROOM, TERM = "obj", "room", "term"


@dataclass(frozen=True)
class Action:
    verb: str
    args: tuple = ()

    def key(self) -> tuple:
        return (self.verb,) + tuple(_arg_key(a) for a in self.args)


def _arg_key(a):
    if isinstance(a, tuple):
        return (a[0].uid, a[1])
    if isinstance(a, int):
        return a
    return a.uid


def _grammar():
    """(surface forms, verb, slots, separators) per command, and (head, tail, verb) suffix forms."""
    templates, suffixes = [], []
    for verb, entry in commands().items():
        templates.append((tuple(entry["forms"]), verb, tuple(entry.get("slots", ())),
                          tuple(entry.get("separators", ()))))
        for head, tail in entry.get("suffix_forms", ()):
            suffixes.append((head + " ", " " + tail, verb))
    return tuple(templates), tuple(suffixes)


_TEMPLATES, _SUFFIX_FORMS = _grammar()


def _by_first_word() -> dict[str, tuple]:
    """Surface form -> (form, verb, slots, separators), in grammar order, by the form's first
    word: a text can only start with the forms that share its first word."""
    index: dict[str, list] = {}
    for prefixes, verb, slots, seps in _TEMPLATES:
        for prefix in prefixes:
            index.setdefault(prefix.split(" ", 1)[0], []).append((prefix, verb, slots, seps))
    return {word: tuple(forms) for word, forms in index.items()}


def _suffixes_by_first_word() -> dict[str, tuple]:
    """(head, tail, verb) suffix forms by the head's first word, in grammar order, as
    `_by_first_word` (parse tried every suffix form on every text)."""
    index: dict[str, list] = {}
    for form in _SUFFIX_FORMS:
        index.setdefault(form[0].split(" ", 1)[0], []).append(form)
    return {word: tuple(forms) for word, forms in index.items()}


_FORMS = _by_first_word()
_SUFFIXES = _suffixes_by_first_word()
_ARTICLES = tuple(a + " " for a in load("commands")["articles"])
MAX_LENGTH = load("commands")["max_length"]
# the words between a thing's name and its holder's in ScienceWorld's references ('orange on inventory')
QUALIFIERS = frozenset(load("commands")["qualifiers"])
STATE_WORDS = frozenset(load("vocab")["scienceworld_names"]["state_words"])
# 'wait N': any form of the wait verb followed by a number of ticks
_WAIT_N = re.compile("(?:" + "|".join(map(re.escape, commands()["wait"]["forms"])) + r") ?([0-9]{1,6})")


def _strip_article(words: str) -> str:
    for a in _ARTICLES:
        if words.startswith(a):
            return words[len(a):]
    return words


@dataclass
class Parse:
    """Result: candidate actions, or the words that matched a verb but no thing in scope."""
    candidates: list
    unresolved: str | None = None


def _resolve(slot: str, words: str, scope: Scope) -> list:
    words = _strip_article(words)
    if not words:
        return []
    if slot == ROOM:
        room = scope.rooms.get(words)
        return [room] if room is not None else []
    if slot == TERM:
        found = scope.terminals_named(words)
        if found:
            return found
        # a thing named without its terminal: either end of an unpolarized thing will do, but
        # anode and cathode differ, so a polarized thing's two ends are two readings to ask about
        out = []
        for t in _named(words, scope):
            out.extend(((t, 0), (t, 1)) if t.polarized else ((t, None),))
        return out
    return _named(words, scope)


def _named(words: str, scope: Scope) -> list:
    """The things `words` names; a thing whose own name it is wins over things that merely
    answer to it ('painting' is the painting, not also the finger painting)."""
    found = _found(words, scope)
    if len(found) > 1:
        exact = [t for t in found if normalize(scope.canon[t.uid]) == words] or \
            [t for t in found if normalize(t.name) == words]    # 'peach': the fruit, not the peach tree
        if exact:
            return exact
    return list(found)


def _found(words: str, scope: Scope, qualify: bool = True):
    """Every thing in scope that answers to `words`."""
    found = scope.refs.get(words, ())
    if not found:   # ScienceWorld's 'flower pot 3 containing pea plant and soil in inventory'
        bare = without_contents(words)
        found = scope.refs.get(bare, ()) if bare else ()
        if len(found) > 1:   # the containers that hold what it lists, when some do
            found = _holding(found, listed_contents(words), scope) or found
    if not found and qualify:
        found = _qualified(words, scope) or _in_any_state(words, scope)
    return found


def _in_any_state(words: str, scope: Scope) -> list:
    """A substance named in another state of matter than its own ('liquid lead' while it is
    still solid): ScienceWorld's gold paths name it as it is there, where its clock may have
    reached the change a step earlier. Only when nothing here has that name."""
    head, _, rest = words.partition(" ")
    stated = head in STATE_WORDS
    out = []
    for t in scope.things:
        if t.is_substance and t.label is None:
            names, name = _material_names(t.mat)
            if words in names or (stated and name == rest):   # 'liquid mercury'
                out.append(t)
    return out


_MATERIAL_NAMES: dict[int, tuple] = {}


def _material_names(mat) -> tuple[frozenset[str], str]:
    """A material's names in every state and its own name, normalised: kept by the material
    (held, so its id stays its own; materials are few and never change)."""
    found = _MATERIAL_NAMES.get(id(mat))
    if found is None or found[0] is not mat:
        if len(_MATERIAL_NAMES) >= 4096:   # the electrical tasks make their own per episode
            _MATERIAL_NAMES.clear()
        found = _MATERIAL_NAMES[id(mat)] = (
            mat, frozenset(normalize(n) for n in mat.names.values()), normalize(mat.name))
    return found[1], found[2]



def _qualified(words: str, scope: Scope) -> list:
    """ScienceWorld's 'NAME in PLACE' and 'NAME on PLACE', with any name of the thing and any
    name of what holds it ('paint in cup containing violet paint', 'orange on inventory',
    'lemon in reproducing plant', 'substance in cup'): the things answering to NAME whose
    holder answers to PLACE, at whichever 'in' or 'on' the words split."""
    tokens = words.split(" ")
    out: list = []
    for i in range(1, len(tokens) - 1):
        if tokens[i] not in QUALIFIERS:
            continue
        head, tail = " ".join(tokens[:i]), " ".join(tokens[i + 1:])
        things = scope.refs.get(head, ())
        if not things:
            continue
        holders = None
        for t in things:
            p = t.parent
            if p is None or t in out:
                continue
            if p.kind == AGENT or p.kind == ROOM_KIND:
                ok = tail in scope.holder_words.get(p.uid, ())
            else:
                if holders is None:
                    holders = _found(tail, scope, qualify=False)
                ok = p in holders or _borne_by(t, holders, scope)
            if ok:
                out.append(t)
    return out


def _borne_by(t, holders, scope: Scope) -> bool:
    """What a plant bore lies beside it here (a fruit, a seed pod and its seeds), where
    ScienceWorld's hangs on the plant ('lemon in organism', 'pea seed in pea plant')."""
    if not (t.edible or t.living == "plant"):
        return False
    p = t.parent
    for spot in (p, p.parent if t.living == "plant" and p.parent is not None else None):
        if spot is not None and any(s.living == "plant" and s is not t and s in holders
                                    for s in scope.contents.get(spot.uid, ())):
            return True
    return False


def _holding(things, items: list[str], scope: Scope) -> list:
    """The things whose direct contents answer to every listed name (hold nothing, for [])."""
    def holds(t) -> bool:
        contents = scope.contents.get(t.uid, ())
        if not items:
            return not contents
        return all(any(c in scope.refs.get(item, ()) or _same_material(c, item) for c in contents)
                   for item in items)
    return [t for t in things if holds(t)]


def _same_material(c, item: str) -> bool:
    """A substance listed by its state and material ('liquid ice cream') while in another state:
    the container is found by what it holds, whichever state the two worlds' clocks reached."""
    return c.is_substance and (item.partition(" ")[2] == normalize(c.mat.name)
                               or any(normalize(n) == item for n in c.mat.names.values()))


def _kept(slot: str, words: str, scope: Scope, kept: dict | None) -> list:
    """`_resolve`, looked up in `kept` first and noted there (see `parse`)."""
    if kept is None:
        return _resolve(slot, words, scope)
    key = (scope, slot, words)
    found = kept.get(key)
    if found is None:
        found = kept[key] = _resolve(slot, words, scope)
    return found


def _readings(rest: str, slots: tuple, seps: tuple, scope: Scope, missing: list,
              kept: dict | None = None) -> list[tuple]:
    if len(slots) == 1:
        found = _kept(slots[0], rest, scope, kept)
        if not found:
            missing.append(rest)
        return [(x,) for x in found]
    out = []
    tokens = rest.split(" ")
    for i in range(1, len(tokens) - 1):
        if tokens[i] not in seps:
            continue
        left, right = " ".join(tokens[:i]), " ".join(tokens[i + 1:])
        a = _kept(slots[0], left, scope, kept)
        b = _kept(slots[1], right, scope, kept) if a else []
        if not a:
            missing.append(left)
        elif not b:
            missing.append(right)
        out.extend((x, y) for x in a for y in b)
    return out


def parse(text: str, scope: Scope, kept: dict | None = None) -> Parse:
    """The actions `text` may mean in `scope`. `kept`: what words were found to name in a
    scope (`_resolve`), kept for the caller's next parses, which must come while the
    world stands as it did (a lookup may read what things are now, not only the scope:
    a thing's holder, its material): a state's hundreds of commands name the same things
    again and again."""
    norm = normalize(text[: MAX_LENGTH * 4])
    if len(norm) > MAX_LENGTH:
        return Parse([])
    m = _WAIT_N.fullmatch(norm)
    if m:
        return Parse([Action("wait_n", (int(m.group(1)),))])
    candidates: list[Action] = []
    seen: set = set()
    missing: list[str] = []

    def add(action: Action):
        k = action.key()
        if k not in seen:
            seen.add(k)
            candidates.append(action)

    first = norm.split(" ", 1)[0]
    for prefix, verb, slots, seps in _FORMS.get(first, ()):
        if not slots:
            if norm == prefix:
                add(Action(verb))
            continue
        if not norm.startswith(prefix + " "):
            continue
        rest = norm[len(prefix) + 1:]
        for args in _readings(rest, slots, seps, scope, missing, kept):
            add(Action(verb, args))
    for head, tail, verb in _SUFFIXES.get(first, ()):
        if norm.startswith(head) and norm.endswith(tail) and len(norm) > len(head) + len(tail):
            middle = norm[len(head):-len(tail)]
            for (x,) in _readings(middle, (OBJ,), (), scope, missing, kept):
                add(Action(verb, (x,)))
    if candidates:
        return Parse(candidates)
    return Parse([], missing[0] if missing else None)
