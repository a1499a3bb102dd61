"""The enumeration of a state space written for speed (StateSpace.__init__: successors
not kept, edges counted per state) gives the arrays a plain breadth-first enumeration
gives, and leaves the task's successor memo as it found it; its components' atoms and
actions (ExplicitWorld._components) are what a search from each component finds."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import breadth_first_order

from racbench.worlds.strips.search import StateSpace
from racbench.worlds.strips.shipped import shipped_files
from racbench.worlds.strips.world import world_for


def _plainly(task, seed: int):
    index, states, edges = {seed: 0}, [seed], []
    i = 0
    while i < len(states):
        for k, n in task.successors(states[i]):
            if n not in index:
                index[n] = len(states)
                states.append(n)
            edges.append((i, index[n], k))
        i += 1
    src, dst, act = (np.array(c, dtype=np.int32) for c in zip(*edges))
    indptr = np.searchsorted(src, np.arange(len(states) + 1)).astype(np.int64)
    return states, src, dst, act, indptr


@pytest.mark.parametrize("domain,problem", [("gripper", "p02"), ("depots", "p02"),
                                            ("logistics", "p04")])
def test_an_enumerated_space_is_the_plain_enumeration(domain, problem):
    domain_file, problems = shipped_files(domain, [problem])
    task = world_for(domain_file, problems[0]).task
    task._succ_memo.clear()
    space = StateSpace(task, task.init, 10 ** 6)
    assert task._succ_memo == {}  # nothing kept of states asked about once
    states, src, dst, act, indptr = _plainly(task, task.init)
    assert space.states == states
    for got, expected in ((space.edge_src, src), (space.edge_dst, dst),
                          (space.edge_act, act), (space.indptr, indptr)):
        assert got.dtype == expected.dtype and (got == expected).all()
    state = states[len(states) // 2]
    assert task.successors_once(state) == task.successors(state)


def _components_plainly(world):
    """ExplicitWorld._components from its meaning, not its way: a component's atoms are
    those true in some state reachable from it, its actions those taken from one; the
    states reachable from one of its states found by a breadth-first search (scipy)."""
    space = world.space
    n_comp, labels = space.components()
    graph = csr_matrix((np.ones(len(space.edge_src)), (space.edge_src, space.edge_dst)),
                       shape=(world.n_states, world.n_states))
    member = {c: s for s, c in reversed(list(enumerate(labels.tolist())))}
    atoms, actions = [0] * n_comp, [0] * n_comp
    for c, s in member.items():
        reached = breadth_first_order(graph, s, return_predecessors=False)
        for t in reached.tolist():
            atoms[c] |= world.states[t]
        for k in np.unique(space.edge_act[np.isin(space.edge_src, reached)]).tolist():
            actions[c] |= 1 << k
    return labels, atoms, actions


@pytest.mark.parametrize("domain,problem", [("gripper", "p02"), ("depots", "p02"),
                                            ("visitall", "p05"), ("rovers", "p01")])
def test_components_atoms_and_actions_as_state_by_state(domain, problem):
    """ExplicitWorld._components or-s a component's states' bits a byte column at a
    time and its actions from the distinct (component, action) pairs, then passes them
    up the components' order: what a search from each component finds."""
    domain_file, problems = shipped_files(domain, [problem])
    world = world_for(domain_file, problems[0])
    labels, atoms, actions = world._components
    plain_labels, plain_atoms, plain_actions = _components_plainly(world)
    assert (labels == plain_labels).all()
    assert atoms == plain_atoms and actions == plain_actions
