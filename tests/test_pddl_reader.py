"""The PDDL loader on files nobody here wrote, and its error messages."""

import pytest

from racbench.worlds.strips.grounding import ground
from racbench.worlds.strips.pddl_reader import load_domain, load_problem, parse_domain, parse_problem
from racbench.worlds.strips.search import shortest_plan_length
from racbench.worlds.strips.sexpr import PDDLError

# Optimal plan lengths of the competition problems (known from the literature / BFS).
OPTIMAL = {
    ("blocks", "probBLOCKS-4-0.pddl"): 6,
    ("blocks", "probBLOCKS-4-1.pddl"): 10,
    ("blocks", "probBLOCKS-5-0.pddl"): 12,
    ("gripper", "prob01.pddl"): 11,
    ("logistics00", "probLOGISTICS-4-1.pddl"): 19,
    ("depot", "p01.pddl"): 10,
}


@pytest.mark.parametrize("domain,problem", sorted(OPTIMAL))
def test_competition_problems_load_ground_and_solve(competition_pddl, domain, problem):
    dom = load_domain(competition_pddl / domain / "domain.pddl")
    prob = load_problem(competition_pddl / domain / problem, dom)
    task = ground(dom, prob)
    goal = task.condition(task.goal)
    assert not goal.holds(task.init)
    assert shortest_plan_length(task, task.init, goal) == OPTIMAL[(domain, problem)]


def test_every_competition_problem_grounds(competition_pddl):
    domain_files = sorted(competition_pddl.glob("*/domain.pddl"))
    assert len(domain_files) == 4  # blocks, depot, gripper, logistics00
    for domain_file in domain_files:
        dom = load_domain(domain_file)
        for problem_file in sorted(domain_file.parent.glob("*.pddl")):
            if problem_file.name == "domain.pddl":
                continue
            task = ground(dom, load_problem(problem_file, dom))
            assert task.actions and task.atoms
            # stepping: the successor index finds exactly the applicable actions
            found = [k for k, _ in task.successors(task.init)]
            assert found == [k for k, a in enumerate(task.actions) if a.applicable(task.init)]
            for k in found:
                a = task.actions[k]
                nxt = a.apply(task.init)
                assert nxt & a.add == a.add and not nxt & (a.delete & ~a.add)


def test_upper_case_problem_is_read_case_insensitively(competition_pddl):
    dom = load_domain(competition_pddl / "blocks" / "domain.pddl")
    prob = load_problem(competition_pddl / "blocks" / "probBLOCKS-4-0.pddl", dom)
    assert ("ontable", "c") in prob.init and prob.goal[0].atom == ("on", "d", "c")


TYPED = """
(define (domain typed)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types truck plane - vehicle vehicle place - object)
  (:constants depot - place)
  (:predicates (at ?v - vehicle ?p - place) (busy ?v - (either truck plane)))
  (:action go :parameters (?v - vehicle ?a ?b - place)
    :precondition (and (at ?v ?a) (not (busy ?v)) (not (= ?a ?b)))
    :effect (and (at ?v ?b) (not (at ?v ?a)))))
"""


def test_types_hierarchy_constants_equality_and_negative_preconditions():
    dom = parse_domain(TYPED, "typed.pddl")
    prob = parse_problem("(define (problem p) (:domain typed) (:objects t - truck x - place)"
                         "(:init (at t depot)) (:goal (at t x)))", dom, "p.pddl")
    task = ground(dom, prob)
    names = sorted(a.term for a in task.actions)
    assert names == [("go", "t", "depot", "x"), ("go", "t", "x", "depot")]
    assert shortest_plan_length(task, task.init, task.condition(task.goal)) == 1


@pytest.mark.parametrize("text,where,words", [
    ("(define (domain d)\n  (:predicates (p ?x)\n  (:action a :parameters (?x) :effect (p ?x)))",
     "bad.pddl:2:3", "section :action at line 3 starts inside it"),
    ("(define (domain d)\n (:requirements :strips :fluents))", "bad.pddl:2:25", ":fluents"),
    ("(define (domain d) (:predicates (p ?x))\n (:action a :parameters (?x)\n"
     "  :effect (when (p ?x))))", "bad.pddl:3:11",
     "'when' takes a condition and an effect, found 1 parts"),
    ("(define (domain d) (:predicates (p ?x))\n (:action a :parameters (?x)\n"
     "  :effect (q ?x)))", "bad.pddl:3:12", "unknown predicate 'q'"),
    ("(define (domain d) (:durative-action a))", "bad.pddl:1:20", ":durative-actions"),
])
def test_errors_name_file_line_column_and_what_is_accepted(text, where, words):
    with pytest.raises(PDDLError) as err:
        parse_domain(text, "bad.pddl")
    assert str(err.value).startswith(where) and words in str(err.value)


def test_missing_file_is_named():
    with pytest.raises(PDDLError, match="nowhere.pddl: file not found"):
        load_domain("nowhere.pddl")
