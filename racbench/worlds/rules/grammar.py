"""The typed grammar of rule sets, and drawing one per episode within a split.

A rule set says what the episode's entities are and do: in `rtfm`, each monster's team
(its element is shown on the grid, as in RTFM: "fire goblin"), which item modifier beats
which element, the team to defeat; in `messenger`, which entity carries the message,
which is the goal, which are enemies. In both, how each entity moves (chases you, flees
from you, stays). The manual states these rules as statements (`Statement`): the ones
the episode needs, chained through code names (`alias` statements: the reasoning
depth), and irrelevant ones about entities and elements absent from the grid.

Splits by rule combination: a pair (monster, team), (modifier, element) or (entity,
role) belongs to one split by the positions of its two words in the vocabulary
(`pair_split`), and an episode of a split uses only pairs of that split (its irrelevant
rules too), so no assignment of validation or test appears in train.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from importlib import resources

import yaml

from racbench.text import sayer

_say = sayer("cli", ("rules.j2",))

GAMES = ("rtfm", "messenger")
BEHAVIOURS = ("chases", "flees", "stays")
ROLES = ("message", "goal", "enemy")
# a pair's bucket is (i + j) % 5: three buckets train, one validation, one test
PAIR_BUCKETS = {0: "train", 1: "train", 2: "train", 3: "validation", 4: "test"}
BASE_DEPTH = {"rtfm": 2, "messenger": 1}  # manual sentences chained without code names
# RTFM's stage one: two monsters on a 6 x 6 grid with walls; Messenger's: three entities
GAME_DEFAULTS = {"rtfm": {"depth": 2, "grid": 4, "entities": 2},
                 "messenger": {"depth": 1, "grid": 5, "entities": 3}}
DRAW_TRIES = 200
PARAPHRASES = 3  # ways templates/rules/manual.j2 says each kind of statement


@cache
def vocab() -> dict:
    text = resources.files("racbench.data").joinpath("vocab", "rule_worlds.yaml").read_text("utf-8")
    return yaml.safe_load(text)


def pair_split(kind: str, a: str, b: str) -> str:
    """The split a pair of (kind: team, beats, role) belongs to."""
    v = vocab()
    first, second = {"team": ("rtfm.monsters", "rtfm.teams"),
                     "beats": ("rtfm.modifiers", "rtfm.elements"),
                     "role": ("messenger.entities", "messenger.roles")}[kind]
    i = _words(v, first).index(a)
    j = _words(v, second).index(b)
    return PAIR_BUCKETS[(i + j) % len(PAIR_BUCKETS)]


def _words(v: dict, path: str) -> list[str]:
    game, key = path.split(".")
    return v[game][key]


@dataclass(frozen=True)
class Entity:
    """A thing on the grid that moves or is met: a monster (rtfm) or an entity (messenger)."""

    name: str  # its symbol on the grid
    behaviour: str  # chases, flees, stays
    element: str = ""  # rtfm: shown on the grid
    team: str = ""  # rtfm
    role: str = ""  # messenger

    @property
    def label(self) -> str:
        """What the grid shows."""
        return f"{self.element} {self.name}" if self.element else self.name


@dataclass(frozen=True)
class Item:
    modifier: str
    kind: str

    @property
    def name(self) -> str:
        return f"{self.modifier} {self.kind}"


@dataclass(frozen=True)
class Statement:
    """One rule of the manual: kind (alias, member, beats, behaviour, role), its
    arguments (references as the manual says them), and whether the episode needs it."""

    kind: str
    args: tuple[str, ...]
    relevant: bool = True
    variant: int = 0  # which paraphrase of templates/rules/manual.j2 says it


@dataclass(frozen=True)
class RuleSet:
    game: str
    entities: tuple[Entity, ...]
    items: tuple[Item, ...]  # rtfm
    beats: tuple[tuple[str, str], ...]  # (modifier, element), rtfm
    target: str  # rtfm: the team to defeat
    references: tuple[tuple[str, str], ...]  # entity name -> what the manual calls it
    statements: tuple[Statement, ...]

    def beater(self, element: str) -> str | None:
        return next((m for m, e in self.beats if e == element), None)

    def pairs(self) -> list[tuple[str, str, str]]:
        """Every assignment the manual states, relevant or not: (kind, a, b)."""
        refs = {ref: name for name, ref in self.references}
        code = {s.args[1]: s.args[0] for s in self.statements if s.kind == "alias"}

        def name_of(ref: str) -> str:
            while ref in code:
                ref = code[ref]
            return refs[ref]
        kinds = {"member": "team", "beats": "beats", "role": "role"}
        return sorted({(kinds[s.kind], name_of(s.args[0]) if s.kind != "beats" else s.args[0],
                        s.args[1]) for s in self.statements if s.kind in kinds})

    def to_json(self) -> dict:
        return {"game": self.game,
                "entities": [[e.name, e.behaviour, e.element, e.team, e.role]
                             for e in self.entities],
                "items": [[i.modifier, i.kind] for i in self.items],
                "beats": [list(b) for b in self.beats], "target": self.target,
                "references": [list(r) for r in self.references],
                "statements": [[s.kind, list(s.args), s.relevant, s.variant]
                               for s in self.statements]}

    @classmethod
    def from_json(cls, data: dict) -> "RuleSet":
        return cls(data["game"], tuple(Entity(*e) for e in data["entities"]),
                   tuple(Item(*i) for i in data["items"]),
                   tuple(tuple(b) for b in data["beats"]), data["target"],
                   tuple(tuple(r) for r in data["references"]),
                   tuple(Statement(k, tuple(a), r, v) for k, a, r, v in data["statements"]))


@dataclass(frozen=True)
class RuleOptions:
    """The knobs of a rule world: the game, reasoning depth (manual sentences chained),
    irrelevant rules, grid size (cells a side inside the walls), entities, and whether
    the manual calls entities by their names (`overlap`) or by words sharing none."""

    game: str = "rtfm"
    depth: int = 2
    irrelevant: int = 2
    grid: int = 4
    entities: int = 2
    overlap: bool = True

    @classmethod
    def for_game(cls, game: str, **knobs) -> "RuleOptions":
        """Options of `game` with its own defaults for the knobs not given."""
        return cls(game=game, **{**GAME_DEFAULTS.get(game, {}), **knobs})

    def hops(self) -> int:
        return self.depth - BASE_DEPTH[self.game]

    def problems(self) -> list[str]:
        """What is wrong with these options, as (field, accepted) messages' parts."""
        v = vocab()
        wrong = []
        if self.game not in GAMES:
            return [("rules", self.game, ", ".join(GAMES))]
        lo, hi = (2, 5) if self.game == "rtfm" else (3, 6)
        if not _int(self.entities) or not lo <= self.entities <= hi:
            wrong.append(("entities", self.entities, _say("integer_from", least=lo, most=hi)))
        if not _int(self.grid) or not 3 <= self.grid <= 8:
            wrong.append(("grid", self.grid, _say("integer_from", least=3, most=8)))
        elif _int(self.entities) and self.entities * (2 if self.game == "rtfm" else 1) + 1 \
                > self.grid * self.grid // 2:
            wrong.append(("grid", self.grid, _say("room_for_things")))
        base = BASE_DEPTH.get(self.game, 1)
        max_hops = len(v["aliases"]) // max(1, self.entities if _int(self.entities) else 1)
        if not _int(self.depth) or not base <= self.depth <= base + min(4, max_hops):
            wrong.append(("depth", self.depth,
                          _say("integer_from", least=base, most=base + min(4, max_hops))))
        if not _int(self.irrelevant) or not 0 <= self.irrelevant <= 6:
            wrong.append(("irrelevant", self.irrelevant, _say("integer_from", least=0, most=6)))
        if not isinstance(self.overlap, bool):
            wrong.append(("overlap", self.overlap, _say("true_or_false")))
        return wrong


