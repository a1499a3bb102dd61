"""A user's phrasing file: their own sentences for their own PDDL domain.

A YAML file (`phrasing.yaml` beside the domain file is found by itself) with three
optional sections, each keyed by PDDL names::

    types:                       # a noun per type
      room: room
    predicates:                  # a sentence per polarity, {name} = the parameter ?name
      door:
        positive: a door leads from {from} to {to}
        negative: no door leads from {from} to {to}
    actions:                     # a sentence per action
      move: walk from {from} to {to}

YAML rather than a jinja2 file: a user writes plain sentences with the predicate's own
parameter names in braces, without learning macro syntax, and `racbench phrasing init`
writes every entry with today's guess filled in. A sentence starts lower-case unless it
starts with an object (the generator adds the capital and the period where a sentence
starts). Anything the file leaves out keeps the default phrasing.

The file's sentences are user data, not racbench's English: they are substituted here
and stored in each row's `symbolic.render.phrasing`, so a row can be re-read (scored,
parsed) without the file.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from racbench.errors import InputError
from racbench.text import sayer
from racbench.worlds.strips.model import Domain
from racbench.worlds.strips.sexpr import SList, Source, read

FILE_NAME = "phrasing.yaml"
SECTIONS = ("types", "predicates", "actions")
POLARITIES = ("positive", "negative")
MAX_BYTES = 1_000_000
_PLACEHOLDER = re.compile(r"\{([^{}\s]*)\}")


class PhrasingError(InputError):
    """A phrasing file we cannot accept; the message names file, line, key and what is
    accepted."""


_say = sayer("cli", ("phrasing_file.j2",))


@dataclass(frozen=True)
class Phrasing:
    """The parsed file: PDDL name -> sentence(s) with `{param}` placeholders."""

    source: str = ""
    types: dict[str, str] = field(default_factory=dict)
    predicates: dict[str, dict[str, str]] = field(default_factory=dict)  # pred -> polarity
    actions: dict[str, str] = field(default_factory=dict)
    params: dict[str, tuple[str, ...]] = field(default_factory=dict)  # symbol -> names

    def to_json(self) -> str:
        """What rows store to phrase the domain again without the file."""
        return json.dumps({"types": self.types, "predicates": self.predicates,
                           "actions": self.actions,
                           "params": {k: list(v) for k, v in self.params.items()}},
                          sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> "Phrasing":
        data = json.loads(text)
        return cls("<row>", data["types"], data["predicates"], data["actions"],
                   {k: tuple(v) for k, v in data["params"].items()})

    def fact(self, predicate: str, args: tuple, positive: bool) -> str | None:
        entry = self.predicates.get(predicate)
        if entry is None:
            return None
        return _fill(entry[POLARITIES[0] if positive else POLARITIES[1]],
                     self.params.get(predicate, ()), args)

    def action(self, name: str, args: tuple) -> str | None:
        sentence = self.actions.get(name)
        return None if sentence is None else _fill(sentence, self.params.get(name, ()), args)

    def noun(self, type_name: str) -> str | None:
        return self.types.get(type_name)


def _fill(sentence: str, params: tuple[str, ...], args: tuple) -> str:
    values = dict(zip(params, args))
    return _PLACEHOLDER.sub(lambda m: str(values.get(m.group(1), m.group(0))), sentence)


# --------------------------------------------------------------------- parameter names

def parameter_names(domain: Domain, domain_text: str) -> dict[str, tuple[str, ...]]:
    """Each predicate's and action's parameter names without '?', as the PDDL names
    them (`door` -> (from, to)); a repeated or missing name becomes a1, a2, ..."""
    names: dict[str, tuple[str, ...]] = {}
    try:
        tree = read(Source(domain_text))
    except InputError:
        tree = None
    define = tree.items[0] if tree is not None and tree.items and \
        isinstance(tree.items[0], SList) else tree
    for section in (define.items if define is not None else []):
        if isinstance(section, SList) and section.head() == ":predicates":
            for pred in section.items[1:]:
                if isinstance(pred, SList) and pred.head():
                    names[pred.head()] = tuple(t[1:] for t in pred.items[1:]
                                               if isinstance(t, str) and t.startswith("?"))
    for schema in domain.actions:
        names[schema.name] = tuple(var.lstrip("?") for var, _types in schema.parameters)
    for pred, types in domain.predicates.items():
        found = names.get(pred, ())
        if len(found) != len(types) or len(set(found)) != len(found):
            names[pred] = tuple(f"a{i + 1}" for i in range(len(types)))
    return names


# -------------------------------------------------------------------------- loading

def beside(domain_file: str | Path) -> Path | None:
    """The phrasing file that sits beside a domain file, if there is one."""
    path = Path(domain_file).parent / FILE_NAME
    return path if path.is_file() else None


def load_phrasing(path: str | Path, domain: Domain, domain_text: str) -> Phrasing:
    """Read and check a phrasing file against its domain; PhrasingError names the file,
    the line and the key of the first problem and what is accepted."""
    path = Path(path)
    if not path.is_file():
        raise PhrasingError(_say("no_file", path=path))
    raw = path.read_bytes()
    if len(raw) > MAX_BYTES:
        raise PhrasingError(_say("too_big", path=path, size=len(raw), most=MAX_BYTES))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PhrasingError(_say("not_utf8", path=path, byte=exc.start)) from None
    try:
        node = yaml.compose(text)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        raise PhrasingError(_say("not_yaml", where=f"{path}{where}",
                                 problem=getattr(exc, "problem", None),
                                 sections=SECTIONS)) from None
    lines = _key_lines(node)
    return _Checker(path, lines, domain, parameter_names(domain, domain_text)).check(data)


def _key_lines(node, prefix: tuple = ()) -> dict[tuple, int]:
    """The line of every mapping key, by its path of keys."""
    found: dict[tuple, int] = {}
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            path = prefix + (str(key.value),)
            found[path] = key.start_mark.line + 1
            found.update(_key_lines(value, path))
    return found


class _Checker:
    def __init__(self, path: Path, lines: dict, domain: Domain, params: dict):
        self.path, self.lines, self.domain, self.params = path, lines, domain, params

    def fail(self, keys: tuple, message: str) -> PhrasingError:
        line = next((self.lines[keys[:n]] for n in range(len(keys), 0, -1)
                     if keys[:n] in self.lines), None)
        where = f"{self.path}:{line}" if line else str(self.path)
        return PhrasingError(_say("at", where=where, keys=keys, message=message))

    def check(self, data) -> Phrasing:
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise self.fail((), _say("not_a_mapping", sections=SECTIONS,
                                     got=type(data).__name__))
        for key in data:
            if str(key) not in SECTIONS:
                raise self.fail((str(key),), _say("unknown_section", sections=SECTIONS))
        types = self._types(data.get("types") or {})
        predicates = self._predicates(data.get("predicates") or {})
        actions = self._actions(data.get("actions") or {})
        used = set(predicates) | set(actions)
        return Phrasing(str(self.path), types, predicates, actions,
                        {k: v for k, v in sorted(self.params.items()) if k in used})

    def _section(self, name: str, value, known) -> dict:
        if not isinstance(value, dict):
            raise self.fail((name,), _say("section_not_a_mapping"))
        for key in value:
            if str(key) not in known:
                raise self.fail((name, str(key)), _say("no_such_symbol", domain=self.domain.name,
                                                       kind=name[:-1], accepted=sorted(known)))
        return {str(k): v for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}

    def _types(self, value) -> dict[str, str]:
        known = (set(self.domain.supertypes) | set(self.domain.supertypes.values())) - {"object"}
        known.add("object")
        out = {}
        for name, noun in self._section("types", value, known).items():
            if not isinstance(noun, str) or not noun.strip() or "{" in noun:
                raise self.fail(("types", name), _say("not_a_noun", got=repr(noun)))
            out[name] = " ".join(noun.split())
        return out

    def _sentence(self, keys: tuple, symbol: str, value) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(keys, _say("not_a_sentence", example=self._example(symbol),
                                       got=repr(value)))
        params = self.params.get(symbol, ())
        for name in _PLACEHOLDER.findall(value):
            if name not in params:
                raise self.fail(keys, _say("not_a_parameter", name=name, symbol=symbol,
                                           params=params))
        return " ".join(value.split()).rstrip(".")

    def _example(self, symbol: str) -> str:
        return " ".join([symbol] + ["{" + p + "}" for p in self.params.get(symbol, ())])

    def _predicates(self, value) -> dict[str, dict[str, str]]:
        out = {}
        for name, entry in self._section("predicates", value, self.domain.predicates).items():
            if not isinstance(entry, dict) or set(map(str, entry)) != set(POLARITIES):
                missing = [p for p in POLARITIES if not isinstance(entry, dict) or p not in entry]
                extra = [str(k) for k in entry if str(k) not in POLARITIES] \
                    if isinstance(entry, dict) else []
                raise self.fail(("predicates", name), _say(
                    "bad_predicate_entry", extra=extra[0] if extra else None,
                    missing=missing[0] if isinstance(entry, dict) and missing else None,
                    polarities=POLARITIES))
            out[name] = {p: self._sentence(("predicates", name, p), name, entry[p])
                         for p in POLARITIES}
        return out

    def _actions(self, value) -> dict[str, str]:
        known = {a.name for a in self.domain.actions}
        return {name: self._sentence(("actions", name), name, sentence)
                for name, sentence in self._section("actions", value, known).items()}
