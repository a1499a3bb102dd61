"""Malformed PDDL ends in one PDDLError naming the file, line:column and what is accepted.

Each case is a real domain or problem text; problems are read against DOMAIN. Inputs
that are odd but valid (deep nesting, glued variables, comments in any language) are
accepted and checked for what they mean.
"""

import os
import subprocess
import sys
import time

import pytest

from racbench.worlds.strips import limits
from racbench.worlds.strips.grounding import ground
from racbench.worlds.strips.pddl_reader import (load_domain, load_problem, parse_domain,
                                                   parse_problem)
from racbench.worlds.strips.search import shortest_plan_length
from racbench.worlds.strips.sexpr import PDDLError

DOMAIN = """(define (domain d)
  (:requirements :strips :typing :action-costs)
  (:types block - object)
  (:constants table - object)
  (:predicates (on ?x - block ?y) (clear ?x))
  (:functions (total-cost) - number (weight ?b - block) - number)
  (:action move :parameters (?b - block ?from ?to)
    :precondition (and (on ?b ?from) (clear ?b) (clear ?to))
    :effect (and (on ?b ?to) (clear ?from) (not (on ?b ?from)) (not (clear ?to))
                 (increase (total-cost) (weight ?b)))))
"""
GOOD_PROBLEM = """(define (problem p) (:domain d)
  (:objects a b - block)
  (:init (on a table) (on b table) (clear a) (clear b) (clear table)
         (= (weight a) 2) (= (weight b) 3))
  (:goal (on a b)))
"""


def domain_error(text: str) -> PDDLError:
    with pytest.raises(PDDLError) as err:
        parse_domain(text, "d.pddl")
    return err.value


def problem_error(text: str) -> PDDLError:
    domain = parse_domain(DOMAIN, "d.pddl")
    with pytest.raises(PDDLError) as err:
        ground(domain, parse_problem(text, domain, "p.pddl"))
    return err.value


def problem_with(old: str, new: str) -> str:
    assert old in GOOD_PROBLEM
    return GOOD_PROBLEM.replace(old, new, 1)


def domain_with(old: str, new: str) -> str:
    assert old in DOMAIN
    return DOMAIN.replace(old, new, 1)


def test_the_base_files_are_fine():
    domain = parse_domain(DOMAIN, "d.pddl")
    task = ground(domain, parse_problem(GOOD_PROBLEM, domain, "p.pddl"))
    assert [a.cost for a in task.actions if a.term == ("move", "a", "table", "b")] == [2]
    assert shortest_plan_length(task, task.init, task.condition(task.goal)) == 2  # weight a


