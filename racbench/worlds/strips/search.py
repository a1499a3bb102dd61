"""The one state-space and search module: enumerated state spaces and forward searches.

`StateSpace` enumerates the states reachable from a seed (at most `limit`, else
`SearchBudgetExceeded`) and keeps them as arrays: edges by source and action (CSR), the
truth of every atom in every state (bits packed eight to a byte), and distances to any
goal by backward sweeps, vectorised with numpy for unit costs and a Dijkstra otherwise,
cached per goal. Enumerated worlds (world.py) and the exact oracles (oracles.py) both
stand on it.

The forward searches (`astar`, `bfs_to_goal`, `shortest_plan_length`, `ucs_cost`, `optimal_first_by_search`,
`greedy_path`) answer one question from one state within a budget of stored states,
raising `SearchBudgetExceeded` rather than guessing.

Nothing here depends on set or dict iteration order: successors come sorted by action
index and candidate lists are sorted, so seeded choices give the same output on every run.
"""

from __future__ import annotations

import heapq
import math
import weakref
from collections import OrderedDict

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from racbench.text import sayer
from racbench.worlds.strips.task import GroundTask, iter_bits

_say = sayer("cli", ("search.j2",))

UNREACHABLE = -1
BLOCKED = -2  # a state `sweep` may not pass through, while it sweeps
GOALS_PER_SPACE = 256  # LRU of per-goal distance arrays
GOAL_CACHE_BYTES = 64 << 20  # ... holding at most this many bytes per space
GOALS_MIN = 16  # ... but always the latest few, however big the space
SWEEP_ALWAYS = 1024  # with action costs, spaces this small sweep at a goal's first request
DENSE_SWEEP_UP_TO = 1024  # spaces this small sweep a matrix of predecessors (1 MiB at most)


class SearchBudgetExceeded(RuntimeError):
    """The search hit its node budget before proving the answer."""


# -- enumerated spaces ------------------------------------------------------------------

