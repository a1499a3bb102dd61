"""ADL domains (tests/data/adl/): read as written, grounded as Fast Downward's translator
would (one action per name, alternatives for disjunctions, conditional effects kept),
stepped exactly, described as written, and refused with file:line:column when malformed."""

from pathlib import Path

import pytest

from racbench.text.phrasing import TaskText
from racbench.worlds.strips.grounding import ground
from racbench.worlds.strips.model import Effect, Imply, Quantified
from racbench.worlds.strips.pddl_reader import (load_domain, load_problem, parse_domain,
                                                   parse_problem)
from racbench.worlds.strips.search import StateSpace, shortest_plan_length
from racbench.worlds.strips.sexpr import PDDLError
from racbench.worlds.strips.task import AdlAction, GroundAction

ADL = Path(__file__).parent / "data" / "adl"
DOMAINS = ("elevator", "scheduling", "assembly", "household")


def task_of(domain: str, problem: str):
    dom = load_domain(ADL / domain / "domain.pddl")
    return dom, ground(dom, load_problem(ADL / domain / "problems" / f"{problem}.pddl", dom))


def state(task, *atoms):
    return task.state_of(atoms)


def test_formulas_and_effects_are_kept_as_written():
    dom = load_domain(ADL / "elevator" / "domain.pddl")
    stop = next(a for a in dom.actions if a.name == "stop")
    assert not stop.strips and [lit.atom for lit in stop.precondition] == [("lift-at", "?f")]
    forall, imply = stop.formulas
    assert isinstance(forall, Quantified) and forall.universal
    assert forall.variables == (("?p", ("passenger",)),) and isinstance(forall.body, Imply)
    assert isinstance(imply, Imply) and isinstance(imply.condition, Quantified)
    assert not imply.condition.universal
    assert all(isinstance(e, Effect) and e.variables == (("?p", ("passenger",)),)
               for e in stop.effects)
    assert stop.effects[1].add == (("boarded", "?p"),)
    assert dom.fluent_predicates == {"boarded", "served", "lift-at"}
    assert all(a.strips for a in dom.actions if a.name != "stop")


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("problem", ["p01", "p02", "p03"])
def test_every_problem_grounds_with_one_action_per_name_and_a_plan(domain, problem):
    _, task = task_of(domain, problem)
    terms = [a.term for a in task.actions]
    assert len(terms) == len(set(terms)) and terms == sorted(terms)
    space = StateSpace(task, task.init, 200_000)
    for s in space.states[:300]:
        found = task.applicable(s)
        assert found == [k for k, a in enumerate(task.actions) if a.applicable(s)]
        assert [k for k, _ in task.successors(s)] == found
    assert shortest_plan_length(task, task.init, task.condition(task.goal)) is not None


def test_a_disjunction_over_static_facts_simplifies_away():
    _, task = task_of("household", "p01")
    slices = [a for a in task.actions if a.name == "slice"]
    # (or (objecttype ?k knifetype) (objecttype ?k butterknifetype)): the knife only
    assert {a.args[1] for a in slices} == {"knife"}
    assert all(type(a) is GroundAction for a in slices)
    rinse = [a.args for a in task.actions if a.name == "rinse"]
    assert {r for _, r in rinse} == {"sink"}  # a sink or a bathtub; the counter is neither


def test_a_disjunction_over_fluents_is_one_action_with_alternatives():
    _, task = task_of("assembly", "p02")
    k = task.action_of(("open-shelf", "s1"))  # opened by the key or by the hammer
    action = task.actions[k]
    assert isinstance(action, AdlAction) and len(action.alternatives) == 2
    base = ("hand-empty",), ("on-rack", "wrench")
    with_key = state(task, ("holding", "key"), ("on-rack", "wrench"))
    with_hammer = state(task, ("holding", "hammer"), ("on-rack", "wrench"))
    with_wrench = state(task, ("holding", "wrench"))
    assert action.applicable(with_key) and action.applicable(with_hammer)
    assert not action.applicable(with_wrench) and not action.applicable(state(task, *base))
    assert task.applicable(with_key).count(k) == 1
    assert [t for t, _ in task.successors(with_hammer)].count(k) == 1
    assert task.actions[k].apply(with_key) == with_key | state(task, ("open", "s1"))


