"""The levels of the shipped STRIPS domains: their knobs are what the tables say, and
the problems of each level are measurably no smaller than the last level's (the most
true facts of a reachable state, the reachable states: what the bounded reasoner of
benchmarks/difficulty_levels.py must hold and search), only train problems; the
generated level problems (levels/gNN.pddl) are the generator's, parse, ground, and are
solvable, and none is a validation or test problem."""

from dataclasses import replace
from pathlib import Path

import pytest

from racbench.tasks.config import ConfigError, TaskConfig
from racbench.tasks.options import DEFAULT_SPLIT_PROBLEMS
from racbench.training.levels import (DOMAIN_LENGTHS, DOMAIN_PROBLEMS, LEVELS,
                                      domain_problems, level_config, problem_size)
from racbench.training.stream import Stream
from racbench.worlds.strips import generators
from racbench.worlds.strips.grounding import ground
from racbench.worlds.strips.model import Literal
from racbench.worlds.strips.pddl_reader import load_domain, load_problem
from racbench.worlds.strips.shipped import shipped_domains, shipped_files, shipped_problem_names
from racbench.worlds.strips.world import world_for

LEVEL_PROBLEMS = sorted((d, f"g{i:02d}") for d, specs in generators.LEVEL_PROBLEMS.items()
                        for i in range(1, len(specs) + 1))


def test_every_shipped_domain_has_levels_of_train_problems_only():
    assert sorted(DOMAIN_PROBLEMS) == sorted(shipped_domains())
    held_out = set(DEFAULT_SPLIT_PROBLEMS["validation"]) | set(DEFAULT_SPLIT_PROBLEMS["test"])
    for domain, levels in DOMAIN_PROBLEMS.items():
        assert len(levels) == len(LEVELS), domain
        train = set(DEFAULT_SPLIT_PROBLEMS["train"]) | {
            p for d, p in LEVEL_PROBLEMS if d == domain}
        for problems in levels:
            assert problems and set(problems) <= train, (domain, problems)
            assert not set(problems) & held_out, (domain, problems)
        used = {p for problems in levels for p in problems}
        assert {p for d, p in LEVEL_PROBLEMS if d == domain} <= used, domain  # none idle
    assert list(DOMAIN_LENGTHS) == sorted(set(DOMAIN_LENGTHS))  # lengths grow


@pytest.mark.parametrize("domain", sorted(DOMAIN_PROBLEMS))
def test_a_levels_config_and_rows_use_the_tables_problems_and_length(domain):
    for k, level in enumerate(LEVELS):
        cfg = level_config("projection", level, domain)
        assert cfg.problems == {"train": domain_problems(domain)[k]}
        assert cfg.lengths == (DOMAIN_LENGTHS[k],) and cfg.domain == domain
    row = Stream(f"projection@{domain}", level="hard").row(0)
    assert row["problem"] in DOMAIN_PROBLEMS[domain][2]
    assert row["sequence_length"] == DOMAIN_LENGTHS[2]


@pytest.mark.parametrize("domain", sorted(DOMAIN_PROBLEMS))
def test_each_levels_problems_are_no_smaller_than_the_last_levels(domain):
    largest, mean = [], []  # per level: (most true facts of a state, most reachable
    for problems in DOMAIN_PROBLEMS[domain]:  # states); the mean of the first over problems
        sizes = [problem_size(domain, p) for p in problems]
        largest.append((max(s for s, _ in sizes), max(n for _, n in sizes)))
        mean.append(sum(s for s, _ in sizes) / len(sizes))
    for lower, higher in zip(largest, largest[1:]):
        assert higher[0] >= lower[0] and higher[1] >= lower[1], (domain, largest)
    assert mean[0] < mean[1] < mean[2], (domain, mean)  # easy < medium < hard


def test_an_unknown_world_names_what_is_accepted():
    with pytest.raises(ConfigError, match="unknown world 'nowhere'; a stream asks about a shipped "
                                         "domain .*ferry"):
        level_config("projection", "easy", "nowhere")


