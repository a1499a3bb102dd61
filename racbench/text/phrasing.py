"""English for task rows: a world's facts and actions in its phrasing, questions in a style.

Facts and actions come from `racbench.text.domain.DomainText` (per-domain templates
with a default phrasing for any PDDL predicate). Questions, options and instructions
come from the style's templates: `templates/acp/<family>.j2` and `templates/acp/common.j2`
(ACP's wording, with instructions), or `templates/trac/<family>.j2` (TRAC's: a context
and a bare query). No English sentence lives in Python code.

`Names` renames objects for one row (TRAC draws colour names per row): every fact,
action and state is phrased with the row's names, and the row's symbolic form is
renamed the same way (`Names.symbolic`).
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from typing import Sequence

from jinja2.runtime import Macro

from racbench.splits.dedup import canonical_json, json_str, kept_json, scalar_json
from racbench.splits.draws import shuffle
from racbench.text import Clause, environment
from racbench.text.domain import DomainText, macro_name
from racbench.worlds.strips.model import AnyOf, Domain


def template(name: str, style: str = "acp"):
    return environment().get_template(f"{style}/{name}.j2").module


class Macros:
    """A template module whose plain macros (no caller, no varargs or keywords caught,
    no autoescape) are called straight when a call gives every argument by position:
    jinja's `Macro.__call__` sorts out arguments each call, a few us, and a row calls
    three or four macros. Same text (the macro's own function, as `Macro._invoke`
    calls it); any other call goes through jinja."""

    def __init__(self, module):
        self._module = module

    def __getattr__(self, name: str):
        value = getattr(self._module, name)
        if isinstance(value, Macro) and _plain(value):
            value = _straight(value)
        setattr(self, name, value)  # found once
        return value


def _plain(macro: Macro) -> bool:
    """Whether `macro` can be called straight: plain, and built by a jinja whose Macro
    keeps what `_straight` reads (private names: a jinja that renames them is simply
    called as usual)."""
    try:
        return (callable(macro._func) and isinstance(macro._argument_count, int)
                and not (macro.caller or macro.catch_kwargs or macro.catch_varargs
                         or macro._default_autoescape or macro._environment.is_async))
    except AttributeError:
        return False


def _straight(macro: Macro):
    func, count = macro._func, macro._argument_count

    def call(*args, **kwargs):
        if kwargs or len(args) != count:
            return macro(*args, **kwargs)
        return func(*args)
    return call


class TaskText:
    """The phrasing of one domain under one config's rendering options (cached clauses)."""

    def __init__(self, domain: Domain, obfuscation: str | None = None, paraphrase: int = 0,
                 seed: int = 0, style: str = "acp", templates: str | None = None,
                 phrasing=None):
        self.domain = domain
        self.variant = paraphrase
        self.style = style
        self.common = Macros(template("common"))
        self._engine = DomainText(domain, template_dir=templates, obfuscation=obfuscation,
                                  seed=seed, phrasing=phrasing)
        self.fact = lru_cache(maxsize=None)(self._fact)
        self.action = lru_cache(maxsize=None)(self._action)
        self._sentences: dict = {}  # shared by its renamed copies (_RenamedText)

    def _fact(self, atom: tuple, positive: bool = True) -> str:
        return self._engine.fact(tuple(atom), positive=positive, variant=self.variant)

    def _action(self, term: tuple) -> str:
        return self._engine.action(tuple(term), variant=self.variant)

    def sentence(self, clause: str) -> str:
        # rows repeat the same sentences (a state's facts, the steps), each a template
        # call: kept by the clause's text and whether it keeps its case (a Clause)
        key = (str(clause), getattr(clause, "keeps_case", False))
        try:
            return self._sentences[key]
        except KeyError:
            said = self._sentences[key] = str(self.common.sentence(clause))
            return said
        except AttributeError:  # the first sentence of this phrasing
            self._sentences = {}
            return self.sentence(clause)

    def fact_sentence(self, atom: tuple, positive: bool = True) -> str:
        """`sentence(fact(atom, positive))`, kept per literal: a row's state says a
        dozen facts, each said again in thousands of rows (the renamed copies of this
        phrasing keep theirs here too, by the renamed atom)."""
        try:
            return self._said_facts[(atom, positive)]
        except KeyError:
            said = self._said_facts[(atom, positive)] = self.sentence(self.fact(atom, positive))
            return said
        except AttributeError:  # the first fact said in this phrasing
            self._said_facts = {}
            return self.fact_sentence(atom, positive)

    def action_sentence(self, term: tuple) -> str:
        """`sentence(action(term))`, kept per action as `fact_sentence` keeps facts."""
        try:
            return self._said_actions[term]
        except KeyError:
            said = self._said_actions[term] = self.sentence(self.action(term))
            return said
        except AttributeError:
            self._said_actions = {}
            return self.action_sentence(term)

    def state(self, atoms: Sequence[tuple], rng: random.Random) -> str:
        said = self.fact_sentence
        facts = [said(tuple(a)) for a in atoms]
        shuffle(rng, facts)
        return " ".join(facts)

    def conjunction(self, literals: Sequence[tuple[tuple, bool]]) -> str:
        """(atom, positive) literals joined; a goal's disjunction (an AnyOf in the
        atom's place) is stated as its alternatives (common.j2 `any_of`)."""
        clauses = [self._alternatives(a) if isinstance(a, AnyOf) else self.fact(tuple(a), p)
                   for a, p in literals]
        joined = str(self.common.conjunction(clauses))
        return Clause(joined) if clauses and isinstance(clauses[0], Clause) else joined

    def _alternatives(self, disjunction: AnyOf) -> str:
        return str(self.common.any_of([
            self.conjunction([(lit.atom, lit.positive) for lit in clause])
            for clause in disjunction.clauses]))

    def steps(self, terms: Sequence[tuple]) -> str:
        return str(self.common.steps([self.action(tuple(t)) for t in terms]))

    def original_names(self, objects) -> dict[str, str]:
        """Surface name -> PDDL name of every action, predicate and object renamed by
        obfuscation (empty without it), so PDDL-style answers can use either."""
        obf = self._engine.obfuscation
        if not obf:
            return {}
        names = {new: old for old, new in obf.items()}
        names.update({obf.rename(o): o for o in objects})
        return names

    def describe(self) -> str:
        return str(self._engine.describe_domain())

    def renamed(self, names: "Names | None") -> "TaskText":
        return self if names is None else _RenamedText(self, names)


