"""Exact oracles over a ground STRIPS task: the answers the task families ask about.

Everything here is a pure function of a `GroundTask` (action indices, states as int
bitmasks, goals as `Condition`). Answers are exact: when a search would have to visit
more than its budget (`max_states`) it raises `SearchBudgetExceeded` instead of guessing.
Results never depend on set or dict iteration order (successors come sorted by action
index, candidate lists are sorted), so a seeded `random.Random` gives the same output on
every run.

Two engines
-----------
* **Explicit.** The states reachable from `task.init` are enumerated once per task (at
  most `EXPLICIT_STATES`: about 1 s and 50 MB at the limit), with successor lists and,
  on demand, a CSR copy of the reverse edges. Distances to a goal are one backward
  sweep over it (breadth-first and vectorised with numpy for unit costs, a Dijkstra
  otherwise), cached per goal, and every later query is a look-up. A state outside
  that space gets its own enumeration (at most `OUTSIDE_STATES`, kept in a small
  per-task LRU). This is `search.StateSpace` minus its all-pairs matrix: the dense
  n x n matrices cost O(n^2) memory (gigabytes at 20,000 states) and O(n^3) per BFS
  layer, while the oracles only need distances *to a goal*, which one backward sweep
  gives in O(n + edges).
* **Bounded search.** When the space is too big (or `explicit=False`), each query runs
  its own forward search from the query state, after sound "never" tests: the delete
  relaxation, then h^2 pair reachability (which catches invariants such as "holding(x)
  and clear(x) never hold together"). `max_states` bounds these searches only; the
  explicit engine is exact whatever the budget.

Which engine answers depends only on the task and the query state, never on earlier
calls, so results (budget exceptions included) do not depend on query order. The exact
oracles answer identically under both engines (the tests cross-check them against
brute force); only the sampler `states_near_goal` draws differently (see there).

Conventions
-----------
* Distances in `states_near_goal` count actions; `optimal_cost` and the optimal-plan
  predicates use action costs (which are 1 in all shipped domains).
* `relaxed_reachable` ignores delete effects and negative preconditions, so it is an
  over-approximation of what can ever become true: "not relaxed-reachable" is a proof of
  unreachability, "relaxed-reachable" proves nothing.
"""

from __future__ import annotations

import heapq
import itertools
import random
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from racbench.text import sayer
from racbench.worlds.strips.search import (SearchBudgetExceeded, StateSpace, bfs_to_goal,
                                           greedy_path, lazy_greedy_path,
                                           optimal_first_by_search, relaxed_plan_heuristic,
                                           ucs_cost)
from racbench.worlds.strips.task import Condition, GroundAction, GroundTask, iter_bits

_say = sayer("cli", ("search.j2",))

__all__ = [
    "DEFAULT_BUDGET", "EXPLICIT_STATES", "JUSTIFICATION_MODES", "OUTSIDE_STATES",
    "PlanCheck",
    "SearchBudgetExceeded", "action_reachable", "applicable_actions", "clear_cache",
    "exactly_one_groups",
    "fact_reachable", "is_fact_landmark", "is_justified_step", "on_some_optimal_plan",
    "optimal_cost", "optimal_first_actions", "progression", "relaxed_reachable",
    "sample_states", "split_landmarks", "states_near_goal", "unnecessary_steps", "validate_plan",
]

EXPLICIT_STATES = 50_000  # enumerate the space reachable from init up to this many states
OUTSIDE_STATES = 10_000  # ... and the space of a state outside it up to this many
DEFAULT_BUDGET = 50_000  # states one bounded search may store before it gives up
_SPACES_PER_TASK = 8  # LRU of spaces enumerated from states outside the init space
_STATES_PER_TASK = 256  # LRU of per-state relaxed closures and h^2 pair tables
GUIDES_KEPT = 256  # h_FF guides per task, one per (goal, avoided atom)
QUICK_SEARCH = 200  # split_landmarks: states a search may visit before h^2 is tried
REGRESSION_SETS = 2_000  # landmarks: subgoals one regression proof may keep
UNREACHABLE = -1


# -- caches ---------------------------------------------------------------------------

class _TaskCache:
    def __init__(self, task: GroundTask):
        self.init_space: StateSpace | None = None
        self.init_tried = False
        self.init_too_big = False
        self.spaces: OrderedDict[int, StateSpace] = OrderedDict()
        self.too_big: OrderedDict[int, None] = OrderedDict()
        # derived atoms: reached by their axioms (as relaxed actions), may turn false
        self.relax = [(a.pre, a.add) for a in task.actions] + task.relaxed_axioms
        self.triples = [(a.pre, a.add, a.delete) for a in task.actions]
        self.relaxed: OrderedDict[int, int] = OrderedDict()  # state -> relaxed closure
        self.h2: OrderedDict[int, list[int]] = OrderedDict()  # state -> h^2 pairs
        deletable = 0
        for a in task.actions:
            deletable |= a.may_delete
        self.deletable = deletable | (task.axioms.mask if task.axioms else 0)
        # what an action needs or surely adds (ADL: an effect that may add an atom can
        # also not fire); the landmark shortcuts leave these actions out
        self.needs_or_adds = [a.pre | a.sure_add for a in task.actions] + \
            [pos | head for pos, head in task.relaxed_axioms]
        self.guides: dict[tuple[int, int], object] = {}  # (goal, avoided) -> h_FF
        self.groups: list[int] | None = None  # exactly-one invariants, as masks
        self.achievers: dict | None = None  # atom -> (pre, sure adds) of its adders
        self.adders: list[list[int]] | None = None  # atom -> STRIPS actions adding it
        self.implied: dict[tuple[int, int], int] = {}  # goal -> atoms every goal state has
        self.steps: list | None = None  # per action: what is true, false, may change after
        self.init_pairs: list[int] | None = None  # h^2 pairs from init: the mutexes
        self.rules: dict[tuple[int, int, int], bool] = {}  # (a, b, c): a and b imply c
        self.rule_implied: OrderedDict[tuple[int, int, int], int] = OrderedDict()