def test_the_generated_level_problems_are_the_generators_and_are_listed():
    """Each domain's levels/ folder holds exactly the generator's level problems, byte
    for byte; domains.yaml counts them, so configs accept their names."""
    for domain in sorted(shipped_domains()):
        root = Path(shipped_files(domain, ["g01"])[1][0]).parent
        files = sorted(f.name for f in root.glob("*.pddl")) if root.exists() else []
        names = [p for d, p in LEVEL_PROBLEMS if d == domain]
        assert files == [f"{p}.pddl" for p in names], domain
        assert [p for p in shipped_problem_names(domain) if p.startswith("g")] == names
        for k, name in enumerate(names, start=1):
            text = generators.build_level_problem(domain, k).render()
            assert (root / f"{name}.pddl").read_text() == text, (domain, name)


def _facts(problem, constants) -> tuple[dict[str, tuple], set[tuple]]:
    """A parsed problem as (each object's first colour: its type, or its name for a
    domain constant, which no renaming moves), {(part, predicate, args...)}: its init
    atoms and its goal's literals."""
    colour = {o: (t, o if o in constants else "") for o, t in problem.objects.items()}
    facts = {("init", *atom) for atom in problem.init}
    for lit in problem.goal:
        assert isinstance(lit, Literal), problem.name  # level problems: conjunctions
        facts.add(("goal" if lit.positive else "goal-not", *lit.atom))
    for fact in facts:  # a domain constant the problem's :objects does not list
        for o in fact[2:]:
            colour.setdefault(o, (constants.get(o, "") if isinstance(constants, dict) else "",
                                  o))
    return colour, facts


def _refined(colours: list[dict], facts: list[set]) -> list[dict]:
    """Colour refinement run on several problems at once (one palette, so colours are
    comparable): an object's colour becomes its colour and, for each fact it is in, the
    fact's part, predicate, its place and its arguments' colours; until no class splits."""
    while True:
        palette: dict = {}
        new = []
        for colour, fs in zip(colours, facts):
            seen = {o: [] for o in colour}
            for f in fs:
                for k, o in enumerate(f[2:]):
                    seen[o].append((f[0], f[1], k, tuple(colour[x] for x in f[2:])))
            new.append({o: palette.setdefault((colour[o], tuple(sorted(seen[o]))),
                                              len(palette)) for o in colour})
        if all(len(set(n.values())) == len(set(c.values())) for n, c in zip(new, colours)):
            return new
        colours = new


def same_problem(a, b, constants=()) -> bool:
    """Whether parsed problems `a` and `b` are one problem up to renaming their objects
    (and the order or layout of their text): a bijection of objects, type for type,
    mapping `a`'s init atoms and goal literals exactly onto `b`'s."""
    (ca, fa), (cb, fb) = _facts(a, constants), _facts(b, constants)
    if len(ca) != len(cb) or len(fa) != len(fb) or \
            sorted(f[:2] for f in fa) != sorted(f[:2] for f in fb):
        return False
    ca, cb = _refined([ca, cb], [fa, fb])
    if sorted(ca.values()) != sorted(cb.values()):
        return False
    by_object = {o: [f for f in fa if o in f[2:]] for o in ca}
    order = sorted(ca, key=lambda o: (sum(c == ca[o] for c in ca.values()), o))
    mapping: dict[str, str] = {}

    def extend(k: int) -> bool:
        if k == len(order):
            return True
        o = order[k]
        for image in sorted(x for x in cb if cb[x] == ca[o] and x not in mapping.values()):
            mapping[o] = image
            if all(not all(x in mapping for x in f[2:]) or
                   (*f[:2], *(mapping[x] for x in f[2:])) in fb for f in by_object[o]) \
                    and extend(k + 1):
                return True
            del mapping[o]
        return False
    return extend(0)


def held_out_copies(domain: str, problem_file: str) -> list[str]:
    """The validation and test problems of `domain` that the problem in `problem_file`
    is, up to renaming and layout (parsed, not compared as text)."""
    domain_file = shipped_files(domain, ["p01"])[0]
    dom = load_domain(domain_file)
    mine = load_problem(problem_file, dom)
    held_out = DEFAULT_SPLIT_PROBLEMS["validation"] + DEFAULT_SPLIT_PROBLEMS["test"]
    return [p for p in held_out if same_problem(
        mine, load_problem(shipped_files(domain, [p])[1][0], dom), dom.constants)]


