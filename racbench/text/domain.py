"""English for any STRIPS domain: polished per-domain templates over a derived default.

A fact `(pred, a, b)` or action `(name, a, b)` is phrased by the first of:

1. the macro named after the symbol in the domain's template folder
   (`templates/<folder>/facts.j2` or `actions.j2`; '-' in PDDL names becomes '_', and a
   name that is a Python keyword such as `in` gets a trailing '_'), or a paraphrase
   `<macro>__<k>` from `facts_variants.j2` / `actions_variants.j2` when `variant=k`;
2. the default renderer: this module splits the name into words, guesses its shape from
   the word classes in `data/vocab/grammar.yaml` (a preposition last, a verb first, ...)
   and calls the macro of that shape in `templates/default/`. A brand-new domain
   therefore reads as English with no template at all.

Every English word order lives in the templates; Python only splits names, classifies
them and picks macros. Rendered clauses are cached per instance.

Obfuscation (PlanBench's "mystery" domains) renames predicates, actions, types,
constants and the alphabetic chunks of object names to pronounceable nonsense words or
to misleading real words; obfuscated symbols are always phrased by the opaque default
macros, so no template can leak their meaning. Everything is deterministic: choices come
from blake2b hashes, never from Python's randomised `hash`.
"""

from __future__ import annotations

import hashlib
import keyword
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Iterable, Sequence

import jinja2
import yaml

from racbench.text import Clause, environment, leading_name, sayer, user_templates, words
from racbench.text.formulas import FormulaText
from racbench.worlds.strips.model import ROOT_TYPE, AnyOf, Domain

_say_fault = sayer("cli", ("internal.j2",))  # faults of racbench's own code

# Domain-file folder -> template folder, where they differ. `templates/blocksworld/`
# holds TRAC's three-action blocksworld; the shipped four-operator one has its own.
TEMPLATE_FOLDERS = {"blocksworld": "blocksworld4"}
DEFAULT_FOLDER = "default"
VARIANT_SEPARATOR = "__"
_CACHE_SIZE = 1 << 18



# ----------------------------------------------------------------------------- words

def _vocab_text(name: str) -> str:
    return resources.files("racbench").joinpath("data", "vocab", name).read_text("utf-8")


@lru_cache(maxsize=None)
def _word_list(name: str) -> tuple[str, ...]:
    lines = (line.strip() for line in _vocab_text(name).splitlines())
    return tuple(line for line in lines if line and not line.startswith("#"))


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_SEPARATORS = re.compile(r"[-_\s]+")


@lru_cache(maxsize=None)
def split_name(name: str) -> tuple[str, ...]:
    """`drive-truck` / `drive_truck` / `driveTruck` -> ('drive', 'truck')."""
    name = _CAMEL.sub(" ", name.lstrip("?"))
    return tuple(word.lower() for word in _SEPARATORS.split(name) if word)


def macro_name(symbol: str) -> str:
    """The jinja2 macro for a PDDL symbol: '-' -> '_', keywords get a trailing '_'."""
    name = re.sub(r"\W", "_", symbol)
    if name[:1].isdigit():
        name = "_" + name
    if keyword.iskeyword(name) or name in ("true", "false", "none"):
        name += "_"
    return name


def _digest(*parts: object) -> int:
    text = "\x1f".join(str(p) for p in parts).encode("utf-8")
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big")


# ----------------------------------------------------------------------- templates

def _has_package_folder(folder: str) -> bool:
    return resources.files("racbench").joinpath("templates", folder).is_dir()


def template_dir_for(domain_name: str) -> str | None:
    """The template folder (under racbench/templates) a shipped domain uses, or None."""
    folder = TEMPLATE_FOLDERS.get(domain_name, domain_name)
    if folder == DEFAULT_FOLDER or not _has_package_folder(folder):
        return None
    return folder


@lru_cache(maxsize=None)
def _prefix(template_dir: str | None) -> str | None:
    """The template-name prefix of a package folder name or a user's directory."""
    if template_dir is None:
        return None
    if _has_package_folder(template_dir) and "/" not in template_dir:
        return template_dir
    return user_templates(template_dir)


@lru_cache(maxsize=None)
def _module(template_dir: str | None, filename: str):
    """The template module of `<folder>/<filename>`, or None when the file is absent."""
    prefix = _prefix(template_dir)
    if prefix is None:
        return None
    try:
        return environment().get_template(f"{prefix}/{filename}").module
    except jinja2.TemplateNotFound:
        return None


def _default_module(filename: str):
    return environment().get_template(f"{DEFAULT_FOLDER}/{filename}").module