_CACHES: "weakref.WeakKeyDictionary[GroundTask, _TaskCache]" = weakref.WeakKeyDictionary()


def _cache(task: GroundTask) -> _TaskCache:
    c = _CACHES.get(task)
    if c is None:
        c = _CACHES[task] = _TaskCache(task)
    return c


def clear_cache(task: GroundTask | None = None) -> None:
    """Forget enumerated spaces and distance tables (of one task, or of all)."""
    if task is None:
        _CACHES.clear()
    else:
        _CACHES.pop(task, None)


def _space(task: GroundTask, state: int, explicit: bool) -> StateSpace | None:
    """An enumerated space containing `state` (closed under successors), or None.

    Which engine answers depends only on (task, state), never on earlier calls: the
    space from init if it has at most EXPLICIT_STATES states and contains `state`;
    None if the init space is bigger; else the space from `state` if it has at most
    OUTSIDE_STATES states (a cached space containing `state` implies it has). So
    results, budget exceptions included, do not depend on the order of queries."""
    if not explicit:
        return None
    c = _cache(task)
    if not c.init_tried:
        c.init_tried = True
        try:
            c.init_space = StateSpace(task, task.init, EXPLICIT_STATES)
        except SearchBudgetExceeded:
            c.init_too_big = True
    if c.init_space is not None and state in c.init_space.index:
        return c.init_space
    if c.init_too_big:
        return None  # a big world: do not pay for a failed enumeration per query
    sp = c.spaces.get(state)
    if sp is not None:
        c.spaces.move_to_end(state)
        return sp
    for seed, sp in c.spaces.items():
        if state in sp.index:
            c.spaces.move_to_end(seed)
            return sp
    if state in c.too_big:
        return None
    try:
        sp = StateSpace(task, state, OUTSIDE_STATES)
    except SearchBudgetExceeded:
        c.too_big[state] = None
        if len(c.too_big) > 4 * _SPACES_PER_TASK:
            c.too_big.popitem(last=False)
        return None
    c.spaces[state] = sp
    if len(c.spaces) > _SPACES_PER_TASK:
        c.spaces.popitem(last=False)
    return sp


# -- thin helpers ---------------------------------------------------------------------

def applicable_actions(task: GroundTask, state: int) -> list[int]:
    """Indices of the actions applicable in `state`, ascending."""
    return task.applicable(state)


def progression(task: GroundTask, state: int, action: int) -> tuple[int, int]:
    """Which facts change: (atoms made true that were false, atoms made false that were
    true), as masks. PDDL semantics (delete, then add): an atom both deleted and added
    stays true. ValueError if the action is not applicable in `state`."""
    a = task.actions[action]
    if not a.applicable(state):
        raise ValueError(_say("not_applicable", action=action, term=a.term))
    new = a.apply(state)
    atoms = task.atom_mask  # a disjunctive goal's derived bit is no fact
    return new & ~state & atoms, state & ~new & atoms


def relaxed_reachable(task: GroundTask, state: int) -> int:
    """Mask of the atoms reachable from `state` under the delete relaxation.

    Deletes and negative preconditions are ignored, so this over-approximates the atoms
    that can ever be true: an atom outside the mask can never become true."""
    c = _cache(task)
    reached = c.relaxed.get(state)
    if reached is None:
        reached = c.relaxed[state] = _relaxed(c.relax, state)
        if len(c.relaxed) > _STATES_PER_TASK:
            c.relaxed.popitem(last=False)
    else:
        c.relaxed.move_to_end(state)
    return reached


def _relaxed(pending: list[tuple[int, int]], reached: int) -> int:
    changed = True
    while changed and pending:
        changed = False
        rest = []
        for pre, add in pending:
            if reached & pre == pre:
                if add & ~reached:
                    reached |= add
                    changed = True
            else:
                rest.append((pre, add))
        pending = rest
    return reached


def _provably_unsolvable(task: GroundTask, state: int, pos: int, neg: int) -> bool:
    """A sound 'never': a positive atom outside the relaxed closure, or a negative one
    that is true now and that no action deletes."""
    if neg & state & ~_cache(task).deletable:
        return True
    return pos & ~relaxed_reachable(task, state) != 0


