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
  connected components, "must every plan make this fact true" one reverse pass for every
  fact at once (bit-parallel over the states without each). Every family runs on it.
* `ImplicitWorld`: too many states to enumerate (TRAC's ten blocks: 58 million). A
  handle is the state's bitmask; states are drawn by random walks from the initial
  state (TRAC's blocksworld: uniformly over its arrangements in towers, towers.py),
  successors come from the task, and optimal distances from A* with
  an admissible heuristic under a node budget (`SearchBudgetExceeded`: the row is
  redrawn, never guessed). Only families that need no enumeration run on it.

Plans are counted in actions (unit cost): questions ask for shortest plans even in
domains that declare action costs.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import os
import pickle
import random
import shutil
import socket
import tempfile
import threading
import uuid
from contextlib import contextmanager, suppress
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np

from racbench.errors import GenerationError, InputError
from racbench.splits.draws import below, pick, shuffle
from racbench.text import sayer
from racbench.worlds.protocol import World
from racbench.worlds.strips import limits
from racbench.worlds.strips.grounding import ground
from racbench.worlds.strips.heuristics import blocks_must_move, lm_cut
from racbench.worlds.strips.model import Domain, Literal, Problem
from racbench.worlds.strips.oracles import relaxed_reachable
from racbench.worlds.strips.pddl_reader import parse_domain, parse_problem, read_pddl_text
from racbench.worlds.strips.search import (SearchBudgetExceeded, StateSpace, astar, bfs_plan,
                                          lazy_greedy_path,
                                          relaxed_plan_heuristic,
                                          shortest_first_actions)
from racbench.worlds.strips.shipped import blocks_problem, trac_domain_file
from racbench.worlds.strips.task import SUCCESSOR_MEMO, Condition, GroundTask, iter_bits
from racbench.worlds.strips.towers import TowerStates

_say = sayer("cli", ("pddl.j2",))  # its one refusal: a problem too large to enumerate
_say_search = sayer("cli", ("search.j2",))  # a budget a search ran past

TRAC_EXPLICIT_STATES = 2_500  # TRAC's worlds enumerate up to this (five blocks: 501)
LOCAL_SEARCH_CAP = 5_000
NEAR_GOAL_CANDIDATES = 400  # implicit worlds: candidates for a pool of states near the goal
NEAR_GOAL_WORK = 1_000_000  # ... and the states their searches may store in all
NEW_PATH_EVERY = 4  # ... one candidate in this many: a new greedy path from a drawn state
NEAR_GOAL_PROOF_WORK = 2_500_000  # ... and the states A* may store in all where breadth-first
                                  # search runs out (proofs of the farther candidates'
                                  # distances), times the ground actions: each state costs an
                                  # LM-cut, which visits them (25,000 states on satellite p14,
                                  # 0.3 ms each; 760 on swap p14, 11 ms each)
NEAR_GOAL_EVALUATIONS = 3_000  # ... and the states those new paths' searches may evaluate
                               # in all (each a relaxed exploration; uncapped, ~100 searches
                               # took 80 s of CPU on depot p03, 60 s on a 30-block blocksworld)
GUIDE_VALUES_KEPT = 100_000  # implicit worlds: heuristic values kept per goal
GOAL_SEEDS = 4  # implicit worlds: greedy searches (besides the one from the initial state)
                # whose paths' last states seed the draws of states near the goal
EXPLORE_STATES = 1_000  # implicit worlds: states a witness search visits from a state
PROBE_STATES = 16  # implicit worlds: states whose relaxed reach tells if anything can be lost
UNREACHABLE = -1
WITHIN_KEPT = 20_000  # implicit worlds: depth-bounded search outcomes kept
BUDGET_RAN_OUT = "budget ran out"  # a kept outcome: the search stopped at its budget
# What an implicit world's searches keep, by pool width (`wider_pools`): the narrow
# pool's and the wider pool's never mix, so a row drawn from the narrow pool comes out
# the same whether or not this process has drawn from the wider one
_PER_WIDTH = {"_distances": dict, "_within": dict, "_pools": dict, "_pool_distances": dict,
              "_pool_of": dict, "_pool_by_astar": set, "_first_of": dict, "_first_done": set}
_wider = [False]  # inside `wider_pools(True)`


class wider_pools:
    """Implicit worlds draw states near the goal from their wider pools inside this
    block (`ImplicitWorld._wider_pool`): for a row whose draws keep repeating earlier
    rows (racbench/tasks/rows.py), never for others, so only builds whose pools run
    short pay for widening them. (A class, not a generator: every row enters one.)"""

    __slots__ = ("on", "before")

    def __init__(self, on: bool = True):
        self.on = on

    def __enter__(self) -> None:
        self.before = _wider[0]
        _wider[0] = self.on

    def __exit__(self, *exc) -> None:
        _wider[0] = self.before


_spaces: list = [None]  # inside `kept_spaces`: the folder enumerated state spaces are kept in
_going: list = []  # the threads deleting kept spaces (`let_kept_spaces_go`)


@contextmanager
def kept_spaces():
    """Inside this block, every state space enumerated is kept in a temporary folder
    (pickled, as it was found) and a world loaded again reads its space from there
    instead of enumerating it again. A build lets each domain's worlds go once probed
    (to bound its memory) and loads them again to make their rows: enumerating acp's
    problems took 17 s of CPU of its main process each time, reading them back 0.6 s.
    The folder goes when the block ends (or earlier, `let_kept_spaces_go`); one that
    cannot take a space (full, or removed meanwhile) keeps nothing more, and the build
    enumerates again."""
    if _spaces[0] is not None:  # nested: the outer block's folder serves
        yield
        return
    folder = tempfile.mkdtemp(prefix="racbench-spaces-")
    _spaces[0] = Path(folder)
    try:
        yield
    finally:
        _spaces[0] = None
        kept_spaces_gone()
        shutil.rmtree(folder, ignore_errors=True)


def let_kept_spaces_go() -> None:
    """Inside `kept_spaces`, once no world will be loaded again (a build's last run of
    configs has loaded its worlds): the kept spaces are deleted now, in a thread, while
    this process goes on (making rows), and nothing more is kept. On a disk that
    discards the blocks it frees, deleting them at the block's end held the build's end
    for seconds (acp: 729 files, 2.6 s); unlinking waits on the disk, not the processor.
    Call `kept_spaces_gone` before forking again."""
    folder = _spaces[0]
    if folder is None:
        return
    _spaces[0] = None
    thread = threading.Thread(target=shutil.rmtree, args=(folder,),
                              kwargs={"ignore_errors": True}, daemon=True)
    thread.start()
    _going.append(thread)


def kept_spaces_gone() -> None:
    """Wait until the spaces `let_kept_spaces_go` let go are deleted."""
    while _going:
        _going.pop().join()


def keep_spaces_in(folder: str | None) -> None:
    """In a worker that is not a fork of the build's process (a Ray worker): keep and
    read back state spaces in `folder`, the build's, which its other workers share (on a
    cluster, a folder every node reaches: the build's unfinished folder); None: keep
    none. A folder this process cannot reach keeps nothing: it enumerates, as without."""
    _spaces[0] = None if folder is None else Path(folder)


def spaces_kept() -> bool:
    """Inside `kept_spaces`: a space enumerated (and a world warmed) now, in this
    process or in a worker forked from it, is read back by a world loaded later."""
    return _spaces[0] is not None


def enumerate_ahead(domain_file: str, problem_file: str) -> None:
    """Load a problem's world and warm it (`ExplicitWorld.warm`), inside `kept_spaces`
    in a worker forked by a build: its space and caches are kept, and the build's
    driver, loading the world afterwards, reads them back instead of making them
    while its workers wait (see export/build.py). A problem too large to enumerate is
    marked so in the folder, and the driver loads its implicit world without
    enumerating it to the limit again."""
    world = world_for(domain_file, problem_file, implicit=True)
    if world.explicit:
        world.warm()


def _kept_space_file(world: "StripsWorld", max_states: int | None) -> Path | None:
    """Where `kept_spaces` keeps a problem's space (None outside it), named by what
    the space follows from: the domain, the problem's objects, initial state (its
    numbers too: action costs read them), goal (grounding may read it), and the limit
    (None: what follows from the problem alone, its grounding)."""
    folder = _spaces[0]
    if folder is None:
        return None
    problem = world.problem
    what = (world.domain_text, problem.source, sorted(problem.objects.items()),
            sorted(problem.init),
            sorted(problem.numeric_init.items()), repr(problem.goal), max_states)
    return folder / f"{hashlib.blake2b(repr(what).encode(), digest_size=16).hexdigest()}.pickle"


def _ground(world: "StripsWorld") -> GroundTask:
    """The world's problem grounded; inside `kept_spaces`, kept (pickled, as grounded)
    by the first process to ground it and read back by the others: grounding acp's
    problems again was half of the time a build's driver took to load each domain's
    worlds (twice: to probe, then to make rows)."""
    kept = _kept_space_file(world, None)
    task = _read_kept(kept.with_suffix(".task")) if kept is not None else None
    if not isinstance(task, GroundTask):
        task = ground(world.domain, world.problem)
        if kept is not None:
            _keep(kept.with_suffix(".task"), task)
    return task


def _read_kept(path: Path):
    """What `_keep` kept at `path`, or None if nothing can be read there."""
    try:
        return pickle.loads(path.read_bytes())
    except OSError:
        return None


def _keep(path: Path, value) -> None:
    """Pickle `value` to `path` whole (through a file of this writer's own, then
    renamed into place), so a reader never sees part of one; a folder that cannot take
    it keeps nothing: keeping only saves time. The build's folder may be shared by
    several nodes, whose processes can have the same pid: the file written is named by
    the host, the pid and a random suffix, so two writers never write into one file."""
    written = path.with_name(
        f"{path.name}.{socket.gethostname()}.{os.getpid()}.{uuid.uuid4().hex}.tmp")
    try:
        written.write_bytes(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(written, path)
    except OSError:
        with suppress(OSError):
            written.unlink(missing_ok=True)


def _per_width(name: str) -> property:
    def kept(self):
        width = int(_wider[0])
        if self._kept[width] is None:
            self._kept[width] = self._new_kept()
        return self._kept[width][name]
    return property(kept)


class WorldTooLarge(InputError):
    """A problem whose reachable state space is beyond what we enumerate."""


def domain_text(path) -> tuple[str, Domain]:
    """A domain file's text and parse, read once a process under each size limit (a
    limit lowered later refuses a file read before it, as a fresh process would)."""
    return load_domain_text(str(path), limits.current().max_pddl_bytes)


@lru_cache(maxsize=64)
def load_domain_text(path: str, max_pddl_bytes: int) -> tuple[str, Domain]:
    text = read_pddl_text(path)
    return text, parse_domain(text, path)


def world_for(domain_file: str, problem_file: str, max_states: int | None = None,
              implicit: bool = False) -> "StripsWorld":
    """The world of a problem file (cached): enumerated up to `max_states` reachable
    states (the limit in force by default, see limits.py); beyond, an implicit world
    if `implicit` (for families that need no enumeration), else WorldTooLarge."""
    if max_states is None:
        max_states = limits.current().max_enumerated_states
    key = (str(domain_file), str(problem_file), max_states)
    if key not in _TOO_LARGE:
        try:
            return _world(*key, *_load_limits())
        except WorldTooLarge:
            _TOO_LARGE.add(key)  # exploring again would fail again, after as long
            if not implicit:
                raise
    elif not implicit:
        raise WorldTooLarge(_say("world_too_large", problem=problem_file, max_states=max_states))
    return _implicit_world(str(domain_file), str(problem_file), *_load_limits())


def _load_limits() -> tuple[int, int]:
    """The limits a world is read and grounded under, part of its cache key: a world
    loaded under generous limits is not handed out where lower ones are in force
    (`play strips --max-ground-actions 5` after a game of the same problem played it)."""
    current = limits.current()
    return current.max_pddl_bytes, current.max_ground_actions


_TOO_LARGE: set[tuple[str, str, int]] = set()


def forget_worlds() -> int:
    """Drop the worlds loaded so far (their state spaces and caches go with them); how
    many there were."""
    dropped = _world.cache_info().currsize + _implicit_world.cache_info().currsize
    _world.cache_clear()
    _implicit_world.cache_clear()
    return dropped


@lru_cache(maxsize=None)
def _world(domain_file: str, problem_file: str, max_states: int, max_pddl_bytes: int,
           max_ground_actions: int) -> "ExplicitWorld":
    text, domain = load_domain_text(domain_file, max_pddl_bytes)
    problem = parse_problem(read_pddl_text(problem_file), domain, problem_file)
    return ExplicitWorld(domain, text, problem, Path(problem_file).stem, max_states)


def stepping_world(domain_file, problem_file) -> "ImplicitWorld":
    """The world of a problem file without enumerating its states (cached): for
    environments and players, which only step it."""
    return _implicit_world(str(domain_file), str(problem_file), *_load_limits())


@lru_cache(maxsize=None)
def _implicit_world(domain_file: str, problem_file: str, max_pddl_bytes: int,
                    max_ground_actions: int) -> "ImplicitWorld":
    text, domain = load_domain_text(domain_file, max_pddl_bytes)
    problem = parse_problem(read_pddl_text(problem_file), domain, problem_file)
    return ImplicitWorld(domain, text, problem, Path(problem_file).stem)


@lru_cache(maxsize=None)
def trac_world(n_blocks: int) -> "StripsWorld":
    """TRAC's blocksworld over `n_blocks` blocks: enumerated when small (five blocks:
    501 states), implicit beyond TRAC_EXPLICIT_STATES (ten blocks)."""
    text, domain = domain_text(trac_domain_file())
    problem = blocks_problem(domain.name, n_blocks)
    try:
        return ExplicitWorld(domain, text, problem, problem.name, TRAC_EXPLICIT_STATES)
    except WorldTooLarge:
        return ImplicitWorld(domain, text, problem, problem.name, towers=True)


class StripsWorld(World):
    """What every STRIPS world offers: the grounded task, its objects and the protocol
    methods (racbench/worlds/protocol.py) that do not depend on how states are held."""

    def __init__(self, domain: Domain, domain_text: str, problem: Problem, label: str):
        self.domain = domain
        self.domain_text = domain_text
        self.problem = problem
        self.label = label  # the problem's file stem (p01), used in ids and metadata
        self.task: GroundTask = _ground(self)
        self.objects = dict(sorted(problem.objects.items()))
        self.static_atoms = sorted(self.task.static_atoms)
        self.goal = tuple(problem.goal)
        self.goal_condition = self.task.condition(self.goal)

    # -- stepping (through succ and step, which each kind of world defines) -------------
    def applicable(self, state: int) -> list[int]:
        return list(self.succ(state)[0])

    def at_goal(self, state: int) -> bool:
        """Whether the problem's goal holds in `state`."""
        return self.goal_condition is not None and self.goal_condition.holds(self.bits(state))

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
                    shuffle(rng, order)
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

    def nearby_distance(self, state: int, cond: Condition, max_depth: int,
                        cap: int = LOCAL_SEARCH_CAP) -> int | None:
        """`nearby_plan(state, cond, max_depth)`'s distance alone: the same search,
        keeping no way back and listing no moves, for callers that ask only how far (a
        goal recognition draw classifies a dozen walks' ends by it)."""
        pos, neg = cond.pos, cond.neg
        bits, succ = self.bits, self.succ
        here = bits(state)
        if here & pos == pos and not here & neg:
            return 0
        seen = {state}
        frontier = [state]
        for depth in range(1, max_depth + 1):
            if depth == max_depth and not self.explicit:
                # the last layer: whether an action takes a state of the frontier to
                # `cond`, trying only those that change it (its states' moves unlisted)
                found = self.task.reached_in_one(frontier, cond)
                if found is not None:
                    return depth if found else None
            nxt = []
            for s in frontier:
                for t in succ(s)[1]:
                    if t in seen:
                        continue
                    seen.add(t)
                    reached = bits(t)
                    if reached & pos == pos and not reached & neg:
                        return depth
                    nxt.append(t)
            if len(seen) > cap:
                return self.distance(state, cond, max_depth)
            frontier = nxt
        return None

    def drawn_plan(self, state: int, cond: Condition, max_depth: int, rng=None
                   ) -> tuple[int | None, list[int] | None]:
        """`nearby_plan`, however a kind of world finds it fastest (ExplicitWorld: from
        a distance table), for draws whose bytes may follow (TRAC's)."""
        return self.nearby_plan(state, cond, max_depth, rng)

    @property
    def initial(self) -> int:
        """The problem's initial state (an enumerated world's first, an implicit one's bits)."""
        return 0 if self.explicit else self.task.init

    def observe(self, state: int, action: int, text) -> tuple[int, str]:
        """(the state after `action`, what an observer sees change): the facts it makes
        true and those it makes false, as sentences in `text`'s phrasing (see
        `observation`); an action that cannot be done changes nothing and says so."""
        nxt = self.step(state, action)
        if nxt is None:
            return state, observation(self.task, None, None, text)
        return nxt, observation(self.task, self.bits(state), self.bits(nxt), text)

    def moves(self, state: int) -> list[tuple[int, int, int]]:
        """(action, next state, its bits) of each applicable action, by action index:
        what a search expands (read the list, never change it)."""
        acts, dsts = self.succ(state)
        return [(k, t, self.bits(t)) for k, t in zip(acts, dsts)]

    # -- facts and terms (the protocol's view: terms, not indices) ------------------------
    def state_atoms(self, state: int) -> list[list[str]]:
        """Every true atom, static ones included, sorted."""
        return [list(a) for a in self.state_terms(state)]

    def state_terms(self, state: int) -> tuple[tuple, ...]:
        """`state_atoms` as tuples (read them, never change them)."""
        atoms = self.task.atoms_of(self.bits(state)) + self.static_atoms
        return tuple(sorted(tuple(a) for a in atoms))

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
        return text.state(list(self.state_terms(state)), rng)

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
COND_TABLES_KEPT = 4_096  # small spaces: distance tables kept per goal condition (2 KiB-4 KiB)


def observation(task: GroundTask, before: int | None, after: int | None, text) -> str:
    """What an observer of a STRIPS world sees when an action runs between the states
    `before` and `after` (bits; None: the action could not be done): each fact made
    true, then each made false, in atom order, one sentence each
    (templates/strips/observation.j2)."""
    from racbench.text.phrasing import template
    said = template("observation", "strips")
    if before is None:
        return str(said.refused())
    added = [text.fact(tuple(a)) for a in task.atoms_of(after & ~before)]
    removed = [text.fact(tuple(a), False) for a in task.atoms_of(before & ~after)]
    return str(said.change(added, removed))


class ExplicitWorld(StripsWorld):
    """A world whose reachable states are enumerated; a state handle is its index."""

    explicit = True

    def __init__(self, domain: Domain, domain_text: str, problem: Problem, label: str,
                 max_states: int):
        super().__init__(domain, domain_text, problem, label)
        self._explore(max_states)
        self._dist_cache: dict = {}

    # -- exploration --------------------------------------------------------------------
    def _explore(self, max_states: int) -> None:
        kept = self._kept_file = _kept_space_file(self, max_states)
        self.space = _read_kept(kept) if kept is not None else None
        if self.space is None:
            too_large = kept.with_suffix(".too-large") if kept is not None else None
            try:
                if too_large is not None and too_large.exists():
                    # a worker enumerated it to the limit already (enumerate_ahead)
                    raise SearchBudgetExceeded(
                        _say_search("more_reachable_states", most=max_states))
                self.space = StateSpace(self.task, self.task.init, max_states)
            except SearchBudgetExceeded:
                if too_large is not None:
                    _keep(too_large, max_states)
                raise WorldTooLarge(_say("world_too_large", problem=self.problem.source,
                                         max_states=max_states)) from None
            if kept is not None:  # as found, before any cache of its own fills
                _keep(kept, self.space)
        self.states = self.space.states
        self.index = self.space.index
        # walks and local searches step a few states many times: their successors as
        # Python lists, kept once read (small spaces only, to bound memory)
        self._succ_lists = [None] * len(self.states) if len(self.states) <= SUCC_LISTS_UP_TO else None
        small = len(self.states) <= SMALL_SPACE
        self._literal_lists = {} if small else None
        self._moves = [None] * len(self.states) if small else None
        self._terms = [None] * len(self.states) if small else None
        self._cond_lists: dict = {}

    @property
    def n_states(self) -> int:
        return len(self.states)

    def warm(self) -> None:
        """Make the caches every row maker reads (distances to the goal, what each state
        can still reach, the edges into each state that every sweep reads) before worker
        processes fork and share them; inside `kept_spaces`, kept beside the space and
        read back when loaded again."""
        kept = self._kept_beside(".warm")
        warmed = _read_kept(kept) if kept is not None and "_components" not in self.__dict__ \
            else None
        if isinstance(warmed, tuple) and len(warmed) == 3:  # (else: not this version's)
            self.__dict__["goal_distance"], self.__dict__["_components"], reverse = warmed
            if self.space._reverse is None:
                self.space._reverse = reverse
            cond = self.goal_condition
            if cond is not None:  # as `distances` keeps it
                self._dist_cache[("goal", cond.pos, cond.neg, None)] = self.goal_distance
        self.goal_distance, self.reachable_atoms(0)
        if kept is not None and not kept.exists():
            # the predecessors too: read back, a process loading the world no longer
            # works them out at its first sweep (each probe and row worker did)
            _keep(kept, (self.goal_distance, self._components, self.space._predecessors()))

    def _kept_beside(self, suffix: str) -> Path | None:
        """Where a cache of this world is kept beside its space (`kept_spaces`), or None:
        kept only in the block that kept the space (a world outlives a build in a
        process that runs several: its folder is gone)."""
        kept = self._kept_file
        return kept.with_suffix(suffix) if kept is not None and kept.parent == _spaces[0] \
            else None

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

    def state_terms(self, state: int) -> tuple[tuple, ...]:
        """StripsWorld.state_terms, kept per state in small spaces: every row states
        its state twice (its context and its symbolic form), from a few hundred."""
        if self._terms is None:
            return super().state_terms(state)
        found = self._terms[state]
        if found is None:
            found = self._terms[state] = super().state_terms(state)
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

    def drawn_plan(self, state: int, cond: Condition, max_depth: int, rng=None
                   ) -> tuple[int | None, list[int] | None]:
        """`nearby_plan`, read off a distance table in small spaces: a goal of a literal
        or two over five blocks is one of a few thousand, each swept once a process
        (`cond_distances`), and a goal recognition draw asks about its goal from its
        state and a dozen walks' ends, where a search each expanded the same states
        again and again. With `rng`, each step of the plan is drawn among the successors
        one action nearer: the same plans as the search's, drawn otherwise (other
        suites' rows, whose bytes are kept, call `nearby_plan`)."""
        if self._moves is None:
            return super().nearby_plan(state, cond, max_depth, rng)
        dist = self.cond_distances(cond)
        d = dist[state]
        if d < 0 or d > max_depth:
            return None, None
        plan, succ = [], self.succ
        for left in range(d - 1, -1, -1):
            acts, dsts = succ(state)
            steps = [j for j, t in enumerate(dsts) if dist[t] == left]
            j = steps[0] if rng is None else pick(rng, steps)
            plan.append(acts[j])
            state = dsts[j]
        return d, plan

    def cond_distances(self, cond: Condition) -> list[int]:
        """Distances to `cond` from every state, as a Python list (read, never change
        it), kept per condition: small spaces only, where every condition a row asks
        about (one or two literals) fits, a few KiB each."""
        key = (cond.pos, cond.neg)
        kept = self._cond_lists
        found = kept.get(key)
        if found is None:
            if len(kept) >= COND_TABLES_KEPT:
                kept.clear()
            found = kept[key] = self.space.sweep(self.mask_of(cond)).tolist()
        return found

    def sample_state(self, rng: random.Random) -> int:
        """Uniform over the reachable states."""
        return below(rng, len(self.states))

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

    def reaches_goal(self, state: int) -> bool:
        """Whether some plan reaches the goal from `state` (its distance table)."""
        return self.goal_condition is not None and self.distance(state) is not None

    @cached_property
    def _goal_avoiding(self) -> np.ndarray:
        """`goal_avoiding` for every state; inside `kept_spaces`, kept beside the space
        by the first process to work it out and read back by the others (a build's
        probe workers, its driver checking a first row and its row workers each worked
        it out again)."""
        kept = self._kept_beside(".avoiding")
        found = _read_kept(kept) if kept is not None else None
        if found is None:
            found = self.space.reach_avoiding(self.mask_of(self.goal_condition))
            if kept is not None:
                _keep(kept, found)
        return found

    def goal_avoiding(self, sid: int) -> int:
        """The atoms a state can reach the goal without ever making true, as a bit mask
        (those false in it and no landmark from it), for every atom at once
        (StateSpace.reach_avoiding): landmark rows ask about every fact of a state."""
        return int.from_bytes(self._goal_avoiding[sid].tobytes(), "little")

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
        """A shortest plan off the distance table, each step drawn by `rng` among those one
        action nearer (the first of them without one: `nearby_plan`'s callers that ask
        only the distance pass none)."""
        dist = self.goal_distance if cond is None else self._distances_from(sid, cond, max_depth)
        if dist[sid] < 0:
            return None
        plan = []
        while (d := dist[sid]) > 0:  # optimal_steps, off the same table
            acts, dsts = self.succ(sid)
            steps = [(a, t) for a, t in zip(acts, dsts) if dist[t] == d - 1]
            if not steps:
                break
            k, sid = rng.choice(steps) if rng is not None else steps[0]
            plan.append(k)
        return plan

    def _distances_from(self, sid: int, cond: Condition,
                        max_depth: int | None = None) -> np.ndarray:
        """Distances to `cond` exact for `sid` and every state nearer than it, for a plan
        from `sid`: the whole table if kept, else a sweep that stops at the level
        reaching `sid` (rows draw a goal and a state anew, and a whole sweep went on to
        the states farthest from the goal), kept apart from the whole tables; where it
        never reaches `sid` it is the whole table, and kept as such."""
        key = ("goal", cond.pos, cond.neg, max_depth)
        vec = self._dist_cache.get(key)
        if vec is not None:
            return vec
        near = ("near",) + key[1:]
        vec = self._dist_cache.get(near)
        if vec is not None and vec[sid] >= 0:
            return vec
        if len(self._dist_cache) > 512:
            self._dist_cache.clear()
        vec = self.space.sweep(self.mask_of(cond), None, max_depth, until=sid)
        self._dist_cache[key if vec[sid] < 0 else near] = vec
        return vec

    def states_at_distance(self, d: int, cond: Condition | None = None) -> np.ndarray:
        dist = self.goal_distance if cond is None else self.distances(cond)
        key = ("at", d) if cond is None else None
        if key is not None:
            hit = self._dist_cache.get(key)
            if hit is None:
                hit = self._dist_cache[key] = np.flatnonzero(dist == d)
            return hit
        return np.flatnonzero(dist == d)

    def state_at_goal_distance(self, rng, lo: int, hi: int,
                               cond: Condition | None = None) -> int | None:
        """A uniformly chosen distance in [lo, hi] that some state has, then such a
        state (uniformly)."""
        options = [d for d in range(lo, hi + 1) if len(self.states_at_distance(d, cond))]
        if not options:
            return None
        states = self.states_at_distance(rng.choice(options), cond)
        return int(states[rng.randrange(len(states))])

    # -- what can still happen ------------------------------------------------------------
    @cached_property
    def _components(self):
        """Strongly connected components and, per component, the atoms true and the
        actions applicable in some state reachable from it (as int bit masks)."""
        space = self.space
        n_comp, labels = space.components()
        # a component's atoms: its states' bits or-ed together, a byte column at a time
        # (the states' bits, eight atoms to a byte, as `space` keeps them), not state by
        # state as Python ints
        order = np.argsort(labels, kind="stable")
        grouped = labels[order]
        starts = np.flatnonzero(np.r_[True, grouped[1:] != grouped[:-1]])
        ored = np.bitwise_or.reduceat(space._truth[order], starts, axis=0)
        atoms = [0] * n_comp
        for c, row in zip(grouped[starts].tolist(), ored):
            atoms[c] = int.from_bytes(row.tobytes(), "little")
        actions = [0] * n_comp
        n_actions = len(self.task.actions)
        by_source = labels[space.edge_src].astype(np.int64)
        for pair in np.unique(by_source * n_actions + space.edge_act).tolist():
            c, k = divmod(pair, n_actions)
            actions[c] |= 1 << k
        pairs = set(zip(by_source.tolist(), labels[space.edge_dst].tolist()))
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
        key = ("co-applicable", int(self._components[0][sid]))
        mat = self._dist_cache.get(key)
        if mat is None:
            applicable = np.zeros((self.n_states, len(self.task.actions)), dtype=np.float32)
            applicable[self.space.edge_src, self.space.edge_act] = 1.0
            m = applicable[self.reachable_states(sid)]
            mat = self._dist_cache[key] = (m.T @ m) > 0
        return mat

    @cached_property
    def has_unreachable_actions(self) -> bool:
        """Does some state lose the possibility of some grounded action?"""
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
        labels, _, actions = self._components
        return actions[labels[sid]]

    def unreachable_atoms(self, sid: int) -> int:
        """Atoms no state reachable from `sid` makes true (every other one is reachable)."""
        return ((1 << len(self.task.atoms)) - 1) & ~self.reachable_atoms(sid)

    def unreachable_actions(self, sid: int) -> int:
        return ((1 << len(self.task.actions)) - 1) & ~self.reachable_actions(sid)

class ImplicitWorld(StripsWorld):
    """A world too big to enumerate; a state handle is its bitmask.

    States are drawn by random walks: a long walk may end where nothing more can happen
    (every tile painted), so a draw is a walk from the initial state of a length drawn
    up to three steps per object, and states at every depth come up. TRAC's blocksworld
    (`towers`) draws its states uniformly instead, each arrangement of the blocks in
    towers alike (worlds/strips/towers.py), as its enumerated five-block world does."""

    def __init__(self, domain: Domain, domain_text: str, problem: Problem, label: str,
                 towers: bool = False):
        super().__init__(domain, domain_text, problem, label)
        self._towers = TowerStates(self.task, list(self.objects)) if towers else None
        self._explore_cache: dict[int, list[int]] = {}
        self._succ_kept: dict[int, tuple[list[int], list[int]]] = {}  # `succ`'s lists
        self._admissible: dict = {}  # goal -> LM-cut, for searches past breadth-first's budget
        self._guides: dict = {}  # goal atoms -> FF's heuristic, its values kept (`_guide`)
        self._paths: dict = {}  # goal -> greedy paths to it (`_greedy_paths`)
        self._kept = [self._new_kept(), None]  # _PER_WIDTH's, narrow pools; wider, once used
        self.pool_dropped = 0  # pool candidates whose search ran out of budget

    _distances = _per_width("_distances")
    _within = _per_width("_within")  # _plan_within's outcomes
    _pools = _per_width("_pools")  # (goal, bound) -> proven states near the goal, by distance
    _pool_distances = _per_width("_pool_distances")  # (state, goal) -> distance, pool states
    _pool_of = _per_width("_pool_of")  # (state, goal) -> the first pool it joined
    _pool_by_astar = _per_width("_pool_by_astar")  # (state, goal) of pool states on A*'s plans
    _first_of = _per_width("_first_of")  # (pool state, goal) -> first actions of shortest plans
    _first_done = _per_width("_first_done")  # pools whose states' first actions are in _first_of

    @staticmethod
    def _new_kept() -> dict:
        return {name: new() for name, new in _PER_WIDTH.items()}

    def sample_state(self, rng: random.Random) -> int:
        if self._towers is not None:
            return self._towers(rng)
        state = self.task.init
        for _ in range(rng.randint(0, 3 * len(self.objects))):
            pairs = self.task.successors(state)
            if not pairs:
                break
            state = pairs[rng.randrange(len(pairs))][1]
        return state

    def succ(self, state: int) -> tuple[list[int], list[int]]:
        """(actions, next states) of `state`, by action index, kept for SUCCESSOR_MEMO
        states (read them, never change them): walks, layers and searches ask for the
        lists of the same states again and again, which were split anew from the task's
        (action, next state) pairs each time; a plain STRIPS task's are made straight
        from its applicable actions, without the pairs."""
        kept = self._succ_kept
        found = kept.get(state)
        if found is None:
            task = self.task
            if task.plain:
                acts = task.applicable(state)
                keep, add = task.keep_masks, task.add_masks
                found = (acts, [(state & keep[k]) | add[k] for k in acts])
            else:
                pairs = task.successors(state)
                found = ([k for k, _ in pairs], [n for _, n in pairs])
            if len(kept) >= SUCCESSOR_MEMO:
                kept.clear()
            kept[state] = found
        return found

    def moves(self, state: int) -> list[tuple[int, int, int]]:
        acts, dsts = self.succ(state)
        return list(zip(acts, dsts, dsts))  # a state is its bits

    def step(self, state: int, action: int) -> int | None:
        a = self.task.actions[action]
        return a.apply(state) if a.applicable(state) else None

    def bits(self, state: int) -> int:
        return state

    def distance(self, state: int, cond: Condition | None = None,
                 max_depth: int | None = None) -> int | None:
        """Fewest actions to `cond` (the goal by default), by search (A* where we have
        a heuristic, breadth-first otherwise); SearchBudgetExceeded past the search
        budget's states (limits.py). With `max_depth`, None where there is no plan of
        at most that many actions, as in an enumerated world (a search no deeper)."""
        cond = cond or self.goal_condition
        key = (state, cond.pos, cond.neg)
        found = self._pool_distances.get(key)
        if found is not None:
            return found
        if key not in self._distances:
            if max_depth is not None and blocks_must_move(self.task, cond) is None:
                plan = self._bounded(state, cond, max_depth)
                return None if plan is None else len(plan)
            self._search(state, cond)
        return self._distances[key]

    def optimal_plan(self, rng, state: int, cond: Condition | None = None,
                     max_depth: int | None = None) -> list[int] | None:
        """A shortest plan by search (None if there is none, or none of at most
        `max_depth` actions). TRAC's blocksworld breaks ties by `rng`, so any shortest
        plan can come out; elsewhere the plan is the one breadth-first search finds
        first, the same for a state whenever asked, so one search serves its distance
        and its plan."""
        cond = cond or self.goal_condition
        if max_depth is not None and blocks_must_move(self.task, cond) is None:
            return self._bounded(state, cond, max_depth)
        return self._search(state, cond, rng)

    def plan_within_budget(self, state: int, cond: Condition | None = None) -> list[int] | None:
        """Some plan from `state` to `cond` (the goal), for walkthroughs that want a path
        to the goal, not a proof of its length: the shortest plan breadth-first search
        finds within the search budget, else the path FF's lazy greedy search finds
        within it (not always shortest); None if neither finds one. No A*: on a large
        problem it spends minutes before running out (gripper with 26 balls: 184 s of
        CPU), where the greedy path takes a tenth of a second."""
        cond = cond or self.goal_condition
        if cond is None:  # a goal grounding proved unreachable
            return None
        budget = limits.current().search_budget
        try:
            return bfs_plan(self.task, state, cond.pos, cond.neg, budget)
        except SearchBudgetExceeded:
            pass
        try:
            path = lazy_greedy_path(self.task, state, cond.pos, cond.neg, budget,
                                    self._guide(cond.pos))
        except SearchBudgetExceeded:
            return None
        if path is None:
            return None
        plan = []
        for before, after in zip(path, path[1:]):  # the first action between them
            plan.append(next(k for k, n in self.task.successors(before) if n == after))
        return plan

    def reaches_goal(self, state: int) -> bool:
        """Whether some plan reaches the goal from `state`, not how short: FF's lazy
        greedy search, which says no only where it ran out of states (or the relaxed
        plan cannot reach the goal at all); an optimal search answered the same from
        logistics00 6-0 in 10.6 CPU-s, this in a hundredth. SearchBudgetExceeded past
        the search budget."""
        cond = self.goal_condition
        if cond is None:  # a goal grounding proved unreachable
            return False
        key = (state, cond.pos, cond.neg)
        if key in self._distances:  # searched already, optimally
            return self._distances[key] is not None
        return lazy_greedy_path(self.task, state, cond.pos, cond.neg,
                                limits.current().search_budget,
                                self._guide(cond.pos)) is not None

    def _bounded(self, state: int, cond: Condition, depth: int) -> list[int] | None:
        """`_plan_within` for a plan of at most `depth` actions, kept like any found;
        SearchBudgetExceeded where its search runs out of budget (no A*: a question
        bounded in depth is dropped rather than searched at length)."""
        plan = self._plan_within(state, cond, depth)
        if plan is BUDGET_RAN_OUT:
            raise SearchBudgetExceeded(_say_search(
                    "more_states", most=limits.current().search_budget))
        if plan is not None:
            self._remember(state, cond, plan)
        return plan

    def optimal_steps(self, state: int, cond: Condition | None = None,
                      max_depth: int | None = None) -> list[tuple[int, int]]:
        """Applicable (action, successor) pairs that start some shortest plan: one
        search that keeps every shortest path, not a search per successor (TRAC's
        blocksworld, with its heuristic, searches per successor)."""
        cond = cond or self.goal_condition
        if blocks_must_move(self.task, cond) is not None:
            return super().optimal_steps(state, cond, max_depth)
        key = (state, cond.pos, cond.neg)
        pool = self._pool_of.get(key)
        if pool is not None:
            if pool[-1] == "wider":  # few of its states are drawn (by rows that found the
                # narrow pool short), and its far ones cost most: state by state
                if key not in self._first_of:
                    self._first_of[key] = self._first_actions(state, cond,
                                                              limits.current().search_budget)
                first = self._first_of[key]
            else:
                first = self._pool_first_actions(pool, cond)[key]
            if first is BUDGET_RAN_OUT:
                raise SearchBudgetExceeded(_say_search(
                    "more_states", most=limits.current().search_budget))
        else:
            key = ("first", state, cond.pos, cond.neg)
            first = self._distances.get(key)
            if first is None:
                first = self._distances[key] = shortest_first_actions(
                    self.task, state, cond.pos, cond.neg, limits.current().search_budget)
        return [(k, self.task.actions[k].apply(state)) for k in first]

    def _pool_first_actions(self, pool: tuple, cond: Condition) -> dict:
        """The first actions of every shortest plan from each state of a pool near
        `cond` (`_near_goal_pool`), found together the first time one is asked for:
        rows asking about first steps draw every pool state sooner or later, so the
        survey pays for them, not the rows. BUDGET_RAN_OUT where the search ran out
        (that state's question is dropped whenever drawn)."""
        found = self._first_of
        if pool not in self._first_done:
            budget = limits.current().search_budget
            for states in self._pools[pool].values():
                for state in states:
                    key = (state, cond.pos, cond.neg)
                    if key not in found:
                        found[key] = self._first_actions(state, cond, budget)
            self._first_done.add(pool)
        return found

    def _first_actions(self, state: int, cond: Condition, budget: int):
        """`shortest_first_actions` of a pool state, or BUDGET_RAN_OUT. With unit costs,
        where the plain search runs out or would (the pool proved the state by A*:
        satellite p14's states 7 to 11 actions from the goal), the search leaves out
        the states LM-cut shows to be on no plan of the state's proven length: the
        same answer (only states off every shortest plan are left out, so it stores
        no more states than the plain one and runs out only where that does too).
        Plain first elsewhere: an LM-cut costs as much as thousands of successors
        where ground actions are many (11 ms on swap p14)."""
        key = (state, cond.pos, cond.neg)
        if key not in self._pool_by_astar or not self._unit_costs:
            try:
                return shortest_first_actions(self.task, state, cond.pos, cond.neg, budget)
            except SearchBudgetExceeded:
                if not self._unit_costs:
                    return BUDGET_RAN_OUT
        try:
            return shortest_first_actions(self.task, state, cond.pos, cond.neg, budget,
                                          (self._pool_distances[key], self._lm_cut(cond)))
        except SearchBudgetExceeded:
            return BUDGET_RAN_OUT

    def _search(self, state: int, cond: Condition, rng=None) -> list[int] | None:
        """A shortest plan to `cond`; the distances of the states along it (each the
        rest of the plan: a suffix of a shortest plan is shortest) are kept."""
        h = blocks_must_move(self.task, cond)
        if h is not None:
            plan = astar(self.task, state, cond, h, limits.current().search_budget,
                         tie_break=rng)
        else:  # the plan breadth-first search (or A* past its budget) finds first, kept;
            # searched no deeper than a pool's proven distance (the same plan, found sooner)
            depth = self._pool_distances.get((state, cond.pos, cond.neg))
            plan = self._plan_within(state, cond, depth)
            if plan is BUDGET_RAN_OUT:
                raise SearchBudgetExceeded(_say_search(
                    "more_states", most=limits.current().search_budget))
        if plan is None:
            self._distances[(state, cond.pos, cond.neg)] = None
            return None
        self._remember(state, cond, plan)
        return plan

    def _remember(self, state: int, cond: Condition, plan: list[int]) -> None:
        """Keep the distances of the states along a shortest plan (each the rest of
        the plan: a suffix of a shortest plan is shortest)."""
        if len(self._distances) > 100_000:
            self._distances.clear()
        for i, k in enumerate(plan):
            self._distances[(state, cond.pos, cond.neg)] = len(plan) - i
            state = self.task.actions[k].apply(state)
        self._distances[(state, cond.pos, cond.neg)] = 0

    # -- what can still happen: proven either way, or not asked --------------------------
    # Unlike an enumerated world, an implicit one knows two things apart: what a search
    # has witnessed (reachable) and what the delete relaxation rules out (unreachable).
    # A fact or action in neither is undecided, and families do not ask about it.
    def _explored(self, state: int) -> list[int]:
        """States a breadth-first search from `state` visits, up to EXPLORE_STATES."""
        found = self._explore_cache.get(state)
        if found is None:
            seen, frontier = {state: None}, [state]
            while frontier and len(seen) < EXPLORE_STATES:
                nxt = []
                for s in frontier:
                    for _, n in self.task.successors(s):
                        if n not in seen and len(seen) < EXPLORE_STATES:
                            seen[n] = None
                            nxt.append(n)
                frontier = nxt
            if len(self._explore_cache) > 64:
                self._explore_cache.clear()
            found = self._explore_cache[state] = list(seen)
        return found

    def reachable_atoms(self, state: int) -> int:
        """Atoms true in some state the search from `state` reached: reachable, witnessed."""
        out = 0
        for s in self._explored(state):
            out |= s
        return out

    def reachable_actions(self, state: int) -> int:
        """Actions applicable in some state the search from `state` reached."""
        out = 0
        for s in self._explored(state):
            for k, _ in self.task.successors(s):
                out |= 1 << k
        return out

    def unreachable_atoms(self, state: int) -> int:
        """Atoms outside the delete-relaxed closure of `state`: provably never true."""
        return ((1 << len(self.task.atoms)) - 1) & ~relaxed_reachable(self.task, state)

    def unreachable_actions(self, state: int) -> int:
        """Actions whose preconditions lie outside the relaxed closure: never applicable."""
        closure = relaxed_reachable(self.task, state)
        out = 0
        for k, a in enumerate(self.task.actions):  # every alternative out of reach
            if a.pre & ~closure or all(pos & ~closure for pos, _ in a.clauses):
                out |= 1 << k
        return out

    def together(self, state: int) -> "PairTable":
        """together[i, j]: atoms i and j are both true in some state the search from
        `state` reached (witnessed; False is undecided, not 'never')."""
        return PairTable(self._explored(state))

    def co_applicable(self, state: int) -> "PairTable":
        """co[a, b]: actions a and b both applicable in some state the search reached."""
        masks = []
        for s in self._explored(state):
            mask = 0
            for k, _ in self.task.successors(s):
                mask |= 1 << k
            masks.append(mask)
        return PairTable(masks)

    @cached_property
    def _probe_states(self) -> list[int]:
        rng = random.Random(f"probe-{len(self.objects)}")
        return [self.sample_state(rng) for _ in range(PROBE_STATES)]

    @cached_property
    def has_unreachable_atoms(self) -> bool:
        """Does some drawn state provably lose some atom, or is some well-typed atom
        never grounded?"""
        if any(self.unreachable_atoms(s) for s in self._probe_states):
            return True
        return any(a not in self.task.atom_index for v in self.typed_atoms.values() for a in v)

    @cached_property
    def has_unreachable_actions(self) -> bool:
        return any(self.unreachable_actions(s) for s in self._probe_states)

    def state_at_goal_distance(self, rng, lo: int, hi: int,
                               cond: Condition | None = None) -> int | None:
        """A state from which `cond` (the goal) is lo to hi actions away: as an
        enumerated world draws, a distance uniformly among those in range that some
        state of the world's pool of states near the goal has, then one of those
        states uniformly; None if the pool has none in range (the caller draws
        something else)."""
        pool = (self._wider_pool if _wider[0] else self._near_goal_pool)(
            cond or self.goal_condition, hi)
        options = [d for d in range(lo, hi + 1) if d in pool]
        if not options:
            return None
        states = pool[rng.choice(options)]
        return states[rng.randrange(len(states))]

    def _near_goal_pool(self, cond: Condition, hi: int) -> dict[int, list[int]]:
        """States whose distance to `cond`, at most `hi`, is proven: distance -> states,
        built once per goal and bound. Candidates are drawn from a fixed seed (never
        from a row's generator), so the pool is the same whichever row, worker or
        family asks first, and rows drawn from it never depend on the number of
        workers. NEAR_GOAL_CANDIDATES candidates are the last `hi` states of greedy
        paths to the goal, a step or two off them, and walks from the goal states
        those paths end in (which reach states near the goal in reversible worlds; in
        irreversible ones the paths' own states do); each is kept when a breadth-first
        search to depth `hi` finds its shortest plan, or where that search runs out of
        budget, A* with LM-cut (`_pool_proof`: states as far as `hi` lie beyond
        breadth-first search in most large worlds), with every state along that plan
        within `hi` (each the rest of it away). A candidate that neither search proves
        is left out, never guessed (`pool_dropped` counts them), and building stops once
        the searches have stored NEAR_GOAL_WORK states in all; new greedy paths stop
        once their searches have evaluated NEAR_GOAL_EVALUATIONS states in all (a search
        that would pass that is given up, and the candidates come from the paths and goal
        states found so far)."""
        key = (cond.pos, cond.neg, hi)
        pool = self._pools.get(key)
        if pool is not None:
            return pool
        found: dict[int, int] = {}
        by_astar: set[int] = set()
        self._gather(cond, hi, random.Random(f"near-goal-{cond.pos}-{cond.neg}-{hi}"), found,
                     by_astar)
        return self._keep_pool(key, cond, found, by_astar)

    def _gather(self, cond: Condition, hi: int, chain: random.Random, found: dict[int, int],
                by_astar: set[int]) -> list[list[int]]:
        """`_near_goal_pool`'s candidates, drawn from `chain`: each state proven within
        `hi` of `cond` joins `found` (state -> distance; `by_astar` where A* proved it).
        Returns the greedy paths the candidates came from (`_greedy_paths`' and new)."""
        paths = list(self._greedy_paths(cond))
        budget = limits.current().search_budget
        goals = list(dict.fromkeys(path[-1] for path in paths))  # goal states met so far
        tried: set[int] = set()
        spent, evaluated, proofs = [0], 0, [0]
        guide = self._guide(cond.pos)
        for attempt in range(NEAR_GOAL_CANDIDATES if paths else 0):
            if spent[0] > NEAR_GOAL_WORK:
                break
            left = NEAR_GOAL_EVALUATIONS - evaluated
            if attempt % NEW_PATH_EVERY == NEW_PATH_EVERY - 1 and left > 0:  # a new path
                start, this = self.sample_state(chain), [0]  # from a drawn state
                try:
                    path = lazy_greedy_path(self.task, start, cond.pos, cond.neg,
                                            min(budget, left), guide, this)
                except SearchBudgetExceeded:
                    continue
                finally:
                    evaluated += this[0]
                    spent[0] += this[0]
                if path:
                    paths.append(path)
                    goals.append(path[-1]) if path[-1] not in goals else None
                continue
            if chain.random() < 0.5:  # a walk from a goal state
                state, steps = goals[chain.randrange(len(goals))], chain.randint(1, hi + 2)
            else:  # a path state, a step or two off
                path = paths[chain.randrange(len(paths))]
                state = path[-1 - chain.randint(min(1, len(path) - 1), min(hi, len(path) - 1))]
                steps = chain.randint(0, 2)
            for _ in range(steps):
                pairs = self.task.successors(state)
                if not pairs:
                    break
                state = pairs[chain.randrange(len(pairs))][1]
            if state in tried or state in found:
                continue
            tried.add(state)
            try:
                plan, astar = bfs_plan(self.task, state, cond.pos, cond.neg, budget,
                                       max_depth=hi, spent=spent), False
                if plan:
                    self._keep_within(state, cond, hi, plan)
            except SearchBudgetExceeded:  # proven by A* where it can be, never guessed
                # (its plan is not kept: a later search bounded by the state's proven
                # distance may find another, and must find the same whenever it runs)
                plan, astar = self._pool_proof(state, cond, proofs), True
                if plan is BUDGET_RAN_OUT:
                    self.pool_dropped += 1
                    continue
            if not plan:
                continue
            for i, k in enumerate(plan):
                if len(plan) - i <= hi:  # an A* plan's states within the bound
                    found.setdefault(state, len(plan) - i)
                    if astar:
                        by_astar.add(state)
                state = self.task.actions[k].apply(state)
            if state not in goals:  # the goal state the plan ends in: walks start there too
                goals.append(state)
        return paths

    def _keep_pool(self, key: tuple, cond: Condition, found: dict[int, int],
                   by_astar: set[int]) -> dict[int, list[int]]:
        """The pool of `found` (distance -> states, in the order they were found), kept
        under `key` with its states' distances."""
        pool = {}
        for state, d in found.items():
            pool.setdefault(d, []).append(state)
            self._pool_distances[(state, cond.pos, cond.neg)] = d
            self._pool_of.setdefault((state, cond.pos, cond.neg), key)
            if state in by_astar:
                self._pool_by_astar.add((state, cond.pos, cond.neg))
        self._pools[key] = pool
        return pool

    def _wider_pool(self, cond: Condition, hi: int) -> dict[int, list[int]]:
        """The pool of states near `cond` that rows draw from inside `wider_pools`: the
        narrow pool's states (`_near_goal_pool`, built as any row builds it), then as
        many candidates again as the narrow pool drew, from another fixed seed, then the
        states of their greedy paths whose rest LM-cut proves shortest (`_proven_by_bound`).
        Searches prove only what their budgets reach: satellite p09's narrow pool held
        67 states 1 to 4 actions from the goal (A*'s share of the proof budget: 1,700
        states on 1,473 ground actions). Every distance is proven, as in the narrow
        pool; what the wider pool's searches keep is kept apart (`_PER_WIDTH`), and it
        is built only for rows that ask for it, so builds whose narrow pools suffice
        never pay for it."""
        key = (cond.pos, cond.neg, hi, "wider")
        pool = self._pools.get(key)
        if pool is not None:
            return pool
        with wider_pools(False):  # the narrow pool, as any row builds it
            narrow = self._near_goal_pool(cond, hi)
            by_astar = {s for states in narrow.values() for s in states
                        if (s, cond.pos, cond.neg) in self._pool_by_astar}
            first = dict(self._first_of)  # pool states' first actions found so far
        found = {s: d for d, states in sorted(narrow.items()) for s in states}
        paths = self._gather(cond, hi,
                             random.Random(f"wider-near-goal-{cond.pos}-{cond.neg}-{hi}"),
                             found, by_astar)
        self._proven_by_bound(cond, hi, paths, found, by_astar)
        for k, v in first.items():  # the narrow states' first actions, as found there
            self._first_of.setdefault(k, v)  # (the same search: the same answer)
        return self._keep_pool(key, cond, found, by_astar)

    def _proven_by_bound(self, cond: Condition, hi: int, paths: list[list[int]], found: dict,
                         by_astar: set) -> None:
        """States of greedy `paths` whose distance needs no search: where LM-cut (a
        lower bound on the actions left, `_lm_cut`) equals the actions left on the
        path, the rest of the path is a shortest plan, and so is every suffix of it
        (each state the rest of it away). Per path, going back from its goal state
        while each state is so proven (or was proven at the distance left on the path),
        up to `hi` actions back, those states join `found` (marked as A*'s: their first
        actions are searched as those of states A* proved). Unit costs only, as for A*
        (LM-cut bounds costs, not actions)."""
        if not self._unit_costs:
            return
        h = self._lm_cut(cond)
        for path in paths:
            n = len(path) - 1  # actions on the path
            tight = 0  # the path's last `tight` actions are a shortest plan
            while tight < min(hi, n) and (found.get(path[n - tight - 1]) == tight + 1
                                          or h(path[n - tight - 1]) == tight + 1):
                tight += 1
            for rest in range(tight, 0, -1):
                state = path[n - rest]
                if state not in found:
                    found[state] = rest
                    by_astar.add(state)

    def _pool_proof(self, state: int, cond: Condition, proofs: list[int]):
        """A pool candidate's shortest plan by A* with LM-cut, for when breadth-first
        search ran out of budget (states as far as the pool's bound lie beyond what it
        reaches in most worlds: satellite p14's pool held distances 1 to 7 only, its
        initial state 11 away); BUDGET_RAN_OUT once those searches have stored
        NEAR_GOAL_PROOF_WORK states per ground action in all, or where this one runs
        out of what is left
        (the same outcome whichever row asks first: the pool's candidates come in a
        fixed order)."""
        left = NEAR_GOAL_PROOF_WORK // len(self.task.actions) - proofs[0]
        if left <= 0:
            return BUDGET_RAN_OUT
        try:
            return self._astar_lmcut(state, cond, min(limits.current().search_budget, left),
                                     proofs)
        except SearchBudgetExceeded:
            return BUDGET_RAN_OUT

    def _astar_lmcut(self, state: int, cond: Condition, max_nodes: int | None = None,
                     spent: list[int] | None = None) -> list[int] | None:
        """A shortest plan by A* with LM-cut, for when breadth-first search ran out of
        budget: the heuristic is admissible, so the plan is as short as any, and A*
        expands only states whose estimate stays within the plan's length (fewer than
        breadth-first search, where goals lie far; LM-cut proves ferry p14's and
        satellite p14's initial distances, 18 and 11, where h^max ran out of the same
        20,000 states). None if there is none (which the relaxation alone may prove);
        SearchBudgetExceeded past the budget, as always, and where actions have costs
        (A* would minimise cost; these searches count actions)."""
        if not self._unit_costs:
            raise SearchBudgetExceeded(_say_search("no_cost_fallback"))
        h = self._lm_cut(cond)
        if h(state) == math.inf:
            return None
        return astar(self.task, state, cond, h,
                     limits.current().search_budget if max_nodes is None else max_nodes,
                     spent=spent)

    def _lm_cut(self, cond: Condition):
        """LM-cut to `cond`, its values kept (the pool's proofs and first actions
        search around the same goal states)."""
        h = self._admissible.get((cond.pos, cond.neg))
        if h is None:
            h = self._admissible[(cond.pos, cond.neg)] = _values_kept(lm_cut(self.task,
                                                                             cond.pos))
        return h

    @cached_property
    def _unit_costs(self) -> bool:
        return all(a.cost == 1 for a in self.task.actions)

    def _plan_within(self, state: int, cond: Condition, depth: int | None):
        """The shortest plan breadth-first search (without tie-breaking) finds first
        from `state` to `cond`, if it has at most `depth` actions (any, for None, and
        then A* with LM-cut where breadth-first search runs out of budget, as for a
        state whose distance a pool proved within `depth`); None if
        there is none, or BUDGET_RAN_OUT. Draws near the goal keep meeting the same
        candidates (walks of a few steps from a few goal states), so outcomes are kept:
        such a search gives the same outcome whenever it runs, so keeping them changes
        speed, never a row. A plan found is that search's plan at any greater depth."""
        budget = limits.current().search_budget
        key = (state, cond.pos, cond.neg, depth, budget)
        kept = self._within.get(key, self._within)
        if kept is self._within and depth is not None:
            found = self._within.get((state, cond.pos, cond.neg, None, budget))
            if isinstance(found, list) and len(found) <= depth:
                kept = found
        if kept is not self._within:
            return kept
        try:
            kept = bfs_plan(self.task, state, cond.pos, cond.neg, budget, max_depth=depth)
        except SearchBudgetExceeded:
            kept = BUDGET_RAN_OUT
            proven = self._pool_distances.get((state, cond.pos, cond.neg))
            if depth is None or proven is not None and proven <= depth:
                # a distance asked for, or one a pool proved (by A* where breadth-first
                # search ran out): worth A*'s dearer states
                try:
                    kept = self._astar_lmcut(state, cond)
                except SearchBudgetExceeded:
                    pass
        self._keep_within(state, cond, depth, kept)
        return kept

    def _keep_within(self, state: int, cond: Condition, depth: int | None, kept) -> None:
        """Keep the outcome of `_plan_within`'s search (a plan is also that of any
        greater depth)."""
        budget = limits.current().search_budget
        if len(self._within) >= WITHIN_KEPT:
            self._within.clear()
        self._within[(state, cond.pos, cond.neg, depth, budget)] = kept
        if isinstance(kept, list):
            self._within[(state, cond.pos, cond.neg, None, budget)] = kept

    def _guide(self, pos: int):
        """FF's heuristic to the atoms `pos` (`relaxed_plan_heuristic`), each state's
        value kept: the greedy searches of a goal's paths and pool meet the same states
        (half of depot p03's 19,500 evaluations were repeats)."""
        found = self._guides.get(pos)
        if found is None:
            found = self._guides[pos] = _values_kept(relaxed_plan_heuristic(self.task, pos))
        return found

    def _greedy_paths(self, cond: Condition) -> list[list[int]]:
        """Greedy best-first paths (states) to `cond` from the initial state and from
        GOAL_SEEDS drawn states, guided by FF's relaxed plans and their helpful actions
        (cached per goal): a 30-block blocksworld takes a few hundred evaluations, where
        eager greedy search on h_add ran out of 20,000."""
        key = (cond.pos, cond.neg)
        if key not in self._paths:
            chain = random.Random(f"goal-seeds-{len(self.objects)}")
            starts = [self.task.init] + [self.sample_state(chain) for _ in range(GOAL_SEEDS)]
            guide = self._guide(cond.pos)
            paths = []
            for start in starts:
                try:
                    path = lazy_greedy_path(self.task, start, cond.pos, cond.neg,
                                            limits.current().search_budget, guide)
                except SearchBudgetExceeded:
                    continue
                if path:
                    paths.append(path)
            self._paths[key] = paths
        return self._paths[key]


def _values_kept(h):
    """`h` (a heuristic: a pure function of the state) with its values kept, up to
    GUIDE_VALUES_KEPT of them at a time."""
    seen = {}

    def kept(state: int):
        value = seen.get(state)
        if value is None:
            if len(seen) > GUIDE_VALUES_KEPT:
                seen.clear()
            value = seen[state] = h(state)
        return value

    return kept


class PairTable:
    """table[i, j]: items i and j (atoms, actions) are members of one of the given
    sets (bit masks), i.e. seen together; table[i, i]: i seen at all. Rows are made on
    demand: an implicit world may have thousands of ground actions, whose full matrix
    would cost more than every row that asks about two of them."""

    def __init__(self, masks: list[int]):
        self._masks = masks
        self._any = 0
        for m in masks:
            self._any |= m
        self._rows: dict[int, int] = {}

    def row(self, i: int) -> int:
        found = self._rows.get(i)
        if found is None:
            bit, found = 1 << i, 0
            for m in self._masks:
                if m & bit:
                    found |= m
            self._rows[i] = found
        return found

    def __getitem__(self, pair: tuple[int, int]) -> bool:
        i, j = pair
        if i == j:
            return bool(self._any >> i & 1)
        return bool(self.row(i) >> j & 1)


def literal_condition(task: GroundTask, literals) -> Condition | None:
    return task.condition(Literal(tuple(a), p) for a, p in literals)