DOMAIN_CASES = {
    "empty file": ("", "d.pddl:1:1", "expected '(define ...)'"),
    "only a comment": ("; nothing here é\n", "d.pddl:1:1", "empty file"),
    "truncated": ("(define (domain d)\n  (:predicates (p ?x)", "d.pddl:2:3",
                  "never closed"),
    "unbalanced": ("(define (domain d)))", "d.pddl:1:20", "unbalanced ')'"),
    "text after the end": ("(define (domain d))\n(p)", "d.pddl:2:1", "expected end of file"),
    "no domain name": ("(define (domain))", "d.pddl:1:9", "'(domain NAME)' with exactly one"),
    "not a define": ("(domain d)", "d.pddl:1:1", "expected '(define ...)'"),
    "section without keyword": ("(define (domain d) (p))", "d.pddl:1:20",
                                "expected a section keyword starting with ':'"),
    "empty section list": ("(define (domain d) ())", "d.pddl:1:20", ":predicates"),
    "unknown section": ("(define (domain d) (:axioms))", "d.pddl:1:20",
                        "expected one of :requirements"),
    "section twice": ("(define (domain d) (:predicates (p))\n (:predicates (q)))",
                      "d.pddl:2:2", "the first is at line 1 column 20"),
    "non-ASCII name": ("(define (domain d)\n  (:predicates (caf\u00e9)))", "d.pddl:2:20",
                       "ASCII only"),
    "duplicate predicate": ("(define (domain d) (:predicates (p ?x)\n (q) (p)))", "d.pddl:2:7",
                            "predicate 'p' is declared twice: here and at line 1 column 34"),
    "duplicate action": ("(define (domain d) (:predicates (p))\n(:action a :effect (p))\n"
                         "(:action a :effect (p)))", "d.pddl:3:10",
                         "action 'a' is declared twice: here and at line 2 column 10"),
    "duplicate constant": ("(define (domain d) (:constants c\n c))", "d.pddl:2:2",
                           "constant 'c' is declared twice: here and at line 1 column 32"),
    "second parent below the type": ("(define (domain d) (:types a - b\n c - a a - c))",
                                     "d.pddl:2:8", "'a' is declared under 'c', which is "
                                     "itself a kind of 'a'"),
    "circular types": ("(define (domain d) (:types a - b b - a))", "d.pddl:1:28",
                       "circular type hierarchy: a - b - a"),
    "unknown type": ("(define (domain d) (:types block)\n (:predicates (on ?x - blok)))",
                     "d.pddl:2:24", "unknown type 'blok'; declared types: object, block"),
    "either as parent": ("(define (domain d) (:types a - (either b c)))", "d.pddl:1:28",
                         "cannot be '(either ...)'"),
    "predicate parameter without ?": ("(define (domain d) (:predicates (p x)))", "d.pddl:1:36",
                                      "must start with '?'"),
    "empty predicate": ("(define (domain d) (:predicates ()))", "d.pddl:1:33",
                        "expected a predicate name, found '()'"),
    "function of a non-number type": ("(define (domain d) (:functions (f) - object))",
                                      "d.pddl:1:36", "functions must be numbers"),
    "empty function": ("(define (domain d) (:functions ()))", "d.pddl:1:32",
                       "expected a function name"),
    "unsupported requirement": ("(define (domain d) (:requirements :fluents))", "d.pddl:1:35",
                                "racbench accepts STRIPS and ADL with"),
    "derived predicate undeclared": ("(define (domain d) (:predicates (p))\n"
                                     "(:derived (q) (p)))", "d.pddl:2:12",
                                     "derived predicate 'q' is not declared in :predicates"),
    "derived predicate as an effect": ("(define (domain d) (:predicates (p) (q))\n"
                                       "(:derived (q) (p))\n(:action a :effect (not (q))))",
                                       "d.pddl:3:25", "derived predicate 'q' cannot be an "
                                       "effect (the effect of a): it holds exactly where a "
                                       "(:derived ...) condition holds (the first at line 2 "
                                       "column 1)"),
    "derived predicate of wrong arity": ("(define (domain d) (:predicates (p) (q ?x))\n"
                                         "(:derived (q) (p)))", "d.pddl:2:11",
                                         "predicate 'q' takes 1 arguments, found 0"),
    "durative action": ("(define (domain d) (:durative-action a))", "d.pddl:1:20",
                        ":durative-action needs :durative-actions"),
    "wrong arity in a precondition": (domain_with("(clear ?b) (clear ?to)", "(clear ?b ?to)"),
                                      "d.pddl:8:38", "'clear' takes 1 arguments, found 2"),
    "unknown predicate": (domain_with("(clear ?b)", "(free ?b)"), "d.pddl:8:39",
                          "unknown predicate 'free'"),
    "variable not a parameter": (domain_with("(clear ?b)", "(clear ?z)"), "d.pddl:8:45",
                                 "variable ?z in the precondition of move is not a parameter"),
    "action name missing": ("(define (domain d) (:action))", "d.pddl:1:20",
                            "expected an action name"),
    "keyword without value": ("(define (domain d) (:predicates (p)) (:action a :effect))",
                              "d.pddl:1:49", ":effect in action a has no value"),
    "keyword twice": ("(define (domain d) (:predicates (p))\n (:action a :effect (p)\n"
                      "  :effect (p)))", "d.pddl:3:3", "appears twice in action a"),
    "unknown keyword": ("(define (domain d) (:predicates (p)) (:action a :duration 3))",
                        "d.pddl:1:49", "expected :parameters, :precondition or :effect"),
    "parameter twice": ("(define (domain d) (:predicates (p ?x))\n"
                        " (:action a :parameters (?x ?x) :effect (p ?x)))", "d.pddl:2:29",
                        "'?x' is declared twice: here and at line 2 column 26"),
    "empty not": (domain_with("(clear ?b)", "(not)"), "d.pddl:8:38",
                  "'not' takes exactly one atom, found 0"),
    "not with two atoms": (domain_with("(not (clear ?to))", "(not (clear ?to) (clear ?b))"),
                           "d.pddl:9:64", "'not' takes exactly one atom, found 2"),
    "equality as an effect": (domain_with("(clear ?from)", "(= ?from ?to)"), "d.pddl:9:30",
                              "'=' cannot be an effect"),
    "equality with one argument": (domain_with("(clear ?b)", "(= ?b)"), "d.pddl:8:38",
                                   "'=' takes exactly two arguments, found 1"),
    "imply with three parts": (domain_with("(and (on ?b ?from)", "(imply (on ?b ?from)"),
                               "d.pddl:8:19", "'imply' takes exactly two conditions, found 3"),
    "nan cost": (domain_with("(weight ?b)", "nan"), "d.pddl:10:41",
                 "expected a cost: a non-negative decimal number such as 3 or 2.5, found 'nan'"),
    "inf cost": (domain_with("(weight ?b)", "inf"), "d.pddl:10:41", "found 'inf'"),
    "exponent cost": (domain_with("(weight ?b)", "1e999"), "d.pddl:10:41", "found '1e999'"),
    "negative cost": (domain_with("(weight ?b)", "-1"), "d.pddl:10:41", "found '-1'"),
    "fractional cost": (domain_with("(weight ?b)", "1.5"), "d.pddl:10:41",
                        "action costs must be whole numbers"),
    "cost without amount": (domain_with("(increase (total-cost) (weight ?b))",
                                        "(increase (total-cost))"), "d.pddl:10:18",
                            "only '(increase (total-cost) N)' is supported"),
    "cost of an unknown function": (domain_with("(weight ?b)", "(height ?b)"), "d.pddl:10:42",
                                    "unknown function 'height' in the effect of move; declared"),
    "cost function of wrong arity": (domain_with("(weight ?b)", "(weight)"), "d.pddl:10:41",
                                     "function 'weight' takes 1 arguments, found 0"),
    "two cost effects": (domain_with("(increase (total-cost) (weight ?b))",
                                     "(increase (total-cost) 1) (increase (total-cost) 2)"),
                         "d.pddl:10:44", "a second cost effect"),
}


