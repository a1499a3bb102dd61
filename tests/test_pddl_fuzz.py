"""Random and mutated PDDL raises nothing but PDDLError (parse_domain, parse_problem, ground).

A short seeded run of the campaign in benchmarks/fuzz_pddl.py (mutations of the shipped
and competition files), and hypothesis-drawn well-bracketed PDDL-like lists.
"""

import importlib.util
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from racbench.worlds.strips import limits
from racbench.worlds.strips.grounding import ground
from racbench.worlds.strips.pddl_reader import parse_domain, parse_problem
from racbench.worlds.strips.sexpr import PDDLError

ROOT = Path(__file__).resolve().parents[1]


def load_campaign():
    spec = importlib.util.spec_from_file_location("fuzz_pddl",
                                                  ROOT / "benchmarks" / "fuzz_pddl.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_seeded_mutation_campaign():
    out = load_campaign().campaign(n=2000, seed=0)
    assert not out.crashes, out.crashes[0][1]
    assert out.tried == 2000 == out.accepted + out.refused + out.limited
    assert out.accepted > 50 and out.refused > 1000 and out.limited > 0
    # a blow-up (an input parsing or grounding for ever), not a busy machine's seconds:
    # benchmarks/fuzz_pddl.py prints the slowest input's real time
    assert out.slowest[0] < 30, out.slowest


WORDS = ["define", "domain", "problem", "d", ":domain", ":requirements", ":strips",
         ":typing", ":action-costs", ":types", ":constants", ":predicates", ":functions",
         ":action", ":parameters", ":precondition", ":effect", ":objects", ":init", ":goal",
         ":metric", "and", "not", "=", "-", "either", "object", "t", "increase", "total-cost",
         "number", "p", "q", "a", "b", "?x", "?y", "?", "0", "3", "2.5", "nan", "-1", "1e9",
         "or", "imply", "exists", "forall", "when", ":adl", ":conditional-effects"]
SEXPR = st.recursive(st.sampled_from(WORDS), lambda inner: st.lists(inner, max_size=6),
                     max_leaves=40)


def render(node) -> str:
    return "(" + " ".join(map(render, node)) + ")" if isinstance(node, list) else node


DOMAIN_HEADS = [":predicates", ":action", ":types", ":constants", ":functions",
                ":requirements", ":action"]
PROBLEM_HEADS = [":init", ":goal", ":objects", ":metric", ":requirements"]


@settings(max_examples=100, derandomize=True, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(DOMAIN_HEADS), st.lists(SEXPR, max_size=5)),
                max_size=6),
       st.lists(st.tuples(st.sampled_from(PROBLEM_HEADS), st.lists(SEXPR, max_size=5)),
                max_size=5))
def test_random_lists_in_every_section(domain_sections, problem_sections):
    domain = ["define", ["domain", "d"], *([head, *body] for head, body in domain_sections)]
    problem = ["define", ["problem", "x"], [":domain", "d"],
               *([head, *body] for head, body in problem_sections)]
    with limits.overridden(max_ground_actions=2000):
        try:
            parsed = parse_domain(render(domain), "d.pddl")
            ground(parsed, parse_problem(render(problem), parsed, "p.pddl"))
        except PDDLError as err:
            assert str(err).startswith(("d.pddl", "p.pddl"))
