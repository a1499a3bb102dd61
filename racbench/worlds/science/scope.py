"""What the agent can see and how each visible thing may be named.

A Scope is computed once per view of the world (`view_key`: what is in view and how) and reused by
the parser, the valid-action lister and the describers, so a run of `wait` steps costs no
lookups at all, and a state showing what an earlier one showed costs one key.
"""

from __future__ import annotations

from functools import lru_cache
from operator import attrgetter

from racbench.worlds.science import naming
from racbench.worlds.science.naming import normalize
from racbench.worlds.science.data import load
from racbench.worlds.science.world import AGENT, World


def _terminal_words() -> tuple[tuple[str, str], tuple[str, str]]:
    terms = load("vocab")["terminals"]
    return tuple(terms["polarized"]), tuple(terms["unpolarized"])


POLARIZED, UNPOLARIZED = _terminal_words()
SUBSTANCE_WORD = load("vocab")["substance_word"]
UNKNOWN_WORD = load("vocab")["unknown_name"]
_SW = load("vocab")["scienceworld_names"]
_TREES = frozenset(load("life")["grow_plants"])   # the fruit trees: ScienceWorld calls them trees


def scienceworld_names(t) -> tuple[str, ...]:
    """The other names ScienceWorld's parser gives a thing like `t` (its referents): 'living
    thing' and 'organism' for anything alive, a plant by its stage ('seed apple seed', 'seed
    plant', 'reproducing apple tree', 'apple tree in the reproducing stage'), a substance by its
    material's plain name whatever its state ('chocolate', 'lead'), a paint as 'paint', an
    unknown substance by its kind ('unknown substance'). Cached on what they depend on."""
    if t.is_substance:
        return _substance_names(t.mat.name, t.label)
    if t.living is None:
        return ()
    return _living_names(t.living, t.name, t.stage, t.referents, t.stages, t.traits)


@lru_cache(maxsize=1 << 14)
def _substance_names(material: str, label: str | None) -> tuple[str, ...]:
    out = [material]
    if material.rsplit(" ", 1)[-1] == _SW["paint"]:
        out.append(_SW["paint"])
    if label and label.startswith(UNKNOWN_WORD):
        out.append(UNKNOWN_WORD)
    return tuple(out)


@lru_cache(maxsize=1 << 14)
def _living_names(living: str, name: str, stage_index: int, referents: tuple, stages: tuple,
                  traits: str | None = None) -> tuple[str, ...]:
    out = list(_SW["living"])
    if living == "plant" and stages and len(referents) > 1 + stage_index:
        species, stage = referents[0], referents[1 + stage_index]
        if stage == referents[1]:     # its first stage: a seed ('seed apple seed', 'pea in the seed stage')
            kinds = [_SW["seed"].format(species=species)]
            out.append(_SW["in_stage"].format(stage=stage, name=species))
        elif species in _TREES or any(_SW["tree"].format(species=species) in s for s in stages):
            kinds = [_SW["tree"].format(species=species)]
        else:
            kinds = [_SW["plant"].format(species=species)]
            if traits:   # a genetics plant by the traits it shows: 'reproducing tall height pea plant'
                kinds.append(_SW["staged"].format(stage=traits, name=kinds[0]))
        for n in dict.fromkeys([name, *kinds]):
            out.append(n)
            out.append(_SW["staged"].format(stage=stage, name=n))
            out.append(_SW["in_stage"].format(stage=stage, name=n))
        out.append(_SW["stage_plant"].format(stage=stage))
        out.append(_SW["plant_word"])
        out.append(_SW["in_stage"].format(stage=stage, name=_SW["plant_word"]))   # 'plant in the seed stage'
    return tuple(out)


def holder_names(p) -> tuple[str, ...]:
    """What ScienceWorld calls the holder `p` in 'NAME in PLACE': the agent's things are in its
    inventory; a room is its name or 'room'."""
    if p.kind == AGENT:
        return tuple(_SW["held_in"])
    return (p.name, _SW["room"])


def holder_word(p) -> str:
    """The holder a canonical name is qualified by ('apple in table'): the inventory for what the
    agent holds; a genetics plant by the traits it shows, as ScienceWorld's parser takes it
    ('round green pea seed in tall height pea plant'); anything else by its name."""
    if p.kind == AGENT:
        return naming.inventory_word()
    if p.traits and p.living == "plant" and p.referents:
        return _SW["staged"].format(stage=p.traits, name=_SW["plant"].format(species=p.referents[0]))
    return p.name


def terminal_names(thing) -> tuple[str, str]:
    return POLARIZED if thing.polarized else UNPOLARIZED


def has_terminals(thing) -> bool:
    """Electrical components always; any other loose, solid, non-living thing as a virtual conductor."""
    if thing.elec is not None:
        return True
    return thing.portable and thing.living is None and not thing.container and thing.state == "solid"