@pytest.mark.parametrize("name", sorted(DOMAIN_CASES))
def test_malformed_domain(name):
    text, where, words = DOMAIN_CASES[name]
    err = domain_error(text)
    assert str(err).startswith(where + ": "), str(err)
    assert words in str(err), str(err)


PROBLEM_CASES = {
    "truncated": (GOOD_PROBLEM[:60], "p.pddl:3:3", "missing ')': this '(' is never closed"),
    "no domain name": (problem_with("(:domain d)", "(:domain)"), "p.pddl:1:21",
                       "expected '(:domain NAME)' with exactly one name"),
    "other domain": (problem_with("(:domain d)", "(:domain e)"), "p.pddl:1:30",
                     "problem is for domain 'e' but the domain file defines 'd'"),
    "no problem name": (problem_with("(problem p)", "(problem)"), "p.pddl:1:9",
                        "'(problem NAME)' with exactly one name"),
    "objects twice": (problem_with("(:goal", "(:objects c) (:goal"), "p.pddl:5:3",
                      "a second (:objects ...) section; the first is at line 2 column 3"),
    "duplicate object": (problem_with("a b - block", "a b a - block"), "p.pddl:2:17",
                         "object 'a' is declared twice: here and at line 2 column 13"),
    "object repeats a constant": (problem_with("a b - block", "a b table - block"),
                                  "p.pddl:2:17", "already a constant of domain 'd'"),
    "undeclared object type": (problem_with("a b - block", "a b - brick"), "p.pddl:2:19",
                               "undeclared type 'brick'; declared types: object, block"),
    "either object type": (problem_with("a b - block", "a b - (either block object)"),
                           "p.pddl:2:13", "an object's type cannot be '(either ...)'"),
    "unknown object in init": (problem_with("(clear a)", "(clear c)"), "p.pddl:3:43",
                               "'c' in :init is not a declared object"),
    "wrong arity in init": (problem_with("(clear a)", "(clear a b)"), "p.pddl:3:36",
                            "predicate 'clear' takes 1 arguments, found 2"),
    "unknown predicate in init": (problem_with("(clear a)", "(free a)"), "p.pddl:3:37",
                                  "unknown predicate 'free' in :init; declared: clear, on"),
    "list as an argument": (problem_with("(clear a)", "(clear (a))"), "p.pddl:3:43",
                            "expected an object name, found a parenthesised list"),
    "empty fact": (problem_with("(clear a)", "()"), "p.pddl:3:36", "found '()'"),
    "negative fact in init": (problem_with("(clear a)", "(not (clear a))"), "p.pddl:3:36",
                              "negative facts are not accepted in :init"),
    "assignment without value": (problem_with("(= (weight a) 2)", "(= (weight a))"),
                                 "p.pddl:4:10",
                                 "expected '(= (FUNCTION OBJECT ...) NUMBER)' in :init"),
    "assignment without function": (problem_with("(= (weight a) 2)", "(= (f))"), "p.pddl:4:10",
                                    "expected '(= (FUNCTION OBJECT ...) NUMBER)'"),
    "nan value": (problem_with("(= (weight a) 2)", "(= (weight a) nan)"), "p.pddl:4:24",
                  "expected a value: a non-negative decimal number such as 3 or 2.5"),
    "huge value": (problem_with("(= (weight a) 2)", f"(= (weight a) {'9' * 400})"),
                   "p.pddl:4:24", "(400 characters) is too large"),
    "two values": (problem_with("(= (weight b) 3)", "(= (weight a) 3)"), "p.pddl:4:27",
                   "(weight a) is given two values in :init: 2 and 3"),
    "function of wrong arity": (problem_with("(= (weight a) 2)", "(= (weight a b) 2)"),
                                "p.pddl:4:13", "function 'weight' takes 1 arguments, found 2"),
    "empty goal section": (problem_with("(:goal (on a b))", "(:goal)"), "p.pddl:5:3",
                           "expected '(:goal CONDITION)' with exactly one condition, found 0"),
    "two goals": (problem_with("(:goal (on a b))", "(:goal (on a b) (clear a))"), "p.pddl:5:3",
                  "with exactly one condition, found 2"),
    "not with two atoms in the goal": (problem_with("(:goal (on a b))",
                                                    "(:goal (not (on a b) (clear a)))"),
                                       "p.pddl:5:10", "'not' takes exactly one atom, found 2"),
    "goal that can never hold": (problem_with("(:goal (on a b))",
                                              "(:goal (exists (?x - block) (not (= ?x ?x))))"),
                                 "p.pddl:5:10", "the goal can never hold once grounded"),
    "unknown section": (problem_with("(:goal", "(:constraints) (:goal"), "p.pddl:5:3",
                        "expected one of :domain :requirements :objects :init :goal :metric"),
}


