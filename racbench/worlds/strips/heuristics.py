"""Admissible heuristics: lower bounds on the number of actions left to reach a goal.

`blocks_must_move` serves TRAC's blocksworld, where every action moves exactly one
block: each goal literal not yet true names blocks that must move at least once (to
make x clear, every block above x; to put x on y, x and every block above x or y; to
make x not clear, some block), and distinct blocks need distinct moves. So the size of
the union is a lower bound, and A* with it finds optimal plans for ten blocks where
breadth-first search would visit millions of states.
"""

from __future__ import annotations

import heapq
from typing import Callable

from racbench.worlds.strips.task import Condition, GroundTask, iter_bits

Heuristic = Callable[[int], int]

BLOCKSWORLD_ACTIONS = frozenset({"move", "movetotable", "movefromtable"})


def _blocksworld_on_pairs(task: GroundTask) -> dict[int, tuple[str, str]] | None:
    """The on(x, y) atoms by index if `task` is TRAC blocksworld, else None (memoised)."""
    cached = _ON_PAIRS.get(id(task))
    if cached is None or cached[0] is not task:
        preds = {a[0] for a in task.atoms}
        pairs = None
        if ({a.name for a in task.actions} == BLOCKSWORLD_ACTIONS
                and preds <= {"on", "ontable", "clear"}):
            pairs = {i: (a[1], a[2]) for i, a in enumerate(task.atoms) if a[0] == "on"}
        if len(_ON_PAIRS) > 64:
            _ON_PAIRS.clear()
        cached = _ON_PAIRS[id(task)] = (task, pairs)
    return cached[1]


_ON_PAIRS: dict[int, tuple[GroundTask, dict | None]] = {}


def blocks_must_move(task: GroundTask, goal: Condition) -> Heuristic | None:
    """The must-move lower bound for `goal`, or None if `task` is not TRAC blocksworld."""
    on_pairs = _blocksworld_on_pairs(task) if task.axioms is None else None
    if on_pairs is None:
        return None
    on_mask = sum(1 << i for i in on_pairs)
    literals = [(task.atoms[i], True, i) for i in iter_bits(goal.pos)]
    literals += [(task.atoms[i], False, i) for i in iter_bits(goal.neg)]

    def h(state: int) -> int:
        on_top: dict[str, str] = {}
        for i in iter_bits(state & on_mask):
            x, y = on_pairs[i]
            on_top[y] = x

        def above(block: str) -> set[str]:
            out = set()
            while block in on_top:
                block = on_top[block]
                out.add(block)
            return out

        must: set[str] = set()
        some_move = False
        for atom, positive, i in literals:
            if bool(state >> i & 1) == positive:
                continue
            some_move = True
            pred = atom[0]
            if pred == "clear" and positive:
                must |= above(atom[1])
            elif pred == "clear":
                continue  # some block must land on it: at least one move
            elif pred == "on" and positive:
                must |= above(atom[1]) | above(atom[2]) | {atom[1]}
            else:  # ontable either way, or removing on(x, y): x itself must move
                must |= above(atom[1]) | {atom[1]}
        return max(len(must), 1 if some_move else 0)

    return h


def lm_cut(task: GroundTask, pos: int) -> Heuristic:
    """LM-cut (Helmert & Domshlak 2009) for the positive goal atoms `pos`: admissible,
    and at least h^max (its first cut alone is h^max's value). Each round computes
    h^max under the costs left, follows every action from its costliest precondition
    to its adds (the justification graph), and cuts the actions that enter the part
    from which the goal is reached at zero cost: every plan needs one of them, so the
    cheapest one's cost is added and taken off all of them, until the goal costs
    nothing. The relaxation is taken from each action's masks (every precondition it
    surely needs, every atom it may add), so plans of the task are plans of the
    relaxation and the bound stays admissible for ADL actions too. Infinite where the
    relaxation cannot reach the goal (then no plan can)."""
    n = task.n_bits
    start, goal = n, n + 1  # artificial atoms: true in every state; the goal reached
    # derived predicates: their axioms are relaxed actions at no cost
    rules = task.relaxed_axioms
    pre = [list(iter_bits(a.pre)) or [start] for a in task.actions] + \
        [list(iter_bits(p)) or [start] for p, _ in rules]
    add = [list(iter_bits(a.add)) for a in task.actions] + [list(iter_bits(h)) for _, h in rules]
    pre.append(list(iter_bits(pos)) or [start])  # the artificial goal action
    add.append([goal])
    base_cost = [a.cost for a in task.actions] + [0] * len(rules) + [0]
    needing: list[list[int]] = [[] for _ in range(n + 2)]
    achievers: list[list[int]] = [[] for _ in range(n + 2)]
    for k, atoms in enumerate(pre):
        for p in atoms:
            needing[p].append(k)
    for k, atoms in enumerate(add):
        for q in atoms:
            achievers[q].append(k)
    n_pre = [len(atoms) for atoms in pre]
    n_actions = len(pre)
    infinite = float("inf")

    def hmax(state: int, cost: list[int]) -> tuple[list[float], list[int]]:
        """h^max of every atom under `cost`, and each action's costliest precondition
        (the one finalised last: Dijkstra finalises in order of cost; -1 for actions
        the relaxation never applies)."""
        value = [infinite] * (n + 2)
        pcf = [-1] * n_actions
        missing = n_pre.copy()
        heap = [(0, p) for p in iter_bits(state)] + [(0, start)]
        for _, p in heap:
            value[p] = 0
        heapq.heapify(heap)
        done = [False] * (n + 2)
        while heap:
            c, p = heapq.heappop(heap)
            if done[p]:
                continue
            done[p] = True
            for k in needing[p]:
                pcf[k] = p
                missing[k] -= 1
                if not missing[k]:
                    reach = c + cost[k]
                    for q in add[k]:
                        if reach < value[q]:
                            value[q] = reach
                            heapq.heappush(heap, (reach, q))
        return value, [p if not m else -1 for p, m in zip(pcf, missing)]

    def h(state: int) -> float:
        if state & pos == pos:
            return 0
        cost = base_cost.copy()
        value, pcf = hmax(state, cost)
        if value[goal] == infinite:
            return infinite
        total = 0
        while value[goal] > 0:
            # the goal zone: atoms from which the goal is reached by zero-cost edges
            zone = {goal}
            stack = [goal]
            while stack:
                q = stack.pop()
                for k in achievers[q]:
                    p = pcf[k]
                    if cost[k] == 0 and p >= 0 and p not in zone:
                        zone.add(p)
                        stack.append(p)
            # atoms reached from the state without entering the zone; the cut: actions
            # from those atoms into the zone
            by_pcf: dict[int, list[int]] = {}
            for k in range(n_actions):
                if pcf[k] >= 0:
                    by_pcf.setdefault(pcf[k], []).append(k)
            seen = set(iter_bits(state)) | {start}
            stack = list(seen)
            cut = set()
            while stack:
                p = stack.pop()
                for k in by_pcf.get(p, ()):
                    for q in add[k]:
                        if q in zone:
                            cut.add(k)
                        elif q not in seen:
                            seen.add(q)
                            stack.append(q)
            least = min(cost[k] for k in cut)
            total += least
            for k in cut:
                cost[k] -= least
            value, pcf = hmax(state, cost)
        return total

    return h
