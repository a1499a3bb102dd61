"""Competition domains read as Fast Downward's translator reads them: the ground actions
and fluent atoms we find equal the translator's own (its relaxed exploration, run here)."""

from __future__ import annotations

from pathlib import Path

import pytest

from racbench.worlds.strips.grounding import ground
from racbench.worlds.strips.pddl_reader import load_domain, load_problem, parse_domain

COMPETITION = Path(__file__).parent / "data" / "competition"


def translator_ground(domain_file, problem_file):
    """(fluent atoms, ground actions, ground axioms) of Fast Downward's translator, as
    strings such as '(drop h c a1 a2 p)'."""
    from fast_downward.translate import instantiate, normalize, pddl_parser
    from fast_downward.translate.options import set_options

    set_options([str(domain_file), str(problem_file)])
    task = pddl_parser.open(str(domain_file), str(problem_file))
    normalize.normalize(task)
    _, atoms, actions, _, axioms, _ = instantiate.explore(task)
    return ({str(a) for a in atoms}, {a.name for a in actions}, axioms)


def _term(parts) -> str:
    return "(" + " ".join(parts) + ")"


def test_storage_reads_a_type_under_two_parents_as_the_translator_does():
    folder = COMPETITION / "storage"
    domain = load_domain(folder / "domain.pddl")
    # area is declared under object and again under surface: it is a surface
    assert domain.is_subtype("storearea", "surface")
    assert domain.is_subtype("storearea", "area")
    task = ground(domain, load_problem(folder / "p01.pddl", domain))
    atoms, actions, _ = translator_ground(folder / "domain.pddl", folder / "p01.pddl")
    assert {_term(a.term) for a in task.actions} == actions
    assert len(task.actions) == 8
    ours = {f"Atom {a[0]}({', '.join(a[1:])})" for a in task.atoms}
    assert ours == atoms


def test_a_type_under_two_other_types_is_of_both():
    domain = parse_domain("(define (domain d) (:types a - b\n a - c)\n"
                          "(:predicates (p ?x - b) (q ?x - c)))")
    assert domain.is_subtype("a", "b") and domain.is_subtype("a", "c")
    assert not domain.is_subtype("b", "c")
    assert domain.ancestors("a") == ["a", "b", "c", "object"]
