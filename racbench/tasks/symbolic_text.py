"""A renamed row's symbolic form with its state and actions as JSON text, from templates
kept per world.

TRAC's rows name a world's objects afresh each row (text.phrasing.Names), so the
symbolic form of each was renamed (a copy of its state and actions with the row's
names) and encoded, term by term, every row. The JSON of a state's atoms and of an
action's term is the same every row but for the object names: each is kept once per
world as a `str.format` template with a field per object (in the world's object
order), and a row fills in its names' JSON. The text is that of
`canonical_json(names.symbolic(world.symbolic(sid)))`'s members, byte for byte.
"""

from __future__ import annotations

from racbench.splits.dedup import LONG, Encoded, canonical_json, json_str, kept_json, key_of
from racbench.tasks.base import goal_json
from racbench.worlds.strips.world import StripsWorld

_STR = frozenset((str,))
TEMPLATES_KEPT = 8192  # state templates kept per world (an implicit world's states are many)


def strips_symbolic(world, sid, actions: list[int] | None, names) -> dict | None:
    """`world.symbolic(sid)`, with member `actions` (the terms of `actions`) unless None,
    its `state` and `actions` as `Encoded` text renamed by `names` (the rest renamed
    when encoded: splits.dedup.symbolic_and_key(..., names=names)); None for a world
    whose symbolic form is not a STRIPS world's. (A form holding a member `atom`, which
    Names.symbolic would take for a literal, is not a row's.)"""
    parts = _parts(world, sid, actions, names)
    if parts is None:
        return None
    objects, state, acts = parts
    sym = {"domain": world.domain.name, "domain_pddl": world.domain_text,
           "problem": world.problem.name, "objects": objects, "state": state}
    if acts is not None:
        sym["actions"] = acts
    return sym


def strips_symbolic_keyed(world, q, family: str, form: str, actions: bool,
                          names) -> tuple[str, str] | None:
    """`symbolic_and_key(form_of_row, names=names)` of a STRIPS row's symbolic form
    (rows.ConfigRows._symbolic's: `family`, `form`, `world.symbolic(q.sid)`, `actions`
    with q's actions if `actions`, `goal` unless q's is None, `subject`, `options` of an
    mc row, `answer`), written straight in its members' order, without the dict: the
    members a world's rows share (its domain, PDDL, problem; the config's family and
    form) are kept joined per world, family and form. The same two texts; None where
    the general way is needed (not a STRIPS world's form, a long string member)."""
    parts = _parts(world, q.sid, q.actions if actions else None, names)
    if parts is None:
        return None
    objects, state, acts = parts
    heads = world.__dict__.get("_symbolic_heads")
    if heads is None:
        heads = world.__dict__["_symbolic_heads"] = {}
    head = heads.get((family, form), heads)  # `heads`: not made yet
    if head is heads:
        head = heads[(family, form)] = _head(world, family, form)
    if head is None:
        return None
    shared, shared_own, longs, problem = head
    encoded = names.encoded
    answer = _member_text(q.answer, "answer", encoded)
    full, own = [], []
    if acts is not None:
        full.append(_ACTIONS + acts)
        own.append(full[-1])
    full.append(_ANSWER + answer)
    full.append(shared)
    own.append(shared_own)
    if q.goal is not None:
        text = _member_text(goal_json(q.goal), "goal", encoded)
        if text is None:
            return None
        full.append(_GOAL + text)
        own.append(full[-1])
    full.append(_OBJECTS + (objects if type(objects) is Encoded else encoded(objects, "objects")))
    own.append(full[-1])
    if form == "mc":
        text = _member_text(q.options, "options", encoded)
        if text is None:
            return None
        full.append(_OPTIONS + text)
        own.append(full[-1])
    full.append(problem)
    own.append(problem)
    full.append(_STATE + state)
    own.append(full[-1])
    text = _member_text(q.subject, "subject", encoded)
    if text is None:
        return None
    full.append(_SUBJECT + text)
    own.append(full[-1])
    return "{" + ",".join(full) + "}", key_of(longs, "{" + ",".join(own) + "}")


_ACTIONS, _ANSWER, _GOAL, _OBJECTS, _OPTIONS, _STATE, _SUBJECT = (
    json_str(k) + ":" for k in ("actions", "answer", "goal", "objects", "options", "state",
                                "subject"))
