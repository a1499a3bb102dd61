"""Every generated label against a second, deliberately simple implementation.

The reference below knows TRAC's blocksworld directly (sets of tuples, the paper's
appendix B) and shares no code with racbench's PDDL engine or generators.
"""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from racbench.tasks.config import TRAC_DOMAIN, TaskConfig
from racbench.tasks.rows import ConfigRows


def applicable(state, act):
    name, *args = act
    if len(set(args)) != len(args):
        return False
    if name == "move":
        x, y, z = args
        return {("clear", x), ("clear", z), ("on", x, y)} <= state
    if name == "movetotable":
        x, y = args
        return {("clear", x), ("on", x, y)} <= state
    x, y = args
    return {("ontable", x), ("clear", x), ("clear", y)} <= state


def apply(state, act):
    name, *args = act
    if name == "move":
        x, y, z = args
        return (state - {("clear", z), ("on", x, y)}) | {("on", x, z), ("clear", y)}
    if name == "movetotable":
        x, y = args
        return (state - {("on", x, y)}) | {("ontable", x), ("clear", y)}
    x, y = args
    return (state - {("ontable", x), ("clear", y)}) | {("on", x, y)}


def run(state, actions):
    for act in actions:
        if not applicable(state, act):
            return None
        state = apply(state, act)
    return state


def all_actions(objects):
    for x in objects:
        for y in objects:
            yield ("movetotable", x, y)
            yield ("movefromtable", x, y)
            for z in objects:
                yield ("move", x, y, z)


def satisfied(state, literals):
    return all((tuple(l["atom"]) in state) == l["positive"] for l in literals)


def distance(state, literals, objects):
    seen, frontier, depth = {state}, [state], 0
    while frontier:
        if any(satisfied(s, literals) for s in frontier):
            return depth
        nxt = []
        for s in frontier:
            for act in all_actions(objects):
                if applicable(s, act):
                    n = frozenset(apply(s, act))
                    if n not in seen:
                        seen.add(n)
                        nxt.append(n)
        frontier, depth = nxt, depth + 1
    return None


def reference_label(p):
    state = frozenset(tuple(a) for a in p["state"])
    actions = [tuple(a) for a in p["actions"]]
    end = run(state, actions)
    if p["family"] == "projection":
        return satisfied(end, p["subject"])
    if p["family"] == "executability":
        return end is not None
    if p["family"] == "planning":
        return end is not None and satisfied(end, p["goal"])
    total = distance(state, p["goal"], p["objects"])
    rest = None if end is None else distance(frozenset(end), p["goal"], p["objects"])
    return rest is not None and rest + len(actions) == total


GENERATORS = {}


def generator(task, objects):
    key = (task, objects)
    if key not in GENERATORS:
        cfg = TaskConfig(task, domain=TRAC_DOMAIN, objects=objects, lengths=(1, 2, 3),
                         names="seen", style="trac")
        GENERATORS[key] = ConfigRows("prop", cfg, 7, ("train",))
    return GENERATORS[key]


@settings(max_examples=150, deadline=None)
@given(task=st.sampled_from(["projection", "executability", "planning", "goal_recognition"]),
       objects=st.sampled_from([3, 4, 5]), index=st.integers(0, 10**6),
       code=st.integers(0, 10**6))
def test_generated_labels_match_the_reference(task, objects, index, code):
    row = generator(task, objects).row("train", index, code)
    problem = json.loads(row.columns["symbolic"])
    assert problem["answer"] == bool(row.columns["label"])
    assert reference_label(problem) == problem["answer"]
    # rows are not degenerate: goals are not already true, queried blocks exist
    state = frozenset(tuple(a) for a in problem["state"])
    if task in ("planning", "goal_recognition"):
        assert not satisfied(state, problem["goal"])
    for lit in (problem["subject"] or []) + problem.get("goal", []):
        assert set(lit["atom"][1:]) <= set(problem["objects"])
    if row.columns["optimal_plan_length"] is not None:
        assert row.columns["optimal_plan_length"] == distance(state, problem["goal"],
                                                              problem["objects"])