class StateSpace:
    """The states reachable from `seed`, breadth-first (ids in discovery order), with
    their edges and atoms as arrays; see the module's text."""

    def __init__(self, task: GroundTask, seed: int, limit: int):
        index = {seed: 0}
        states = [seed]
        out, dst, act = [], [], []  # edges per state; each edge's target and action
        successors, add_dst, add_act = task.successors_once, dst.append, act.append
        i = 0
        while i < len(states):
            pairs = successors(states[i])  # by action index
            for k, n in pairs:
                j = index.get(n)
                if j is None:
                    if len(states) >= limit:
                        raise SearchBudgetExceeded(_say("more_reachable_states", most=limit))
                    j = index[n] = len(states)
                    states.append(n)
                add_dst(j)
                add_act(k)
            out.append(len(pairs))
            i += 1
        self.states = states
        self.index = index
        n = len(states)
        out = np.array(out, dtype=np.int64)
        self.edge_src = np.repeat(np.arange(n, dtype=np.int32), out)
        self.edge_dst = np.array(dst, dtype=np.int32)
        self.edge_act = np.array(act, dtype=np.int32)
        self.indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(out, out=self.indptr[1:])
        self.n_atoms = task.n_bits
        self.costs = np.array([a.cost for a in task.actions], dtype=np.int64)
        self.unit = bool((self.costs == 1).all())
        nbytes = max(1, (self.n_atoms + 7) // 8)
        raw = b"".join(s.to_bytes(nbytes, "little") for s in states)
        self._truth = np.frombuffer(raw, dtype=np.uint8).reshape(n, nbytes)
        self._reverse: tuple[np.ndarray, np.ndarray] | None = None
        self._goals: OrderedDict[tuple, np.ndarray] = OrderedDict()
        self._asked: OrderedDict[tuple, None] = OrderedDict()

    def __len__(self) -> int:
        return len(self.states)

    # -- edges ----------------------------------------------------------------------------
    def succ(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """(actions, successor ids) of state id `i`, by action index."""
        a, b = self.indptr[i], self.indptr[i + 1]
        return self.edge_act[a:b], self.edge_dst[a:b]

    def step(self, i: int, action: int) -> int | None:
        lo, hi = self.indptr[i], self.indptr[i + 1]
        acts = self.edge_act[lo:hi]
        pos = acts.searchsorted(action)  # the method: half the cost of np.searchsorted
        if pos < hi - lo and acts[pos] == action:
            return int(self.edge_dst[lo + pos])
        return None

    def _predecessors(self) -> tuple[np.ndarray, np.ndarray]:
        """Reverse edges as CSR: the predecessors of j are src[ptr[j]:ptr[j + 1]]."""
        if self._reverse is None:
            order = np.argsort(self.edge_dst, kind="stable")
            ptr = np.zeros(len(self.states) + 1, dtype=np.int64)
            np.cumsum(np.bincount(self.edge_dst, minlength=len(self.states)), out=ptr[1:])
            self._reverse = (ptr, self.edge_src[order])
        return self._reverse

    # -- atoms ----------------------------------------------------------------------------
    def column(self, atom: int) -> np.ndarray:
        """In which states `atom` holds, as a bool vector."""
        return (self._truth[:, atom >> 3] >> (atom & 7) & 1).astype(bool)

    def mask(self, pos: int, neg: int) -> np.ndarray:
        """Which states satisfy the condition (pos, neg)."""
        mask = np.ones(len(self.states), dtype=bool)
        for b in iter_bits(pos):
            mask &= self.column(b)
        for b in iter_bits(neg):
            mask &= ~self.column(b)
        return mask

    def truth(self, rows: np.ndarray) -> np.ndarray:
        """The bool matrix (states x atoms) of the selected states."""
        bits = np.unpackbits(self._truth[rows], axis=1, bitorder="little")
        return bits[:, :self.n_atoms].astype(bool)

    # -- distances ------------------------------------------------------------------------
    def sweep(self, targets: np.ndarray, allowed: np.ndarray | None = None,
              max_depth: int | None = None, until: int | None = None) -> np.ndarray:
        """Fewest actions from every state to `targets`, moving only through `allowed`
        states; UNREACHABLE where none (or none within `max_depth`). States not allowed
        are marked BLOCKED while sweeping (one test then skips them and those reached),
        and a level's new states are told apart from their repeats by which position
        last claimed them, not by sorting (np.unique's sort was half of a sweep's
        CPU); the distances are the same,
        whatever order a level's states come in. With `until` (a state id), the sweep
        stops after the level that reaches that state: distances up to its own are
        exact, farther states read UNREACHABLE (all are exact if it is never reached).
        A space of at most DENSE_SWEEP_UP_TO states sweeps its predecessors as a matrix
        (`_dense_sweep`): the same distances."""
        n = len(self.states)
        if n <= DENSE_SWEEP_UP_TO:
            return self._dense_sweep(targets, allowed, max_depth, until)
        dist = np.full(n, UNREACHABLE, dtype=np.int32)
        if allowed is not None:
            dist[~allowed] = BLOCKED
            targets = targets & allowed
        frontier = np.flatnonzero(targets)
        dist[frontier] = 0
        claimed = np.empty(n, dtype=np.intp)  # per state, the last position claiming it
        depth = 0
        while frontier.size and (max_depth is None or depth < max_depth) and (
                until is None or dist[until] == UNREACHABLE):
            depth += 1
            cand, _ = self._edges_into(frontier)
            if not cand.size:
                break
            cand = cand[dist[cand] == UNREACHABLE]
            at = np.arange(cand.size)
            claimed[cand] = at
            cand = cand[claimed[cand] == at]  # each state once: where it last claimed
            dist[cand] = depth
            frontier = cand
        if allowed is not None:
            dist[dist == BLOCKED] = UNREACHABLE
        return dist

    def _dense_sweep(self, targets: np.ndarray, allowed: np.ndarray | None,
                     max_depth: int | None, until: int | None = None) -> np.ndarray:
        """`sweep` in a small space: a level is the rows of the frontier's states in a
        states x states matrix of predecessors (row j: which states have an edge into
        j), or-ed together, less the states reached before. A few calls a level where
        the edge lists' took a dozen (a five-block goal's table in about half the CPU:
        goal recognition's draws read one per goal of a literal or two)."""
        pred = self.__dict__.get("_pred_matrix")
        if pred is None:
            n = len(self.states)
            pred = self._pred_matrix = np.zeros((n, n), dtype=bool)
            pred[self.edge_dst, self.edge_src] = True
        if allowed is not None:
            targets = targets & allowed
        dist = np.where(targets, 0, UNREACHABLE).astype(np.int32)
        open_ = ~targets if allowed is None else allowed & ~targets  # not reached yet
        frontier = np.flatnonzero(targets)
        take, either, nonzero = np.take, np.logical_or.reduce, np.flatnonzero
        depth = 0
        while frontier.size and (max_depth is None or depth < max_depth) and (
                until is None or dist[until] == UNREACHABLE and (
                    allowed is None or allowed[until])):  # as `sweep`: a blocked one stops it
            depth += 1
            reached = either(take(pred, frontier, axis=0), axis=0)
            reached &= open_
            frontier = nonzero(reached)
            open_[frontier] = False
            dist[frontier] = depth
        return dist

    def _edges_into(self, frontier: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The source of every edge into a `frontier` state, frontier state by frontier
        state, and how many edges each has (for np.repeat over the frontier)."""
        ptr, src = self._predecessors()
        starts = ptr[frontier]
        lens = ptr[frontier + 1] - starts
        # positions starts[f] + 0..lens[f]-1 for every frontier state f
        offsets = np.repeat(starts - (np.cumsum(lens) - lens), lens)
        return src[offsets + np.arange(int(lens.sum()))], lens

    def reach_avoiding(self, targets: np.ndarray) -> np.ndarray:
        """For every state and every atom at once, whether the state can reach `targets`
        through states where the atom is false (itself included): bit `a` of row `s`
        (atoms packed 64 to a uint64 word, word a >> 6). One backward pass for all atoms:
        a state's bits are what it shares with a successor's, less its own true atoms,
        pushed from the targets to their predecessors while any bit changes. The same
        answer as a `sweep` per atom allowing only the states where it is false (the
        landmark test: UNREACHABLE there), at the cost of a few sweeps."""
        n = len(self.states)
        words = max(1, (self.n_atoms + 63) // 64)
        raw = np.zeros((n, words * 8), dtype=np.uint8)
        raw[:, :self._truth.shape[1]] = self._truth
        free = ~raw.view("<u8")  # per state, the atoms false there (and spare bits)
        reach = np.zeros((n, words), dtype="<u8")
        frontier = np.flatnonzero(targets)
        reach[frontier] = free[frontier]
        while frontier.size:
            pred, lens = self._edges_into(frontier)
            if not pred.size:
                break
            # every edge (p -> c) into a frontier state c: p gains what c has, less its atoms
            gain = reach[np.repeat(frontier, lens)] & free[pred]
            order = np.argsort(pred, kind="stable")
            pred, gain = pred[order], gain[order]
            first = np.flatnonzero(np.r_[True, pred[1:] != pred[:-1]])
            pred = pred[first]
            new = reach[pred] | np.bitwise_or.reduceat(gain, first, axis=0)
            grown = (new != reach[pred]).any(axis=1)
            frontier = pred[grown]
            reach[frontier] = new[grown]
        return reach

    def distances(self, pos: int, neg: int, by_cost: bool = False,
                  max_depth: int | None = None) -> np.ndarray:
        """Distance of every state to the goal (pos, neg), cached per goal; by_cost sums
        action costs instead of counting actions. With `max_depth`, states farther than
        that read UNREACHABLE."""
        by_cost = by_cost and not self.unit
        key = (pos, neg, by_cost, max_depth)
        dist = self._goals.get(key)
        if dist is not None:
            self._goals.move_to_end(key)
            return dist
        targets = self.mask(pos, neg)
        dist = self._dijkstra(targets) if by_cost else self.sweep(targets, None, max_depth)
        dist.flags.writeable = False
        self._goals[key] = dist
        # at most GOALS_PER_SPACE arrays, and at most GOAL_CACHE_BYTES of them in all
        # (a 200,000-state space keeps 80, not 256 arrays of 800 KB)
        keep = max(GOALS_MIN, min(GOALS_PER_SPACE, GOAL_CACHE_BYTES // max(1, dist.nbytes)))
        while len(self._goals) > keep:
            self._goals.popitem(last=False)
        return dist

    def _dijkstra(self, targets: np.ndarray) -> np.ndarray:
        ptr, src = self._predecessors()
        order = np.argsort(self.edge_dst, kind="stable")
        act = self.edge_act[order].tolist()
        ptr_l, src_l, costs = ptr.tolist(), src.tolist(), self.costs.tolist()
        n = len(self.states)
        done, out = [False] * n, [UNREACHABLE] * n
        goals = np.flatnonzero(targets).tolist()
        heap = [(0, j) for j in goals]
        best = dict.fromkeys(goals, 0)
        while heap:
            d, j = heapq.heappop(heap)
            if done[j]:
                continue
            done[j], out[j] = True, d
            for e in range(ptr_l[j], ptr_l[j + 1]):
                i = src_l[e]
                nd = d + costs[act[e]]
                if not done[i] and nd < best.get(i, nd + 1):
                    best[i] = nd
                    heapq.heappush(heap, (nd, i))
        return np.array(out, dtype=np.int32)

    def distance(self, i: int, pos: int, neg: int, by_cost: bool = False) -> int:
        """Distance of state id `i` to the goal (UNREACHABLE = -1). With action costs, a
        goal seen for the first time in a big space is answered by a forward Dijkstra
        from i that stops at the first goal state (cheap for one-off questions); from the
        second request on, the backward sweep is computed and cached."""
        by_cost = by_cost and not self.unit
        key = (pos, neg, by_cost, None)
        if key in self._goals or not by_cost or len(self.states) <= SWEEP_ALWAYS \
                or key in self._asked:
            self._asked.pop(key, None)
            return int(self.distances(pos, neg, by_cost)[i])
        self._asked[key] = None
        if len(self._asked) > 4 * GOALS_PER_SPACE:
            self._asked.popitem(last=False)
        return self._forward_cost(i, pos, neg)

    def _forward_cost(self, i: int, pos: int, neg: int) -> int:
        states, costs = self.states, self.costs
        best = {i: 0}
        heap = [(0, i)]
        while heap:
            g, j = heapq.heappop(heap)
            if g > best[j]:
                continue
            s = states[j]
            if s & pos == pos and not s & neg:
                return g
            acts, dsts = self.succ(j)
            for k, n in zip(acts.tolist(), dsts.tolist()):
                ng = g + int(costs[k])
                if ng < best.get(n, ng + 1):
                    best[n] = ng
                    heapq.heappush(heap, (ng, n))
        return UNREACHABLE

    # -- what can be reached ----------------------------------------------------------------
    def reachable_from(self, i: int, allowed: np.ndarray | None = None) -> np.ndarray:
        """Which states can be reached from state id `i` (itself included), through
        `allowed` states only if given, as a bool vector."""
        seen = np.zeros(len(self.states), dtype=bool)
        seen[i] = True
        frontier = np.array([i])
        while frontier.size:
            starts = self.indptr[frontier]
            lens = self.indptr[frontier + 1] - starts
            total = int(lens.sum())
            if not total:
                break
            offsets = np.repeat(starts - (np.cumsum(lens) - lens), lens)
            cand = self.edge_dst[offsets + np.arange(total)]
            cand = cand[~seen[cand]]
            if allowed is not None:
                cand = cand[allowed[cand]]
            cand = np.unique(cand)
            seen[cand] = True
            frontier = cand
        return seen

    def components(self) -> tuple[int, np.ndarray]:
        """Strongly connected components: (count, label of every state)."""
        n = len(self.states)
        graph = csr_matrix((np.ones(len(self.edge_src), dtype=bool),
                            (self.edge_src, self.edge_dst)), shape=(n, n))
        return connected_components(graph, directed=True, connection="strong")


# -- forward searches ---------------------------------------------------------------------

def astar(task: GroundTask, state: int, goal, heuristic, max_nodes: int = 2_000_000,
          tie_break=None, spent: list[int] | None = None) -> list[int] | None:
    """An optimal plan (action indices) by A* with an admissible `heuristic`.

    States are reopened when a cheaper path turns up, so optimality needs admissibility
    only. `tie_break` (a random.Random) varies which optimal plan comes out. `spent[0]`
    (if given) grows by the number of states the search stored."""
    best = {state: 0}
    try:
        return _astar(task, best, state, goal, heuristic, max_nodes, tie_break)
    finally:
        if spent is not None:
            spent[0] += len(best)


def _astar(task: GroundTask, best: dict, state: int, goal, heuristic, max_nodes: int,
           tie_break) -> list[int] | None:
    counter = 0
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
            raise SearchBudgetExceeded(_say("more_states", most=max_nodes))
    return None


def bfs_to_goal(task: GroundTask, state: int, pos: int, neg: int, max_states: int,
                max_depth: int | None = None) -> tuple[int | None, int | None]:
    """(fewest actions, the first goal state found) from `state`, by breadth-first
    search; (None, None) if unreachable (or not within `max_depth`)."""
    plan = bfs_plan(task, state, pos, neg, max_states, max_depth=max_depth)
    if plan is None:
        return None, None
    for k in plan:
        state = task.actions[k].apply(state)
    return len(plan), state


def bfs_plan(task: GroundTask, state: int, pos: int, neg: int, max_states: int,
             rng=None, max_depth: int | None = None,
             spent: list[int] | None = None) -> list[int] | None:
    """A plan with the fewest actions from `state` to the goal (None if there is none,
    or none within `max_depth`), by breadth-first search; `rng` shuffles the order in
    which successors are expanded, so any shortest plan can come out.
    SearchBudgetExceeded past `max_states` states: the caller drops the question.
    `spent[0]` (if given) grows by the number of states the search stored.

    With `max_depth`, states that cannot reach the goal within it by the goal-count
    bound (`goal_count_bound`) are not expanded: they are never on a plan that short,
    and every state on one keeps the parent it had, so the plan found is the same;
    the search only stores fewer states."""
    if state & pos == pos and not state & neg:
        return []
    parent: dict[int, tuple[int, int] | None] = {state: None}
    try:
        return _bfs_plan(task, parent, state, pos, neg, max_states, rng, max_depth)
    finally:
        if spent is not None:
            spent[0] += len(parent)


def goal_count_bound(task: GroundTask, pos: int, neg: int):
    """An admissible bound on the actions left to the goal (pos, neg): its literals
    not yet true, divided by the most any one action makes true (rounded up; that
    most is kept on the task per goal)."""
    if task.axioms is not None:  # one action may make many derived atoms true
        return lambda s: 0 if s & pos == pos and not s & neg else 1
    kept = task.__dict__.setdefault("_goal_count_most", {})
    most = kept.get((pos, neg))
    if most is None:
        if len(kept) > 4096:
            kept.clear()
        most = kept[(pos, neg)] = max(((a.add & pos).bit_count() + (a.delete & neg).bit_count()
                                       for a in task.actions), default=0)
    if not most:
        return lambda s: 0 if s & pos == pos and not s & neg else math.inf
    return lambda s: -(-((pos & ~s).bit_count() + (neg & s).bit_count()) // most)


def _bfs_plan(task: GroundTask, parent: dict, state: int, pos: int, neg: int,
              max_states: int, rng, max_depth: int | None) -> list[int] | None:
    bound = goal_count_bound(task, pos, neg) if max_depth is not None else None
    if bound is not None and bound(state) > max_depth:
        return None
    frontier = [state]
    depth = 0
    successors = task.successors
    while frontier and (max_depth is None or depth < max_depth):
        depth += 1
        nxt = []
        for s in frontier:
            order = successors(s)
            if rng is not None:
                order = list(order)
                rng.shuffle(order)
            for k, n in order:
                if n in parent:
                    continue
                parent[n] = (s, k)
                if n & pos == pos and not n & neg:
                    plan = []
                    while parent[n] is not None:
                        n, k = parent[n]
                        plan.append(k)
                    return plan[::-1]
                if bound is None or depth + bound(n) <= max_depth:
                    nxt.append(n)
                if len(parent) > max_states:
                    raise SearchBudgetExceeded(_say("more_states", most=max_states))
        frontier = nxt
    return None


def shortest_plan_length(task: GroundTask, state: int, goal, max_states: int = 2_000_000) -> int | None:
    """Cost of an optimal plan from `state` to the Condition `goal` (None if unreachable):
    breadth-first for unit costs, uniform-cost otherwise."""
    if all(a.cost == 1 for a in task.actions):
        return bfs_to_goal(task, state, goal.pos, goal.neg, max_states)[0]
    return ucs_cost(task, state, goal.pos, goal.neg, max_states)


def ucs_cost(task: GroundTask, state: int, pos: int, neg: int, max_states: int) -> int | None:
    """The cost of a cheapest plan from `state`, by uniform-cost search."""
    best = {state: 0}
    heap = [(0, state)]
    actions = task.actions
    while heap:
        g, s = heapq.heappop(heap)
        if g > best[s]:
            continue
        if s & pos == pos and not s & neg:
            return g
        for k, n in task.successors(s):
            ng = g + actions[k].cost
            if ng < best.get(n, ng + 1):
                if n not in best and len(best) >= max_states:
                    raise SearchBudgetExceeded(_say("more_states", most=max_states))
                best[n] = ng
                heapq.heappush(heap, (ng, n))
    return None


def optimal_first_by_search(task: GroundTask, state: int, pos: int, neg: int,
                            max_states: int) -> list[int]:
    """First actions of optimal plans by one forward uniform-cost search.

    Every node with g <= C* is expanded and its tight edges (g(p) + cost == g(n)) kept;
    a prefix of an optimal plan is an optimal path, so the optimal plans are exactly
    the tight paths from `state` to goal nodes with g == C*."""
    actions = task.actions
    best = {state: 0}
    parents: dict[int, list[tuple[int, int, int]]] = {}  # n -> [(g via edge, p, action)]
    heap = [(0, state)]
    optimum = None
    goals = []
    while heap:
        g, s = heapq.heappop(heap)
        if g > best[s]:
            continue
        if optimum is not None and g > optimum:
            break
        if s & pos == pos and not s & neg:
            if optimum is None:
                optimum = g
            goals.append(s)
        for k, n in task.successors(s):
            ng = g + actions[k].cost
            old = best.get(n)
            if optimum is not None and ng > optimum:
                continue
            if old is None or ng <= old:
                parents.setdefault(n, []).append((ng, s, k))
            if old is None or ng < old:
                if old is None and len(best) >= max_states:
                    raise SearchBudgetExceeded(_say("more_states", most=max_states))
                best[n] = ng
                heapq.heappush(heap, (ng, n))
    if optimum is None:
        return []
    on_optimal = set(goals)
    stack = list(goals)
    first = set()
    while stack:
        n = stack.pop()
        for ng, p, k in parents.get(n, ()):
            if ng != best[n]:
                continue
            if p == state:
                first.add(k)
            if p not in on_optimal:
                on_optimal.add(p)
                stack.append(p)
    return sorted(first)


def shortest_first_actions(task: GroundTask, state: int, pos: int, neg: int,
                           max_states: int, bound=None) -> list[int]:
    """The first actions of every plan with the fewest actions from `state` to the goal
    (none if the goal holds or cannot be reached), by one breadth-first search that
    carries, for each state of a level, the set of first actions reaching it there.
    SearchBudgetExceeded past `max_states` states.

    `bound`: (the state's proven distance d, an admissible heuristic h): a state
    reached at level g with g + h > d is on no shortest plan, nor is any state a
    shortest path to one passes, so it is not expanded; the first actions of states
    on shortest plans stay the same, and so does the answer."""
    if state & pos == pos and not state & neg:
        return []
    successors = task.successors
    seen = {state}
    level: dict[int, int] = {}
    for k, n in successors(state):
        if n != state:
            level[n] = level.get(n, 0) | 1 << k
    depth = 1
    while level:
        if bound is not None:
            level = {n: first for n, first in level.items() if depth + bound[1](n) <= bound[0]}
        depth += 1
        hits = 0
        for n, first in level.items():
            if n & pos == pos and not n & neg:
                hits |= first
        if hits:
            return list(iter_bits(hits))
        seen.update(level)
        if len(seen) > max_states:
            raise SearchBudgetExceeded(_say("more_states", most=max_states))
        nxt: dict[int, int] = {}
        for s, first in level.items():
            for _, n in successors(s):
                if n not in seen:
                    nxt[n] = nxt.get(n, 0) | first
        level = nxt
    return []


# a task's actions as (precondition atoms, added atoms) lists, built once per task
_atom_lists: "weakref.WeakKeyDictionary[GroundTask, list]" = weakref.WeakKeyDictionary()


def _relaxed_costs(task: GroundTask, pos: int, avoid: int = 0):
    """The delete-relaxed cost of every atom from a state, one per action (h_add's
    costs), with the action that first achieved it at that cost, as Knuth's generalised
    Dijkstra: atoms leave a bucket queue cheapest first, and an action fires once its last
    precondition has left, offering its adds at 1 plus the sum of its preconditions'
    costs; the costs are the least fixpoint of cost(atom) = min over achievers of 1 +
    sum of their preconditions' costs, as sweeping the actions until nothing changes
    finds, in one pass instead of many. Returns costs(state) -> (cost, supporter),
    dicts stopped once every goal atom of `pos` has its cost (ties by action index).
    With `avoid`, actions that surely add an atom of it or need one are left out (they
    never fire, as if absent); an ADL action that may add one by a conditional effect
    stays, without that atom (its effect need not fire), so every plan that avoids the
    atoms is a plan of this relaxation and its dead ends are dead ends."""
    base = _atom_lists.get(task)
    if base is None:
        # derived predicates: their axioms follow the actions, as relaxed actions at no
        # cost (a supporter index past the actions is an axiom)
        base = _atom_lists[task] = [(list(iter_bits(a.pre)), list(iter_bits(a.add)))
                                    for a in task.actions] + \
            [(list(iter_bits(pos)), list(iter_bits(head)))
             for pos, head in task.relaxed_axioms]
    if avoid:
        never = ([-1], [])  # -1: a precondition never met
        masks = [(a.sure_add | a.pre, a.add) for a in task.actions] + \
            [(pos | head, head) for pos, head in task.relaxed_axioms]
        actions = [never if needs_or_adds & avoid
                   else (pre, [q for q in add if not avoid >> q & 1]) if adds & avoid
                   else (pre, add) for (needs_or_adds, adds), (pre, add) in zip(masks, base)]
    else:
        actions = base
    needing: dict[int, list[int]] = {}  # atom -> actions with it as a precondition
    for k, (pre, _) in enumerate(actions):
        for atom in pre:
            needing.setdefault(atom, []).append(k)
    unconditional = sorted((atom, k) for k, (pre, add) in enumerate(actions) if not pre
                           for atom in add)
    n_pre = [len(pre) for pre, _ in actions]
    first_cost = [1] * len(task.actions) + [0] * (len(actions) - len(task.actions))
    nothing = ()

    def costs(state: int) -> tuple[dict[int, int], dict[int, int]]:
        # a bucket per cost instead of a heap: an action fires at 1 plus its last
        # precondition's cost, so nothing enters the bucket being emptied, and each
        # bucket sorted by (atom, action) leaves in the heap's order
        cost: dict[int, int] = {}
        supporter: dict[int, int] = {}
        buckets = [[(atom, -1) for atom in iter_bits(state)], list(unconditional)]
        missing, total = n_pre.copy(), first_cost.copy()
        open_goal = pos & ~state
        open_goals = open_goal.bit_count()
        c = 0
        while open_goals and c < len(buckets):
            bucket = buckets[c]
            bucket.sort()
            for atom, k in bucket:
                if atom in cost:
                    continue
                cost[atom] = c
                supporter[atom] = k
                if open_goal >> atom & 1:
                    open_goals -= 1
                    if not open_goals:
                        break
                for k in needing.get(atom, nothing):
                    total[k] += c
                    missing[k] -= 1
                    if not missing[k]:
                        t = total[k]
                        while len(buckets) <= t:
                            buckets.append([])
                        into = buckets[t]
                        for q in actions[k][1]:
                            if q not in cost:
                                into.append((q, k))
            c += 1
        return cost, supporter

    return costs, actions


def additive_heuristic(task: GroundTask, pos: int):
    """h_add (Bonet & Geffner) for the positive goal atoms `pos`: the sum of each goal
    atom's cheapest delete-relaxed cost, one per action (see `_relaxed_costs`). Not
    admissible: it guides greedy search, whose paths are only starting points
    (distances are proven by breadth-first search). Infinite where the relaxation
    cannot reach the goal."""
    costs, _ = _relaxed_costs(task, pos)
    goal = list(iter_bits(pos))
    infinite = float("inf")

    def h(state: int) -> float:
        cost, _ = costs(state)
        return sum(cost.get(g, 0 if state >> g & 1 else infinite) for g in goal)

    return h


def relaxed_plan_heuristic(task: GroundTask, pos: int, avoid: int = 0):
    """h_FF (Hoffmann & Nebel) on h_add's best supporters, with its preferred actions:
    h(state) -> (the number of actions of a delete-relaxed plan to `pos`, the set of
    actions of that plan applicable in `state`: FF's helpful actions). Not
    admissible; it guides `lazy_greedy_path`. Infinite (and no preferred actions)
    where the relaxation cannot reach the goal. With `avoid`, the relaxation of the task
    without the actions that make an atom of it true (`lazy_greedy_path`'s `avoid`):
    its dead ends are dead ends there, and its helpful actions stay usable."""
    costs, actions = _relaxed_costs(task, pos, avoid)
    infinite = float("inf")
    n_actions = len(task.actions)

    def h(state: int) -> tuple[float, frozenset[int]]:
        cost, supporter = costs(state)
        wanted = [g for g in iter_bits(pos & ~state)]
        if any(g not in cost for g in wanted):
            return infinite, frozenset()
        plan: set[int] = set()
        done = set(wanted)
        while wanted:
            k = supporter[wanted.pop()]
            if k in plan:
                continue
            plan.add(k)
            for atom in actions[k][0]:
                if atom not in done and not state >> atom & 1:
                    done.add(atom)
                    wanted.append(atom)
        preferred = frozenset(k for k in plan if k < n_actions and
                              not any(not state >> a & 1 for a in actions[k][0]))
        return sum(1 for k in plan if k < n_actions), preferred

    return h


def lazy_greedy_path(task: GroundTask, start: int, pos: int, neg: int, max_states: int,
                     heuristic, spent: list[int] | None = None,
                     avoid: int = 0) -> list[int] | None:
    """States of some path from `start` to the goal (not optimal), by lazy greedy
    best-first search with preferred actions, as Fast Downward's lazy_greedy([ff],
    preferred=[ff]) runs it: a state is evaluated when it leaves the open list, not
    when it enters (its children wait under its value); successors by preferred
    actions also enter a second open list, taken in turn with the first and, after
    each new best value, a thousand times in a row. `heuristic(state)` gives (value,
    preferred actions), see `relaxed_plan_heuristic`. None if the search runs out of
    states without a path; SearchBudgetExceeded past `max_states` evaluated states.
    Far fewer evaluations than `greedy_path` where plateaus are wide (a 30-block
    blocksworld), and each costs one relaxed exploration. `spent[0]` (if given) grows
    by the number of states evaluated. States where an atom of `avoid` holds are never
    entered (a plan that never makes those atoms true, or None if the search ran out
    of states: then there is none, as states the heuristic calls dead ends have no
    plan at all)."""
    parent: dict[int, int | None] = {start: None}
    try:
        return _lazy_greedy_path(task, parent, start, pos, neg, max_states, heuristic, avoid)
    finally:
        if spent is not None:
            spent[0] += len(parent)


def _lazy_greedy_path(task: GroundTask, parent: dict, start: int, pos: int, neg: int,
                      max_states: int, heuristic, avoid: int) -> list[int] | None:
    infinite = float("inf")
    value, preferred = heuristic(start)
    if value == infinite:
        return None
    everything: list = []
    helpful: list = []
    counter = 0

    def expand(s: int, value: float, preferred: frozenset[int]) -> None:
        nonlocal counter
        for k, n in task.successors(s):
            if n not in parent and not n & avoid:
                counter += 1
                entry = (value, counter, s, n)
                heapq.heappush(everything, entry)
                if k in preferred:
                    heapq.heappush(helpful, entry)

    def path_to(s: int) -> list[int]:
        path = []
        while s is not None:
            path.append(s)
            s = parent[s]
        return path[::-1]

    if start & pos == pos and not start & neg:
        return [start]
    expand(start, value, preferred)
    best, boost, turn = value, 0, 0
    while everything or helpful:
        if helpful and (boost > 0 or turn % 2 or not everything):
            _, _, s, n = heapq.heappop(helpful)
            boost = max(0, boost - 1)
        else:
            _, _, s, n = heapq.heappop(everything)
        turn += 1
        if n in parent:
            continue
        parent[n] = s
        if n & pos == pos and not n & neg:
            return path_to(n)
        if len(parent) > max_states:
            raise SearchBudgetExceeded(_say("more_states", most=max_states))
        value, preferred = heuristic(n)
        if value == infinite:
            continue
        if value < best:
            best, boost = value, boost + 1000
        expand(n, value, preferred)
    return None


def greedy_path(task: GroundTask, start: int, pos: int, neg: int,
                max_states: int, heuristic=None) -> list[int] | None:
    """States of some path from `start` to the goal (not optimal), by greedy best-first
    search on `heuristic` (by default the number of unsatisfied goal literals; see
    `additive_heuristic` for one that sees past plateaus); None if there is none."""
    def count(s: int) -> int:
        return (pos & ~s).bit_count() + (neg & s).bit_count()

    h = heuristic or count

    parent = {start: None}
    heap = [(h(start), 0, start)]
    counter = 0
    while heap:
        _, _, s = heapq.heappop(heap)
        if s & pos == pos and not s & neg:
            path = []
            while s is not None:
                path.append(s)
                s = parent[s]
            return path[::-1]
        for _, n in task.successors(s):
            if n in parent:
                continue
            parent[n] = s
            if len(parent) > max_states:
                raise SearchBudgetExceeded(_say("more_states", most=max_states))
            counter += 1
            heapq.heappush(heap, (h(n), counter, n))
    return None