def test_conditional_effects_happen_when_their_condition_holds_before():
    _, task = task_of("elevator", "p01")
    stop_f1 = task.actions[task.action_of(("stop", "f1"))]
    stop_f3 = task.actions[task.action_of(("stop", "f3"))]
    s = state(task, ("lift-at", "f1"))
    s = stop_f1.apply(s)  # ann boards at her origin
    assert task.atoms_of(s) == [("boarded", "ann"), ("lift-at", "f1")]
    s = task.actions[task.action_of(("up", "f1", "f3"))].apply(s)
    s = stop_f3.apply(s)  # ann leaves at f3, bob boards there
    assert task.atoms_of(s) == [("boarded", "bob"), ("lift-at", "f3"), ("served", "ann")]
    _, house = task_of("household", "p02")
    toggle = house.actions[house.action_of(("toggle-door", "microwave"))]
    at = state(house, ("robot-at", "microwave"))
    closed = at | state(house, ("closed", "microwave"))
    assert toggle.apply(closed) == at and toggle.apply(at) == closed


def test_an_add_wins_over_a_delete_of_the_same_atom():
    dom = parse_domain("""(define (domain flip) (:requirements :adl)
      (:predicates (p) (q))
      (:action a :effect (and (q) (when (p) (not (q))) (forall (?x) (when (p) (not (p)))))))""",
                       "flip.pddl")
    task = ground(dom, parse_problem("(define (problem f) (:domain flip) (:objects o) "
                                     "(:init (p)) (:goal (q)))", dom, "f.pddl"))
    a = task.actions[0]
    assert task.atoms_of(a.apply(task.init)) == [("q",)]


def test_conditions_implied_or_ruled_out_by_static_facts_are_compiled_away():
    _, task = task_of("assembly", "p01")
    assemble = task.actions[task.action_of(("assemble", "frame"))]
    # (forall (?p - part) (when (part-of ?p ?a) (not (at-hand ?p)))): parts of the frame
    assert type(assemble) is GroundAction
    assert task.atoms_of(assemble.delete) == [("at-hand", "bolt"), ("at-hand", "plate")]


def test_quantified_goals_ground_to_literals():
    dom = load_domain(ADL / "elevator" / "domain.pddl")
    prob = load_problem(ADL / "elevator" / "problems" / "p03.pddl", dom)
    assert [(g.atom, g.positive) for g in prob.goal] == [
        (("served", "ann"), True), (("served", "bob"), True), (("served", "cyd"), True)]
    dom = load_domain(ADL / "scheduling" / "domain.pddl")
    prob = load_problem(ADL / "scheduling" / "problems" / "p03.pddl", dom)
    # (exists (?c) (and (painted gear ?c) (has-paint ?c) (= ?c blue))): blue, by statics
    assert [(g.atom, g.positive) for g in prob.goal] == [
        (("painted", "gear", "blue"), True), (("painted", "gear", "green"), False),
        (("surface-condition", "gear", "polished"), True)]


def test_the_description_says_what_the_domain_says():
    text = TaskText(load_domain(ADL / "elevator" / "domain.pddl")).describe()
    assert "It also requires that for every passenger B, if B has no access to A and B is " \
           "boarded, then B is served." in text
    assert "there is a passenger D such that D is a vip" in text
    assert "Afterwards, for every passenger E such that E is boarded and" in text
    text = TaskText(load_domain(ADL / "household" / "domain.pddl")).describe()
    assert "either the object type of B is knifetype, or the object type of B is " \
           "butterknifetype" in text
    assert "Also, if A is sliced, then A is not clean." in text


DOMAIN = """(define (domain d) (:requirements :adl)
  (:types block)
  (:predicates (on ?x - block ?y - block) (clear ?x - block))
  (:action a :parameters (?x - block)
    :precondition PRE
    :effect EFF))
"""


def domain_error(pre="(clear ?x)", eff="(clear ?x)") -> PDDLError:
    with pytest.raises(PDDLError) as err:
        parse_domain(DOMAIN.replace("PRE", pre).replace("EFF", eff), "d.pddl")
    return err.value