@pytest.mark.parametrize("name", sorted(PROBLEM_CASES))
def test_malformed_problem(name):
    text, where, words = PROBLEM_CASES[name]
    err = problem_error(text)
    assert str(err).startswith(where + ": "), str(err)
    assert words in str(err), str(err)


@pytest.mark.parametrize("init,words", [
    ("(= (weight b) 3)", "cost (weight a) of action move has no value in :init; add "
                         "(= (weight a) N)"),
    ("(= (weight a) 2.5) (= (weight b) 3)", "cost (weight a) of action move is 2.5 in :init; "
                                            "action costs must be non-negative whole numbers"),
])
def test_costs_are_checked_when_grounding(init, words):
    err = problem_error(problem_with("(= (weight a) 2) (= (weight b) 3)", init))
    assert str(err) == f"p.pddl: {words}"


def test_message_is_one_line_even_for_odd_names():
    err = domain_error("(define (domain d) (:requirements :\x01" + "x" * 5000 + "))")
    text = str(err)
    assert "\n" not in text and "\x01" not in text and len(text) < 700
    assert text.startswith("d.pddl:1:35: requirement :\\x01xxx")
    assert text.endswith(":negative-preconditions, :quantified-preconditions, :strips, "
                         ":typing, :universal-preconditions")