def _macro(module, name: str):
    if module is None:
        return None
    macro = getattr(module, name, None)
    return macro if isinstance(macro, jinja2.runtime.Macro) else None


_KIND_FILES = {"fact": ("facts.j2", "facts_variants.j2"),
               "action": ("actions.j2", "actions_variants.j2")}


def _lookup(template_dir: str | None, kind: str, symbol: str, variant: int):
    main, extra = _KIND_FILES[kind]
    name = macro_name(symbol)
    if variant == 0:
        return _macro(_module(template_dir, main), name)
    name = f"{name}{VARIANT_SEPARATOR}{variant}"
    return _macro(_module(template_dir, extra), name) or _macro(_module(template_dir, main), name)


def _folder_of(domain) -> str | None:
    """The template folder for a Domain (by its name), a domain name, a folder or a
    directory; None when there is none (only the default renderer applies)."""
    if isinstance(domain, Domain):
        return template_dir_for(domain.name)
    if domain is None or domain == DEFAULT_FOLDER:
        return None
    folder = template_dir_for(domain)
    if folder is None and Path(domain).is_dir():
        folder = domain
    return folder


def _symbol_kind(domain, folder: str | None, symbol: str) -> str:
    if isinstance(domain, Domain):
        return "fact" if symbol in domain.predicates else "action"
    return "fact" if _lookup(folder, "fact", symbol, 0) is not None else "action"


@lru_cache(maxsize=None)
def _variants(folder: str | None, kind: str, symbol: str) -> tuple[int, ...]:
    found = [0]
    k = 1
    while _lookup(folder, kind, symbol, k) is not None:
        found.append(k)
        k += 1
    return tuple(found)


def variants(domain, symbol: str) -> list[int]:
    """The phrasings available for a predicate or action: 0 (the main template) and the
    paraphrases 1, 2, ... of `templates/<folder>/*_variants.j2`. `domain` is a Domain,
    a shipped domain's name or a template folder."""
    folder = _folder_of(domain)
    return list(_variants(folder, _symbol_kind(domain, folder, symbol), symbol))


def held_out_variant(domain, symbol: str) -> int:
    """The paraphrase of `symbol` reserved for evaluation (an unseen phrasing), chosen by
    a fixed hash among the paraphrases; -1 when the symbol has none (nothing held out)."""
    folder = _folder_of(domain)
    extra = variants(domain, symbol)[1:]
    if not extra:
        return -1
    return extra[_digest("held-out", folder, symbol) % len(extra)]


# --------------------------------------------------------------------- obfuscation

_ONSETS = ("b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z",
           "br", "dr", "gl", "pl", "sk", "sn", "tr", "fl")
_VOWELS = ("a", "e", "i", "o", "u", "ai", "oo", "ee")
_CODAS = ("", "", "", "n", "m", "r", "l", "sk", "nt", "x")
_CHUNK = re.compile(r"[A-Za-z]+|[^A-Za-z]+")


def _pronounceable(*key: object) -> str:
    h = _digest(*key)
    syllables = 2 + h % 2
    h //= 2
    word = []
    for _ in range(syllables):
        word.append(_ONSETS[h % len(_ONSETS)])
        h //= len(_ONSETS)
        word.append(_VOWELS[h % len(_VOWELS)])
        h //= len(_VOWELS)
    word.append(_CODAS[h % len(_CODAS)])
    return "".join(word)


class Obfuscation(dict):
    """Symbol -> new name for every predicate, action, type and constant of a domain (a
    bijection onto fresh words); `rename` extends it to object names chunk by chunk
    (`truck12` -> `<word for truck>12`), keeping digits and separators."""

    MODES = ("random", "misleading")

    def __init__(self, domain: Domain, mode: str = "random", seed: int = 0):
        if mode not in self.MODES:
            raise ValueError(_say_fault("unknown_obfuscation", modes=self.MODES, mode=repr(mode)))
        super().__init__()
        self.mode, self.seed = mode, seed
        self._reserved = set(domain.predicates) | {a.name for a in domain.actions}
        self._reserved |= set(domain.supertypes) | set(domain.constants)
        self._taken: dict[str, str] = {}  # new word -> symbol
        self._chunks: dict[str, str] = {}
        actions = {a.name for a in domain.actions}
        symbols = (self._reserved | set(domain.supertypes.values())) - {ROOT_TYPE}
        for symbol in sorted(symbols):
            self[symbol] = self._fresh(symbol, "verb" if symbol in actions else "noun")
        for name in sorted(domain.constants):
            self.rename(name)

    def _fresh(self, symbol: str, part: str) -> str:
        if self.mode == "misleading":
            words = _word_list(f"misleading_{part}s.txt")
            start = _digest(self.seed, part, symbol) % len(words)
            for i in range(len(words)):
                word = words[(start + i) % len(words)]
                if self._free(word, symbol):
                    return self._claim(word, symbol)
        attempt = 0
        while True:
            word = _pronounceable(self.seed, symbol, attempt)
            if self._free(word, symbol):
                return self._claim(word, symbol)
            attempt += 1

    def _free(self, word: str, symbol: str) -> bool:
        return word != symbol and word not in self._taken and word not in self._reserved

    def _claim(self, word: str, symbol: str) -> str:
        self._taken[word] = symbol
        return word

    def _chunk(self, chunk: str) -> str:
        if chunk in self:
            return self[chunk]
        if chunk not in self._chunks:
            self._chunks[chunk] = self._fresh(chunk, "noun")
        return self._chunks[chunk]

    def rename(self, name: str) -> str:
        """The obfuscated form of any name: a symbol's word, or an object name with its
        alphabetic chunks replaced."""
        if name in self:
            return self[name]
        return "".join(self._chunk(c) if c[0].isalpha() else c for c in _CHUNK.findall(name))