@pytest.mark.parametrize("pre,eff,where,words", [
    ("(imply (clear ?x))", "(clear ?x)", "d.pddl:5:19", "'imply' takes exactly two conditions"),
    ("(forall ?y (clear ?y))", "(clear ?x)", "d.pddl:5:19",
     "expected '(forall (?VARIABLE - TYPE ...) BODY)'"),
    ("(exists () (clear ?x))", "(clear ?x)", "d.pddl:5:27", "'exists' without variables"),
    ("(exists (y) (clear ?x))", "(clear ?x)", "d.pddl:5:28", "must start with '?'"),
    ("(forall (?y - blok) (clear ?y))", "(clear ?x)", "d.pddl:5:33", "unknown type 'blok'"),
    ("(and (forall (?y) (clear ?y)) (on ?y ?x))", "(clear ?x)", "d.pddl:5:53",
     "variable ?y in the precondition of a is not a parameter"),
    ("(when (clear ?x) (clear ?x))", "(clear ?x)", "d.pddl:5:19", "'when' is an effect"),
    ("(clear ?x)", "(or (clear ?x) (on ?x ?x))", "d.pddl:6:13", "'or' cannot be an effect"),
    ("(clear ?x)", "(when (clear ?x))", "d.pddl:6:13", "'when' takes a condition and an effect"),
    ("(clear ?x)", "(forall (?y) (increase (total-cost) 1))", "d.pddl:6:26",
     "action costs must be unconditional"),
    ("(clear ?x)", "(forall (?y) (when (clear ?y) (= ?x ?y)))", "d.pddl:6:43",
     "'=' cannot be an effect"),
    ("(not " * 120 + "(clear ?x)" + ")" * 120, "(clear ?x)", "d.pddl:5:524",
     "nested more than 100 levels deep"),
])
def test_malformed_adl_names_file_line_and_column(pre, eff, where, words):
    err = domain_error(pre, eff)
    assert str(err).startswith(where + ": ") and words in str(err), str(err)


DERIVED = """(define (domain paths) (:requirements :derived-predicates)
  (:predicates (edge ?x ?y) (at ?x) (reach ?x) (lost ?x) (open ?x ?y))
  (:derived (reach ?x) (at ?x))
  (:derived (reach ?y) (exists (?x) (and (reach ?x) (edge ?x ?y) (open ?x ?y))))
  (:derived (lost ?x) (not (reach ?x)))
  (:action close :parameters (?x ?y) :precondition (and (open ?x ?y) (reach ?y))
     :effect (not (open ?x ?y))))"""
DERIVED_PROBLEM = """(define (problem p) (:domain paths) (:objects a b c d)
  (:init (at a) (edge a b) (edge b c) (edge c d) (open a b) (open b c) (open c d))
  (:goal (lost d)))"""


def test_derived_atoms_are_the_stratified_fixpoint_after_every_step():
    domain = parse_domain(DERIVED, "d.pddl")
    task = ground(domain, parse_problem(DERIVED_PROBLEM, domain, "p.pddl"))

    def derived(state):
        return sorted(a for a in task.atoms_of(state) if a[0] in ("reach", "lost"))

    # the recursive rule runs to its fixpoint, the negation reads it once it is final
    assert derived(task.init) == [("reach", "a"), ("reach", "b"), ("reach", "c"),
                                  ("reach", "d")]
    state = task.actions[task.action_of(("close", "b", "c"))].apply(task.init)
    assert derived(state) == [("lost", "c"), ("lost", "d"), ("reach", "a"), ("reach", "b")]
    # an action needing a derived atom applies only where it is derived
    assert task.action_of(("close", "c", "d")) not in task.applicable(state)
    assert task.condition(task.goal).holds(state)


def test_axioms_through_their_own_negation_and_derived_init_facts_are_refused():
    cyclic = DERIVED.replace("(:derived (lost ?x) (not (reach ?x)))",
                             "(:derived (lost ?x) (not (reach ?x)))\n"
                             "  (:derived (reach ?x) (lost ?x))")
    domain = parse_domain(cyclic, "d.pddl")
    with pytest.raises(PDDLError, match="depends on the negation of .* the axioms are not "
                                        "stratified"):
        ground(domain, parse_problem(DERIVED_PROBLEM, domain, "p.pddl"))
    domain = parse_domain(DERIVED, "d.pddl")
    with pytest.raises(PDDLError, match=r"p.pddl:2:\d+: derived predicate 'reach' cannot be "
                                        "listed in :init"):
        parse_problem(DERIVED_PROBLEM.replace("(at a)", "(at a) (reach b)"), domain, "p.pddl")