# -- odd but valid ---------------------------------------------------------------------

def test_a_question_mark_starts_a_new_token_as_in_fast_downward():
    domain = parse_domain("(define (domain g) (:predicates (on?x?y) (free?x))\n"
                          "(:action drop :parameters(?x?y) :precondition(on?x?y)\n"
                          " :effect(and(not(on?x?y))(free?x))))", "g.pddl")
    assert domain.predicates == {"on": ((("object",),) * 2), "free": (("object",),)}
    assert domain.actions[0].parameters == (("?x", ("object",)), ("?y", ("object",)))
    task = ground(domain, parse_problem("(define(problem p)(:domain g)(:objects a b)"
                                        "(:init(on a b))(:goal(free a)))", domain, "p.pddl"))
    assert [a.term for a in task.actions] == [("drop", "a", "b")]


def test_comments_may_hold_any_text_and_line_endings_may_be_crlf_or_cr():
    lines = DOMAIN.split("\n")
    text = " ; caf\u00e9 \u2028 \u00ff\r\n".join(lines[:4]) + "\r\n" + "\r".join(lines[4:])
    assert parse_domain(text, "d.pddl").predicates == parse_domain(DOMAIN).predicates
    err = domain_error(text.replace("(clear ?b)", "(clear ?q)"))
    assert str(err).startswith("d.pddl:8:45: ")  # lines still counted at every CR


@pytest.mark.parametrize("depth", [1000, 5000])
def test_deep_conjunctions_are_flattened(depth):
    text = domain_with("(and (on ?b ?from) (clear ?b) (clear ?to))",
                       "(and " * depth + "(on ?b ?from) (clear ?b) (clear ?to)" + ")" * depth)
    domain = parse_domain(text, "d.pddl")
    assert domain.actions == parse_domain(DOMAIN).actions
    goal = "(:goal " + "(and " * depth + "(on a b)" + ")" * depth + ")"
    problem = parse_problem(problem_with("(:goal (on a b))", goal), domain, "p.pddl")
    assert [lit.atom for lit in problem.goal] == [("on", "a", "b")]


def test_deep_lists_elsewhere_are_refused_without_recursion():
    err = domain_error("(define (domain d) (:predicates (p ?x - " + "(either " * 100_000
                       + "t" + ")" * 100_000 + ")))")
    assert str(err).startswith("d.pddl:1:49: ") and "expected a type name" in str(err)


def test_empty_init_still_grounds_actions_without_preconditions():
    domain = parse_domain("(define (domain e) (:predicates (lit)) (:action on :effect (lit)))")
    task = ground(domain, parse_problem("(define (problem p) (:domain e) (:init) "
                                        "(:goal (lit)))", domain))
    assert [a.term for a in task.actions] == [("on",)]
    assert shortest_plan_length(task, task.init, task.condition(task.goal)) == 1


