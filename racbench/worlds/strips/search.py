"""The optimal-planning oracle: shortest plans and "is this a prefix of an optimal plan".

Two engines answer the same questions. `StateSpace` enumerates every state reachable
from a seed state and keeps an all-pairs distance matrix (cheap for the few hundred to
few tens of thousands of states of small worlds, e.g. 501 for five blocks); queries are
then array look-ups. `shortest_plan_length` is a uniform-cost search from one state for
worlds too big to enumerate, with a node budget so that a request never hangs.
"""

from __future__ import annotations

import heapq
from collections import deque
from typing import Sequence

import numpy as np

from racbench.worlds.strips.task import Condition, GroundTask, iter_bits

UNREACHABLE = -1


class SearchBudgetExceeded(RuntimeError):
    """The search hit its node budget before proving the optimum."""


def _unit_costs(task: GroundTask) -> bool:
    return all(a.cost == 1 for a in task.actions)


def shortest_plan_length(task: GroundTask, state: int, goal: Condition,
                         max_nodes: int = 2_000_000) -> int | None:
    """Cost of an optimal plan from `state` to `goal` (None if unreachable).

    Breadth-first for unit costs, uniform-cost otherwise; raises SearchBudgetExceeded
    past `max_nodes` visited states rather than returning a wrong answer.
    """
    if goal.holds(state):
        return 0
    if _unit_costs(task):
        seen = {state}
        frontier = [state]
        depth = 0
        while frontier:
            depth += 1
            nxt = []
            for s in frontier:
                for _, n in task.successors(s):
                    if n in seen:
                        continue
                    if goal.holds(n):
                        return depth
                    seen.add(n)
                    nxt.append(n)
                if len(seen) > max_nodes:
                    raise SearchBudgetExceeded(f"more than {max_nodes} states")
            frontier = nxt
        return None
    best = {state: 0}
    heap = [(0, state)]
    while heap:
        g, s = heapq.heappop(heap)
        if g > best[s]:
            continue
        if goal.holds(s):
            return g
        for k, n in task.successors(s):
            ng = g + task.actions[k].cost
            if ng < best.get(n, ng + 1):
                best[n] = ng
                heapq.heappush(heap, (ng, n))
        if len(best) > max_nodes:
            raise SearchBudgetExceeded(f"more than {max_nodes} states")
    return None


def astar(task: GroundTask, state: int, goal: Condition, heuristic,
          max_nodes: int = 2_000_000, tie_break=None) -> list[int] | None:
    """An optimal plan (action indices) by A* with an admissible `heuristic`.

    States are reopened when a cheaper path turns up, so optimality needs admissibility
    only. `tie_break` (a random.Random) varies which optimal plan comes out."""
    counter = 0
    best = {state: 0}
    parent: dict[int, tuple[int, int]] = {}
    heap = [(heuristic(state), 0, 0, state)]
    while heap:
        _, _, g, s = heapq.heappop(heap)
        if g > best[s]:
            continue
        if goal.holds(s):
            plan = []
            while s in parent:
                s, k = parent[s]
                plan.append(k)
            return plan[::-1]
        for k, n in task.successors(s):
            ng = g + task.actions[k].cost
            if ng < best.get(n, ng + 1):
                best[n] = ng
                parent[n] = (s, k)
                counter += 1
                tie = tie_break.random() if tie_break is not None else counter
                heapq.heappush(heap, (ng + heuristic(n), tie, ng, n))
        if len(best) > max_nodes:
            raise SearchBudgetExceeded(f"more than {max_nodes} states")
    return None


def is_optimal_prefix(task: GroundTask, state: int, plan: Sequence[int], goal: Condition,
                      max_nodes: int = 2_000_000) -> bool:
    """True iff `plan` is executable from `state` and starts some optimal plan for `goal`."""
    end, failed = task.execute(state, plan)
    if failed is not None:
        return False
    total = shortest_plan_length(task, state, goal, max_nodes)
    if total is None:
        return False
    rest = shortest_plan_length(task, end, goal, max_nodes)
    spent = sum(task.actions[k].cost for k in plan)
    return rest is not None and spent + rest == total


class StateSpace:
    """Every state reachable from `seed`, with transitions and all-pairs distances.

    Distances count actions (unit costs); use it for unit-cost worlds only.
    """

    def __init__(self, task: GroundTask, seed: int, max_states: int = 2_500):
        self.task = task
        index = {seed: 0}
        states = [seed]
        succ: list[list[tuple[int, int]]] = []
        queue = deque([seed])
        while queue:
            s = queue.popleft()
            edges = []
            for k, n in task.successors(s):
                j = index.get(n)
                if j is None:
                    if len(states) >= max_states:
                        raise SearchBudgetExceeded(f"more than {max_states} reachable states")
                    j = index[n] = len(states)
                    states.append(n)
                    queue.append(n)
                edges.append((k, j))
            succ.append(edges)
        self.states = states
        self.index = index
        self.successors = succ  # per state: [(action index, successor state id)], by action
        self.applicable = [[k for k, _ in edges] for edges in succ]
        n_atoms = len(task.atoms)
        self.truth = np.zeros((len(states), n_atoms), dtype=bool)
        for i, s in enumerate(states):
            for bit in iter_bits(s):
                self.truth[i, bit] = True
        self.distance = self._all_pairs()

    def _all_pairs(self) -> np.ndarray:
        """Distances by repeated frontier expansion with dense boolean products."""
        n = len(self.states)
        adjacency = np.zeros((n, n), dtype=np.float32)
        for i, edges in enumerate(self.successors):
            for _, j in edges:
                adjacency[i, j] = 1.0
        dist = np.full((n, n), UNREACHABLE, dtype=np.int16)
        np.fill_diagonal(dist, 0)
        reached = np.eye(n, dtype=bool)
        frontier = np.eye(n, dtype=np.float32)
        step = 0
        while frontier.any():
            step += 1
            new = (frontier @ adjacency > 0) & ~reached
            dist[new] = step
            reached |= new
            frontier = new.astype(np.float32)
        return dist

    def id_of(self, state: int) -> int:
        return self.index[state]

    def goal_mask(self, goal: Condition) -> np.ndarray:
        """Which states satisfy `goal`, as a boolean vector over state ids."""
        mask = np.ones(len(self.states), dtype=bool)
        for bit in iter_bits(goal.pos):
            mask &= self.truth[:, bit]
        for bit in iter_bits(goal.neg):
            mask &= ~self.truth[:, bit]
        return mask

    def distances_to(self, goal: Condition) -> np.ndarray:
        """Shortest plan length from every state to `goal` (UNREACHABLE = -1)."""
        mask = self.goal_mask(goal)
        if not mask.any():
            return np.full(len(self.states), UNREACHABLE, dtype=np.int16)
        d = self.distance[:, mask].astype(np.int32)
        d[d < 0] = np.iinfo(np.int32).max
        best = d.min(axis=1)
        best[best == np.iinfo(np.int32).max] = UNREACHABLE
        return best.astype(np.int16)