_SCALARS = {True: "true", False: "false", None: "null"}


def _member_text(value, key: str, encoded) -> str | None:
    """A member's JSON as symbolic_and_key writes it; None for a long string (which the
    key keeps apart) but for the answer (which the key leaves out)."""
    kind = type(value)
    if kind is str:
        if len(value) >= LONG and key != "answer":
            return None
        return kept_json(value) or json_str(value)
    if kind is bool or value is None:
        return _SCALARS[value]
    return encoded(value, key)


def _head(world, family: str, form: str) -> tuple:
    """The members a world's rows of one family and form share, as symbolic_and_key
    writes them: (`domain` to `form` joined, the same less long strings, the long
    strings as (key, value) in key order, `problem`)."""
    shared = {"domain": world.domain.name, "domain_pddl": world.domain_text,
              "family": family, "form": form}
    name = world.problem.name
    if not _STR.issuperset(map(type, (*shared.values(), name))):
        return None  # never a row's: the general way then
    texts = [json_str(k) + ":" + json_str(v) for k, v in shared.items()]
    own = [t for t, v in zip(texts, shared.values()) if len(v) < LONG]
    longs = tuple((k, v) for k, v in shared.items() if len(v) >= LONG)
    problem = json_str("problem") + ":" + json_str(name)
    if len(name) >= LONG or not own:  # never a row's either
        return None
    return ",".join(texts), ",".join(own), longs, problem


def _parts(world, sid, actions: list[int] | None, names):
    """(objects, state, actions) of strips_symbolic: `objects` Encoded (or the world's
    dict where the names are not distinct strings), `state` and `actions` Encoded
    (actions None if not asked); None for a world whose symbolic form is not a STRIPS
    world's."""
    if not isinstance(world, StripsWorld) or type(world).symbolic is not StripsWorld.symbolic:
        return None
    kept = world.__dict__.get("_symbolic_templates")
    if kept is None or kept[0] is not names.symbols:
        index = {o: i for i, o in enumerate(world.objects)}
        types = [json_str(t) if type(t) is str else canonical_json(t)
                 for t in world.objects.values()]
        kept = world.__dict__["_symbolic_templates"] = (names.symbols, index, {}, {}, types)
    symbols, index, states, terms, types = kept
    get, found = names.mapping.get, kept_json
    renamed = [get(o, o) for o in world.objects]
    fill = [(found(name) or json_str(name)) if type(name) is str else canonical_json(name)
            for name in renamed]
    state = states.get(sid)
    if state is None:
        if len(states) >= TEMPLATES_KEPT:
            states.clear()
        state = states[sid] = "[" + ",".join(
            [_template(t, index, symbols) for t in world.state_terms(sid)]) + "]"
    acts = None
    if actions is not None:
        parts = []
        for k in actions:
            term = terms.get(k)
            if term is None:
                term = terms[k] = _template(world.action_term(k), index, symbols)
            parts.append(term)
        acts = Encoded(("[" + ",".join(parts) + "]").format(*fill))
    return _objects(world, renamed, fill, types), Encoded(state.format(*fill)), acts


def _objects(world, renamed: list, fill: list, types: list):
    """Member `objects`: the renamed objects and their types (`types`: their JSON, in
    the world's object order), as `Encoded` JSON (keys sorted, as canonical_json sorts
    them) where the names are distinct strings; else the world's objects, renamed when
    encoded."""
    if not _STR.issuperset(map(type, renamed)) or len(set(renamed)) < len(renamed):
        return dict(world.objects)
    order = sorted(range(len(renamed)), key=renamed.__getitem__)
    return Encoded("{" + ",".join([f"{fill[i]}:{types[i]}" for i in order]) + "}")


def _template(term: tuple, index: dict, symbols) -> str:
    """A term's JSON with a field for each object argument (Names.symbolic renames the
    arguments of a list headed by one of the domain's symbols, nothing else)."""
    if not (term and isinstance(term[0], str) and term[0] in symbols):
        return _escaped(canonical_json(list(term)))
    return "[" + ",".join([_escaped(json_str(term[0]))] + [
        f"{{{index[a]}}}" if type(a) is str and a in index else _escaped(canonical_json(a))
        for a in term[1:]]) + "]"


def _escaped(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")
