"""Word classes and inflections for the default English of a PDDL name.

The open classes (nouns, verbs, adjectives) and their inflections come from lemminflect's
English lexicon; only closed classes (prepositions, copulas) and the prepositions that
words take (`allergic to`, `connected to`) are listed, in data/vocab/grammar.yaml.
A name glued together (`ontable`, `notexist`, `objecttype`) is split into known words.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import yaml


def _vocab_text(name: str) -> str:
    return resources.files("racbench").joinpath("data", "vocab", name).read_text("utf-8")


@lru_cache(maxsize=None)
def grammar() -> dict:
    data = yaml.safe_load(_vocab_text("grammar.yaml"))
    sets = {key: frozenset(data[key]) for key in
            ("prepositions", "copulas", "possessive_verbs", "verbs", "adjectives")}
    sets["collocations"] = {k: (v or "") for k, v in data["collocations"].items()}
    sets["role_prepositions"] = dict(data["role_prepositions"])
    sets["type_prepositions"] = dict(data["type_prepositions"])
    return sets


def _lexicon():
    """lemminflect, imported when a name is first read (its import and first look-up
    take about a second; shipped domains, phrased by templates, never need it)."""
    import lemminflect
    return lemminflect


@lru_cache(maxsize=None)
def classes(word: str) -> frozenset[str]:
    """The parts of speech the lexicon knows a word as (NOUN, VERB, ADJ, ADV, ...), with
    PREP for a preposition; empty for a word it does not know."""
    found = set(_lexicon().getAllLemmas(word))
    if word in grammar()["prepositions"]:
        found.add("PREP")
    return frozenset(found)


def known(word: str) -> bool:
    return bool(classes(word)) or word in ("no", "not")


def is_preposition(word: str) -> bool:
    return word in grammar()["prepositions"]


@lru_cache(maxsize=None)
def verb_lemma(word: str) -> str:
    lemmas = _lexicon().getAllLemmas(word).get("VERB", ())
    return lemmas[0] if lemmas else ""


def is_third_person(word: str) -> bool:
    """`contains`, `fits`, `has`: a verb in its third-person singular present."""
    lemma = verb_lemma(word)
    return bool(lemma) and word in _lexicon().getInflection(lemma, "VBZ") and word != lemma


def is_participle(word: str) -> bool:
    """`boarded`, `connected`, `painted`: a past participle."""
    lemma = verb_lemma(word)
    return bool(lemma) and word != lemma and word in _lexicon().getInflection(lemma, "VBN")


def is_gerund(word: str) -> bool:
    lemma = verb_lemma(word)
    return bool(lemma) and word != lemma and word in _lexicon().getInflection(lemma, "VBG")


def is_base_verb(word: str) -> bool:
    return verb_lemma(word) == word


def is_adjective(word: str) -> bool:
    """A word that describes a state: an adjective or a past participle."""
    return ("ADJ" in classes(word) or is_participle(word) or word in grammar()["adjectives"]
            or (not classes(word) and word.endswith(_SUFFIXES)))


def is_noun(word: str) -> bool:
    return "NOUN" in classes(word)


def only_noun(word: str) -> bool:
    """A noun the lexicon knows as nothing else (`door`, `road`, `origin`)."""
    return classes(word) == {"NOUN"}


def third_person(verb: str) -> str:
    forms = _lexicon().getInflection(verb, "VBZ")
    return forms[0] if forms else verb + "s"


def participle(verb: str) -> str:
    forms = _lexicon().getInflection(verb, "VBN")
    return forms[0] if forms else verb + "ed"


def base(verb: str) -> str:
    return verb_lemma(verb) or verb


_SUFFIXES = ("able", "ible", "ful", "less", "ous")


@lru_cache(maxsize=None)
def unglue(word: str) -> tuple[str, ...]:
    """A word the lexicon does not know, split into two it knows (a preposition or
    `not`/`no` first when one fits): `ontable` -> (on, table); else the word itself."""
    if known(word) or len(word) < 4:
        return (word,)
    best = None
    for i in range(2, len(word) - 1):
        head, tail = word[:i], word[i:]
        if not (known(head) and known(tail)) or len(tail) < 2:
            continue
        leading = is_preposition(head) or head in ("no", "not")
        if not leading and min(len(head), len(tail)) < 3:
            continue  # robby is not rob + by
        if not leading and word.endswith(_SUFFIXES):
            continue  # sliceable is an adjective, not slice + able
        rank = (0 if leading else 1, -min(i, len(tail)))
        if best is None or rank < best[0]:
            best = (rank, (head, tail))
    return best[1] if best else (word,)