def obfuscate(domain: Domain, mode: str = "random", seed: int = 0) -> Obfuscation:
    """Rename the domain's symbols to pronounceable nonsense (`random`) or to unrelated
    common nouns and verbs (`misleading`, from data/vocab/misleading_*.txt)."""
    return Obfuscation(domain, mode, seed)


# -------------------------------------------------------------------------- shapes

def _type_words(types: Sequence[str]) -> str:
    return " ".join(split_name(types[0])) if types else ""


def _ancestors(domain: Domain, types: Iterable[str]) -> set[tuple[str, ...]]:
    found = set()
    for t in types:
        seen = set()
        while t and t not in seen:
            seen.add(t)
            found.add(split_name(t))
            t = domain.supertypes.get(t)
    return found


class Shape(tuple):
    """How the default renderer phrases a predicate: the macro of templates/default/facts.j2,
    the words it is given (the name's words, glued words split, a leading `not` and the
    argument's own type words dropped where they only repeat it), the preposition or verb
    form it needs, and whether the name itself is negated (`not-allergic`)."""

    __slots__ = ()

    def __new__(cls, macro: str, words: Sequence[str], prep: str = "", verb: str = "",
                flip: bool = False):
        return super().__new__(cls, (macro, tuple(words), prep, verb, flip))

    macro = property(lambda self: self[0])
    words = property(lambda self: self[1])
    prep = property(lambda self: self[2])
    verb = property(lambda self: self[3])
    flip = property(lambda self: self[4])


def name_words(name: str) -> tuple[str, ...]:
    """A PDDL name's words with glued words split (`ontable` -> on table)."""
    return tuple(part for word in split_name(name) for part in words.unglue(word))


def _type_word_set(domain: Domain, types: Sequence[str]) -> set[str]:
    return {w for parts in _ancestors(domain, types) for w in parts} - {ROOT_TYPE}


def _place_type(domain: Domain, types: Sequence[str]) -> str:
    """The preposition for an argument whose type (or a supertype) is a kind of place."""
    table = words.grammar()["type_prepositions"]
    for parts in sorted(_ancestors(domain, types), key=len):
        key = "-".join(parts)
        if key in table:
            return table[key]
    return ""


def fact_shape(domain: Domain, predicate: str) -> Shape:
    """How the default renderer phrases a predicate, from its words (their word classes
    in lemminflect's lexicon) and its arguments' declared types."""
    arg_types = domain.predicates[predicate]
    found = name_words(predicate)
    flip = False
    if len(found) > 1 and found[0] == "not":
        found, flip = found[1:], True
    shape = _shape(domain, predicate, list(found), arg_types)
    return Shape(shape.macro, shape.words, shape.prep, shape.verb, flip != shape.flip)


def _shape(domain: Domain, predicate: str, found: list[str], arg_types) -> Shape:
    g = words.grammar()
    arity = len(arg_types)
    if arity >= 1 and len(found) > 1:
        own = _type_word_set(domain, arg_types[0])
        trimmed = list(found)
        while len(trimmed) > 1 and trimmed[-1] in own:
            trimmed.pop()  # at_kitchen_bread ?b - bread-portion -> at kitchen
        if trimmed != found and not words.is_preposition(trimmed[-1]):
            found = trimmed
    many = len(found) > 1
    first, last = found[0], found[-1]
    if arity == 0:
        if many and words.is_adjective(last):
            return Shape("state0", found)
        if many and (words.is_third_person(first) or first in g["possessive_verbs"]):
            return Shape("verb0", found)
        return Shape("nullary", found)
    if arity == 1:
        return _shape1(domain, predicate, found, arg_types)
    shape = _shape2(domain, found, arg_types)
    if arity > 2:
        return Shape(shape.macro, shape.words, shape.prep, shape.verb, shape.flip)
    return shape


