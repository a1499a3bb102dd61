"""A world for question generation: a grounded domain over anonymous object slots.

Objects are slots (`b01`, `b02`, ...) grounded once per process; each row draws surface
names from a pool and maps slots to names only when it is written. Small worlds
(five blocks: 501 states) are enumerated with all-pairs distances, so sampling and the
optimal-plan oracle are table look-ups; bigger ones fall back to search.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from racbench.worlds.strips.grounding import ground
from racbench.worlds.strips.model import Literal, Problem
from racbench.worlds.strips.pddl_reader import parse_domain
from racbench.worlds.strips.heuristics import heuristic_for
from racbench.worlds.strips.search import SearchBudgetExceeded, StateSpace, astar
from racbench.worlds.strips.task import Condition, GroundTask

EXPLICIT_STATE_LIMIT = 2_500  # dense all-pairs distances: n^2 memory, n^3 per layer
START_POOL = 256
SEARCH_BUDGET = 20_000  # states a search may visit before the sample is redrawn

Form = tuple[str, bool]  # (predicate, polarity) of a query literal


@dataclass(frozen=True)
class GoalLiteral:
    atom: int  # atom index in the world's ground task
    positive: bool


def goal_condition(literals: tuple[GoalLiteral, ...]) -> Condition:
    pos = neg = 0
    for lit in literals:
        if lit.positive:
            pos |= 1 << lit.atom
        else:
            neg |= 1 << lit.atom
    return Condition(pos, neg)


class World:
    def __init__(self, domain_file: str, n_objects: int):
        text = resources.files("racbench.data").joinpath("domains", domain_file).read_text()
        self.domain = parse_domain(text, domain_file)
        self.n_objects = n_objects
        self.slots = tuple(f"b{i:02d}" for i in range(1, n_objects + 1))
        seed_facts = frozenset([("ontable", b) for b in self.slots] +
                               [("clear", b) for b in self.slots])
        problem = Problem(name=f"slots{n_objects}", domain_name=self.domain.name,
                          objects={b: "block" for b in self.slots}, init=seed_facts, goal=())
        self.task: GroundTask = ground(self.domain, problem)
        self.predicates = tuple(sorted(self.domain.predicates))
        self.schemas = tuple(sorted(a.name for a in self.domain.actions))
        self.atoms_by_predicate = {p: [i for i, a in enumerate(self.task.atoms) if a[0] == p]
                                   for p in self.predicates}
        self.forms: tuple[Form, ...] = tuple((p, pol) for p in self.predicates
                                             for pol in (True, False))
        self.space: StateSpace | None = None
        try:
            self.space = StateSpace(self.task, self.task.init, EXPLICIT_STATE_LIMIT)
        except SearchBudgetExceeded:
            self.space = None
        self._succ: dict[int, list[tuple[int, int]]] = {}
        if self.space is not None:
            states = self.space.states
            self._succ = {states[i]: [(k, states[j]) for k, j in edges]
                          for i, edges in enumerate(self.space.successors)}
        self._distances = {}
        self._start_pool: list[int] = []
        self._choices: dict[tuple, list[GoalLiteral]] = {}

    # -- sampling ----------------------------------------------------------------------
    def successors(self, state: int) -> list[tuple[int, int]]:
        succ = self._succ.get(state)
        if succ is None:
            succ = self.task.successors(state)
        return succ

    def sample_state(self, rng: random.Random) -> int:
        """Uniform over all states when enumerated; otherwise a random walk of n moves
        from a fixed pool of well-mixed states (a chain of long walks from the seed)."""
        if self.space is not None:
            return self.space.states[rng.randrange(len(self.space.states))]
        if not self._start_pool:
            chain = random.Random(f"start-pool-{self.n_objects}")
            state = self.task.init
            for _ in range(START_POOL):
                for _ in range(3 * self.n_objects):
                    state = chain.choice(self.successors(state))[1]
                self._start_pool.append(state)
        state = self._start_pool[rng.randrange(START_POOL)]
        for _ in range(self.n_objects):
            state = rng.choice(self.successors(state))[1]
        return state

    def walk(self, rng: random.Random, state: int, length: int,
             kinds: tuple[str, ...] | None = None) -> tuple[list[int], list[int]] | None:
        """A random executable sequence (optionally with given action schemas per step);
        returns (actions, states visited including the first) or None at a dead end."""
        actions, states = [], [state]
        for step in range(length):
            options = self.successors(state)
            if kinds is not None:
                options = [o for o in options if self.task.actions[o[0]].name == kinds[step]]
            if not options:
                return None
            k, state = rng.choice(options)
            actions.append(k)
            states.append(state)
        return actions, states

    def literal_choices(self, state: int, form: Form, truth: bool) -> list[GoalLiteral]:
        """Literals of a form (predicate, polarity) whose truth in `state` is `truth`."""
        key = (state, form, truth)
        cached = self._choices.get(key)
        if cached is None:
            if len(self._choices) > 200_000:
                self._choices.clear()
            pred, positive = form
            want = positive == truth  # the atom itself must be true iff this holds
            cached = self._choices[key] = [GoalLiteral(i, positive)
                                           for i in self.atoms_by_predicate[pred]
                                           if bool(state >> i & 1) == want]
        return cached

    def holds(self, state: int, literal: GoalLiteral) -> bool:
        return bool(state >> literal.atom & 1) == literal.positive

    # -- oracle -------------------------------------------------------------------------
    def distance(self, state: int, goal: tuple[GoalLiteral, ...]) -> int | None:
        """Optimal plan length from `state` to `goal`; None if unreachable.

        Raises SearchBudgetExceeded for big worlds when the search is too costly."""
        cond = goal_condition(goal)
        if self.space is not None:
            vec = self._distances.get(cond)
            if vec is None:
                vec = self._distances[cond] = self.space.distances_to(cond)
            d = int(vec[self.space.index[state]])
            return None if d < 0 else d
        key = (state, cond)
        if key not in self._distances:
            if len(self._distances) > 100_000:
                self._distances.clear()
            plan = astar(self.task, state, cond, heuristic_for(self.task, cond), SEARCH_BUDGET)
            self._distances[key] = None if plan is None else len(plan)
        return self._distances[key]

    def optimal_steps(self, state: int, goal: tuple[GoalLiteral, ...]) -> list[tuple[int, int]]:
        """Applicable (action, successor) pairs that start some optimal plan to `goal`."""
        d = self.distance(state, goal)
        if not d:
            return []
        return [(k, n) for k, n in self.successors(state) if self.distance(n, goal) == d - 1]

    def optimal_plan(self, rng: random.Random, state: int,
                     goal: tuple[GoalLiteral, ...]) -> list[int] | None:
        """A random optimal plan from `state` to `goal` (None if unreachable)."""
        if self.space is not None:
            if self.distance(state, goal) is None:
                return None
            plan = []
            while steps := self.optimal_steps(state, goal):
                k, state = rng.choice(steps)
                plan.append(k)
            return plan
        cond = goal_condition(goal)
        return astar(self.task, state, cond, heuristic_for(self.task, cond), SEARCH_BUDGET,
                     tie_break=rng)

    # -- names ---------------------------------------------------------------------------
    def named(self, term: tuple[str, ...], names: dict[str, str]) -> tuple[str, ...]:
        return (term[0],) + tuple(names[a] for a in term[1:])

    def atom_term(self, index: int) -> tuple[str, ...]:
        return self.task.atoms[index]

    def action_term(self, index: int) -> tuple[str, ...]:
        return self.task.actions[index].term

    def literal_model(self, literal: GoalLiteral) -> Literal:
        return Literal(self.task.atoms[literal.atom], literal.positive)


@lru_cache(maxsize=None)
def blocksworld(n_objects: int) -> World:
    """TRAC's blocksworld over `n_objects` blocks (cached per process)."""
    return World("blocksworld_trac/domain.pddl", n_objects)