# -- files and limits -------------------------------------------------------------------

def test_non_utf8_bytes_are_refused_outside_comments_with_their_position(tmp_path):
    path = tmp_path / "latin.pddl"
    path.write_bytes(b"; caf\xe9 in a comment is fine\n(define (domain d)\n"
                     b"  (:predicates (caf\xe9)))\n")
    with pytest.raises(PDDLError) as err:
        load_domain(path)
    assert str(err.value).startswith(f"{path}:3:20: non-ASCII character")


def test_a_directory_is_not_a_pddl_file(tmp_path):
    with pytest.raises(PDDLError, match="is a directory; expected a PDDL file"):
        load_domain(tmp_path)


def test_a_50_mb_file_is_refused_before_it_is_read(tmp_path):
    domain = parse_domain(DOMAIN, "d.pddl")
    path = tmp_path / "huge.pddl"
    with open(path, "wb") as f:
        f.truncate(50_000_000)  # sparse: 50 MB on paper, nothing to write
    start = time.perf_counter()
    with pytest.raises(limits.LimitExceeded) as err:
        load_problem(path, domain)
    assert time.perf_counter() - start < 5  # refused from its size: reading it takes minutes
    assert str(err.value) == (f"{path}: 50.0 MB is more than the 10 MB accepted for a PDDL "
                              "file; raise the limit with --max-pddl-mb")


def test_the_file_limit_can_be_raised_and_lowered(competition_pddl):
    path = competition_pddl / "blocks" / "domain.pddl"
    with limits.overridden(max_pddl_mb=0.001):
        with pytest.raises(limits.LimitExceeded, match="more than the 0.001 MB"):
            load_domain(path)
        with pytest.raises(limits.LimitExceeded, match="--max-pddl-mb"):
            parse_domain(path.read_text(), str(path))  # text given directly: same limit
    assert load_domain(path).name == "blocks"


BLOW_UP = """(define (domain wide)
  (:predicates (seen ?a ?b ?c ?d ?e ?f))
  (:action look :parameters (?a ?b ?c ?d ?e ?f) :effect (seen ?a ?b ?c ?d ?e ?f)))
"""
THIRTY = ("(define (problem p) (:domain wide) (:objects "
          + " ".join(f"o{i}" for i in range(30)) + ") (:init) (:goal (and)))")


def test_grounding_blow_up_stops_at_once_naming_action_count_and_flag():
    domain = parse_domain(BLOW_UP, "wide.pddl")
    start = time.perf_counter()
    with pytest.raises(limits.LimitExceeded) as err:
        ground(domain, parse_problem(THIRTY, domain, "p.pddl"))
    assert time.perf_counter() - start < 20  # enumerating the bindings would take hours
    assert str(err.value) == (
        "p.pddl: grounding action 'look' needs more than 1,000,000 candidate bindings (one "
        "step alone has 729,000,000), over the 20 per ground action allowed; the limit is "
        "--max-ground-actions (now 50000): raise it or use fewer objects")


def test_ground_action_and_atom_limits(competition_pddl):
    folder = competition_pddl / "gripper"
    domain = load_domain(folder / "domain.pddl")
    problem = load_problem(folder / "prob01.pddl", domain)
    assert len(ground(domain, problem).actions) == 36
    with limits.overridden(max_ground_actions=35):
        with pytest.raises(limits.LimitExceeded) as err:
            ground(domain, problem)
    assert "more than 35 ground actions (reached while grounding action" in str(err.value)
    assert "--max-ground-actions (now 35)" in str(err.value)
    with limits.overridden(max_ground_actions=15):  # 16 fluent atoms in the initial state
        with pytest.raises(limits.LimitExceeded, match="more than 15 fluent atoms"):
            ground(domain, problem)
    assert len(ground(domain, problem).actions) == 36  # the limit is back