def in_view(room) -> list:
    """The things in view in `room` (doors aside), in the order the agent sees them: what
    a scope names, and all a lab's state needs of one it may never read a command in."""
    things: list = []
    stack = list(reversed(room.contents))
    while stack:
        t = stack.pop()
        things.append(t)
        if t.kind == AGENT or (t.container and t.is_open) or (t.living == "plant" and t.contents):
            stack.extend(reversed(t.contents))   # what a plant bears hangs on it, in view
    return things


class Scope:
    __slots__ = ("things", "canon", "refs", "_terminals", "_terminal_index", "rooms", "room",
                 "contents", "holder_words")

    def __init__(self, world: World):
        room = world.agent_room()
        self.room = room
        things = in_view(room)
        doors = [d for d, _ in world.doors_of(room)]
        self.things = things + doors
        # what each holds now: a command is read in a scope kept for a state the world has
        # since left (the lab's), by what was in its containers then ('cup containing nothing')
        self.contents = {t.uid: tuple(t.contents) for t in things}
        # canonical names: the plain name when unique here, else qualified by the container
        counts: dict[str, int] = {}
        for t in things:
            counts[t.name] = counts.get(t.name, 0) + 1
        canon: dict[int, str] = {}
        for t in things:
            name = t.name
            if t.kind == AGENT:
                canon[t.uid] = naming.self_words()[0]
            elif counts[name] > 1:
                p = t.parent
                canon[t.uid] = naming.qualified(name, holder_word(p))
            else:
                canon[t.uid] = name
        # twins in one container are told apart by what they hold when that differs ('wood cup
        # containing red paint', qualified by the container when twins elsewhere hold the same),
        # else numbered in visible order, the numbers of one name running on across holders
        # (seeds alike on two plants: 'round green pea seed 1' to '4' on one, '5' on the other)
        seen_names: dict[str, list] = {}
        for t in things:
            seen_names.setdefault(canon[t.uid], []).append(t)
        by_content: list[tuple] = []
        numbered: dict[str, int] = {}
        for name, group in seen_names.items():
            if len(group) > 1:
                base = group[0].name
                names = [naming.containing(base, [c.name for c in t.contents])
                         if t.container and t.is_open else None for t in group]
                if None not in names and len(set(names)) == len(group):
                    by_content.extend(zip(group, names))
                    continue
                for k, t in enumerate(group, numbered.get(base, 0) + 1):
                    canon[t.uid] = naming.twin(base, k)
                numbered[base] = numbered.get(base, 0) + len(group)
        uses: dict[str, int] = {}
        for _, name in by_content:
            uses[name] = uses.get(name, 0) + 1
        held = {t.uid: [c.name for c in t.contents] for t, _ in by_content}
        for t, name in by_content:
            if uses[name] > 1:
                p = t.parent
                name = naming.qualified(name, holder_word(p))
            canon[t.uid] = name
        for door, other in world.doors_of(room):
            canon[door.uid] = naming.door(other.name)
        self.canon = canon
        refs: dict[str, list] = {}
        for t in things:   # each thing's names, deduplicated (_names_of): it joins each list once
            if t.kind == AGENT:
                keys = _agent_names(canon[t.uid], t.name)
            else:
                h = held.get(t.uid)
                keys = _names_of(canon[t.uid], t.name, holder_word(t.parent), t.referents, t.color,
                                 None if h is None else tuple(h), t.is_substance, t.state, t.label,
                                 t.mat.name, t.living, t.stages, t.stage, t.traits)
            for key in keys:
                lst = refs.get(key)
                if lst is None:
                    refs[key] = [t]
                else:
                    lst.append(t)

        def add(key, t):
            lst = refs.setdefault(normalize(key), [])
            if t not in lst:
                lst.append(t)

        for door, other in world.doors_of(room):
            add(canon[door.uid], door)
            for alias in naming.door_aliases(other.name):
                add(alias, door)
        self.refs = refs
        # what the agent and the room are called in 'NAME in PLACE' (things name their holders)
        self.holder_words = {p.uid: tuple(normalize(w) for w in holder_names(p)) for p in (room, world.agent)}
        # what terminal names are made of, as things are now (terminals_named): right
        # however long the scope is kept
        self._terminals = [(t, (canon[t.uid], t.name, *t.referents), terminal_names(t))
                           for t in things if has_terminals(t)]
        self._terminal_index = None
        self.rooms = world.rooms

    def terminals_named(self, words: str) -> list:
        """The (thing, terminal index) pairs in view that `words` (normalised) names: 'name
        terminal' by the thing's own name (as ScienceWorld's parser, which refuses 'block
        terminal 1' for a wood block), and its aliases by any of its names ('anode in
        light'); in the order of the things in view. Each terminal's names are worked out
        once per what they depend on, not every terminal's for every scope, and indexed
        by name the first time a scope is asked (a state's connections are read by the
        hundred, each asking twice)."""
        index = self._terminal_index
        if index is None:
            index = self._terminal_index = {}
            for t, names, pair in self._terminals:
                for i, word in enumerate(pair):
                    for key in _terminal_name_set(names, word):
                        index.setdefault(key, []).append((t, i))
        return list(index.get(words, ()))


