"""The enumeration of a state space written for speed (StateSpace.__init__: successors
not kept, edges counted per state) gives the arrays a plain breadth-first enumeration
gives, and leaves the task's successor memo as it found it."""

from __future__ import annotations

import numpy as np
import pytest

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