def _shape1(domain: Domain, predicate: str, found: list[str], arg_types) -> Shape:
    g = words.grammar()
    many = len(found) > 1
    first, last = found[0], found[-1]
    if not many and words.is_preposition(first):
        return Shape("agent_prep1", found)  # (at ?r - room) -> the agent is at r
    if many and first == "no":
        return Shape("no1", found[1:])
    if many and first in g["copulas"]:
        return Shape("copula1", found)
    if many and first in g["possessive_verbs"]:
        return Shape("has1", found)
    if many and words.is_preposition(first):
        if not words.known(last):  # at-robby ?r: robby is a name
            return Shape("name_prep1", found)
        return Shape("prep_first1", found)
    if many and words.is_preposition(last):
        return Shape("prep_last1", found)
    if many and words.is_adjective(first) and not words.is_adjective(last):
        return Shape("adj_prep1", found, "" if words.is_preposition(found[1]) else
                     g["collocations"].get(first, "for"))
    if many and words.is_adjective(last):
        return Shape("state1", found)
    if not many and words.is_gerund(first):
        return Shape("gerund1", found)
    if not many and words.is_adjective(first):
        return Shape("adj1", found)
    if not many and words.is_third_person(first):
        return Shape("verb1", found, verb=first)
    if not many and words.is_base_verb(first) and not words.is_noun(first):
        return Shape("verb1", found, verb=words.third_person(first))
    if len(found) == 2 and words.is_base_verb(found[1]) and found[0] not in g["adjectives"] \
            and not words.is_noun(found[1]) and not words.is_adjective(found[1]):
        return Shape("verb1", found, verb=words.third_person(found[1]))
    if predicate not in domain.fluent_predicates or words.is_noun(last) or not words.known(last):
        return Shape("kind1", found)  # a static one-word class such as (truck ?x)
    return Shape("adj1", found)


def _shape2(domain: Domain, found: list[str], arg_types) -> Shape:
    g = words.grammar()
    many = len(found) > 1
    first, last = found[0], found[-1]
    head_is_type = many and tuple(found[:-1]) in _ancestors(domain, arg_types[0])
    same_types = arg_types[0] == arg_types[1] and arg_types[0] != (ROOT_TYPE,)
    if many and first == "no":
        return Shape("no2", found[1:], "to")
    if many and first in g["possessive_verbs"]:
        return Shape("has2", found)
    if words.is_preposition(last) or words.is_preposition(first):
        if head_is_type and last == "of":
            return Shape("of2", found)
        if head_is_type and words.is_preposition(last):
            return Shape("typed_prep2", found)
        if many and words.is_preposition(last) and not words.is_preposition(first) \
                and all(words.is_noun(w) for w in found[:-1]):
            return Shape("noun_prep2", found)  # key-for ?k ?s -> k is a key for s
        if many and not words.is_preposition(last) and arg_types[1] != (ROOT_TYPE,) \
                and last not in _type_word_set(domain, arg_types[1]):
            # on-sale ?g ?m -> g is on sale at m (in-city ?l ?c: l is in city c)
            return Shape("prep2", found, _place_type(domain, arg_types[1]) or "at")
        return Shape("prep2", found)
    if not many and first in g["collocations"]:
        return Shape("collocation2", found, g["collocations"][first])
    if not many and first in g["possessive_verbs"]:
        return Shape("verb2", found, verb=first)
    if not many and words.is_third_person(first):
        return Shape("verb2", found, verb=first)
    if head_is_type and words.is_third_person(last):
        return Shape("typed_verb2", found)
    adjective = not many and (words.is_participle(first)
                              or ("ADJ" in words.classes(first) and not words.is_noun(first)))
    if adjective and same_types and first not in g["collocations"]:
        return Shape("way2", found)  # (locked ?from ?to) -> the way from a to b is locked
    if adjective or (not many and words.is_gerund(first)):
        return Shape("collocation2", found, _place_type(domain, arg_types[1]))
    type_text = " ".join(t for ts in arg_types for t in ts)
    if not many and words.is_base_verb(first) and not words.only_noun(first) \
            and not words.is_adjective(first) and first not in type_text:
        return Shape("verb2", found, verb=words.third_person(first))
    if many and words.is_adjective(first) and not words.is_adjective(last):
        return Shape("adj_prep2", found, "" if words.is_preposition(found[1]) else
                     g["collocations"].get(first, "for"))  # ready-to-load: no "for"
    if same_types and not many and words.is_noun(first):
        return Shape("noun_between2", found)  # (door ?from ?to) -> a door from a to b
    if all(words.is_noun(w) or not words.known(w) for w in found):
        return Shape("noun_of2", found)  # (destin ?p ?f) -> the destin of p is f
    return Shape("relation", found)