@lru_cache(maxsize=1 << 14)
def _terminal_name_set(names: tuple, word: str) -> frozenset[str]:
    """Every normalised name of terminal `word` of a thing called by `names` (its canonical
    name, its name, its referents)."""
    return frozenset(k for j, n in enumerate(names) for k in _terminal_keys(n, word, j < 2))


@lru_cache(maxsize=1 << 14)
def _agent_names(canon: str, name: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(normalize(k) for k in (canon, name, *naming.self_words())))


@lru_cache(maxsize=1 << 16)
def _names_of(c: str, name: str, where: str, referents: tuple, color, held: tuple | None,
              is_substance: bool, state: str, label, mat_name: str, living, stages: tuple, stage: int,
              traits) -> tuple[str, ...]:
    """Every normalised name a thing (not the agent) answers to in a scope, first occurrences
    in order, from what they depend on (strings only: kept across scopes and worlds): its
    canonical name `c`, its own name, its holder's word `where`, its referents, colour, the
    names of what it holds when twins are told apart by them (`held`), and what
    ScienceWorld's other names for it depend on."""
    out = [c, name]
    for r in referents:
        out.append(r)
        out.append(naming.qualified(r, where))   # 'cup in table'
        if color:
            out.append(naming.colored(color, r))
        if held is not None:   # 'cup containing red paint'
            out.append(naming.containing(r, list(held)))
    if held is not None:
        out.append(naming.containing(name, list(held)))
    # ScienceWorld's qualified references: 'thermometer in inventory', 'apple in table'
    out.append(naming.qualified(name, where))
    if c != name:
        out.append(naming.qualified(c, where))
    if is_substance:
        out.extend(_substance_names(mat_name, label))
    elif living is not None:
        out.extend(_living_names(living, name, stage, referents, stages, traits))
    if is_substance:
        out.append(naming.state_material(state, label or mat_name))
        out.append(SUBSTANCE_WORD)
        out.append(naming.qualified(SUBSTANCE_WORD, where))   # 'substance in metal pot'
    elif living == "animal" and stages:   # 'egg dove egg', 'egg dove', as ScienceWorld says them
        word = referents[1 + stage]          # organism(): (name, *stage words)
        for alias in (naming.staged(word, name), naming.staged(word, referents[0])):
            out.append(alias)
            out.append(naming.qualified(alias, where))   # 'egg dove egg in inventory'
    elif living == "plant" and stages and stage == 0:   # 'apple seed in the seed stage', while it is one
        alias = naming.in_stage(referents[1], name)
        out.append(alias)
        out.append(naming.qualified(alias, where))
    return tuple(dict.fromkeys(normalize(k) for k in out))


@lru_cache(maxsize=1 << 14)
def _terminal_keys(name: str, word: str, own: bool = True) -> tuple[str, ...]:
    """The normalised names of terminal `word` of a thing called `name` (strings only, so the
    cache holds no thing of any world): the aliases, and 'name terminal' when `name` is the
    thing's `own` name rather than another it answers to."""
    heads = (naming.terminal(name, word),) if own else ()
    return tuple(normalize(k) for k in (*heads, *naming.terminal_aliases(name, word)))


# what a scope and the valid actions read of a thing in view (with its material's name and
# what it holds): two states alike in these for every thing in view, the agent's room, the
# doors' being open and the electrical links have one scope and one list of valid actions
_SEEN = attrgetter("kind", "container", "is_open", "openable", "living", "label", "stages", "stage",
                   "is_substance", "state", "base", "referents", "color", "traits", "elec", "portable",
                   "polarized", "device", "is_on", "readable", "edible", "tool", "movable", "parent")


def view_key(world: World) -> tuple:
    """What the scope (and the valid actions listed from it) of the world as it is now
    depends on, as a key: every thing in view (found as Scope finds them) with the slots
    they read of it, what it holds, the agent's room, its doors and the electrical links.
    Temperatures, clocks and the like are not in it: most steps change only those."""
    room = world.agent.parent
    key = [room, frozenset(world.links)]
    add = key.append
    stack = list(reversed(room.contents))
    while stack:
        t = stack.pop()
        add(t)
        add(_SEEN(t))
        add(t.mat.name)
        contents = tuple(t.contents)
        add(contents)
        if t.kind == AGENT or (t.container and t.is_open) or (t.living == "plant" and contents):
            stack.extend(reversed(contents))
    for door, _ in world.doors_of(room):
        add(door.is_open)
    return tuple(key)