def _h2_pairs(actions: Sequence[tuple[int, int, int]], state: int, n_atoms: int) -> list[int]:
    """h^2 reachability (Haslum & Geffner) from `state` over (pre, add, delete) triples:
    pairs[p] is the mask of atoms q such that {p, q} may be true together in some
    reachable state (p itself in it iff p may become true). Deletes count, negative
    preconditions are ignored, so this over-approximates the reachable pairs while
    catching invariants the delete relaxation misses (holding(x) and clear(x) in
    blocksworld, say)."""
    pairs = [0] * n_atoms
    for p in iter_bits(state):
        pairs[p] = state
    reached = state
    changed = True
    while changed:
        changed = False
        for pre, add, delete in actions:
            if pre & ~reached:
                continue
            common = reached
            for r in iter_bits(pre):
                m = pairs[r]
                if pre & ~m:
                    break
                common &= m
            else:
                extra = add | (common & ~delete)
                for p in iter_bits(add):
                    new = extra & ~pairs[p]
                    if new:
                        pairs[p] |= new
                        changed = True
                        bit = 1 << p
                        for q in iter_bits(new):
                            pairs[q] |= bit
                reached |= add
    return pairs


def _h2_allows(pairs: list[int], pos: int) -> bool:
    """Are the atoms of `pos` pairwise h^2-reachable (each one reachable included)?"""
    for r in iter_bits(pos):
        if pos & ~pairs[r]:
            return False
    return True


def _h2_unsolvable(task: GroundTask, state: int, pos: int) -> bool:
    """A sound 'never', stronger than the delete relaxation, for the search engine
    (never for tasks with derived predicates: h^2 does not read axioms)."""
    if task.axioms is not None:
        return False
    c = _cache(task)
    pairs = c.h2.get(state)
    if pairs is None:
        pairs = c.h2[state] = _h2_pairs(c.triples, state, task.n_bits)
        if len(c.h2) > _STATES_PER_TASK:
            c.h2.popitem(last=False)
    else:
        c.h2.move_to_end(state)
    return not _h2_allows(pairs, pos)


# -- plans ----------------------------------------------------------------------------

@dataclass(frozen=True)
class PlanCheck:
    executable: bool  # every step applicable in turn
    first_failure: int | None  # 0-based index of the first inapplicable step
    achieves_goal: bool  # executable and the goal holds at the end
    valid: bool  # executable and achieves the goal
    final_state: int  # state after the executable prefix


def validate_plan(task: GroundTask, state: int, plan: Sequence[int],
                  goal: Condition) -> PlanCheck:
    end, failed = task.execute(state, plan)
    executable = failed is None
    achieves = executable and goal.holds(end)
    return PlanCheck(executable, failed, achieves, achieves, end)


JUSTIFICATION_MODES = ("single", "greedy", "subsequence")


def is_justified_step(task: GroundTask, state: int, plan: Sequence[int], goal: Condition,
                      i: int, mode: str = "single", max_states: int = DEFAULT_BUDGET) -> bool:
    """Whether step i (0-based) of a valid plan is needed.

    mode="single" (the default): False iff the plan without step i alone is still valid.
    mode="greedy": False iff removing step i, and then every later step that is no
      longer applicable when its turn comes, still reaches the goal (Fink & Yang's greedy
      justification): catches a useless action whose only use was a later useless one.
    mode="subsequence": False iff some order-preserving sub-plan without step i is
      valid (the step is not in every valid sub-plan), e.g. both halves of an inserted
      pick-up/put-down pair. Exact, by carrying the set of states that subsets of the
      earlier steps reach; raises SearchBudgetExceeded past `max_states` such states.

    Each mode finds at least the unjustified steps of the previous one. ValueError if
    `plan` is not valid from `state`; IndexError if i is out of range."""
    _check_mode(mode)
    if not 0 <= i < len(plan):
        raise IndexError(_say("step_out_of_range", step=i, steps=len(plan)))
    if not validate_plan(task, state, plan, goal).valid:
        raise ValueError(_say("valid_plans_only"))
    return _justified(task, state, plan, goal, i, mode, max_states)


def _check_mode(mode: str) -> None:
    if mode not in JUSTIFICATION_MODES:
        raise ValueError(_say("unknown_mode", mode=repr(mode), modes=JUSTIFICATION_MODES))


def _justified(task, state, plan, goal, i, mode, max_states) -> bool:
    actions = task.actions
    if mode == "single":
        return not validate_plan(task, state, list(plan[:i]) + list(plan[i + 1:]), goal).valid
    if mode == "greedy":
        s = state
        for j, k in enumerate(plan):
            a = actions[k]
            if j != i and a.applicable(s):
                s = a.apply(s)
        return not goal.holds(s)
    if mode == "subsequence":
        # a sub-plan may stop anywhere, so a goal state in the frontier settles it
        pos, neg = goal.pos, goal.neg
        if state & pos == pos and not state & neg:
            return False
        frontier = {state}
        for j, k in enumerate(plan):
            if j == i:
                continue
            a = actions[k]
            new = [a.apply(s) for s in frontier if a.applicable(s)]
            for s in new:
                if s & pos == pos and not s & neg:
                    return False
            frontier.update(new)
            if len(frontier) > max_states:
                raise SearchBudgetExceeded(_say("more_sub_plan_states", most=max_states))
        return True
    raise AssertionError(mode)


