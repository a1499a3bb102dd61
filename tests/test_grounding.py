"""Grounding: what relaxed reachability instantiates, over several rounds, on both join
paths; which ground actions a state offers."""

import random
from pathlib import Path

import pytest

from racbench.worlds.strips import limits
from racbench.worlds.strips.grounding import PLANNED_PRECONDITIONS, ground
from racbench.worlds.strips.model import ActionSchema, Domain, Problem
from racbench.worlds.strips.pddl_reader import (load_domain, load_problem, parse_domain,
                                               parse_problem)
from racbench.worlds.strips.shipped import shipped_domains, shipped_files, shipped_problem_names
from racbench.worlds.strips.world import trac_world, world_for

LONG = PLANNED_PRECONDITIONS + 1  # edges in the long jump: more preconditions than planned
NODES = [f"n{i:02d}" for i in range(LONG + 3)]


def line_world():
    """Nodes on a line; `step` reaches the next node, `jump` needs LONG edges in a row
    from a reached node (one fixed join order) and `mark` needs a reached node twice."""
    jump_vars = " ".join(f"?v{i}" for i in range(LONG + 1))
    edges = " ".join(f"(edge ?v{i} ?v{i + 1})" for i in range(LONG))
    domain = parse_domain(f"""(define (domain line)
      (:predicates (edge ?a ?b) (reached ?a) (far ?a) (marked ?a))
      (:action step :parameters (?a ?b) :precondition (and (reached ?a) (edge ?a ?b))
        :effect (reached ?b))
      (:action jump :parameters ({jump_vars}) :precondition (and (reached ?v0) {edges})
        :effect (far ?v{LONG}))
      (:action mark :parameters (?a ?b) :precondition (and (reached ?a) (reached ?b)
                                                            (not (= ?a ?b)))
        :effect (marked ?a)))""", "line.pddl")
    facts = " ".join(f"(edge {a} {b})" for a, b in zip(NODES, NODES[1:]))
    problem = parse_problem(f"(define (problem p) (:domain line) (:objects {' '.join(NODES)})"
                            f" (:init (reached n00) {facts}) (:goal (far {NODES[-1]})))",
                            domain, "p.pddl")
    return domain, problem


def test_actions_found_over_many_rounds_on_both_join_paths():
    domain, problem = line_world()
    task = ground(domain, problem)
    by_name = {}
    for a in task.actions:
        by_name.setdefault(a.name, []).append(a.args)
    assert by_name["step"] == list(zip(NODES, NODES[1:]))
    assert by_name["jump"] == [tuple(NODES[s:s + LONG + 1]) for s in range(3)]
    assert by_name["mark"] == [(a, b) for a in NODES for b in NODES if a != b]
    assert len(task.actions) == len(NODES) - 1 + 3 + len(NODES) * (len(NODES) - 1)


def test_exactly_at_the_limit_is_fine_when_a_fixed_order_finds_bindings_again():
    domain, problem = line_world()
    size = len(ground(domain, problem).actions)
    with limits.overridden(max_ground_actions=size):
        assert len(ground(domain, problem).actions) == size


def test_models_built_in_code_with_odd_types_ground_without_crashing():
    """The reader refuses these; a Domain or Problem built directly still grounds: a type
    in a cycle is still below `object`, an undeclared type has only `object` above it."""
    domain = Domain(name="odd", requirements=frozenset(), supertypes={"a": "b", "b": "a"},
                    constants={}, predicates={"seen": (("b",),)},
                    actions=(ActionSchema("look", (("?x", ("b",)),), (), (("seen", "?x"),), ()),
                             ActionSchema("poke", (("?x", ("object",)),), (), (), ())))
    problem = Problem(name="p", domain_name="odd", objects={"x": "a", "y": "ghost"},
                      init=frozenset(), goal=())
    task = ground(domain, problem)
    assert [a.term for a in task.actions] == [("look", "x"), ("poke", "x"), ("poke", "y")]


def check(task, states) -> int:
    """`applicable` and `successors` list what testing every ground action lists,
    ascending, on each of `states`; how many states were checked."""
    for state in states:
        expected = [k for k, a in enumerate(task.actions) if a.applicable(state)]
        assert task.applicable(state) == expected, state
        assert task.successors(state) == [(k, task.actions[k].apply(state))
                                          for k in expected]
    return len(states)


def test_applicable_actions_are_exactly_those_whose_preconditions_hold():
    """The successor index (the decision tree over atoms `applicable` walks) lists the
    same actions, ascending, as testing every ground action: on the states of each
    shipped domain's first problem and on ten-block states."""
    for domain in shipped_domains():
        domain_file, problems = shipped_files(domain, ["p01"])
        world = world_for(domain_file, problems[0])
        check(world.task, world.states[:300])
    blocks = trac_world(10)
    rng = random.Random(3)
    check(blocks.task, [blocks.sample_state(rng) for _ in range(300)])


def walk_and_random_states(task, rng, walks=3, steps=25, random_states=20):
    """States of seeded random walks (successors by testing every action) and random
    sets of atoms (unreachable ones too: the index must be exact on any state)."""
    states = [rng.getrandbits(len(task.atoms)) for _ in range(random_states)]
    for _ in range(walks):
        state = task.init
        for _ in range(steps):
            states.append(state)
            options = [k for k, a in enumerate(task.actions) if a.applicable(state)]
            if not options:
                break
            state = task.actions[rng.choice(options)].apply(state)
    return states


def test_the_successor_index_agrees_with_every_action_on_every_problem():
    """The decision tree `applicable` walks lists exactly the applicable actions,
    ascending, on walk states and random states of every shipped problem and every ADL
    test problem (alternatives, conditional effects), so a wrong tree fails here."""
    adl = Path(__file__).parent / "data" / "adl"
    cases = [shipped_files(d, shipped_problem_names(d)) for d in sorted(shipped_domains())]
    cases += [(d / "domain.pddl", sorted((d / "problems").glob("*.pddl")))
              for d in sorted(adl.iterdir())]
    checked = 0
    for domain_file, problem_files in cases:
        domain = load_domain(domain_file)
        for problem_file in problem_files:
            task = ground(domain, load_problem(problem_file, domain))
            rng = random.Random(f"index {problem_file}")
            checked += check(task, walk_and_random_states(task, rng))
    assert checked > 1000


def test_a_world_loaded_under_generous_limits_is_not_handed_out_under_lower_ones():
    """The worlds' caches key on the limits a world was read and grounded under: in one
    process, gripper p01 loaded with the defaults, then asked for with at most 5 ground
    actions (or a 100-byte file limit) is refused as a fresh process refuses it."""
    from racbench.errors import InputError
    from racbench.worlds.strips.world import stepping_world

    domain_file, (problem_file,) = shipped_files("gripper", ["p01"])
    assert world_for(domain_file, problem_file).n_states
    assert stepping_world(domain_file, problem_file).task.actions
    for lowered in ({"max_ground_actions": 5}, {"max_pddl_mb": 0.0001}):
        with limits.overridden(**lowered):
            with pytest.raises(InputError):
                world_for(domain_file, problem_file)
            with pytest.raises(InputError):
                stepping_world(domain_file, problem_file)
    assert world_for(domain_file, problem_file).n_states  # the defaults again: cached