@pytest.mark.parametrize("depth", [1000, 5000])
def test_deep_disjunctions_are_flattened(depth):
    pre = "(or " * depth + "(clear ?x) (on ?x ?x)" + ")" * depth
    dom = parse_domain(DOMAIN.replace("PRE", pre).replace("EFF", "(not (clear ?x))"), "d.pddl")
    task = ground(dom, parse_problem("(define (problem p) (:domain d) (:objects b - block)"
                                     "(:init (on b b)) (:goal (not (on b b))))", dom, "p.pddl"))
    assert [a.term for a in task.actions] == [("a", "b")]
    assert task.actions[0].applicable(task.init)


SWITCH = """(define (domain switch) (:requirements :adl)
  (:predicates (lit) (marked) (flag) (done))
  (:action press :precondition (not (done))
    :effect (and (done) (when (flag) (marked)) (when (lit) (not (lit)))))
  (:action hoist :effect (flag)))
"""


@pytest.mark.parametrize("explicit", [True, False])
def test_oracles_treat_conditional_effects_as_maybe(explicit):
    """`press` may add `marked` (only with `flag`) and may delete `lit` (only if lit):
    marked is no landmark, and a goal wanting lit false is reachable."""
    from racbench.worlds.strips import oracles
    from racbench.worlds.strips.task import Condition

    dom = parse_domain(SWITCH, "switch.pddl")
    task = ground(dom, parse_problem("(define (problem s) (:domain switch) (:init (lit))"
                                     "(:goal (done)))", dom, "s.pddl"))
    oracles.clear_cache(task)
    bit = task.atom_index
    done = Condition(1 << bit[("done",)], 0)
    assert not oracles.is_fact_landmark(task, task.init, done, bit[("marked",)],
                                        explicit=explicit)
    dark = Condition(0, 1 << bit[("lit",)])
    assert oracles.optimal_cost(task, task.init, dark, explicit=explicit) == 1


def test_actions_with_alternatives_becoming_applicable_are_asked_and_verified():
    import json

    import racbench
    from racbench.checks.verify import verify_row

    domain = load_domain(ADL / "assembly" / "domain.pddl")
    problems = sorted((ADL / "assembly" / "problems").glob("*.pddl"))
    rows = [row for form in ("bool", "open") for row in racbench.generate(
        "action_reachability", domain_file=ADL / "assembly" / "domain.pddl",
        problem=problems, n=8, form=form, seed=7)]
    with_alternatives = 0
    for row in rows:
        sym = json.loads(row["symbolic"])
        task = ground(domain, load_problem(ADL / "assembly" / "problems" /
                                           f"{row['problem']}.pddl", domain))
        with_alternatives += any(len(task.actions[task.action_of(t)].clauses) > 1
                                 for t in sym["subject"])
        check = verify_row(row, optimal=True)  # unified-planning / Fast Downward
        assert check.ok and not check.unchecked, (row["id"], check)
    assert with_alternatives, "no row asked about an action with alternatives"


def test_the_environment_steps_adl_and_says_why_an_alternative_fails():
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import racbench.envs  # noqa: F401 - registers racbench/strips-v0

    files = {"domain_file": str(ADL / "assembly" / "domain.pddl"),
             "problem_file": str(ADL / "assembly" / "problems" / "p02.pddl")}
    check_env(gymnasium.make("racbench/strips-v0", **files).unwrapped)
    env = gymnasium.make("racbench/strips-v0", **files)
    env.reset()
    env.step("(take-tool wrench)")
    obs, *_ = env.step("(open-shelf s1)")  # it needs the key or the hammer in hand
    # one alternative's unmet fact, not the empty part the alternatives share
    assert obs.startswith("That cannot be done now, because the agent is not holding "
                          "hammer. Nothing changes."), obs
    obs, *_ = env.step("(put-back wrench)")
    obs, *_ = env.step("(take-tool hammer)")
    obs, *_ = env.step("(open-shelf s1)")
    assert "S1 is open." in obs or "s1 is open" in obs.lower(), obs