def param_kinds(domain: Domain, schema) -> tuple[tuple[str, ...], ...]:
    """Each parameter's kind: its declared types, or in an untyped domain the static
    one-word class its precondition puts it in (`(floor ?f)`, true of a fixed set of
    objects and changed by no action), else the root type."""
    static = {lit.atom[1:][0]: lit.atom[0] for lit in schema.precondition
              if lit.positive and len(lit.atom) == 2 and _is_class(domain, lit.atom[0])}
    return tuple(tuple(types) if types and types[0] != ROOT_TYPE else
                 ((static[var],) if var in static else (ROOT_TYPE,))
                 for var, types in schema.parameters)


def _is_class(domain: Domain, predicate: str) -> bool:
    """A static one-word class of objects, such as (truck ?x) in untyped PDDL."""
    return (len(domain.predicates.get(predicate, ())) == 1
            and predicate not in domain.fluent_predicates
            and fact_shape(domain, predicate).macro == "kind1")


def action_layout(schema, kinds=None) -> tuple[tuple[str, ...], tuple[str, ...],
                                              tuple[str, ...], int]:
    """How the default imperative lays out an action: (head words, type noun per
    argument, preposition per argument, index of the direct object or -1). `kinds`
    (see `param_kinds`) stand in for the declared types."""
    g = words.grammar()
    kinds = kinds or tuple(types for _var, types in schema.parameters)
    head = list(name_words(schema.name))
    roles = [_role(var) for var, _types in schema.parameters]
    if len(head) > 1 and head[-1] in g["prepositions"] and head[-1] in roles:
        head.pop()  # go-to ?from ?to -> go from A to B
    free = [i for i, r in enumerate(roles) if not r]
    places = {i for i in free if _place_prep(_noun(schema.parameters[i][0], kinds[i]))}
    direct = next((i for i in free if i not in places), -1)
    rest = [i for i in free if i != direct]
    if len(rest) == 2 and kinds[rest[0]] == kinds[rest[1]] and "to" not in roles:
        roles[rest[0]], roles[rest[1]] = "from", "to"  # up ?f1 ?f2 -> from f1 to f2
    nouns, preps = [], []
    for i, (var, _types) in enumerate(schema.parameters):
        if roles[i] or i == direct:
            nouns.append("")
            preps.append(roles[i])
            continue
        noun = _noun(var, kinds[i])
        at = _find(head, noun, start=1)
        prep = _place_prep(noun)
        if at >= 0:
            del head[at:at + len(noun)]  # load-truck ?p ?t -> load A with truck B
            if at > 1 and words.is_preposition(head[at - 1]):
                prep = head.pop(at - 1)  # put-on-tray ?s ?t -> put A on tray B
        nouns.append(" ".join(noun))
        preps.append(prep)
    return tuple(head), tuple(nouns), tuple(preps), direct


def _place_prep(noun: Sequence[str]) -> str:
    return words.grammar()["type_prepositions"].get("-".join(noun), "")


def _noun(var: str, types: Sequence[str]) -> list[str]:
    """The words naming what an argument is: its type, or for untyped domains a
    parameter name of three letters or more (`?truck`), else nothing."""
    if types and types[0] != ROOT_TYPE:
        return list(split_name(types[0]))
    words = [w for w in split_name(re.sub(r"\d+$", "", var)) if not w.isdigit()]
    return words if len("".join(words)) >= 3 else []


def _role(var: str) -> str:
    """A preposition from a parameter's name: `?from`, `?loc-from`, `?to2` ..."""
    roles = words.grammar()["role_prepositions"]
    for word in reversed(split_name(re.sub(r"\d+$", "", var))):
        word = re.sub(r"\d+$", "", word)
        if word in roles:
            return roles[word]
    return ""


def _find(words: list[str], part: list[str], start: int = 0) -> int:
    if not part:
        return -1
    for i in range(start, len(words) - len(part) + 1):
        if words[i:i + len(part)] == part:
            return i
    return -1


# ----------------------------------------------------------------------- renderer

def _arity(macro) -> int:
    return sum(1 for name in macro.arguments if name != "positive")


