"""Deterministic problem generators for the shipped STRIPS domains.

Every domain under ``racbench/data/domains/<domain>/`` has a hand-written
``domain.pddl`` and a set of small problems ``problems/pNN.pddl`` that are
produced by the functions in this module.  The problems are deliberately
small (a few to about fifteen objects) so that the reachable state space can
be explored exhaustively for many of them, and every generator builds its
problems so that they are solvable by construction and their goal does not
hold in the initial state (``tests/test_domains.py`` checks both).

Randomness comes from a :class:`random.Random` instance seeded with a
BLAKE2b hash of ``(domain, index, size)``, so a problem depends only on those
three values, never on global random state or on the order of generation.

The difficulty levels (``racbench/training/levels.py``) draw, beside the train
problems p01-p09, generated train problems ``<domain>/levels/gNN.pddl``
(``LEVEL_PROBLEMS``): other seeds, and for some domains larger layouts.

Running ``python tools/problem_generators.py`` rewrites all problem files, the level
problems and ``racbench/data/domains/domains.yaml`` byte-identically.
"""

from __future__ import annotations

import functools
import hashlib
import random
import sys
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Sequence, Tuple

from racbench.text import sayer

_say = sayer("cli", ("generators.j2",))

__all__ = [
    "DOMAINS",
    "HAND_WRITTEN",
    "domain_info",
    "PROBLEM_SIZES",
    "DOMAINS_DIR",
    "generate_problem",
    "problem_schedule",
    "problem_filename",
    "build_problem",
    "LEVEL_PROBLEMS",
    "build_level_problem",
    "level_problem_name",
    "render_domains_yaml",
    "write_all",
]

DOMAINS_DIR = Path(__file__).resolve().parents[2] / "data" / "domains"

#: Size levels of the problems of every domain, in file order (p01, p02, ...).
#: The meaning of a level is domain specific; larger levels mean more objects.
PROBLEM_SIZES: Tuple[int, ...] = (1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5)


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------


def _rng(domain: str, index: int, size: int) -> random.Random:
    digest = hashlib.blake2b(
        f"racbench-strips|{domain}|{index}|{size}".encode("utf-8"), digest_size=8
    ).digest()
    return random.Random(int.from_bytes(digest, "big"))


Fact = Tuple[str, ...]


@dataclass
class ProblemSpec:
    """A problem under construction: typed objects, init facts, goal facts."""

    domain: str
    index: int
    size: int
    objects: List[Tuple[str, List[str]]] = field(default_factory=list)
    init: List[Fact] = field(default_factory=list)
    goal: List[Fact] = field(default_factory=list)

    def add_objects(self, type_name: str, names: Iterable[str]) -> None:
        names = list(names)
        if names:
            self.objects.append((type_name, names))

    def fact(self, *atom: str) -> None:
        self.init.append(tuple(atom))

    def want(self, *atom: str) -> None:
        self.goal.append(tuple(atom))

    @property
    def n_objects(self) -> int:
        return sum(len(names) for _, names in self.objects)

    label: str = ""  # a level problem's file name (g01, ...), else p01, ... by index

    @property
    def name(self) -> str:
        return f"{self.domain}-{self.label or f'p{self.index:02d}'}"

    def render(self) -> str:
        seen = set()
        for _, names in self.objects:
            for n in names:
                if n in seen:
                    raise ValueError(_say("duplicate_object", object=n, problem=self.name))
                seen.add(n)
        if len(set(self.init)) != len(self.init):
            raise ValueError(_say("duplicate_init", problem=self.name))
        if not self.goal:
            raise ValueError(_say("empty_goal", problem=self.name))
        if all(g in set(self.init) for g in self.goal):
            raise ValueError(_say("goal_holds", problem=self.name))
        lines = [
            _say("problem_comment", problem=self.name, size=self.size),
            f"(define (problem {self.name})",
            f"  (:domain {self.domain})",
            "  (:objects",
        ]
        for type_name, names in self.objects:
            lines.append(f"    {' '.join(names)} - {type_name}")
        lines.append("  )")
        lines.append("  (:init")
        for atom in self.init:
            lines.append(f"    ({' '.join(atom)})")
        lines.append("  )")
        lines.append("  (:goal (and")
        for atom in self.goal:
            lines.append(f"    ({' '.join(atom)})")
        lines.append("  ))")
        lines.append(")")
        return "\n".join(lines) + "\n"


def _grid_cells(width: int, height: int) -> List[Tuple[int, int]]:
    return [(r, c) for r in range(height) for c in range(width)]


def _grid_neighbours(cell: Tuple[int, int], cells: Sequence[Tuple[int, int]]):
    r, c = cell
    present = set(cells)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        other = (r + dr, c + dc)
        if other in present:
            yield other


def _connected(cells: Sequence[Tuple[int, int]]) -> bool:
    if not cells:
        return False
    start = cells[0]
    seen = {start}
    queue = deque([start])
    while queue:
        cur = queue.popleft()
        for nb in _grid_neighbours(cur, cells):
            if nb not in seen:
                seen.add(nb)
                queue.append(nb)
    return len(seen) == len(cells)


def _random_connected_graph(rng: random.Random, n: int, extra: int) -> List[Tuple[int, int]]:
    """Undirected edges (i < j) of a random connected graph on ``n`` nodes."""
    edges = []
    for j in range(1, n):
        i = rng.randrange(j)
        edges.append((i, j))
    candidates = [(i, j) for i in range(n) for j in range(i + 1, n) if (i, j) not in edges]
    rng.shuffle(candidates)
    edges.extend(candidates[:extra])
    return sorted(edges)