def _int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def draw_rules(opts: RuleOptions, split: str, rng: random.Random) -> RuleSet:
    """A rule set of `split`'s pairs only (see the module's text)."""
    for _ in range(DRAW_TRIES):
        rules = (_draw_rtfm if opts.game == "rtfm" else _draw_messenger)(opts, split, rng)
        if rules is not None:
            return rules
    raise RuntimeError(_say("no_rule_set", game=opts.game, split=split, draws=DRAW_TRIES))


def _allowed(kind: str, a_list, b: str, split: str) -> list[str]:
    return [a for a in a_list if pair_split(kind, a, b) == split]


def _draw_rtfm(opts: RuleOptions, split: str, rng: random.Random) -> RuleSet | None:
    v = vocab()["rtfm"]
    target = rng.choice(v["teams"])
    n = opts.entities
    elements = rng.sample(v["elements"], n)
    members = _allowed("team", v["monsters"], target, split)
    if not members:
        return None
    monsters = [rng.choice(members)]
    teams = [target]
    others = [m for m in v["monsters"] if m not in monsters]
    rng.shuffle(others)
    for m in others:
        if len(monsters) == n:
            break
        choices = [t for t in v["teams"] if t != target and pair_split("team", m, t) == split]
        if choices:
            monsters.append(m)
            teams.append(rng.choice(choices))
    if len(monsters) < n:
        return None
    beats, used = [], set()
    for e in elements:
        choices = [m for m in _allowed("beats", v["modifiers"], e, split) if m not in used]
        if not choices:
            return None
        mod = rng.choice(choices)
        used.add(mod)
        beats.append((mod, e))
    behaviours = [rng.choice(BEHAVIOURS) for _ in range(n)]
    entities = [Entity(m, b, e, t) for m, b, e, t in zip(monsters, behaviours, elements, teams)]
    kinds = rng.sample(v["items"], n)
    items = [Item(m, k) for (m, _), k in zip(beats, kinds)]
    rng.shuffle(entities)
    rng.shuffle(items)
    # irrelevant rules: monsters absent from the grid, elements no monster has
    absent = [m for m in v["monsters"] if m not in monsters]
    free_elements = [e for e in v["elements"] if e not in elements]
    extra: list[tuple] = []
    rng.shuffle(absent)
    for m in absent:
        choices = [t for t in v["teams"] if pair_split("team", m, t) == split]
        if choices:
            extra.append(("member", m, rng.choice(choices)))
    for e in free_elements:
        choices = [m for m in _allowed("beats", v["modifiers"], e, split) if m not in used]
        if choices:
            mod = rng.choice(choices)
            used.add(mod)
            extra.append(("beats", mod, e))
    return _assemble(opts, rng, entities, items, beats, target, absent, extra)