def unnecessary_steps(task: GroundTask, state: int, plan: Sequence[int], goal: Condition,
                      mode: str = "single", max_states: int = DEFAULT_BUDGET) -> list[int]:
    """The steps i of a valid plan with is_justified_step(...) False, ascending."""
    _check_mode(mode)
    if not validate_plan(task, state, plan, goal).valid:
        raise ValueError(_say("valid_plans_only"))
    return [i for i in range(len(plan))
            if not _justified(task, state, plan, goal, i, mode, max_states)]


# -- bounded searches -----------------------------------------------------------------

def _bfs_distance(task: GroundTask, state: int, pos: int, neg: int, max_states: int,
                  max_depth: int | None = None) -> int | None:
    """Fewest actions from `state` to the goal; None if unreachable (or, with max_depth,
    not within max_depth actions)."""
    return bfs_to_goal(task, state, pos, neg, max_states, max_depth)[0]


# -- reachability ---------------------------------------------------------------------

def fact_reachable(task: GroundTask, state: int, atom: int, max_states: int = DEFAULT_BUDGET,
                   explicit: bool = True) -> bool:
    """Can atom `atom` (index) ever become true from `state`? True if it holds now."""
    return _reachable(task, state, 1 << atom, 0, max_states, explicit)


def action_reachable(task: GroundTask, state: int, action: int,
                     max_states: int = DEFAULT_BUDGET, explicit: bool = True) -> bool:
    """Can action `action` (index) ever become applicable from `state`? True if it is now."""
    a = task.actions[action]
    if type(a) is GroundAction:  # one conjunction (any(clauses) is slower on STRIPS)
        return _reachable(task, state, a.pre, a.pre_neg, max_states, explicit)
    return any(_reachable(task, state, pos, neg, max_states, explicit)
               for pos, neg in a.clauses)


def _reachable(task, state, pos, neg, max_states, explicit) -> bool:
    if state & pos == pos and not state & neg:
        return True
    if _provably_unsolvable(task, state, pos, neg):
        return False
    sp = _space(task, state, explicit)
    if sp is not None:
        return sp.distance(sp.index[state], pos, neg, False) >= 0
    if _h2_unsolvable(task, state, pos):
        return False
    return _bfs_distance(task, state, pos, neg, max_states) is not None


# -- optimal plans --------------------------------------------------------------------

def optimal_cost(task: GroundTask, state: int, goal: Condition,
                 max_states: int = DEFAULT_BUDGET, explicit: bool = True) -> int | None:
    """Cost of a cheapest plan from `state` to `goal` (action costs; 0 if the goal
    holds); None if the goal is unreachable."""
    if goal.holds(state):
        return 0
    if _provably_unsolvable(task, state, goal.pos, goal.neg):
        return None
    sp = _space(task, state, explicit)
    if sp is not None:
        d = sp.distance(sp.index[state], goal.pos, goal.neg, True)
        return None if d < 0 else d
    if _h2_unsolvable(task, state, goal.pos):
        return None
    if all(a.cost == 1 for a in task.actions):
        return _bfs_distance(task, state, goal.pos, goal.neg, max_states)
    return ucs_cost(task, state, goal.pos, goal.neg, max_states)


def optimal_first_actions(task: GroundTask, state: int, goal: Condition,
                          max_states: int = DEFAULT_BUDGET, explicit: bool = True) -> list[int]:
    """The actions a (ascending) with on_some_optimal_plan(task, state, goal, a).

    Empty if the goal is unreachable, or if it holds and no zero-cost action keeps
    the cost at 0 (the empty plan is the optimal plan)."""
    if _provably_unsolvable(task, state, goal.pos, goal.neg):
        return []
    sp = _space(task, state, explicit)
    if sp is not None:
        h = sp.distances(goal.pos, goal.neg, True)
        here = int(h[sp.index[state]])
        if here < 0:
            return []
        costs = sp.costs
        acts, dsts = sp.succ(sp.index[state])
        return sorted({int(k) for k, j in zip(acts, dsts)
                       if h[j] >= 0 and costs[k] + int(h[j]) == here})
    if _h2_unsolvable(task, state, goal.pos):
        return []
    return optimal_first_by_search(task, state, goal.pos, goal.neg, max_states)


def on_some_optimal_plan(task: GroundTask, state: int, goal: Condition, action: int,
                         max_states: int = DEFAULT_BUDGET, explicit: bool = True) -> bool:
    """Is `action` the first step of some optimal plan from `state` to `goal`? That is:
    applicable, the goal reachable, and cost(action) + optimal_cost(successor) ==
    optimal_cost(state)."""
    a = task.actions[action]
    if not a.applicable(state):
        return False
    sp = _space(task, state, explicit)
    if sp is not None:
        h = sp.distances(goal.pos, goal.neg, True)
        here = int(h[sp.index[state]])
        there = int(h[sp.index[a.apply(state)]])
        return here >= 0 and there >= 0 and a.cost + there == here
    return action in optimal_first_actions(task, state, goal, max_states, explicit=False)


# -- landmarks ------------------------------------------------------------------------

