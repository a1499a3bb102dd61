"""Admissible heuristics: lower bounds on the number of actions left to reach a goal.

`blocks_must_move` serves TRAC's blocksworld, where every action moves exactly one
block: each goal literal not yet true names blocks that must move at least once (to
make x clear, every block above x; to put x on y, x and every block above x or y; to
make x not clear, some block), and distinct blocks need distinct moves. So the size of
the union is a lower bound, and A* with it finds optimal plans for ten blocks where
breadth-first search would visit millions of states.
"""

from __future__ import annotations

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
    on_pairs = _blocksworld_on_pairs(task)
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