def test_limits_api():
    before = limits.current()
    assert before == limits.Limits(max_pddl_mb=10.0, max_ground_actions=50_000)
    previous = limits.set_limits(max_ground_actions=7)
    try:
        assert previous == before
        assert limits.current() == limits.Limits(max_pddl_mb=10.0, max_ground_actions=7)
        assert limits.set_limits(max_pddl_mb=None, max_ground_actions=None).max_ground_actions == 7
    finally:
        limits.set_limits(max_pddl_mb=before.max_pddl_mb,
                          max_ground_actions=before.max_ground_actions)
    assert limits.current() == before
    for bad in ({"max_pddl_mb": 0}, {"max_ground_actions": -1}, {"max_ground_actions": 2.5},
                {"max_pddl_mb": True}):
        with pytest.raises(ValueError, match="must be"):
            limits.set_limits(**bad)
    assert limits.current() == before


def _report_limit(conn):
    conn.send(limits.current().max_ground_actions)


def test_forked_workers_inherit_the_limits():
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    with limits.overridden(max_ground_actions=123):
        parent, child = ctx.Pipe()
        process = ctx.Process(target=_report_limit, args=(child,))
        process.start()
        assert parent.recv() == 123
        process.join()


# -- through the command line ---------------------------------------------------------

def generate(tmp_path, domain_text: str, problem_text: str | None = None, problem_path=None,
             process: bool = False):
    """`racbench generate` refusing the files: through click's runner in this process (the
    console script's code path: exit code and message; a process paid Python's,
    racbench's and pyarrow's start), or with `process` in a real CLI process."""
    (tmp_path / "d.pddl").write_text(domain_text)
    if problem_path is None:
        problem_path = tmp_path / "p.pddl"
        problem_path.write_text(problem_text)
    out = tmp_path / "OUT"
    args = ["generate", "applicability", "--domain-file", str(tmp_path / "d.pddl"),
            "--problem-file", str(problem_path), "--out", str(out), "--quiet"]
    start = time.perf_counter()
    if process:
        result = subprocess.run([sys.executable, "-m", "racbench.cli", *args],
                                capture_output=True, text=True)
    else:
        from click.testing import CliRunner

        from racbench.cli import main

        ran = CliRunner().invoke(main, args)
        assert "Traceback" not in ran.output, ran.output
        result = subprocess.CompletedProcess(args, ran.exit_code, ran.stdout, ran.stderr)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert not out.exists() and not (tmp_path / ".OUT.partial").exists()
    assert sorted(os.listdir(tmp_path)) == sorted({"d.pddl", problem_path.name})
    return result.stderr, time.perf_counter() - start


def test_cli_malformed_problem(tmp_path):
    stderr, _ = generate(tmp_path, DOMAIN, problem_with("(= (weight a) 2)", "(= (f))"))
    assert f"{tmp_path / 'p.pddl'}:4:10: expected '(= (FUNCTION OBJECT ...) NUMBER)'" in stderr


def test_cli_malformed_domain(tmp_path):
    stderr, _ = generate(tmp_path, domain_with("(weight ?b)", "nan"), GOOD_PROBLEM)
    assert f"{tmp_path / 'd.pddl'}:10:41: expected a cost" in stderr


def test_cli_huge_file(tmp_path):
    path = tmp_path / "huge.pddl"
    with open(path, "wb") as f:
        f.truncate(50_000_000)
    stderr, _ = generate(tmp_path, DOMAIN, problem_path=path)
    assert f"{path}: 50.0 MB is more than the 10 MB accepted" in stderr and "--max-pddl-mb" in stderr


def test_cli_grounding_blow_up(tmp_path):
    stderr, seconds = generate(tmp_path, BLOW_UP, THIRTY, process=True)
    assert "grounding action 'look' needs more than 1,000,000 candidate bindings" in stderr
    assert "--max-ground-actions" in stderr and str(tmp_path / "p.pddl") in stderr
    assert seconds < 20  # interpreter start included; the grounding itself stops at once