def is_fact_landmark(task: GroundTask, state: int, goal: Condition, atom: int,
                     max_states: int = DEFAULT_BUDGET, explicit: bool = True) -> bool:
    """Does every plan from `state` to `goal` make atom `atom` true at some point?

    True if the atom already holds in `state` (the empty prefix makes it true; question
    generators should avoid that case), and vacuously True if the goal is unreachable.
    Otherwise exact: search the states reachable while the atom stays false for one
    satisfying the goal (in an enumerated space, or greedily, guided by FF's relaxed
    plans, which finds such a plan in a few steps where one exists and else searches
    them all). A delete-relaxation test answers "yes" first when the goal is out of
    relaxed reach without the actions that add the atom or need it, then h^2."""
    bit = 1 << atom
    if state & bit or goal.pos & bit:
        return True
    c = _cache(task)
    pos, neg = goal.pos, goal.neg
    if (_relaxed_landmark_proof(c, state, pos, bit) or _goal_implied(task, c, state, goal) & bit
            or _rules_implied(task, c, state, goal) & bit):
        return True
    sp = _space(task, state, explicit)
    if sp is not None:
        reach = sp.reachable_from(sp.index[state], allowed=~sp.column(atom))
        return not (reach & sp.mask(pos, neg)).any()
    if _h2_landmark_proof(task, c, state, pos, bit, REGRESSION_SETS):
        return True
    return _avoiding_plan(task, c, state, pos, neg, atom, max_states) is None


def _relaxed_landmark_proof(c: _TaskCache, state: int, pos: int, bit: int) -> bool:
    """The goal out of relaxed reach without the actions that add the atom or need it."""
    pending = [r for r, m in zip(c.relax, c.needs_or_adds) if not m & bit]
    return pos & ~_relaxed(pending, state) != 0


def _h2_landmark_proof(task: GroundTask, c: _TaskCache, state: int, pos: int,
                       bit: int, regress: int = 0) -> bool:
    """The goal out of h^2 reach without the actions that add the atom or need it; with
    `regress`, or no regression of the goal through those actions reaching `state`
    (`_regression_proof`, at most `regress` subgoals)."""
    if task.axioms is not None:
        return False  # h^2 does not read axioms
    triples = [t for t, m in zip(c.triples, c.needs_or_adds) if not m & bit]
    pairs = _h2_pairs(triples, state, task.n_bits)
    if not _h2_allows(pairs, pos):
        return True
    return regress > 0 and _regression_proof(task, c, state, pos, bit, pairs, regress)


def _regression_proof(task: GroundTask, c: _TaskCache, state: int, pos: int, bit: int,
                      pairs: list[int], limit: int) -> bool:
    """No plan avoids the atom `bit`: regressing the goal through the actions that
    neither add nor need it never reaches a subgoal `state` satisfies, when every
    subgoal h^2 (`pairs`, from `state` without those actions) calls unreachable is cut
    and every one containing a subgoal already met is cut (a state satisfying it
    satisfies the smaller one). Sound: the subgoals a plan's last relevant steps
    regress to hold along it, so are never cut; a plan would be found. Where the
    goal pins every block of a tower, the last move onto it regresses to holding a
    block that can only have come off the tower itself: a few dozen subgoals settle
    what no forward search can (461,000 states for blocks 8-0's "d on the table").
    False when `limit` subgoals do not settle it, and for ADL tasks."""
    adders = c.adders
    if adders is None:
        adders = c.adders = [[] for _ in task.atoms]
        if all(type(a) is GroundAction for a in task.actions):
            for k, a in enumerate(task.actions):
                for q in iter_bits(a.add & ~a.pre):
                    adders[q].append(k)
        else:
            c.adders = adders = []
    if not adders:
        return False
    actions, needs_or_adds = task.actions, c.needs_or_adds
    frontier = [(pos.bit_count(), 0, pos)]
    met = [pos]
    while frontier:
        _, _, goal = heapq.heappop(frontier)
        if goal & ~state == 0:
            return False
        relevant = sorted({k for q in iter_bits(goal) for k in adders[q]
                           if not needs_or_adds[k] & bit})
        for k in relevant:
            a = actions[k]
            if (a.delete | a.pre_neg) & ~a.add & goal:
                continue  # would make a subgoal atom false
            sub = (goal & ~a.add) | a.pre
            if not _h2_allows(pairs, sub) or any(sub & m == m for m in met):
                continue
            if len(met) >= limit:
                return False
            met.append(sub)
            heapq.heappush(frontier, (sub.bit_count(), len(met), sub))
    return True


def exactly_one_groups(task: GroundTask) -> list[int]:
    """Invariants "exactly one of these atoms is true" (as masks), one computation per
    task: the atoms of one predicate that differ in one argument only (the items an
    agent holds, the places a truck is at), kept when exactly one holds initially and
    every action keeps it so: one that adds an atom of the group needs one of them and
    deletes it (unless it is the one added), and one that adds none deletes none that
    may be true. A state with exactly one atom of each group true passes that on to
    every state reachable from it. ADL actions that touch a group rule it out."""
    c = _cache(task)
    if c.groups is not None:
        return c.groups
    if task.axioms is not None:  # derived atoms change with no action touching them
        c.groups = []
        return c.groups
    candidates: dict[tuple, int] = {}
    for i, atom in enumerate(task.atoms):
        for j in range(1, len(atom)):
            key = (atom[0], j) + atom[1:j] + atom[j + 1:]
            candidates[key] = candidates.get(key, 0) | 1 << i
    groups = []
    for key, g in sorted(candidates.items()):
        if g & (g - 1) and (task.init & g).bit_count() == 1 and _keeps_one(task, g):
            groups.append(g)
    c.groups = groups
    return groups