@pytest.mark.parametrize("domain,problem", LEVEL_PROBLEMS)
def test_a_generated_level_problem_parses_grounds_and_is_solvable(domain, problem):
    """Read by our reader, grounded, its goal false at the start and reachable from it
    (a shortest plan in its enumerated state space), and no validation or test problem
    of the domain (compared parsed, up to renaming objects: other instances, not
    copies)."""
    domain_file, (problem_file,) = shipped_files(domain, [problem])
    dom = load_domain(domain_file)
    task = ground(dom, load_problem(problem_file, dom))
    assert task.actions and task.goal
    world = world_for(domain_file, problem_file)
    distance = world.distance(world.initial)
    assert distance is not None and distance > 0, (domain, problem)
    assert held_out_copies(domain, problem_file) == [], (domain, problem)


def _renamed_copy(domain: str, problem: str, path: Path) -> Path:
    """A held-out problem as a copy would hide it: every object renamed, init and goal
    in another order, laid out otherwise."""
    domain_file, (problem_file,) = shipped_files(domain, [problem])
    dom = load_domain(domain_file)
    parsed = load_problem(problem_file, dom)
    new = {o: f"thing{k}" for k, o in enumerate(sorted(parsed.objects, reverse=True))
           if o not in dom.constants}
    term = lambda atom: "(" + " ".join([atom[0], *(new.get(x, x) for x in atom[1:])]) + ")"
    objects = " ".join(f"{n} - {parsed.objects[o]}" for o, n in sorted(new.items(), key=lambda x: x[1]))
    init = " ".join(sorted((term(a) for a in parsed.init), reverse=True))
    goal = " ".join(sorted((term(l.atom) for l in parsed.goal), reverse=True))
    path.write_text(f"(define (problem copy) (:domain {dom.name})\n(:objects {objects})"
                    f"\n(:init {init})\n(:goal (and {goal})))\n")
    return path


@pytest.mark.parametrize("domain", sorted(generators.LEVEL_PROBLEMS))
def test_a_planted_copy_of_a_held_out_problem_is_caught(domain, tmp_path):
    """The check above finds a validation or test problem renamed and reordered (a text
    comparison would not), and tells one problem from another."""
    for problem in ("p10", "p13"):
        copy = _renamed_copy(domain, problem, tmp_path / f"{problem}.pddl")
        assert held_out_copies(domain, str(copy)) == [problem], (domain, problem)
        assert copy.read_text() != Path(shipped_files(domain, [problem])[1][0]).read_text()


def test_a_config_names_level_problems_and_refuses_unknown_ones():
    cfg = level_config("projection", "hard", "rovers")
    assert all(p.startswith("g") for p in cfg.problems["train"])
    assert Path(cfg.files("train")[1][0]).parent.name == "levels"
    with pytest.raises(ConfigError, match="unknown problem 'g99' of domain rovers"):
        TaskConfig(family="projection", domain="rovers", problems={"train": ("g99",)}).validate()


def _named(cell: str) -> tuple[str, ...]:
    """The problems a cell of docs/training.md's level table names: "p01-p03, g01 (7, 22)"."""
    names = []
    for part in cell.split("(")[0].split(","):
        first, _, last = part.strip().partition("-")
        names += [f"{first[0]}{i:02d}" for i in range(int(first[1:]), int((last or first)[1:]) + 1)]
    return tuple(names)


def test_the_docs_level_table_names_each_levels_problems_and_sizes():
    """docs/training.md's per-domain table is the data: each level's problems, and in
    brackets the measured size of its largest."""
    text = (Path(__file__).parents[1] / "docs" / "training.md").read_text()
    table = text.split("| domain | easy | medium | hard | expert |\n|---|---|---|---|---|\n")[1]
    rows = {cells[0]: cells[1:] for cells in (
        [c.strip() for c in line.strip("|").split("|")] for line in table.split("\n\n")[0].splitlines())}
    assert sorted(rows) == sorted(DOMAIN_PROBLEMS)
    for domain, levels in DOMAIN_PROBLEMS.items():
        assert tuple(_named(c) for c in rows[domain]) == levels, domain
        for cell, problems in zip(rows[domain], levels):
            sizes = [problem_size(domain, p) for p in problems]
            assert cell.endswith(f"({max(s for s, _ in sizes)}, {max(n for _, n in sizes)})"), \
                (domain, cell)