def _random_towers(rng: random.Random, blocks: Sequence[str], n_bases: int | None = None) -> List[List[str]]:
    """Randomly split ``blocks`` into towers (bottom first).

    With ``n_bases`` the result has exactly that many (possibly empty) towers.
    """
    order = list(blocks)
    rng.shuffle(order)
    if n_bases is None:
        towers: List[List[str]] = []
        for b in order:
            if towers and rng.random() < 0.55:
                rng.choice(towers).append(b)
            else:
                towers.append([b])
        return towers
    towers = [[] for _ in range(n_bases)]
    for b in order:
        rng.choice(towers).append(b)
    return towers


def _pick_size(rng: random.Random, table: Dict[int, Sequence], size: int):
    options = table[max(min(size, max(table)), min(table))]
    return rng.choice(list(options))


# --------------------------------------------------------------------------
# domain generators
# --------------------------------------------------------------------------


def _blocksworld(p: ProblemSpec, rng: random.Random) -> None:
    n = _pick_size(rng, {1: [3], 2: [4], 3: [5], 4: [6], 5: [7, 8]}, p.size)
    blocks = [f"b{i}" for i in range(1, n + 1)]
    p.add_objects("block", blocks)
    init_towers = _random_towers(rng, blocks)
    init_on = {(t[i], t[i - 1]) for t in init_towers for i in range(1, len(t))}
    while True:
        goal_towers = _random_towers(rng, blocks)
        goal_on = [(t[i], t[i - 1]) for t in goal_towers for i in range(1, len(t))]
        # enough goal atoms must be false initially for a non-trivial problem
        if sum(g not in init_on for g in goal_on) >= max(2, n // 2):
            break
    for tower in init_towers:
        p.fact("on-table", tower[0])
        for i in range(1, len(tower)):
            p.fact("on", tower[i], tower[i - 1])
        p.fact("clear", tower[-1])
    p.fact("hand-empty")
    for top, below in sorted(goal_on):
        p.want("on", top, below)


def _logistics(p: ProblemSpec, rng: random.Random) -> None:
    layout, n_packages = _pick_size(
        rng,
        {
            1: [((1, 2), 1), ((2, 2), 1)],
            2: [((2, 2), 2), ((1, 3), 2)],
            3: [((2, 2), 3), ((2, 3), 2)],
            4: [((1, 2, 2), 2), ((2, 3), 3)],
            5: [((1, 2, 2), 3), ((2, 3), 4), ((2, 2, 2), 2)],
        },
        p.size,
    )
    cities = [f"city{i}" for i in range(1, len(layout) + 1)]
    airports, others, trucks = [], [], []
    city_locs: Dict[str, List[str]] = {}
    for ci, (city, n_locs) in enumerate(zip(cities, layout), start=1):
        locs = [f"airport{ci}"] + [f"loc{ci}-{k}" for k in range(1, n_locs)]
        airports.append(locs[0])
        others.extend(locs[1:])
        city_locs[city] = locs
        if n_locs > 1:
            trucks.append((f"truck{ci}", city))
    planes = ["plane1"]
    packages = [f"pkg{i}" for i in range(1, n_packages + 1)]
    all_locs = [l for c in cities for l in city_locs[c]]
    p.add_objects("city", cities)
    p.add_objects("airport", airports)
    p.add_objects("location", others)
    p.add_objects("truck", [t for t, _ in trucks])
    p.add_objects("airplane", planes)
    p.add_objects("package", packages)
    for city in cities:
        for loc in city_locs[city]:
            p.fact("in-city", loc, city)
    for truck, city in trucks:
        p.fact("at", truck, rng.choice(city_locs[city]))
    for plane in planes:
        p.fact("at", plane, rng.choice(airports))
    starts = {pkg: rng.choice(all_locs) for pkg in packages}
    for pkg in packages:
        p.fact("at", pkg, starts[pkg])
    for pkg in packages:
        p.want("at", pkg, rng.choice([l for l in all_locs if l != starts[pkg]]))


def _ferry(p: ProblemSpec, rng: random.Random) -> None:
    n_locs, n_cars = _pick_size(
        rng, {1: [(2, 1), (2, 2)], 2: [(3, 2)], 3: [(3, 3), (4, 3)], 4: [(4, 4), (5, 4)], 5: [(5, 5), (4, 6), (6, 6)]}, p.size
    )
    locs = [f"loc{i}" for i in range(1, n_locs + 1)]
    cars = [f"car{i}" for i in range(1, n_cars + 1)]
    p.add_objects("location", locs)
    p.add_objects("car", cars)
    p.fact("ferry-at", rng.choice(locs))
    p.fact("ferry-empty")
    starts = {c: rng.choice(locs) for c in cars}
    for c in cars:
        p.fact("at", c, starts[c])
    movers = [c for c in cars if rng.random() < 0.8] or [cars[0]]
    for c in cars:
        if c in movers:
            p.want("at", c, rng.choice([l for l in locs if l != starts[c]]))
        elif rng.random() < 0.5:
            p.want("at", c, starts[c])


def _grid(p: ProblemSpec, rng: random.Random) -> None:
    (width, height), n_locks, n_shapes, n_keys = _pick_size(
        rng,
        {
            1: [((2, 2), 1, 1, 1)],
            2: [((3, 2), 1, 1, 2), ((3, 2), 1, 2, 2)],
            3: [((3, 3), 1, 2, 2), ((4, 2), 2, 1, 2)],
            4: [((3, 3), 2, 2, 2), ((4, 3), 2, 1, 1)],
            5: [((4, 3), 2, 2, 2), ((4, 3), 2, 1, 2), ((5, 2), 2, 2, 2)],
        },
        p.size,
    )
    cells = _grid_cells(width, height)
    name = {cell: f"pos-{cell[0]}-{cell[1]}" for cell in cells}
    shapes = ["circle", "square", "triangle"][:n_shapes]
    keys = [f"key{i}" for i in range(1, n_keys + 1)]
    key_shape = {k: shapes[i % n_shapes] for i, k in enumerate(keys)}
    # choose locked places and a start place such that all keys can lie in the
    # part of the grid reachable from the start without passing a lock
    while True:
        start = rng.choice(cells)
        locked = rng.sample([c for c in cells if c != start], n_locks)
        free = [c for c in cells if c not in locked]
        region = {start}
        queue = deque([start])
        while queue:
            cur = queue.popleft()
            for nb in _grid_neighbours(cur, free):
                if nb not in region:
                    region.add(nb)
                    queue.append(nb)
        if len(region) >= 2:
            break
    region_list = [c for c in cells if c in region]
    lock_shape = {c: key_shape[rng.choice(keys)] for c in locked}
    key_pos = {k: rng.choice(region_list) for k in keys}
    p.add_objects("place", [name[c] for c in cells])
    p.add_objects("key", keys)
    p.add_objects("shape", shapes)
    for c in cells:
        for nb in _grid_neighbours(c, cells):
            p.fact("conn", name[c], name[nb])
    for k in keys:
        p.fact("key-shape", k, key_shape[k])
    for c in locked:
        p.fact("lock-shape", name[c], lock_shape[c])
        p.fact("locked", name[c])
    for c in cells:
        if c not in locked:
            p.fact("open", name[c])
    for k in keys:
        p.fact("at", k, name[key_pos[k]])
    p.fact("robot-at", name[start])
    p.fact("arm-empty")
    # at least one key goes to a place behind a lock, when possible
    goal_keys = keys if len(keys) == 1 or rng.random() < 0.5 else [rng.choice(keys)]
    for i, k in enumerate(goal_keys):
        if i == 0:
            target = rng.choice(locked)
        else:
            target = rng.choice([c for c in cells if c != key_pos[k]])
        p.want("at", k, name[target])


def _floortile(p: ProblemSpec, rng: random.Random) -> None:
    rows, cols, n_robots = _pick_size(
        rng,
        {
            1: [(1, 2, 1), (1, 3, 1)],
            2: [(2, 2, 1), (1, 3, 2), (1, 4, 1)],
            3: [(2, 2, 2), (1, 4, 1), (1, 3, 2)],
            4: [(2, 3, 1), (1, 4, 2)],
            5: [(2, 3, 2), (3, 2, 1), (2, 4, 1)],
        },
        p.size,
    )
    # row 0 is the unpainted bottom row where the robots start
    cells = [(r, c) for r in range(rows + 1) for c in range(cols)]
    name = {cell: f"tile-{cell[0]}-{cell[1]}" for cell in cells}
    robots = [f"robot{i}" for i in range(1, n_robots + 1)]
    colors = ["white", "black"]
    p.add_objects("tile", [name[c] for c in cells])
    p.add_objects("robot", robots)
    p.add_objects("color", colors)
    start_cols = rng.sample(range(cols), n_robots)
    occupied = {(0, c) for c in start_cols}
    for robot, c in zip(robots, start_cols):
        p.fact("robot-at", robot, name[(0, c)])
        p.fact("robot-has", robot, rng.choice(colors))
    for cell in cells:
        if cell not in occupied:
            p.fact("clear", name[cell])
    for (r, c) in cells:
        if (r + 1, c) in name:
            p.fact("above", name[(r + 1, c)], name[(r, c)])
    for (r, c) in cells:
        if (r - 1, c) in name:
            p.fact("below", name[(r - 1, c)], name[(r, c)])
    for (r, c) in cells:
        if (r, c + 1) in name:
            p.fact("right-of", name[(r, c + 1)], name[(r, c)])
    for (r, c) in cells:
        if (r, c - 1) in name:
            p.fact("left-of", name[(r, c - 1)], name[(r, c)])
    for color in colors:
        p.fact("available-color", color)
    offset = rng.randrange(2)
    for (r, c) in cells:
        if r >= 1:
            p.want("painted", name[(r, c)], colors[(r + c + offset) % 2])


def _gripper(p: ProblemSpec, rng: random.Random) -> None:
    n_rooms, n_balls = _pick_size(
        rng, {1: [(2, 2)], 2: [(2, 3), (2, 4)], 3: [(3, 4), (2, 5)], 4: [(3, 5), (2, 6)], 5: [(3, 6), (4, 6), (3, 7)]}, p.size
    )
    rooms = [f"room{i}" for i in range(1, n_rooms + 1)]
    balls = [f"ball{i}" for i in range(1, n_balls + 1)]
    grippers = ["left", "right"]
    p.add_objects("room", rooms)
    p.add_objects("ball", balls)
    p.add_objects("gripper", grippers)
    p.fact("robot-at", rng.choice(rooms))
    for g in grippers:
        p.fact("free", g)
    starts = {b: rng.choice(rooms) for b in balls}
    for b in balls:
        p.fact("at", b, starts[b])
    goals = {b: rng.choice(rooms) for b in balls}
    if all(goals[b] == starts[b] for b in balls):
        b = rng.choice(balls)
        goals[b] = rng.choice([r for r in rooms if r != starts[b]])
    for b in balls:
        p.want("at", b, goals[b])


def _rovers(p: ProblemSpec, rng: random.Random) -> None:
    n_rovers, n_wps, n_obj, n_modes, n_goals = _pick_size(
        rng,
        {
            1: [(1, 3, 1, 1, 1), (1, 3, 1, 1, 2)],
            2: [(1, 4, 1, 2, 2), (1, 4, 2, 1, 2)],
            3: [(2, 3, 1, 2, 2), (1, 5, 2, 2, 3)],
            4: [(2, 4, 1, 2, 3), (2, 4, 2, 1, 3)],
            5: [(2, 4, 2, 2, 3), (2, 5, 1, 2, 4), (2, 4, 2, 2, 4)],
            6: [(1, 4, 1, 2, 4), (1, 4, 2, 1, 4)],
            7: [(1, 4, 1, 2, 5), (1, 4, 2, 1, 5)],
            8: [(1, 3, 1, 1, 1), (1, 3, 1, 1, 2)],  # level problems: easy's, smaller states
        },
        p.size,
    )
    rovers = [f"rover{i}" for i in range(1, n_rovers + 1)]
    stores = [f"store{i}" for i in range(1, n_rovers + 1)]
    wps = [f"waypoint{i}" for i in range(1, n_wps + 1)]
    objectives = [f"objective{i}" for i in range(1, n_obj + 1)]
    modes = ["visible-light", "infrared", "ultraviolet"][:n_modes]
    lander = "lander1"
    # equipment: a single rover does everything; two rovers split it up
    if n_rovers == 1:
        equip = {rovers[0]: ["soil", "rock", "imaging"]}
    else:
        kinds = ["soil", "rock", "imaging"]
        equip = {r: [] for r in rovers}
        # every kind of equipment on exactly one rover, every rover equipped
        while True:
            owner = {kind: rng.choice(rovers) for kind in kinds}
            if set(owner.values()) == set(rovers):
                break
        for kind in kinds:
            equip[owner[kind]].append(kind)
        for r in rovers:
            equip[r] = [k for k in kinds if k in equip[r]]
    imaging_rovers = [r for r in rovers if "imaging" in equip[r]]
    cameras: List[Tuple[str, str]] = []
    for r in imaging_rovers:
        cameras.append((f"camera{len(cameras) + 1}", r))
    camera_modes = {}
    for cam, _ in cameras:
        k = rng.randint(1, n_modes)
        camera_modes[cam] = sorted(rng.sample(modes, k), key=modes.index)
    # every mode is supported by some camera
    for m in modes:
        if not any(m in ms for ms in camera_modes.values()):
            cam = rng.choice([c for c, _ in cameras])
            camera_modes[cam] = sorted(camera_modes[cam] + [m], key=modes.index)
    edges = _random_connected_graph(rng, n_wps, extra=rng.randint(0, max(0, n_wps - 2)))
    extra_visible = [
        (i, j) for i in range(n_wps) for j in range(i + 1, n_wps) if (i, j) not in edges and rng.random() < 0.3
    ]
    visible = sorted(set(edges) | set(extra_visible))
    # level problems: fuller states (6, 7), or one sample of each kind (8)
    samples = {6: (2, 3), 7: (3, 3), 8: (1, 1)}.get(p.size, (1, 2))
    soil = sorted(rng.sample(range(n_wps), rng.randint(*samples)))
    rock = sorted(rng.sample(range(n_wps), rng.randint(*samples)))

    p.add_objects("lander", [lander])
    p.add_objects("rover", rovers)
    p.add_objects("store", stores)
    p.add_objects("waypoint", wps)
    p.add_objects("camera", [c for c, _ in cameras])
    p.add_objects("mode", modes)
    p.add_objects("objective", objectives)

    for i, j in visible:
        p.fact("visible", wps[i], wps[j])
        p.fact("visible", wps[j], wps[i])
    for r in rovers:
        for i, j in edges:
            p.fact("can-traverse", r, wps[i], wps[j])
            p.fact("can-traverse", r, wps[j], wps[i])
    p.fact("lander-at", lander, rng.choice(wps))
    for r, s in zip(rovers, stores):
        p.fact("at", r, rng.choice(wps))
        p.fact("store-of", s, r)
        p.fact("empty", s)
        if "soil" in equip[r]:
            p.fact("equipped-for-soil-analysis", r)
        if "rock" in equip[r]:
            p.fact("equipped-for-rock-analysis", r)
        if "imaging" in equip[r]:
            p.fact("equipped-for-imaging", r)
    for i in soil:
        p.fact("soil-sample-at", wps[i])
    for i in rock:
        p.fact("rock-sample-at", wps[i])
    for cam, r in cameras:
        p.fact("on-board", cam, r)
        p.fact("calibration-target", cam, rng.choice(objectives))
        for m in camera_modes[cam]:
            p.fact("supports", cam, m)
    for o in objectives:
        for i in sorted(rng.sample(range(n_wps), rng.randint(1, max(1, n_wps // 2)))):
            p.fact("visible-from", o, wps[i])

    options: List[Fact] = []
    options += [("communicated-soil-data", wps[i]) for i in soil]
    options += [("communicated-rock-data", wps[i]) for i in rock]
    options += [("communicated-image-data", o, m) for o in objectives for m in modes]
    rng.shuffle(options)
    chosen = options[:n_goals]
    order = {"communicated-soil-data": 0, "communicated-rock-data": 1, "communicated-image-data": 2}
    for g in sorted(chosen, key=lambda g: (order[g[0]], g[1:])):
        p.want(*g)


def _visitall(p: ProblemSpec, rng: random.Random) -> None:
    (width, height), holes = _pick_size(
        rng,
        {
            1: [((2, 2), 0), ((3, 1), 0)],
            2: [((3, 2), 0), ((4, 2), 1)],
            3: [((3, 3), 0), ((3, 3), 1), ((4, 2), 0)],
            4: [((4, 3), 1), ((4, 3), 0), ((5, 2), 0)],
            5: [((4, 4), 2), ((5, 3), 1), ((4, 4), 1)],
            6: [((4, 3), 0), ((4, 3), 1)],
            7: [((4, 4), 0), ((4, 4), 1)],
        },
        p.size,
    )
    cells = _grid_cells(width, height)
    while True:
        removed = rng.sample(cells, holes)
        kept = [c for c in cells if c not in removed]
        if _connected(kept):
            break
    name = {cell: f"cell-{cell[0]}-{cell[1]}" for cell in kept}
    p.add_objects("cell", [name[c] for c in kept])
    start = rng.choice(kept)
    p.fact("robot-at", name[start])
    p.fact("visited", name[start])
    for c in kept:
        for nb in _grid_neighbours(c, kept):
            p.fact("connected", name[c], name[nb])
    # the classic goal visits every cell; some problems ask for a subset only
    if rng.random() < 0.7:
        targets = kept
    else:
        others = [c for c in kept if c != start]
        targets = sorted(rng.sample(others, max(1, len(others) // 2)))
    for c in targets:
        p.want("visited", name[c])


def _depots(p: ProblemSpec, rng: random.Random) -> None:
    n_dist, n_trucks, n_crates = _pick_size(
        rng,
        {1: [(1, 1, 2)], 2: [(1, 1, 3), (1, 2, 2)], 3: [(2, 1, 2), (1, 2, 3)], 4: [(2, 1, 3), (1, 2, 4)], 5: [(2, 2, 3), (2, 1, 4), (2, 2, 4)]},
        p.size,
    )
    depots = ["depot1"]
    dists = [f"distributor{i}" for i in range(1, n_dist + 1)]
    places = depots + dists
    trucks = [f"truck{i}" for i in range(1, n_trucks + 1)]
    pallets = [f"pallet{i}" for i in range(1, len(places) + 1)]
    hoists = [f"hoist{i}" for i in range(1, len(places) + 1)]
    crates = [f"crate{i}" for i in range(1, n_crates + 1)]
    p.add_objects("depot", depots)
    p.add_objects("distributor", dists)
    p.add_objects("truck", trucks)
    p.add_objects("pallet", pallets)
    p.add_objects("hoist", hoists)
    p.add_objects("crate", crates)

    def stacking(towers):
        facts = []
        for pallet, tower in zip(pallets, towers):
            below = pallet
            for crate in tower:
                facts.append((crate, below))
                below = crate
        return facts

    init_towers = _random_towers(rng, crates, len(pallets))
    init_on = stacking(init_towers)
    for place, pallet, hoist in zip(places, pallets, hoists):
        p.fact("at", pallet, place)
        p.fact("at", hoist, place)
        p.fact("available", hoist)
    for t in trucks:
        p.fact("at", t, rng.choice(places))
    for (pallet, tower) in zip(pallets, init_towers):
        place = places[pallets.index(pallet)]
        for crate in tower:
            p.fact("at", crate, place)
    for crate, below in init_on:
        p.fact("on", crate, below)
    for pallet, tower in zip(pallets, init_towers):
        p.fact("clear", tower[-1] if tower else pallet)
    while True:
        goal_on = stacking(_random_towers(rng, crates, len(pallets)))
        changed = [g for g in goal_on if g not in init_on]
        if changed:
            break
    keep = [g for g in goal_on if g in changed or rng.random() < 0.5]
    for crate, below in sorted(keep):
        p.want("on", crate, below)


def _goldminer(p: ProblemSpec, rng: random.Random) -> None:
    rows, cols = _pick_size(
        rng, {1: [(2, 3), (1, 4)], 2: [(2, 4), (3, 3)], 3: [(2, 5), (3, 3)], 4: [(3, 4), (2, 6)], 5: [(3, 5), (2, 7), (4, 3)]}, p.size
    )
    cells = _grid_cells(cols, rows)
    name = {cell: f"loc-{cell[0]}-{cell[1]}" for cell in cells}
    p.add_objects("loc", [name[c] for c in cells])
    robot = (rng.randrange(rows), 0)
    laser = (rng.randrange(rows), 0)
    bomb = (rng.randrange(rows), 0)
    gold = (rng.randrange(rows), cols - 1)
    for c in cells:
        for nb in _grid_neighbours(c, cells):
            p.fact("connected", name[c], name[nb])
    p.fact("robot-at", name[robot])
    p.fact("laser-at", name[laser])
    p.fact("bomb-at", name[bomb])
    p.fact("arm-empty")
    for c in cells:
        if c[1] == 0:
            p.fact("clear", name[c])
        elif c == gold:
            p.fact("soft-rock-at", name[c])
        elif rng.random() < 0.4:
            p.fact("soft-rock-at", name[c])
        else:
            p.fact("hard-rock-at", name[c])
    p.fact("gold-at", name[gold])
    p.want("holds-gold")


def _satellite(p: ProblemSpec, rng: random.Random) -> None:
    n_sats, n_inst, n_modes, n_dirs, n_goals = _pick_size(
        rng,
        {
            1: [(1, 1, 1, 2, 1), (1, 1, 2, 2, 1)],
            2: [(1, 1, 2, 3, 2), (1, 2, 1, 3, 2)],
            3: [(1, 2, 2, 4, 3), (2, 2, 2, 3, 2)],
            4: [(2, 3, 2, 5, 3), (2, 2, 3, 4, 3)],
            5: [(2, 3, 3, 6, 4), (2, 4, 2, 5, 4), (3, 3, 2, 5, 3)],
            6: [(3, 3, 1, 3, 2)],
            7: [(4, 4, 1, 2, 1)],
            8: [(3, 3, 3, 2, 3), (3, 3, 2, 3, 3)],
        },
        p.size,
    )
    sats = [f"satellite{i}" for i in range(1, n_sats + 1)]
    insts = [f"instrument{i}" for i in range(1, n_inst + 1)]
    modes = ["infrared", "spectral", "thermal", "panchromatic"][:n_modes]
    n_stars = max(1, n_dirs // 3)
    dirs = [f"star{i}" for i in range(1, n_stars + 1)] + [f"planet{i}" for i in range(1, n_dirs - n_stars + 1)]
    p.add_objects("satellite", sats)
    p.add_objects("instrument", insts)
    p.add_objects("mode", modes)
    p.add_objects("direction", dirs)
    owner = {inst: sats[i] if i < n_sats else rng.choice(sats) for i, inst in enumerate(insts)}
    if p.size == 8:  # level problems: one instrument for each mode, so that calibrating
        supports = {inst: [modes[i]] for i, inst in enumerate(insts)}  # it is a landmark
    else:
        supports = {inst: sorted(rng.sample(modes, rng.randint(1, n_modes)), key=modes.index) for inst in insts}
    for m in modes:
        if not any(m in s for s in supports.values()):
            inst = rng.choice(insts)
            supports[inst] = sorted(supports[inst] + [m], key=modes.index)
    for inst in insts:
        for m in supports[inst]:
            p.fact("supports", inst, m)
        p.fact("calibration-target", inst, rng.choice(dirs[:n_stars]))
        p.fact("on-board", inst, owner[inst])
    pointing = {}
    for s in sats:
        p.fact("power-avail", s)
        pointing[s] = rng.choice(dirs)
        p.fact("pointing", s, pointing[s])
    targets = [(d, m) for d in dirs[n_stars:] for m in modes]
    rng.shuffle(targets)
    chosen = sorted(targets[:n_goals], key=lambda t: (dirs.index(t[0]), modes.index(t[1])))
    for d, m in chosen:
        p.want("have-image", d, m)
    if n_sats > 1 or rng.random() < 0.3:
        s = rng.choice(sats)
        p.want("pointing", s, rng.choice([d for d in dirs if d != pointing[s]]))


_PEOPLE = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]
_THINGS = ["book", "kite", "ball", "lamp", "vase", "flute", "scarf", "clock"]


def _swap(p: ProblemSpec, rng: random.Random) -> None:
    n_agents, n_locs = _pick_size(
        rng, {1: [(2, 2), (3, 1)], 2: [(3, 2), (2, 3)], 3: [(3, 3), (4, 2)], 4: [(4, 3), (5, 2)], 5: [(5, 4), (5, 3), (6, 3)],
              6: [(3, 3)], 7: [(4, 3)]}, p.size
    )
    # level problems (sizes 6, 7): rooms in a row and an agent sent along it, so that
    # the rooms between are landmarks from some states and not from others
    in_a_row = p.size >= 6
    agents = _PEOPLE[:n_agents]
    items = _THINGS[:n_agents]
    locs = [f"room{i}" for i in range(1, n_locs + 1)]
    p.add_objects("agent", agents)
    p.add_objects("item", items)
    p.add_objects("location", locs)
    if in_a_row:
        edges = [(i, i + 1) for i in range(n_locs - 1)]
    else:
        edges = _random_connected_graph(rng, n_locs, extra=rng.randint(0, max(0, n_locs - 2)))
    for i, j in edges:
        p.fact("connected", locs[i], locs[j])
        p.fact("connected", locs[j], locs[i])
    held = list(items)
    rng.shuffle(held)
    position = {a: rng.choice(locs) for a in agents}
    # items must change hands between at least three agents (or, with two
    # agents, between agents at different locations when there are several),
    # so no problem is solved by a single swap
    need = min(3, n_agents)
    while True:
        wanted = list(items)
        rng.shuffle(wanted)
        if sum(w != h for w, h in zip(wanted, held)) >= need:
            break
    if n_agents == 2 and n_locs > 1 and position[agents[0]] == position[agents[1]]:
        position[agents[1]] = rng.choice([l for l in locs if l != position[agents[0]]])
    for a, item in zip(agents, held):
        p.fact("agent-at", a, position[a])
        p.fact("holds", a, item)
    for a, item, now in zip(agents, wanted, held):
        if item != now or rng.random() < 0.3:
            p.want("holds", a, item)
    if in_a_row:  # an agent sent to an end of the row: the other end if it stands at one
        ends = [a for a in agents if position[a] in (locs[0], locs[-1])]
        a = rng.choice(ends or agents)
        p.want("agent-at", a, locs[-1] if position[a] == locs[0] else locs[0])
    elif n_locs > 1 and rng.random() < 0.4:
        a = rng.choice(agents)
        p.want("agent-at", a, rng.choice([l for l in locs if l != position[a]]))


# item name -> (heatable, coolable, cleanable)
_HOUSEHOLD_ITEMS = {
    "apple": (True, True, True),
    "mug": (True, True, True),
    "potato": (True, True, True),
    "plate": (False, True, True),
    "egg": (True, True, False),
    "spoon": (False, False, True),
    "lettuce": (False, True, True),
    "book": (False, False, False),
}
_PLAIN_RECEPTACLES = [
    ("countertop", False),
    ("cabinet", True),
    ("drawer", True),
    ("shelf", False),
    ("diningtable", False),
    ("safe", True),
]


def _household(p: ProblemSpec, rng: random.Random) -> None:
    n_plain, n_items = _pick_size(
        rng, {1: [(1, 1), (2, 1)], 2: [(2, 2), (3, 1)], 3: [(3, 2), (2, 3)], 4: [(3, 3), (4, 2)], 5: [(4, 3), (5, 2), (4, 2)],
             6: [(4, 3), (5, 3)], 7: [(5, 4), (6, 4)]}, p.size
    )
    task = rng.choice(["place", "clean", "heat", "cool", "two"] if n_items >= 2 else ["place", "clean", "heat", "cool"])
    appliance = {"clean": ("sinkbasin", "sinkbasin1"), "heat": ("microwave", "microwave1"), "cool": ("fridge", "fridge1")}.get(task)
    plain = sorted(rng.sample(range(len(_PLAIN_RECEPTACLES)), n_plain))
    receptacles: List[Tuple[str, str, bool]] = []  # (object, type, openable)
    for i in plain:
        kind, openable = _PLAIN_RECEPTACLES[i]
        receptacles.append((f"{kind}1", "receptacle", openable))
    if appliance is None and (n_plain == 1 or rng.random() < 0.5):
        appliance = rng.choice([("sinkbasin", "sinkbasin1"), ("microwave", "microwave1"), ("fridge", "fridge1")])
    if appliance is not None:
        receptacles.append((appliance[1], appliance[0], appliance[0] != "sinkbasin"))
    prop_index = {"heat": 0, "cool": 1, "clean": 2}
    names = list(_HOUSEHOLD_ITEMS)
    if task in prop_index:
        main_choices = [n for n in names if _HOUSEHOLD_ITEMS[n][prop_index[task]]]
    else:
        main_choices = names
    main = rng.choice(main_choices)
    rest = [n for n in names if n != main]
    rng.shuffle(rest)
    items = [main] + rest[: n_items - 1]
    locations = ["loc-start"] + [f"loc-{r}" for r, _, _ in receptacles]

    p.add_objects("location", locations)
    for type_name in ("receptacle", "sinkbasin", "microwave", "fridge"):
        p.add_objects(type_name, [r for r, t, _ in receptacles if t == type_name])
    p.add_objects("item", items)

    p.fact("agent-at", "loc-start")
    p.fact("hand-empty")
    for r, _, openable in receptacles:
        p.fact("receptacle-at", r, f"loc-{r}")
        if openable:
            p.fact("openable", r)
        else:
            p.fact("opened", r)
    plain_recs = [r for r, t, _ in receptacles if t == "receptacle"]
    target = rng.choice(plain_recs)
    place_of = {}
    for k, item in enumerate(items):
        options = [r for r, _, _ in receptacles if k > 0 or r != target]
        place_of[item] = rng.choice(options)
        p.fact("in", item, place_of[item])
    for item in items:
        heatable, coolable, cleanable = _HOUSEHOLD_ITEMS[item]
        if heatable:
            p.fact("heatable", item)
        if coolable:
            p.fact("coolable", item)
        if cleanable:
            p.fact("cleanable", item)
    if task in prop_index:
        p.want({"heat": "is-hot", "cool": "is-cold", "clean": "is-clean"}[task], main)
    p.want("in", main, target)
    if task == "two":
        p.want("in", items[1], target)


_GENERATORS: Dict[str, Callable[[ProblemSpec, random.Random], None]] = {
    "blocksworld": _blocksworld,
    "logistics": _logistics,
    "ferry": _ferry,
    "grid": _grid,
    "floortile": _floortile,
    "gripper": _gripper,
    "rovers": _rovers,
    "visitall": _visitall,
    "depots": _depots,
    "goldminer": _goldminer,
    "satellite": _satellite,
    "swap": _swap,
    "household": _household,
}

DOMAINS: Tuple[str, ...] = tuple(_GENERATORS)

#: domains.yaml's fields written by hand, the one copy of each: a domain's one-line
#: description (English, so data, not Python) and its type declarations (as in
#: domain.pddl). The generator keeps them and rewrites every other field.
HAND_WRITTEN = ("description", "types")


@functools.lru_cache(maxsize=2)
def _domain_entries(path: Path, mtime_ns: int) -> Dict[str, dict]:
    """`path`'s (domains.yaml's) entries by name, read once per version of the file
    (`mtime_ns`: a rewritten file is read again)."""
    import yaml

    return {e["name"]: e for e in yaml.safe_load(path.read_text(encoding="utf-8"))["domains"]}


def domain_info(domain: str) -> Dict[str, object]:
    """The hand-written fields (``HAND_WRITTEN``) of ``domain``'s entry in the shipped
    ``domains.yaml``; a domain without an entry there raises ValueError naming the file
    and the fields to add."""
    path = DOMAINS_DIR / "domains.yaml"
    entry = _domain_entries(path, path.stat().st_mtime_ns).get(domain, {})
    missing = [k for k in HAND_WRITTEN if k not in entry]
    if missing:
        raise ValueError(_say("missing_hand_written", path=path, domain=repr(domain),
                              missing=missing, fields=HAND_WRITTEN))
    return {k: entry[k] for k in HAND_WRITTEN}


# --------------------------------------------------------------------------
# public API
# --------------------------------------------------------------------------


#: Train problems the difficulty levels draw beyond the shipped p01-p09
#: (racbench/training/levels.py), per domain the ``(index, size)`` of its files
#: ``levels/g01.pddl``, ``g02``, ... Their indices (from 101) seed other instances
#: than p01-p15, so none is a validation or test problem; sizes 6 and 7 are layouts
#: with fuller states (more facts true at once) than the shipped problems reach (swap's:
#: rooms in a row that an agent must cross, so that landmarks are asked), rovers' size 8
#: smaller ones (one sample of each kind: easy's states hold fewer facts than p01-p09's).
LEVEL_PROBLEMS: Dict[str, Tuple[Tuple[int, int], ...]] = {
    "rovers": ((103, 6), (104, 7), (105, 7), (106, 7), (141, 8), (142, 8), (143, 8), (144, 8)),
    "satellite": ((101, 6), (102, 6), (103, 6), (104, 7), (105, 7), (106, 7), (107, 8), (108, 8), (109, 8)),
    "visitall": ((101, 6), (102, 6), (103, 6), (104, 7), (105, 7), (106, 7)),
    "household": ((102, 6), (103, 6), (104, 6), (105, 7), (106, 7)),
    "swap": ((105, 4), (111, 2), (112, 2), (131, 6), (132, 6), (133, 6), (134, 7), (135, 7), (136, 7)),
    "ferry": ((101, 5), (102, 5), (103, 5)),
}


def level_problem_name(number: int) -> str:
    return f"g{number:02d}"


def build_level_problem(domain: str, number: int) -> ProblemSpec:
    """Level problem ``g<number>`` of ``domain`` (``LEVEL_PROBLEMS``, from 1)."""
    try:
        index, size = LEVEL_PROBLEMS[domain][number - 1]
    except (KeyError, IndexError):
        raise ValueError(_say("no_level_problem", domain=domain,
                              problem=level_problem_name(number),
                              count=len(LEVEL_PROBLEMS.get(domain, ())))) from None
    return build_problem(domain, index, size, label=level_problem_name(number))


def build_problem(domain: str, index: int, size: int, label: str = "") -> ProblemSpec:
    """Build the structured problem ``index`` of ``domain`` at size level ``size``."""
    try:
        gen = _GENERATORS[domain]
    except KeyError:
        raise ValueError(_say("unknown_domain", domain=repr(domain), known=DOMAINS)) from None
    if index < 1 or size < 1:
        raise ValueError(_say("not_positive"))
    spec = ProblemSpec(domain=domain, index=index, size=size, label=label)
    gen(spec, _rng(domain, index, size))
    return spec


def generate_problem(domain: str, index: int, size: int) -> str:
    """Return the PDDL text of problem ``index`` of ``domain`` at size level ``size``.

    ``size`` is a level from 1 (a handful of objects) to 5 (about fifteen);
    larger values are treated as the largest size of the domain's layouts (5, or 7
    where a domain has the level problems' larger layouts).  Within a level the generator draws one of a
    few layouts (numbers of objects per type) and the instance itself from a
    ``random.Random`` seeded by BLAKE2b of ``(domain, index, size)``; ``index``
    only serves as part of the seed and of the problem name.
    """
    return build_problem(domain, index, size).render()


def problem_filename(index: int) -> str:
    return f"p{index:02d}.pddl"


def problem_schedule(domain: str) -> List[Tuple[int, int]]:
    """The ``(index, size)`` pairs of the committed problems of ``domain``."""
    if domain not in _GENERATORS:
        raise ValueError(_say("unknown_domain", domain=repr(domain)))
    return [(i, s) for i, s in enumerate(PROBLEM_SIZES, start=1)]


def render_domains_yaml() -> str:
    """Text of ``domains.yaml``: one entry per domain with problem statistics."""
    lines = [*_say("domains_yaml_header").splitlines(), "domains:"]
    for domain in DOMAINS:
        info = domain_info(domain)
        counts = [build_problem(domain, i, s).n_objects for i, s in problem_schedule(domain)]
        lines.append(f"  - name: {domain}")
        lines.append(f"    description: \"{info['description']}\"")
        lines.append("    types: [" + ", ".join(f"\"{t}\"" for t in info["types"]) + "]")
        lines.append(f"    domain_file: {domain}/domain.pddl")
        lines.append(f"    problems: {len(counts)}")
        lines.append(f"    objects: {{min: {min(counts)}, max: {max(counts)}}}")
        levels = [s for _, s in problem_schedule(domain)]
        lines.append(f"    size_levels: [{', '.join(str(s) for s in sorted(set(levels)))}]")
        lines.append(f"    level_per_problem: [{', '.join(str(s) for s in levels)}]")
        lines.append(f"    objects_per_problem: [{', '.join(str(c) for c in counts)}]")
        if LEVEL_PROBLEMS.get(domain):
            lines.append(f"    level_problems: {len(LEVEL_PROBLEMS[domain])}")
    return "\n".join(lines) + "\n"


def write_all(root: Path = DOMAINS_DIR) -> List[Path]:
    """(Re)write every problem file and ``domains.yaml`` below ``root``."""
    written = []
    for domain in DOMAINS:
        out_dir = root / domain / "problems"
        out_dir.mkdir(parents=True, exist_ok=True)
        for index, size in problem_schedule(domain):
            path = out_dir / problem_filename(index)
            path.write_bytes(generate_problem(domain, index, size).encode("utf-8"))
            written.append(path)
        for number in range(1, len(LEVEL_PROBLEMS.get(domain, ())) + 1):
            (root / domain / "levels").mkdir(parents=True, exist_ok=True)
            path = root / domain / "levels" / f"{level_problem_name(number)}.pddl"
            path.write_bytes(build_level_problem(domain, number).render().encode("utf-8"))
            written.append(path)
    path = root / "domains.yaml"
    path.write_bytes(render_domains_yaml().encode("utf-8"))
    written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    written = write_all()
    print(_say("wrote", count=len(written), folder=DOMAINS_DIR), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
