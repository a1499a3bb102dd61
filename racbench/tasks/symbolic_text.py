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

from racbench.splits.dedup import Encoded, canonical_json, json_str, kept_json
from racbench.worlds.strips.world import StripsWorld

_STR = frozenset((str,))
TEMPLATES_KEPT = 8192  # state templates kept per world (an implicit world's states are many)


def strips_symbolic(world, sid, actions: list[int] | None, names) -> dict | None:
    """`world.symbolic(sid)`, with member `actions` (the terms of `actions`) unless None,
    its `state` and `actions` as `Encoded` text renamed by `names` (the rest renamed
    when encoded: splits.dedup.symbolic_and_key(..., names=names)); None for a world
    whose symbolic form is not a STRIPS world's. (A form holding a member `atom`, which
    Names.symbolic would take for a literal, is not a row's.)"""
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
    sym = {"domain": world.domain.name, "domain_pddl": world.domain_text,
           "problem": world.problem.name, "objects": _objects(world, renamed, fill, types),
           "state": Encoded(state.format(*fill))}
    if actions is not None:
        parts = []
        for k in actions:
            term = terms.get(k)
            if term is None:
                term = terms[k] = _template(world.action_term(k), index, symbols)
            parts.append(term)
        sym["actions"] = Encoded(("[" + ",".join(parts) + "]").format(*fill))
    return sym


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