def _level_problems_of(domain: str, size: int) -> list:
    return [generators.build_level_problem(domain, k)
            for k, (_, s) in enumerate(generators.LEVEL_PROBLEMS[domain], start=1) if s == size]


def test_the_generated_layouts_ask_what_their_levels_need():
    """swap's sizes 6 and 7: rooms in a row and an agent sent to an end (rooms between are
    landmarks from some states); satellite's size 8: one instrument for each mode
    (calibrating it is a landmark); rovers' size 8 (easy): one sample of each kind, so
    its states hold fewer facts than p01-p09's."""
    for size in (6, 7):
        for spec in _level_problems_of("swap", size):
            rooms = spec.objects[-1][1]
            assert sorted(f[1:] for f in spec.init if f[0] == "connected") == sorted(
                [(a, b) for a, b in zip(rooms, rooms[1:])] + [(b, a) for a, b in zip(rooms, rooms[1:])])
            assert any(g[0] == "agent-at" and g[2] in (rooms[0], rooms[-1]) for g in spec.goal)
    for spec in _level_problems_of("satellite", 8):
        supports = [f[1:] for f in spec.init if f[0] == "supports"]
        assert len({m for _, m in supports}) == len(supports), spec.name  # one each
    smaller = [problem_size("rovers", p) for p in ("g05", "g06", "g07", "g08")]
    assert max(s for s, _ in smaller) < min(problem_size("rovers", p)[0]
                                            for p in DEFAULT_SPLIT_PROBLEMS["train"])
    for spec in _level_problems_of("rovers", 8):
        assert sum(f[0] in ("soil-sample-at", "rock-sample-at") for f in spec.init) == 2
    assert len(_level_problems_of("swap", 6)) == len(_level_problems_of("swap", 7)) == 3
    assert len(_level_problems_of("satellite", 8)) == 3 and len(_level_problems_of("rovers", 8)) == 4


TINY_DOMAIN = """(define (domain tiny) (:requirements :strips :typing)
(:types place) (:constants home - place)
(:predicates (at ?p - place) (road ?a ?b - place))
(:action go :parameters (?a ?b - place)
 :precondition (and (at ?a) (road ?a ?b)) :effect (and (at ?b) (not (at ?a)))))
"""


def _tiny_problem(path: Path, objects: str, init: str, goal: str) -> Path:
    path.write_text(f"(define (problem p) (:domain tiny) (:objects {objects} - place)"
                    f"\n(:init {init})\n(:goal (and {goal})))\n")
    return path


def test_the_copy_check_takes_domain_constants_the_objects_do_not_list(tmp_path):
    """A domain constant (`home`) named in init and goal is a colour of its own, never
    renamed: a renamed copy is the same problem, one whose constant sits elsewhere is
    not; also where the problem's objects leave the constant out (the reader adds the
    domain's constants to them, a problem built otherwise may not: that raised
    KeyError)."""
    (tmp_path / "domain.pddl").write_text(TINY_DOMAIN)
    dom = load_domain(str(tmp_path / "domain.pddl"))
    assert dom.constants == {"home": "place"}
    a = load_problem(str(_tiny_problem(tmp_path / "a.pddl", "x y", "(at x) (road x y) "
                                       "(road y home)", "(at home)")), dom)
    renamed = load_problem(str(_tiny_problem(tmp_path / "b.pddl", "q r", "(road r home) "
                                             "(at q) (road q r)", "(at home)")), dom)
    moved = load_problem(str(_tiny_problem(tmp_path / "c.pddl", "x y", "(at home) "
                                           "(road home x) (road x y)", "(at y)")), dom)
    for problem in (a, replace(a, objects={o: t for o, t in a.objects.items()
                                          if o not in dom.constants})):
        assert same_problem(problem, renamed, dom.constants)
        assert not same_problem(problem, moved, dom.constants)