def _keeps_one(task: GroundTask, g: int) -> bool:
    for a in task.actions:
        add, delete = a.add & g, a.may_delete & g
        if not add and not delete:
            continue
        need = a.pre & g
        if need & (need - 1):
            continue  # two atoms of the group needed together: never applicable
        if type(a) is not GroundAction or add & (add - 1):
            return False
        if not add:
            if not need or need & delete:  # may delete the one true atom
                return False
        elif not need or (need != add and not need & delete):
            return False
    return True


def _goal_implied(task: GroundTask, c: _TaskCache, state: int, goal: Condition) -> int:
    """Atoms true in every goal state reachable from `state`, by the exactly-one
    invariants: when the goal rules out (by a negative literal, or by sharing a group
    with a goal atom) every atom of a group but one, that one is in every goal state,
    so a landmark wherever it is false. 0 unless `state` keeps the invariants."""
    groups = exactly_one_groups(task)
    for g in groups:
        if (state & g).bit_count() != 1:
            return 0
    implied = c.implied.get((goal.pos, goal.neg))
    if implied is None:
        excluded = goal.neg
        for h in groups:
            if h & goal.pos:
                excluded |= h & ~goal.pos
        implied = 0
        for g in groups:
            left = g & ~excluded
            if left and not left & (left - 1):
                implied |= left
        implied &= ~goal.pos
        c.implied[(goal.pos, goal.neg)] = implied
    return implied


def _rules_implied(task: GroundTask, c: _TaskCache, state: int, goal: Condition) -> int:
    """Atoms true in every goal state reachable from `state`, by invariants "a and b
    imply c" (a crate on a crate at a place is at that place too), chained from the
    goal's atoms and the atoms true now that no action deletes: the crate on the goal
    tower's pallet, the one on it, the one on that are all at the pallet's place.

    A rule is an invariant from `state` when it holds there and no action can break
    it (`_rule_kept`, by induction over the actions, with the h^2 mutexes from init:
    `state` must respect them, and then so does every state reachable from it).
    Candidates: c of the predicate of a or b, naming only their objects. 0 for ADL
    tasks and for states that break a mutex."""
    key = (state, goal.pos, goal.neg)
    implied = c.rule_implied.get(key)
    if implied is None:
        implied = c.rule_implied[key] = _rules_closure(task, c, state, goal.pos)
        if len(c.rule_implied) > _STATES_PER_TASK:
            c.rule_implied.popitem(last=False)
    return implied


def _rules_closure(task: GroundTask, c: _TaskCache, state: int, pos: int) -> int:
    steps = _action_steps(task, c)
    pairs = c.init_pairs
    if steps is None or any(state & ~pairs[p] for p in iter_bits(state)):
        return 0
    atoms, index = task.atoms, task.atom_index
    static = state & ~c.deletable
    known = pos | static
    todo = list(iter_bits(pos & ~static))
    seen = list(iter_bits(static))  # static pairs imply nothing new: one static at most
    while todo:
        a = todo.pop()
        for b in seen:
            objects = set(atoms[a][1:]) | set(atoms[b][1:])
            if len(objects) == len(atoms[a]) + len(atoms[b]) - 2:
                continue  # no object in common: no rule between them
            for arity, pred in {(len(atoms[a]) - 1, atoms[a][0]),
                                (len(atoms[b]) - 1, atoms[b][0])}:
                for args in itertools.product(sorted(objects), repeat=arity):
                    i = index.get((pred,) + args)
                    if i is None or known >> i & 1 or not _rule_kept(c, steps, state, a, b, i):
                        continue
                    known |= 1 << i
                    todo.append(i)
        seen.append(a)
    return known & ~pos & ~static


def _action_steps(task: GroundTask, c: _TaskCache) -> list | None:
    """Per STRIPS action: (atoms that may change value, atoms surely true after it,
    atoms surely false after it: deleted, or not added and mutex with a precondition
    or needed false); actions h^2 never applies are left out. None for ADL tasks."""
    if c.steps is None:
        if any(type(a) is not GroundAction for a in task.actions):
            c.steps = []
            return None
        pairs = c.init_pairs = _h2_pairs(c.triples, task.init, task.n_bits)
        steps = []
        for a in task.actions:
            allowed = -1
            for p in iter_bits(a.pre):
                allowed &= pairs[p]
            if a.pre & ~allowed:
                continue  # never applicable
            changes = (a.add & ~a.pre) | (a.delete & ~a.add)
            true = a.add | (a.pre & ~a.delete)
            false = (a.delete | ~allowed | a.pre_neg) & ~a.add
            steps.append((changes, true, false))
        c.steps = steps
    return c.steps if c.init_pairs is not None else None