def _letters(n: int) -> list[str]:
    alphabet = [chr(ord("A") + i) for i in range(26)]
    return [alphabet[i] if n <= 26 else f"{alphabet[i % 26]}{i // 26 + 1}" for i in range(n)]


class DomainText:
    """Clauses and sentences for one STRIPS domain.

    `template_dir` is a folder under racbench/templates or a directory path; None
    picks the shipped folder for the domain's name (`template_dir_for`) when there is
    one, and "default" renders everything with the derived default. A template macro
    whose argument count does not match the atom is skipped for the default.
    `obfuscation` ("random" or "misleading") renames every symbol first and renders with
    the opaque default macros, ignoring `template_dir` (and `variant`: opaque symbols
    have one phrasing). A paraphrase index a symbol lacks falls back to its main phrasing
    (noted in `missing_variants`), so callers may draw one index per row. `fallbacks`
    collects the symbols that the template folder did not cover.
    """

    def __init__(self, domain: Domain, template_dir: str | None = None,
                 obfuscation: str | None = None, seed: int = 0, phrasing=None):
        self.domain = domain
        self.phrasing = phrasing  # a user's phrasing file (user_phrasing.Phrasing), first
        self.obfuscation = obfuscate(domain, obfuscation, seed) if obfuscation else None
        if template_dir is None:
            template_dir = template_dir_for(domain.name)
        if self.obfuscation or template_dir == DEFAULT_FOLDER:
            template_dir = None
        self.template_dir = template_dir
        if self.template_dir is not None:
            _prefix(self.template_dir)  # fail early on a missing directory
        self.missing_variants: set[tuple[str, int]] = set()
        self.fallbacks: set[str] = set()
        self._macros: dict[tuple, object] = {}  # `_template_macro`'s, found once each
        self._default_facts = _default_module("facts.j2")
        self._default_actions = _default_module("actions.j2")
        self._default_parts = _default_module("parts.j2")
        self._schemas = {a.name: a for a in domain.actions}
        self._fact_cached = lru_cache(maxsize=_CACHE_SIZE)(self._fact)
        self._action_cached = lru_cache(maxsize=_CACHE_SIZE)(self._action)
        self._sentence_cached = lru_cache(maxsize=_CACHE_SIZE)(self._sentence)
        self._phrase_fact = lru_cache(maxsize=_CACHE_SIZE)(self._phrase_fact_uncached)
        self._phrase_action = lru_cache(maxsize=_CACHE_SIZE)(self._phrase_action_uncached)
        self._description: str | None = None

    # -- parts
    def _part(self, name: str):
        return _macro(_module(self.template_dir, "parts.j2"), name) or getattr(
            self._default_parts, name)

    # -- public clauses
    def fact(self, atom: tuple, positive: bool = True, variant: int = 0) -> str:
        """The clause for a ground atom, negated when `positive` is false; `variant`
        picks a paraphrase (see `variants`). Starts lower-case, no final period."""
        if type(atom) is not tuple:
            atom = tuple(atom)
        return self._fact_cached(atom, positive, variant)

    def action(self, term: tuple, variant: int = 0) -> str:
        """The clause saying that the ground action `term` happens."""
        if type(term) is not tuple:
            term = tuple(term)
        return self._action_cached(term, variant)

    def sentence(self, clause: str) -> str:
        """A clause as a sentence: capitalised, with a period (parts.j2 `sentence`)."""
        return self._sentence_cached(clause)

    def _template_macro(self, kind: str, symbol: str, variant: int, arity: int):
        """The template folder's macro for a symbol and paraphrase, or None: found once
        per (kind, symbol, variant, arity), as the folder's templates never change
        (TRAC's rows name their blocks afresh, so most of their actions are phrased
        anew, and finding the macro was half of it)."""
        if self.template_dir is None:
            return None
        key = (kind, symbol, variant, arity)
        try:
            return self._macros[key]
        except KeyError:
            found = self._macros[key] = self._find_macro(kind, symbol, variant, arity)
            return found

    def _find_macro(self, kind: str, symbol: str, variant: int, arity: int):
        if variant:
            macro = _lookup(self.template_dir, kind, symbol, variant)
            if macro is not None and _arity(macro) == arity:
                return macro
            self.missing_variants.add((symbol, variant))
        macro = _lookup(self.template_dir, kind, symbol, 0)
        if macro is not None and _arity(macro) == arity:
            return macro
        self.fallbacks.add(symbol)
        return None

    # -- facts
    def _fact(self, atom: tuple, positive: bool, variant: int) -> str:
        args = atom[1:]
        if self.obfuscation is not None:
            args = tuple(self.obfuscation.rename(a) for a in args)
        return self._phrase_fact(atom[0], args, bool(positive), variant)

    def _phrase_fact_uncached(self, predicate: str, args: tuple, positive: bool,
                              variant: int) -> str:
        return leading_name(self._render_fact(predicate, args, positive, variant), args)

    def _render_fact(self, predicate: str, args: tuple, positive: bool, variant: int) -> str:
        if predicate == "=":
            return str(self._default_facts.equal(["="], list(args), [], positive=positive))
        if self.obfuscation is not None:
            word = self.obfuscation[predicate]
            return str(self._default_facts.opaque(list(split_name(word)), list(args), [],
                                                  positive=positive))
        said = self.phrasing.fact(predicate, args, positive) if self.phrasing else None
        if said is not None:
            return said
        macro = self._template_macro("fact", predicate, variant, len(args))
        if macro is not None:
            return str(macro(*args, positive=positive))
        if predicate not in self.domain.predicates:
            raise KeyError(_say_fault("unknown_predicate", name=repr(predicate)))
        shape = fact_shape(self.domain, predicate)
        arg_types = self.domain.predicates[predicate]
        types = [_type_words(t) for t in arg_types]
        macro = getattr(self._default_facts, shape.macro)
        polarity = positive != shape.flip
        options = {"prep": shape.prep, "verb": shape.verb} if shape.verb else {"prep": shape.prep}
        clause = str(macro(list(shape.words), list(args[:2]), types[:2], positive=polarity,
                           **options))
        if len(args) > 2:  # the arguments after the first two, each with its kind
            pair = [t == arg_types[1] != arg_types[0] for t in arg_types[2:]]
            preps = ["to" if paired else _place_type(self.domain, t)  # opens k a to b
                     for t, paired in zip(arg_types[2:], pair)]
            nouns = ["" if not t or t[0] == ROOT_TYPE or paired else " ".join(split_name(t[0]))
                     for t, paired in zip(arg_types[2:], pair)]
            clause += str(self._default_facts.more(list(args[2:]), nouns, preps))
        return clause

    # -- actions
    def _action(self, term: tuple, variant: int) -> str:
        args = term[1:]
        if self.obfuscation is not None:
            args = tuple(self.obfuscation.rename(a) for a in args)
        return self._phrase_action(term[0], args, variant)

    def _phrase_action_uncached(self, name: str, args: tuple, variant: int) -> str:
        return leading_name(self._render_action(name, args, variant), args)

    def _render_action(self, name: str, args: tuple, variant: int) -> str:
        if self.obfuscation is not None:
            word = self.obfuscation[name]
            return str(self._default_actions.opaque(list(split_name(word)), list(args),
                                                    [], [], -1))
        said = self.phrasing.action(name, args) if self.phrasing else None
        if said is not None:
            return said
        macro = self._template_macro("action", name, variant, len(args))
        if macro is not None:
            return str(macro(*args))
        if name not in self._schemas:
            raise KeyError(_say_fault("unknown_action", name=repr(name)))
        schema = self._schemas[name]
        head, nouns, preps, direct = action_layout(schema, param_kinds(self.domain, schema))
        verb = not (len(head) == 1 and not args[:0] and (
            words.is_preposition(head[0]) or "ADV" in words.classes(head[0])))
        return str(self._default_actions.imperative(list(head), list(args), list(nouns),
                                                    list(preps), direct, verb))

    # -- composition
    def _sentence(self, clause: str) -> str:
        return str(self._part("sentence")(clause))

    def state(self, atoms: Iterable[tuple], rng=None) -> str:
        """One sentence per atom, in sorted order, or shuffled by the caller's rng
        (random.Random or numpy Generator) so the order never depends on set order."""
        atoms = sorted(tuple(a) for a in atoms)
        if rng is not None:
            rng.shuffle(atoms)
        return str(self._part("state")([self.sentence(self.fact(a)) for a in atoms]))

    def conjunction(self, literals: Sequence[tuple[tuple, bool]]) -> str:
        """A clause joining (atom, positive) literals (parts.j2 `conjunction`); it keeps
        the case of a leading object name as its first clause does."""
        clauses = [self._alternatives(a) if isinstance(a, AnyOf) else self.fact(tuple(a), p)
                   for a, p in literals]
        joined = str(self._part("conjunction")(clauses))
        return Clause(joined) if clauses and isinstance(clauses[0], Clause) else joined

    def _alternatives(self, disjunction: AnyOf) -> str:
        """A goal's disjunction: its alternatives, each a conjunction (parts.j2 `any_of`)."""
        return str(self._part("any_of")([
            self.conjunction([(lit.atom, lit.positive) for lit in clause])
            for clause in disjunction.clauses]))

    def plan(self, terms: Sequence[tuple]) -> str:
        """The actions as a numbered list of sentences (parts.j2 `plan`)."""
        return str(self._part("plan")([self.action(tuple(t)) for t in terms]))

    def describe_domain(self) -> str:
        """Each action with placeholder objects, its preconditions and its effects."""
        if self._description is None:
            self._description = self._describe()
        return self._description

    def _describe(self) -> str:
        obf = self.obfuscation
        entries = []
        for schema in self.domain.actions:
            names = _letters(len(schema.parameters))
            bind = {var: name for (var, _), name in zip(schema.parameters, names)}

            def ground(atom):
                return (atom[0],) + tuple(bind.get(a, obf.rename(a) if obf else a)
                                          for a in atom[1:])

            declared = param_kinds(self.domain, schema) if obf is None else \
                tuple(types for _var, types in schema.parameters)
            kinds = [(name, self._kind_name(types))
                     for types, name in zip(declared, names) if types != (ROOT_TYPE,)]
            named = {(types[0], var) for (var, _), types in zip(schema.parameters, declared)}
            requires = [self._phrase_fact(*self._split(ground(l.atom)), l.positive, 0)
                        for l in schema.precondition
                        if not (l.positive and tuple(l.atom) in named)]
            adds = [self._phrase_fact(*self._split(ground(a)), True, 0) for a in schema.add]
            added = set(schema.add)
            deletes = [self._phrase_fact(*self._split(ground(a)), False, 0)
                       for a in schema.delete if a not in added]
            clause = self._phrase_action(schema.name, tuple(names), 0)
            if schema.strips:
                entries.append(str(self._part("describe_action")(clause, kinds, requires,
                                                                 adds, deletes)))
                continue
            adl = FormulaText(lambda atom, positive: self._phrase_fact(*self._split(atom),
                                                                       positive, 0),
                              self._part, self._kind_name,
                              (lambda a: obf.rename(a)) if obf else (lambda a: a), bind)
            conditions = [adl.condition(f) for f in schema.formulas]
            effects = [adl.effect(e) for e in schema.effects]
            entries.append(str(self._part("describe_action")(clause, kinds, requires,
                                                             adds, deletes, effects,
                                                             conditions)))
        title = obf.rename(self.domain.name) if obf else self.domain.name
        rules = [self._describe_axiom(axiom) for axiom in self.domain.axioms]
        return str(self._part("describe_domain")(title, entries, rules)).strip()

    def _describe_axiom(self, axiom) -> str:
        """One rule of a derived predicate: its fact with capital letters, when it holds."""
        obf = self.obfuscation
        rename = (lambda a: obf.rename(a)) if obf else (lambda a: a)
        names = _letters(len(axiom.parameters))
        bind = {var: name for (var, _), name in zip(axiom.parameters, names)}
        head = (axiom.head[0],) + tuple(bind.get(a, rename(a)) for a in axiom.head[1:])
        kinds = [(name, self._kind_name(types))
                 for (var, types), name in zip(axiom.parameters, names)]
        adl = FormulaText(lambda atom, positive: self._phrase_fact(*self._split(atom),
                                                                   positive, 0),
                          self._part, self._kind_name, rename, bind)
        fact = self._phrase_fact(*self._split(head), True, 0)
        return str(self._part("describe_derived")(fact, kinds, adl.condition(axiom.condition)))

    def _kind_name(self, types: tuple[str, ...]) -> str:
        """A type list as words ("truck or plane"), renamed under obfuscation."""
        obf = self.obfuscation
        if obf is None and self.phrasing is not None:
            return " or ".join(self.phrasing.noun(t) or " ".join(split_name(t)) for t in types)
        shown = [obf.rename(t) if obf else t for t in types]
        return " or ".join(" ".join(split_name(t)) for t in shown)

    @staticmethod
    def _split(atom: tuple) -> tuple[str, tuple]:
        return atom[0], tuple(atom[1:])

    def missing_templates(self) -> list[str]:
        """Predicates and actions the template folder has no main macro for."""
        if self.template_dir is None:
            return sorted(self.domain.predicates) + sorted(self._schemas)
        missing = [p for p, types in self.domain.predicates.items()
                   if not self._covered("fact", p, len(types))]
        missing += [a.name for a in self.domain.actions
                    if not self._covered("action", a.name, len(a.parameters))]
        return sorted(missing)

    def _covered(self, kind: str, symbol: str, arity: int) -> bool:
        macro = _lookup(self.template_dir, kind, symbol, 0)
        return macro is not None and _arity(macro) == arity
