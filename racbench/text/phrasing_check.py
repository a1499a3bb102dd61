"""`racbench phrasing init` and `check`: a starter phrasing file with today's guesses,
and every predicate (both polarities) and action rendered with sample objects, flagged
when a sentence drops an object or ends on a dangling word (a preposition, an article).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from racbench.text import environment, sayer, words
from racbench.text.domain import DomainText, split_name
from racbench.text.user_phrasing import Phrasing, parameter_names
from racbench.worlds.strips.model import ROOT_TYPE, Domain

DANGLING = frozenset({"the", "a", "an", "and", "or", "of", "is", "are"})
# words that end a phrasal verb ("switched on", "powered off"), not a preposition left open
PARTICLES = frozenset({"on", "off", "up", "down", "out", "over", "in", "away", "back"})
say = sayer("cli", ("phrasing.j2",))
environment().filters.setdefault("format_param", lambda name: f"?{name}")


@dataclass(frozen=True)
class Flag:
    symbol: str
    polarity: str  # positive, negative, or "" for an action
    sentence: str
    missing: tuple[str, ...]  # sample objects the sentence does not name
    dangling: str  # the last word, when it leaves the sentence hanging

    def line(self) -> str:
        return say("flag", symbol=self.symbol, polarity=self.polarity, sentence=self.sentence,
                   missing=list(self.missing), dangling=self.dangling)


def sample_objects(domain: Domain, types_per_arg) -> tuple[str, ...]:
    """Objects named after their type, numbered (room1, room2, key3), for sentences
    whose every object can be looked for."""
    names = []
    for i, types in enumerate(types_per_arg):
        kind = types[0] if types and types[0] != ROOT_TYPE else "x"
        names.append(f"{''.join(split_name(kind)) or 'x'}{i + 1}")
    return tuple(names)


def rendered(text: DomainText):
    """(symbol, polarity, sentence, objects) for every predicate and action."""
    d = text.domain
    for pred, types in sorted(d.predicates.items()):
        args = sample_objects(d, types)
        for polarity in ("positive", "negative"):
            yield pred, polarity, str(text.fact((pred,) + args, polarity == "positive")), args
    for schema in d.actions:
        args = sample_objects(d, [t for _v, t in schema.parameters])
        yield schema.name, "", str(text.action((schema.name,) + args)), args


def check(text: DomainText) -> tuple[int, list[Flag]]:
    """How many sentences were rendered, and those flagged."""
    flags, count = [], 0
    for symbol, polarity, sentence, args in rendered(text):
        count += 1
        missing = tuple(a for a in args if not re.search(rf"(?<![\w-]){re.escape(a)}(?![\w-])",
                                                         sentence))
        dangling = dangling_word(sentence, args)
        if missing or dangling:
            flags.append(Flag(symbol, polarity, sentence, missing, dangling))
    return count, flags


def dangling_word(sentence: str, objects=()) -> str:
    """The last word when it leaves the sentence hanging ("Vault is at."), else "" (an
    object's name, such as block `a`, never dangles)."""
    found = sentence.rstrip(" .").split()
    if found and found[-1] in objects:
        return ""
    found = [w.lower() for w in found]
    last, before = found[-1] if found else "", found[-2] if len(found) > 1 else ""
    if last in PARTICLES and before and (words.is_participle(before) or
                                         words.is_base_verb(before)) and before not in ("is", "are", "be"):
        return ""  # a phrasal verb: switched on
    return last if (words.is_preposition(last) or last in DANGLING) else ""


def starter(domain: Domain, domain_text: str, text: DomainText) -> str:
    """A phrasing file with every type, predicate and action and today's guess for it."""
    params = parameter_names(domain, domain_text)
    placeholder = {name: tuple("{" + p + "}" for p in ps) for name, ps in params.items()}
    types = sorted((set(domain.supertypes) | set(domain.supertypes.values())) - {ROOT_TYPE})
    type_rows = [(t, _quote(" ".join(split_name(t)))) for t in types]
    preds = [(p, params[p], _quote(text.fact((p,) + placeholder[p], True)),
              _quote(text.fact((p,) + placeholder[p], False)))
             for p in sorted(domain.predicates)]
    acts = [(a.name, params[a.name], _quote(text.action((a.name,) + placeholder[a.name])))
            for a in domain.actions]
    return say("starter", domain=domain.name, types=type_rows, predicates=preds,
               actions=acts) + "\n"


def _quote(sentence: str) -> str:
    return json.dumps(str(sentence))  # a JSON string is a YAML string


def source_label(phrasing: Phrasing | None, text: DomainText) -> str:
    if phrasing is not None:
        return phrasing.source
    return f"templates/{text.template_dir}" if text.template_dir else say("default_guesses")