def _rule_kept(c: _TaskCache, steps: list, state: int, a: int, b: int, i: int) -> bool:
    """Is "a and b imply atom i" true in `state` and kept by every action?"""
    if state >> a & 1 and state >> b & 1 and not state >> i & 1:
        return False
    key = (a, b, i) if a < b else (b, a, i)
    kept = c.rules.get(key)
    if kept is None:
        ab, bit = 1 << a | 1 << b, 1 << i
        kept = c.rules[key] = all(
            not changes & (ab | bit) or true & bit or false & ab
            for changes, true, false in steps)
    return kept


def _avoiding_plan(task: GroundTask, c: _TaskCache, state: int, pos: int, neg: int,
                   atom: int, max_states: int) -> list[int] | None:
    """The states of a plan that never makes the atom true (found greedily: it need not
    be short), or None when every state reachable without it has been searched
    (SearchBudgetExceeded past max_states), guided by the relaxation without the
    atom's achievers: one with them points at them (its helpful actions lead nowhere)
    and misses the dead ends their absence makes."""
    bit = 1 << atom
    guide = c.guides.get((pos, bit))
    if guide is None:
        if len(c.guides) >= GUIDES_KEPT:
            c.guides.clear()
        guide = c.guides[(pos, bit)] = relaxed_plan_heuristic(task, pos, avoid=bit)
    return lazy_greedy_path(task, state, pos, neg, max_states, guide, avoid=bit)


def split_landmarks(task: GroundTask, state: int, goal: Condition, atoms: Sequence[int],
                    max_states: int = DEFAULT_BUDGET) -> tuple[list[int], list[int], list[int]]:
    """(landmarks, non-landmarks, undecided) among `atoms` (false in `state`, not in
    the goal), each answer `is_fact_landmark`'s for the search engine, with work shared
    between the atoms of one state, in the order given:
    * the atoms every goal state has (`_goal_implied`) and relaxed reachability
      without each atom's achievers first, for every atom;
    * backchaining: a landmark false in `state` first becomes true by an action that
      adds it in a state where it is false, so by one of its achievers that the
      relaxation without it reaches; a precondition every such achiever shares, or an
      atom every one surely adds, is true then too, so it is a landmark (starting from
      the goal's atoms false now, and again from each landmark found);
    * then, per atom still open, a search (first of QUICK_SEARCH states, then h^2
      without its achievers, then the whole budget): a plan that never makes the atom
      true is a witness for every atom that plan never makes true either; a search
      that runs out of states without a plan proves a landmark (backchained as
      above), and one that runs out of budget leaves the atom undecided (never
      guessed)."""
    c = _cache(task)
    pos, neg = goal.pos, goal.neg
    open_ = dict.fromkeys(atoms)  # undecided, in the order given
    landmark: set[int] = set()
    known = 0  # every landmark false in `state` proven so far, as a mask

    def found(new: int) -> None:
        """Record the landmarks in mask `new` and everything backchaining derives."""
        nonlocal known
        todo = new & ~known & ~state
        while todo:
            p = todo & -todo
            todo ^= p
            known |= p
            i = p.bit_length() - 1
            if i in open_:
                del open_[i]
                landmark.add(i)
            todo |= _first_achievers_share(task, c, state, p) & ~known & ~state

    found((pos | _goal_implied(task, c, state, goal) | _rules_implied(task, c, state, goal))
          & ~state)
    for i in list(open_):
        if i in open_ and _relaxed_landmark_proof(c, state, pos, 1 << i):
            found(1 << i)
    other: set[int] = set()
    undecided: list[int] = []
    while open_:
        i = next(iter(open_))
        try:
            try:  # most atoms some short search avoids: no h^2 table for those
                path = _avoiding_plan(task, c, state, pos, neg, i, min(max_states, QUICK_SEARCH))
            except SearchBudgetExceeded:
                if _h2_landmark_proof(task, c, state, pos, 1 << i, REGRESSION_SETS):
                    found(1 << i)
                    continue
                path = _avoiding_plan(task, c, state, pos, neg, i, max_states)
        except SearchBudgetExceeded:
            del open_[i]
            undecided.append(i)
            continue
        if path is None:
            found(1 << i)
            continue
        touched = 0
        for s in path:
            touched |= s
        for j in [j for j in open_ if not touched >> j & 1]:
            del open_[j]
            other.add(j)
    return ([i for i in atoms if i in landmark], [i for i in atoms if i in other], undecided)


def _first_achievers_share(task: GroundTask, c: _TaskCache, state: int, bit: int) -> int:
    """What every possible first achiever of the atom `bit` needs or surely adds: the
    actions that may add it, do not need it, and whose preconditions the relaxation
    without the atom's achievers reaches from `state`. When the atom is a landmark one
    of them runs in every plan, so those atoms are true then: landmarks too (a crate's
    place, added with the goal's crate on a pallet there; the hoist lifting it, which
    every drop needs). 0 if there is no such achiever (the atom can never become true,
    and then nothing more is derived)."""
    if c.achievers is None:
        c.achievers = {}
        for a in task.actions:
            for q in iter_bits(a.add & ~a.pre):
                c.achievers.setdefault(q, []).append((a.pre, a.sure_add))
    reached = _relaxed([r for r, m in zip(c.relax, c.needs_or_adds) if not m & bit], state)
    needed = added = -1
    for pre, add in c.achievers.get(bit.bit_length() - 1, ()):
        if pre & ~reached == 0:
            needed &= pre
            added &= add
    return 0 if needed == -1 else (needed | added) & ~bit