class LabText(TaskText):
    """The science lab's phrasing: facts from templates/science/facts.j2 (things by their
    names, without the ids that tell twins apart in the symbolic form), commands as what
    you do, and the state as the lab describes the room and the inventory."""

    def __init__(self, doors: dict[str, tuple[str, str]]):
        self.doors = doors  # a door's id -> the rooms it joins
        self.variant = 0
        self.style = "acp"
        self.common = template("common")
        self._facts = environment().get_template("science/facts.j2").module
        self.fact = lru_cache(maxsize=None)(self._fact)
        self.action = lru_cache(maxsize=None)(self._action)
        self._sentences: dict = {}  # shared by its renamed copies (_RenamedText)

    def _fact(self, atom: tuple, positive: bool = True) -> str:
        macro = getattr(self._facts, macro_name(atom[0]))
        return str(macro(*(self._name(a) for a in atom[1:]), positive=positive))

    def _name(self, thing) -> str:
        """A thing's name without its id; a door by the rooms it joins."""
        if thing in self.doors:
            return str(self._facts.door(*self.doors[thing]))
        return str(thing).split("#")[0]

    def _action(self, term: tuple) -> str:
        return str(self._facts.command(term[0]))

    def lab_state(self, look: str, inventory: str) -> str:
        return str(self._facts.lab_state(look, inventory))

    def describe(self) -> str:
        return ""

    def original_names(self, objects) -> dict[str, str]:
        return {}


class _RenamedText(TaskText):
    """A TaskText that phrases every term with one row's object names."""

    def __init__(self, base: TaskText, names: "Names"):
        # the base's attributes but its cached `fact` and `action`, filtered once per
        # version of them (a row makes a renamed copy; attributes are only ever added)
        attrs = base.__dict__
        kept = attrs.get("_renamed_attrs")
        if kept is None or kept[0] != len(attrs):
            shared = {k: v for k, v in attrs.items()
                      if k not in ("fact", "action", "_renamed_attrs")}
            kept = (len(attrs) + ("_renamed_attrs" not in attrs), shared)
            attrs["_renamed_attrs"] = kept
        self.__dict__.update(kept[1])
        self._base, self._names = base, names

    def fact(self, atom: tuple, positive: bool = True) -> str:
        return self._base.fact(self._names.term(atom), positive)

    def action(self, term: tuple) -> str:
        return self._base.action(self._names.term(term))

    def fact_sentence(self, atom: tuple, positive: bool = True) -> str:
        return self._base.fact_sentence(self._names.term(atom), positive)

    def action_sentence(self, term: tuple) -> str:
        return self._base.action_sentence(self._names.term(term))

    def state(self, atoms: Sequence[tuple], rng: random.Random) -> str:
        """TaskText.state, each atom renamed and said in one step (a row says a dozen)."""
        if type(self._base).state is not TaskText.state:
            return TaskText.state(self, atoms, rng)
        base = self._base
        kept = base.__dict__.get("_said_true")  # a renamed atom -> its sentence (true)
        if kept is None:
            kept = base.__dict__["_said_true"] = {}
        get, found = self._names.mapping.get, kept.get
        # atoms of one or two arguments (most) renamed without slicing: a row renames a
        # dozen, and the general form cost three times as much
        facts = [found(r) or _said_true(base, kept, r) for r in [
            (a[0], get(a[1], a[1]), get(a[2], a[2])) if len(a) == 3 else
            (a[0], get(a[1], a[1])) if len(a) == 2 else (a[0], *map(get, a[1:], a[1:]))
            for a in atoms]]
        shuffle(rng, facts)
        return " ".join(facts)


