"""STRIPS worlds behind the world protocol: a grounded problem whose states families step.

A world is a domain and a problem, grounded once (cached per process). Families see it
through a small set of methods: draw a state (`sample_state`), its successors (`succ`,
`step`, `execute`, `applicable`), its facts (`bits`, `state_atoms`), and oracle queries
(`distance`, `optimal_plan`, `nearby_plan`, ...). States are opaque int handles.

* `ExplicitWorld`: the reachable states are enumerated (at most `max_states`) and kept
  as arrays: a handle is a state's index, edges are labelled by action, the truth of
  every atom in every state is a matrix. Oracles become vectorised graph passes (scipy
  sparse products) instead of searches per row: distances to any goal are reverse
  breadth-first levels, "can this fact/action still happen" is a pass over strongly
  connected components, "must every plan make this fact true" a reverse pass over the
  states without it. Every family runs on it.
* `ImplicitWorld`: too many states to enumerate (TRAC's ten blocks: 58 million). A
  handle is the state's bitmask; states are drawn by random walks from a fixed pool of
  well-mixed states, successors come from the task, and optimal distances from A* with
  an admissible heuristic under a node budget (`SearchBudgetExceeded`: the row is
  redrawn, never guessed). Only families that need no enumeration run on it.

Plans are counted in actions (unit cost): questions ask for shortest plans even in
domains that declare action costs.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

from racbench.errors import GenerationError, InputError
from racbench.worlds.protocol import World
from racbench.worlds.strips.grounding import ground
from racbench.worlds.strips.heuristics import heuristic_for
from racbench.worlds.strips.model import Domain, Literal, Problem
from racbench.worlds.strips.pddl_reader import parse_domain, parse_problem, read_pddl_text
from racbench.worlds.strips.search import SearchBudgetExceeded, StateSpace, astar
from racbench.worlds.strips.shipped import blocks_problem, trac_domain_file
from racbench.worlds.strips.task import Condition, GroundTask, iter_bits

MAX_STATES = 200_000
TRAC_EXPLICIT_STATES = 2_500  # TRAC's worlds enumerate up to this (five blocks: 501)
LOCAL_SEARCH_CAP = 5_000
SEARCH_BUDGET = 20_000  # states one A* may store in an implicit world before giving up
START_POOL = 256  # implicit worlds: well-mixed states that walks start from
UNREACHABLE = -1


class WorldTooLarge(InputError):
    """A problem whose reachable state space is beyond what we enumerate."""


@lru_cache(maxsize=64)
def load_domain_text(path: str) -> tuple[str, Domain]:
    text = read_pddl_text(path)
    return text, parse_domain(text, path)


def world_for(domain_file: str, problem_file: str,
              max_states: int = MAX_STATES) -> "ExplicitWorld":
    """The enumerated world of a problem file (cached); WorldTooLarge beyond max_states."""
    return _world(str(domain_file), str(problem_file), max_states)


def forget_worlds() -> None:
    """Drop the enumerated worlds loaded so far (their state spaces go with them)."""
    _world.cache_clear()


@lru_cache(maxsize=None)
def _world(domain_file: str, problem_file: str, max_states: int) -> "ExplicitWorld":
    text, domain = load_domain_text(domain_file)
    problem = parse_problem(read_pddl_text(problem_file), domain, problem_file)
    return ExplicitWorld(domain, text, problem, Path(problem_file).stem, max_states)


@lru_cache(maxsize=None)
def trac_world(n_blocks: int) -> "StripsWorld":
    """TRAC's blocksworld over `n_blocks` blocks: enumerated when small (five blocks:
    501 states), implicit beyond TRAC_EXPLICIT_STATES (ten blocks)."""
    text, domain = load_domain_text(trac_domain_file())
    problem = blocks_problem(domain.name, n_blocks)
    try:
        return ExplicitWorld(domain, text, problem, problem.name, TRAC_EXPLICIT_STATES)
    except WorldTooLarge:
        return ImplicitWorld(domain, text, problem, problem.name)


class StripsWorld(World):
    """What every STRIPS world offers: the grounded task, its objects and the protocol
    methods (racbench/worlds/protocol.py) that do not depend on how states are held."""

    def __init__(self, domain: Domain, domain_text: str, problem: Problem, label: str):
        self.domain = domain
        self.domain_text = domain_text
        self.problem = problem
        self.label = label  # the problem's file stem (p01), used in ids and metadata
        self.task: GroundTask = ground(domain, problem)
        self.objects = dict(sorted(problem.objects.items()))
        self.static_atoms = sorted(self.task.static_atoms)
        self.goal = tuple(problem.goal)
        self.goal_condition = self.task.condition(self.goal)

    # -- stepping (through succ and step, which each kind of world defines) -------------
    def applicable(self, state: int) -> list[int]:
        return list(self.succ(state)[0])

    def optimal_steps(self, state: int, cond: Condition | None = None,
                      max_depth: int | None = None) -> list[tuple[int, int]]:
        """Applicable (action, successor) pairs that start some shortest plan to `cond`."""
        d = self.distance(state, cond, max_depth)
        if not d:
            return []
        acts, dsts = self.succ(state)
        return [(a, t) for a, t in zip(acts, dsts) if self.distance(t, cond, max_depth) == d - 1]

    def nearby_plan(self, state: int, cond: Condition, max_depth: int, rng=None,
                    cap: int = LOCAL_SEARCH_CAP) -> tuple[int | None, list[int] | None]:
        """(distance, a shortest plan) to `cond` if within `max_depth` actions, else
        (None, None): a forward breadth-first search from `state`, which for goals a few
        steps away is much cheaper than a backward pass over the whole graph (used
        when it visits more than `cap` states). `rng` shuffles which plan comes out."""
        pos, neg = cond.pos, cond.neg
        if cond.holds(self.bits(state)):
            return 0, []
        parent = {state: None}
        frontier = [state]
        for depth in range(1, max_depth + 1):
            nxt = []
            for s in frontier:
                order = self.moves(s)
                if rng is not None:
                    order = list(order)
                    rng.shuffle(order)
                for k, t, reached in order:
                    if t in parent:
                        continue
                    parent[t] = (s, k)
                    if reached & pos == pos and not reached & neg:  # cond.holds, inlined
                        plan = []
                        while parent[t] is not None:
                            t, k = parent[t]
                            plan.append(k)
                        return depth, plan[::-1]
                    nxt.append(t)
            if len(parent) > cap:
                d = self.distance(state, cond, max_depth)
                if d is None:
                    return None, None
                return d, self.optimal_plan(rng, state, cond, max_depth)
            frontier = nxt
        return None, None

    def moves(self, state: int) -> list[tuple[int, int, int]]:
        """(action, next state, its bits) of each applicable action, by action index:
        what a search expands (read the list, never change it)."""
        acts, dsts = self.succ(state)
        return [(k, t, self.bits(t)) for k, t in zip(acts, dsts)]

    # -- facts and terms (the protocol's view: terms, not indices) ------------------------
    def state_atoms(self, state: int) -> list[list[str]]:
        """Every true atom, static ones included, sorted."""
        atoms = self.task.atoms_of(self.bits(state)) + self.static_atoms
        return sorted(list(a) for a in atoms)

    def facts(self, state: int) -> frozenset[tuple]:
        """The fluent atoms true in `state`."""
        return frozenset(self.task.atoms_of(self.bits(state)))

    def fact_kind(self, fact: tuple) -> tuple:
        kind = self._kinds.get(fact)
        if kind is None:
            kind = self._kinds[fact] = self.kind_of(fact)
        return kind

    def question_facts(self, plan: list[int], states: list[int]) -> list[tuple]:
        """The facts a question about `plan` may ask after it: every atom of a predicate
        its effects touch, true or not."""
        actions, atoms = self.task.actions, self.task.atoms
        preds = {atoms[i][0] for k in plan for i in iter_bits(actions[k].touched)}
        return [atoms[i] for p in sorted(preds) for i in self.atoms_by_predicate.get(p, [])]

    def action_term(self, action: int) -> tuple:
        return self.task.actions[action].term

    def action_kind(self, action: int) -> tuple:
        """What a sentence about the action shows besides object names: its schema and
        argument types."""
        return self.action_kinds[action]

    def inapplicable(self, state: int) -> list[int]:
        """Ground actions of the schemas applicable in `state` that are not applicable in
        it (so types and static facts fit, and only the state rules them out)."""
        now = set(self.applicable(state))
        names = sorted({self.task.actions[k].name for k in now})
        return [k for name in names for k in self.actions_by_schema[name] if k not in now]

    def render_state(self, state: int, text, rng) -> str:
        """Every true atom (static ones included) as a sentence, in a random order."""
        return text.state([tuple(a) for a in self.state_atoms(state)], rng)

    def symbolic(self, state: int) -> dict:
        """What a row stores to rebuild the world and the state with any STRIPS engine."""
        return {"domain": self.domain.name, "domain_pddl": self.domain_text,
                "problem": self.problem.name, "objects": dict(self.objects),
                "state": self.state_atoms(state)}

    def sizes(self) -> tuple[int, int]:
        """(objects, ground actions), for a row's difficulty columns."""
        return len(self.objects), len(self.task.actions)

    def text(self, obfuscation: str | None = None, paraphrase: int = 0, seed: int = 0,
             style: str = "acp", templates: str | None = None):
        """The phrasing of this world's facts and actions (racbench.text.phrasing)."""
        from racbench.text.phrasing import TaskText
        return TaskText(self.domain, obfuscation, paraphrase, seed, style, templates)

    def kind_of(self, term) -> tuple:
        """What a sentence about an atom or action shows besides object names: its
        predicate or schema, its arguments' types (constants stay themselves) and,
        if an object comes twice, where (a crate on itself reads differently)."""
        args = term[1:]
        kind = (term[0],) + tuple(self.objects.get(a, a) for a in args)
        if len(set(args)) < len(args):
            kind += (tuple(args.index(a) for a in args),)
        return kind

    def objects_of_type(self, types: tuple[str, ...]) -> list[str]:
        return [o for o, t in self.objects.items()
                if any(self.domain.is_subtype(t, want) for want in types)]

    @cached_property
    def fluent_predicates(self) -> list[str]:
        return sorted(self.domain.fluent_predicates)

    @cached_property
    def typed_atoms(self) -> dict[str, list[tuple]]:
        """Every well-typed atom of each fluent predicate, without repeated objects
        (those are ruled out by types and common sense alike), capped per predicate."""
        out = {}
        for pred in self.fluent_predicates:
            pools = [self.objects_of_type(t) for t in self.domain.predicates[pred]]
            atoms = []
            for args in itertools.product(*pools):
                if len(set(args)) == len(args):
                    atoms.append((pred,) + args)
                    if len(atoms) >= 5000:
                        break
            out[pred] = atoms
        return out

    @cached_property
    def actions_by_schema(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for k, a in enumerate(self.task.actions):
            out.setdefault(a.name, []).append(k)
        return out

    @cached_property
    def _kinds(self) -> dict[tuple, tuple]:
        return {}  # fact -> kind, filled as facts are asked about (balancing asks often)

    @cached_property
    def atom_kinds(self) -> list[tuple]:
        """The kind of each fluent atom, by index."""
        return [self.fact_kind(a) for a in self.task.atoms]

    @cached_property
    def atoms_by_kind(self) -> dict[tuple, list[int]]:
        """Fluent atom indices grouped by kind, in index order."""
        groups: dict[tuple, list[int]] = {}
        for i, kind in enumerate(self.atom_kinds):
            groups.setdefault(kind, []).append(i)
        return groups

    def true_literals(self, bits: int, kind: tuple) -> list[tuple[int, bool]]:
        """The literals (atom index, polarity) of a literal kind (a polarity, then an
        atom's kind) that hold in the state `bits`, in atom order (read the list, never
        change it)."""
        positive = kind[0]
        return [(i, positive) for i in self.atoms_by_kind.get(kind[1:], ())
                if (bits >> i & 1) == positive]

    @cached_property
    def action_kinds(self) -> list[tuple]:
        """The kind of each ground action, by index."""
        return [self.kind_of(a.term) for a in self.task.actions]

    @cached_property
    def atoms_by_predicate(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for i, a in enumerate(self.task.atoms):
            out.setdefault(a[0], []).append(i)
        return out

    # -- symbolic ---------------------------------------------------------------------------
    @cached_property
    def fingerprint(self) -> str:
        text = self.domain_text + "\x1f" + repr(sorted(self.problem.init)) + repr(self.objects)
        return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()



SUCC_LISTS_UP_TO = 50_000  # enumerated spaces this small keep successor lists per state
SMALL_SPACE = 2_500  # ... and spaces this small, their moves and true literals per kind


class ExplicitWorld(StripsWorld):
    """A world whose reachable states are enumerated; a state handle is its index."""

    explicit = True

    def __init__(self, domain: Domain, domain_text: str, problem: Problem, label: str,
                 max_states: int = MAX_STATES):
        super().__init__(domain, domain_text, problem, label)
        self._explore(max_states)
        self._dist_cache: dict = {}

    # -- exploration --------------------------------------------------------------------
    def _explore(self, max_states: int) -> None:
        try:
            self.space = StateSpace(self.task, self.task.init, max_states)
        except SearchBudgetExceeded:
            raise WorldTooLarge(f"{self.problem.source}: more than {max_states} reachable "
                                "states; ACP questions enumerate the state space, use a "
                                "smaller problem") from None
        self.states = self.space.states
        self.index = self.space.index
        # walks and local searches step a few states many times: their successors as
        # Python lists, kept once read (small spaces only, to bound memory)
        self._succ_lists = [None] * len(self.states) if len(self.states) <= SUCC_LISTS_UP_TO else None
        small = len(self.states) <= SMALL_SPACE
        self._literal_lists = {} if small else None
        self._moves = [None] * len(self.states) if small else None

    @property
    def n_states(self) -> int:
        return len(self.states)

    def succ(self, sid: int) -> tuple[list[int], list[int]]:
        """(actions, successor ids) of a state id, by action index, as Python lists
        (read them, never change them)."""
        lists = self._succ_lists
        if lists is None:
            acts, dsts = self.space.succ(sid)
            return acts.tolist(), dsts.tolist()
        pair = lists[sid]
        if pair is None:
            acts, dsts = self.space.succ(sid)
            pair = lists[sid] = (acts.tolist(), dsts.tolist())
        return pair

    def step(self, sid: int, action: int) -> int | None:
        if self._succ_lists is None:
            return self.space.step(sid, action)
        acts, dsts = self.succ(sid)
        try:
            return dsts[acts.index(action)]
        except ValueError:
            return None

    def moves(self, sid: int) -> list[tuple[int, int, int]]:
        """StripsWorld.moves, kept per state in small spaces (searches expand the same
        few hundred states again and again)."""
        if self._moves is None:
            return super().moves(sid)
        found = self._moves[sid]
        if found is None:
            found = self._moves[sid] = super().moves(sid)
        return found

    def true_literals(self, bits: int, kind: tuple) -> list[tuple[int, bool]]:
        """StripsWorld.true_literals, kept per state and kind in small spaces: goal
        draws ask about the same few hundred states again and again."""
        if self._literal_lists is None:
            return super().true_literals(bits, kind)
        found = self._literal_lists.get((bits, kind))
        if found is None:
            found = self._literal_lists[(bits, kind)] = super().true_literals(bits, kind)
        return found

    def sample_state(self, rng: random.Random) -> int:
        """Uniform over the reachable states."""
        return rng.randrange(self.n_states)

    def bits(self, sid: int) -> int:
        return self.states[sid]

    # -- distances ----------------------------------------------------------------------
    def mask_of(self, cond: Condition) -> np.ndarray:
        return self.space.mask(cond.pos, cond.neg)

    def distances(self, cond: Condition, max_depth: int | None = None) -> np.ndarray:
        """Distances to `cond` from every state. With `max_depth`, states farther than
        that read UNREACHABLE: exact only for questions about states within it."""
        key = ("goal", cond.pos, cond.neg, max_depth)
        vec = self._dist_cache.get(key)
        if vec is None:
            if len(self._dist_cache) > 512:
                self._dist_cache.clear()
            vec = self._dist_cache[key] = self.space.sweep(self.mask_of(cond), None, max_depth)
        return vec

    @cached_property
    def goal_distance(self) -> np.ndarray:
        if self.goal_condition is None:
            return np.full(self.n_states, UNREACHABLE, dtype=np.int32)
        return self.distances(self.goal_condition)

    def distance(self, sid: int, cond: Condition | None = None,
                 max_depth: int | None = None) -> int | None:
        d = int((self.goal_distance if cond is None else self.distances(cond, max_depth))[sid])
        return None if d < 0 else d

    def avoiding_distance(self, atom: int, cond: Condition | None = None) -> np.ndarray:
        """Distances to the goal through states where `atom` is false: a state with a
        finite value can reach the goal without ever making `atom` true."""
        cond = cond or self.goal_condition
        key = ("avoid", atom, cond.pos, cond.neg)
        vec = self._dist_cache.get(key)
        if vec is None:
            allowed = ~self.space.column(atom)
            vec = self._dist_cache[key] = self.space.sweep(self.mask_of(cond), allowed)
        return vec

    def optimal_steps(self, sid: int, cond: Condition | None = None,
                      max_depth: int | None = None) -> list[tuple[int, int]]:
        """Applicable (action, successor) pairs that start some shortest plan to `cond`
        (one distance vector instead of a look-up per successor)."""
        dist = self.goal_distance if cond is None else self.distances(cond, max_depth)
        d = dist[sid]
        if d <= 0:
            return []
        acts, dsts = self.succ(sid)
        return [(a, t) for a, t in zip(acts, dsts) if dist[t] == d - 1]

    def optimal_plan(self, rng, sid: int, cond: Condition | None = None,
                     max_depth: int | None = None) -> list[int] | None:
        dist = self.goal_distance if cond is None else self.distances(cond, max_depth)
        if dist[sid] < 0:
            return None
        plan = []
        while steps := self.optimal_steps(sid, cond, max_depth):
            k, sid = rng.choice(steps)
            plan.append(k)
        return plan

    def states_at_distance(self, d: int, cond: Condition | None = None) -> np.ndarray:
        dist = self.goal_distance if cond is None else self.distances(cond)
        key = ("at", d) if cond is None else None
        if key is not None:
            hit = self._dist_cache.get(key)
            if hit is None:
                hit = self._dist_cache[key] = np.flatnonzero(dist == d)
            return hit
        return np.flatnonzero(dist == d)

    # -- what can still happen ------------------------------------------------------------
    @cached_property
    def _components(self):
        """Strongly connected components and, per component, the atoms true and the
        actions applicable in some state reachable from it (as int bit masks)."""
        space = self.space
        n_comp, labels = space.components()
        atoms = [0] * n_comp
        for s, state in enumerate(self.states):
            atoms[labels[s]] |= state
        actions = [0] * n_comp
        for c, k in set(zip(labels[space.edge_src].tolist(), space.edge_act.tolist())):
            actions[c] |= 1 << k
        pairs = set(zip(labels[space.edge_src].tolist(), labels[space.edge_dst].tolist()))
        children: list[list[int]] = [[] for _ in range(n_comp)]
        indegree = [0] * n_comp
        for a, b in pairs:
            if a != b:
                children[a].append(b)
                indegree[b] += 1
        order = [c for c in range(n_comp) if indegree[c] == 0]
        for c in order:
            for ch in children[c]:
                indegree[ch] -= 1
                if indegree[ch] == 0:
                    order.append(ch)
        for c in reversed(order):  # children first
            for ch in children[c]:
                atoms[c] |= atoms[ch]
                actions[c] |= actions[ch]
        return labels, atoms, actions

    def reachable_states(self, sid: int) -> np.ndarray:
        """Which states can be reached from `sid` (itself included), as a bool vector;
        cached per strongly connected component."""
        labels = self._components[0]
        key = ("reach", int(labels[sid]))
        mask = self._dist_cache.get(key)
        if mask is None:
            mask = self._dist_cache[key] = self.space.reachable_from(sid)
        return mask

    def together(self, sid: int) -> np.ndarray:
        """together[i, j]: atoms i and j are both true in some state reachable from
        `sid` (the diagonal: atom i alone); cached per strongly connected component."""
        key = ("together", int(self._components[0][sid]))
        mat = self._dist_cache.get(key)
        if mat is None:
            m = self.space.truth(self.reachable_states(sid)).astype(np.float32)
            mat = self._dist_cache[key] = (m.T @ m) > 0
        return mat

    def co_applicable(self, sid: int) -> np.ndarray:
        """co[a, b]: actions a and b are both applicable in some state reachable from
        `sid` (diagonal: a alone); cached per strongly connected component."""
        self._one_conjunction_each()
        key = ("co-applicable", int(self._components[0][sid]))
        mat = self._dist_cache.get(key)
        if mat is None:
            applicable = np.zeros((self.n_states, len(self.task.actions)), dtype=np.float32)
            applicable[self.space.edge_src, self.space.edge_act] = 1.0
            m = applicable[self.reachable_states(sid)]
            mat = self._dist_cache[key] = (m.T @ m) > 0
        return mat

    def _one_conjunction_each(self) -> None:
        """Questions about an action becoming applicable aim at its precondition as one
        conjunction (tasks/action_reachability); an ADL action left with alternatives
        has none, so those questions are refused rather than answered wrongly."""
        if self._with_alternatives is not None:
            raise GenerationError(self._with_alternatives)

    @cached_property
    def _with_alternatives(self) -> str | None:
        for a in self.task.actions:
            if len(a.clauses) > 1:
                return (f"{self.problem.source}: questions about actions becoming "
                        "applicable need every action's precondition to be one conjunction "
                        f"of literals; {a.name}({', '.join(a.args)}) has {len(a.clauses)} "
                        "alternatives (a disjunction that the static facts do not decide)")
        return None

    @cached_property
    def has_unreachable_actions(self) -> bool:
        """Does some state lose the possibility of some grounded action?"""
        self._one_conjunction_each()
        _, _, actions = self._components
        full = (1 << len(self.task.actions)) - 1
        return any(m != full for m in actions)

    @cached_property
    def has_unreachable_atoms(self) -> bool:
        """Does some state lose the possibility of some grounded atom, or is some
        well-typed atom never reachable at all?"""
        _, atoms, _ = self._components
        full = (1 << len(self.task.atoms)) - 1
        if any(m != full for m in atoms):
            return True
        return any(a not in self.task.atom_index for v in self.typed_atoms.values() for a in v)

    def reachable_atoms(self, sid: int) -> int:
        labels, atoms, _ = self._components
        return atoms[labels[sid]]

    def reachable_actions(self, sid: int) -> int:
        self._one_conjunction_each()
        labels, _, actions = self._components
        return actions[labels[sid]]

class ImplicitWorld(StripsWorld):
    """A world too big to enumerate; a state handle is its bitmask. States are drawn by
    short random walks from a fixed pool of well-mixed states (a chain of long walks
    from the initial state), so draws are cheap and spread over the whole space."""

    def __init__(self, domain: Domain, domain_text: str, problem: Problem, label: str):
        super().__init__(domain, domain_text, problem, label)
        self._pool: list[int] = []
        self._distances: dict = {}

    def sample_state(self, rng: random.Random) -> int:
        n = len(self.objects)
        if not self._pool:
            chain = random.Random(f"start-pool-{n}")
            state = self.task.init
            for _ in range(START_POOL):
                for _ in range(3 * n):
                    state = chain.choice(self.task.successors(state))[1]
                self._pool.append(state)
        state = self._pool[rng.randrange(START_POOL)]
        for _ in range(n):  # states a walk passes once: applicable actions, not successors
            state = self.task.actions[rng.choice(self.task.applicable(state))].apply(state)
        return state

    def succ(self, state: int) -> tuple[list[int], list[int]]:
        pairs = self.task.successors(state)
        return [k for k, _ in pairs], [n for _, n in pairs]

    def moves(self, state: int) -> list[tuple[int, int, int]]:
        return [(k, n, n) for k, n in self.task.successors(state)]  # a state is its bits

    def step(self, state: int, action: int) -> int | None:
        a = self.task.actions[action]
        return a.apply(state) if a.applicable(state) else None

    def bits(self, state: int) -> int:
        return state

    def distance(self, state: int, cond: Condition | None = None,
                 max_depth: int | None = None) -> int | None:
        """Optimal plan length by A*; SearchBudgetExceeded past SEARCH_BUDGET states.
        `max_depth` is accepted for the protocol (the answer is exact regardless)."""
        cond = cond or self.goal_condition
        key = (state, cond.pos, cond.neg)
        if key not in self._distances:
            if len(self._distances) > 100_000:
                self._distances.clear()
            plan = astar(self.task, state, cond, heuristic_for(self.task, cond), SEARCH_BUDGET)
            self._distances[key] = None if plan is None else len(plan)
        return self._distances[key]

    def optimal_plan(self, rng, state: int, cond: Condition | None = None,
                     max_depth: int | None = None) -> list[int] | None:
        """A shortest plan by A*, ties broken by `rng` so any of them can come out."""
        cond = cond or self.goal_condition
        return astar(self.task, state, cond, heuristic_for(self.task, cond), SEARCH_BUDGET,
                     tie_break=rng)


def literal_condition(task: GroundTask, literals) -> Condition | None:
    return task.condition(Literal(tuple(a), p) for a, p in literals)