# -- sampling -------------------------------------------------------------------------

def _walk(task: GroundTask, rng: random.Random, state: int, length: int) -> int:
    for _ in range(length):
        succ = task.successors(state)
        if not succ:
            break  # dead end: the walk stops where it is
        state = succ[rng.randrange(len(succ))][1]
    return state


def sample_states(task: GroundTask, rng: random.Random, count: int, min_walk: int = 1,
                  max_walk: int | None = None, max_tries: int | None = None) -> list[int]:
    """Up to `count` distinct states reached by random walks from `task.init`.

    Each walk's length is drawn uniformly from [min_walk, max_walk] (default max: twice
    the number of objects), each step picks uniformly among the applicable actions, and
    a walk that hits a dead end stops there. Duplicates are dropped; the result is in
    draw order. Stops after `max_tries` walks (default 10 * count + 100), so a small
    world may return fewer states than asked."""
    if max_walk is None:
        max_walk = max(min_walk, 2 * len(task.objects))
    if not 0 <= min_walk <= max_walk:
        raise ValueError(_say("bad_walk", least=min_walk, most=max_walk))
    if max_tries is None:
        max_tries = 10 * count + 100
    out: list[int] = []
    seen: set[int] = set()
    for _ in range(max_tries):
        if len(out) >= count:
            break
        s = _walk(task, rng, task.init, rng.randint(min_walk, max_walk))
        if s not in seen:
            seen.add(s)
            out.append(s)
    return out


def states_near_goal(task: GroundTask, rng: random.Random, goal: Condition, count: int,
                     max_distance: int, max_states: int = DEFAULT_BUDGET,
                     explicit: bool = True, max_tries: int | None = None
                     ) -> list[tuple[int, int]]:
    """Up to `count` distinct (state, distance) pairs, states reachable from `task.init`,
    from which `goal` is 1..max_distance actions away (distance = fewest actions).

    STRIPS states cannot be regressed from a goal *condition* into concrete states
    without enumerating, so:
    * when the space reachable from init is small (<= EXPLICIT_STATES) it is
      enumerated and one backward sweep over its reverse edges gives every state's
      exact distance; the draw is stratified: a distance uniformly among the distances
      1..max_distance that occur, then a state uniformly among those at that distance
      (so near-goal and far-from-goal questions are equally frequent);
    * otherwise a greedy best-first search (goal-count heuristic, at most `max_states`
      states) looks for some path from init to the goal; goal states and the path's
      last states seed a pool of walk sources. Candidates are random-walk states from
      init or, half the time once the pool is not empty, short random walks
      (1..max_distance steps) from a pool state (many domains are reversible, so these
      land near the goal); proved candidates and the goal states their checks reach
      join the pool. Each candidate's distance is proved by a depth-limited
      breadth-first search (at most `max_states` states); a candidate whose check
      exceeds the budget is skipped, never guessed. Stops after `max_tries`
      candidates (default 20 * count + 100).
    The result is in draw order and may be shorter than `count`."""
    if max_distance < 1 or count <= 0:
        return []
    sp = _space(task, task.init, explicit)
    if sp is not None:
        dist = sp.distances(goal.pos, goal.neg, False)
        by_distance: dict[int, list[int]] = {}
        for d in range(1, max_distance + 1):
            ids = np.flatnonzero(dist == d).tolist()  # ascending ids: deterministic
            if ids:
                by_distance[d] = ids
        out = []
        while len(out) < count and by_distance:
            levels = sorted(by_distance)
            d = levels[rng.randrange(len(levels))]
            bucket = by_distance[d]
            j = bucket.pop(rng.randrange(len(bucket)))
            if not bucket:
                del by_distance[d]
            out.append((sp.states[j], d))
        return out

    if max_tries is None:
        max_tries = 20 * count + 100
    pos, neg = goal.pos, goal.neg
    max_walk = 2 * len(task.objects)
    # walk sources near the goal: goal states and proved near-goal states, in discovery
    # order; seeded with the tail of a greedy plan from init when one is found cheaply
    pool: list[int] = []
    in_pool: set[int] = set()

    def remember(state: int) -> None:
        if state not in in_pool:
            in_pool.add(state)
            pool.append(state)

    try:
        path = greedy_path(task, task.init, pos, neg, max_states)
    except SearchBudgetExceeded:
        path = None
    for state in (path or [])[-(max_distance + 1):]:
        remember(state)
    out = []
    seen: set[int] = set()
    for _ in range(max_tries):
        if len(out) >= count:
            break
        if pool and rng.random() < 0.5:
            start = pool[rng.randrange(len(pool))]
            s = _walk(task, rng, start, rng.randint(1, max_distance))
        else:
            s = _walk(task, rng, task.init, rng.randint(1, max(1, max_walk)))
        if s in seen:
            continue
        seen.add(s)
        if s & pos == pos and not s & neg:
            remember(s)
            continue
        try:
            d, end = bfs_to_goal(task, s, pos, neg, max_states, max_distance)
        except SearchBudgetExceeded:
            continue
        if d is not None:
            out.append((s, d))
            remember(end)
            remember(s)
    return out