def _said_true(base: TaskText, kept: dict, atom: tuple) -> str:
    said = kept[atom] = base.fact_sentence(atom)
    return said


# a word of a PDDL answer, with the "(" before it when it heads a term (Names.answer_text)
_TERM_WORD = re.compile(r"(\()?([^\s(),]+)")

# a literal {"atom": ..., "positive": ...} as canonical JSON: its keys sorted, no spaces
_ATOM_MEMBER = "{" + json_str("atom") + ":"
_POSITIVE_MEMBER = {truth: "," + json_str("positive") + ":" + scalar_json(truth) + "}"
                    for truth in (True, False)}


class Names:
    """One row's object names: the world's objects mapped to names drawn from a pool."""

    _DOMAIN_SYMBOLS: dict[int, tuple[Domain, frozenset]] = {}  # id -> (domain, symbols)

    def __init__(self, mapping: dict[str, str], domain: Domain):
        self.mapping = mapping
        # a row's names are drawn per row; its domain's symbols are the same every row
        known = self._DOMAIN_SYMBOLS.get(id(domain))
        if known is None or known[0] is not domain:
            if len(self._DOMAIN_SYMBOLS) >= 64:  # domains of configs built long ago
                self._DOMAIN_SYMBOLS.clear()
            known = self._DOMAIN_SYMBOLS[id(domain)] = (domain, frozenset(
                set(domain.predicates) | {a.name for a in domain.actions}))
        self._symbols = known[1]

    @property
    def symbols(self) -> frozenset:
        """The domain's predicates and action names: a list headed by one is a term,
        whose arguments are renamed."""
        return self._symbols

    def term(self, term) -> tuple:
        get = self.mapping.get
        if len(term) == 3:  # most terms: renamed without slicing (as _RenamedText.state)
            return term[0], get(term[1], term[1]), get(term[2], term[2])
        return (term[0], *[get(a, a) for a in term[1:]])

    def answer_text(self, text: str) -> str:
        """An open row's answer (PDDL terms and literals one a line, numbers or "none") with
        every object renamed: each word but the head of a term, which names a predicate,
        an action or `not`."""
        get = self.mapping.get
        return _TERM_WORD.sub(lambda m: m[0] if m[1] else get(m[2], m[2]), text)

    def symbolic(self, value):
        """A row's symbolic JSON with every object renamed: the keys of `objects`, and the
        arguments of every atom and action term (lists headed by a predicate or an
        action of the domain), wherever they sit."""
        if type(value) is str:  # most values: a leaf, as it is
            return value
        if isinstance(value, dict):
            if "atom" in value:
                return dict(value, atom=self.symbolic(value["atom"]))
            return {k: (self._objects(v) if k == "objects" else self.symbolic(v))
                    for k, v in value.items()}
        if isinstance(value, list):
            if value and isinstance(value[0], str) and value[0] in self._symbols:
                get = self.mapping.get
                return [value[0], *[get(a, a) for a in value[1:]]]
            return [self.symbolic(v) for v in value]
        return value

    def _objects(self, objects: dict) -> dict:
        return dict(sorted((self.mapping.get(o, o), t) for o, t in objects.items()))

    def encoded(self, value, key: str | None = None) -> str:
        """canonical_json of `symbolic(value)`, a member `key` of a symbolic form
        (`objects`: its keys renamed), encoded as it is renamed: no renamed copy is
        built, and each string's JSON is kept (splits.dedup.json_str). Same text."""
        if key == "objects":
            return canonical_json(self._objects(value))
        return self._encode(value)

    def _encode(self, value) -> str:
        kind = type(value)
        if kind is str:
            return json_str(value)
        if kind is list:
            if value and isinstance(value[0], str) and value[0] in self._symbols:
                get, found = self.mapping.get, kept_json
                return "[" + ",".join([found(value[0]) or json_str(value[0]), *[
                    (found(b) or json_str(b)) if type(b := get(a, a)) is str
                    else canonical_json(b) for a in value[1:]]]) + "]"
            return "[" + ",".join([self._encode(v) for v in value]) + "]"
        if kind is dict and len(value) == 2 and type(value.get("positive")) is bool and (
                "atom" in value):
            # a goal's literal, the commonest dict of a row (its keys "atom" and
            # "positive", both strings): its two members in order
            return (_ATOM_MEMBER + self._encode(value["atom"])
                    + _POSITIVE_MEMBER[value["positive"]])
        if kind is dict and all(type(k) is str for k in value):
            if "atom" in value:
                return "{" + ",".join([f"{json_str(k)}:" + (self._encode(v) if k == "atom"
                                                            else scalar_json(v))
                                       for k, v in sorted(value.items())]) + "}"
            return "{" + ",".join([f"{json_str(k)}:{self.encoded(v, k)}"
                                   for k, v in sorted(value.items())]) + "}"
        if kind is bool or kind is int or value is None:
            return scalar_json(value)
        return canonical_json(self.symbolic(value))
