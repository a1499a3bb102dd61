"""The PDDL readers' messages come from templates/cli/pddl.j2 (DESIGN's convention: no
English in Python literals, tests/test_no_english_literals.py), whole, with the phrases
they carry rendered, and only when a message is raised: reading a good file renders no
template."""

import subprocess
import sys
from pathlib import Path

import pytest

from racbench.worlds.strips.pddl_reader import parse_domain, parse_problem
from racbench.worlds.strips.sexpr import PDDLError

ROOT = Path(__file__).resolve().parents[1]
D = ("(define (domain d) (:requirements :adl :derived-predicates)\n"
     "  (:predicates (p ?x) (q ?x) (r ?x ?y))\n  {})")
G = "(define (domain g) (:predicates (r ?x ?y)) (:action a :parameters (?x) :effect (r ?x ?x)))"


# Messages whose phrases nest (a variable of a derived predicate, a quantifier inside a
# precondition...), pinned whole: a phrase that is not rendered would show as an object.
DOMAIN_MESSAGES = [
    (D.format("(:derived (r ?x ?x) (q ?x))"),
     "d.pddl:3:19: variable of derived predicate r '?x' is declared twice: here and at "
     "line 3 column 16; names must be unique"),
    (D.format("(:derived (p x) (q x))"),
     "d.pddl:3:16: parameter 'x' of derived predicate p must start with '?'"),
    (D.format("(:derived (p ?x) (z ?x))"),
     "d.pddl:3:21: unknown predicate 'z' in the condition of derived predicate p; "
     "declared: p, q, r"),
    (D.format("(:derived () (q ?x))"),
     "d.pddl:3:13: expected a derived predicate name, found '()'"),
    (D.format("(:action a :parameters (?x) :precondition (exists (y) (q ?x)) :effect (q ?x))"),
     "d.pddl:3:54: parameter 'y' of exists in the precondition of a must start with '?'"),
    (D.format("(:action a :parameters (?x) :effect (forall (?y ?y) (q ?y)))"),
     "d.pddl:3:51: variable of forall '?y' is declared twice: here and at line 3 column 48; "
     "names must be unique"),
    (D.format("(:action a :parameters (?x ?x) :effect (q ?x))"),
     "d.pddl:3:30: parameter of a '?x' is declared twice: here and at line 3 column 27; "
     "names must be unique"),
    (D.format("(:action a :parameters (?x) :precondition (exists (?y -) (q ?x)) "
              ":effect (q ?x))"),
     "d.pddl:3:57: expected a type after '-' in the variables of exists"),
    (D.format("(:action a :parameters (?x) :effect (and (q ?x) ((p) ?x)))"),
     "d.pddl:3:52: expected a predicate name in the effect of a, found a parenthesised "
     "list"),
    (D.format("(:action a :parameters (?x) :effect (and (q ?x) x))"),
     "d.pddl:3:51: expected an effect in the effect of a in parentheses, found 'x'"),
    (D.format("(:action a :parameters ?x :effect (q ?x))"),
     "d.pddl:3:26: expected a parameter list in parentheses, found '?x'"),
    ("(define (domain d) (:constants c - (either a b)))",
     "d.pddl:1:32: a constant's type cannot be '(either ...)'; give one type"),
    ("(define (domain d) (:functions (f ?x -) - number))",
     "d.pddl:1:38: expected a type after '-' in function f"),
    ("(define (domain d) (:predicates (p ?x - (either (a)))))",
     "d.pddl:1:49: expected a type name, found a parenthesised list"),
    ("(define (domain d) (:action))",
     "d.pddl:1:20: expected an action name after :action"),
    ("(define (domain d) (:predicates (p ?x)) (:action (a)))",
     "d.pddl:1:50: expected an action name, found a parenthesised list"),
]


@pytest.mark.parametrize("text,message", DOMAIN_MESSAGES)
def test_a_domain_message_is_said_whole(text, message):
    with pytest.raises(PDDLError) as err:
        parse_domain(text, "d.pddl")
    assert str(err.value) == message


PROBLEM_MESSAGES = [
    ("(:objects a) (:init) (:goal (forall (?x) (r ?x zz)))",
     "p.pddl:1:80: 'zz' in :goal is neither a declared object nor a variable of an "
     "enclosing forall or exists"),
    ("(:objects a) (:init (r a (a))) (:goal (r a a))",
     "p.pddl:1:58: expected an object name, found a parenthesised list"),
    ("(:objects a) (:init (= (total-cost) x)) (:goal (r a a))",
     "p.pddl:1:69: expected a value: a non-negative decimal number such as 3 or 2.5, "
     "found 'x'"),
    ("(:objects a - (either b c)) (:init) (:goal (r a a))",
     "p.pddl:1:43: an object's type cannot be '(either ...)'; give one type"),
]


@pytest.mark.parametrize("sections,message", PROBLEM_MESSAGES)
def test_a_problem_message_is_said_whole(sections, message):
    domain = parse_domain(G, "d.pddl")
    with pytest.raises(PDDLError) as err:
        parse_problem(f"(define (problem p) (:domain g) {sections})", domain, "p.pddl")
    assert str(err.value) == message


def test_reading_good_files_renders_no_template(competition_pddl):
    """The phrases a reader carries stay unrendered unless a message is raised: in a
    fresh interpreter, reading competition and ADL domains with their problems leaves
    templates/cli/pddl.j2 unloaded, and the first error loads it."""
    script = f"""
import sys
from pathlib import Path
from racbench.text import environment
from racbench.worlds.strips.pddl_reader import load_domain, load_problem, parse_domain
from racbench.worlds.strips.sexpr import PDDLError
for folder in [*sorted(Path({str(competition_pddl)!r}).iterdir()),
               *sorted(Path({str(ROOT / 'tests' / 'data' / 'adl')!r}).iterdir())]:
    if (folder / "domain.pddl").is_file():
        domain = load_domain(folder / "domain.pddl")
        for problem in sorted(folder.glob("*.pddl"))[:3]:
            if problem.name != "domain.pddl":
                load_problem(problem, domain)
loaded = lambda: any(key[1] == "cli/pddl.j2" for key in environment().cache.keys())
print(loaded())
try:
    parse_domain("(define (domain d) (:predicates (p x)))")
except PDDLError:
    print(loaded())
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            cwd=ROOT, check=True)
    assert result.stdout.split() == ["False", "True"]


def test_a_goal_naming_a_predicate_of_a_domain_without_any_says_none_are_declared():
    domain = parse_domain("(define (domain e) (:action a :parameters ()))", "d.pddl")
    with pytest.raises(PDDLError) as err:
        parse_problem("(define (problem p) (:domain e) (:objects a) (:init)\n"
                      "  (:goal (forall (?x) (door ?x))))", domain, "p.pddl")
    assert str(err.value) == "p.pddl:2:24: unknown predicate 'door' in :goal; declared: none"