def _draw_messenger(opts: RuleOptions, split: str, rng: random.Random) -> RuleSet | None:
    v = vocab()["messenger"]
    roles = ["message", "goal"] + ["enemy"] * (opts.entities - 2)
    pool = list(v["entities"])
    rng.shuffle(pool)
    chosen: list[Entity] = []
    for role in roles:
        pick = next((e for e in pool if pair_split("role", e, role) == split), None)
        if pick is None:
            return None
        pool.remove(pick)
        chosen.append(Entity(pick, rng.choice(BEHAVIOURS), role=role))
    rng.shuffle(chosen)
    extra = []
    for e in pool:
        choices = [r for r in ROLES if pair_split("role", e, r) == split]
        if choices:
            extra.append(("role", e, rng.choice(choices)))
    return _assemble(opts, rng, chosen, [], [], "", pool, extra)


def _assemble(opts: RuleOptions, rng: random.Random, entities, items, beats, target: str,
              absent: list[str], extra: list[tuple]) -> RuleSet:
    """The rule set with its statements: for each entity a chain of code names as long
    as the depth asks, then what it is and does; `opts.irrelevant` of the `extra` rules
    about absent things (and how absent entities move)."""
    v = vocab()
    present = [e.name for e in entities]
    references = []
    for name in present + absent:
        ref = f"the {name}" if opts.overlap else rng.choice(v["references"][name])
        references.append((name, ref))
    refs = dict(references)
    codes = rng.sample(v["aliases"], opts.hops() * len(entities))
    statements = []
    for e in entities:
        ref = refs[e.name]
        for _ in range(opts.hops()):
            code = codes.pop()
            statements.append(Statement("alias", (ref, code)))
            ref = code
        if opts.game == "rtfm":
            statements.append(Statement("member", (ref, e.team)))
        else:
            statements.append(Statement("role", (ref, e.role)))
        statements.append(Statement("behaviour", (ref, e.behaviour)))
    statements += [Statement("beats", b) for b in beats]
    extra = extra + [("behaviour", a, rng.choice(BEHAVIOURS)) for a in absent]
    for kind, a, b in rng.sample(extra, min(opts.irrelevant, len(extra))):
        statements.append(Statement(kind, (refs[a] if kind != "beats" else a, b), False))
    statements = [Statement(s.kind, s.args, s.relevant, rng.randrange(PARAPHRASES))
                  for s in statements]
    rng.shuffle(statements)
    used = {a for s in statements for a in s.args}
    references = [(n, r) for n, r in references if n in present or r in used]
    return RuleSet(opts.game, tuple(entities), tuple(items), tuple(beats), target,
                   tuple(sorted(references)), tuple(statements))
