"""The levels of the shipped STRIPS domains: their knobs are what the tables say, and
the problems of each level are measurably no smaller than the last level's (the most
true facts of a reachable state, the reachable states: what the bounded reasoner of
benchmarks/difficulty_levels.py must hold and search), only train problems; the
generated level problems (levels/gNN.pddl) are the generator's, parse, ground, and are
solvable, and none is a validation or test problem."""

from pathlib import Path

import pytest

from racbench.tasks.config import ConfigError, TaskConfig
from racbench.tasks.options import DEFAULT_SPLIT_PROBLEMS
from racbench.training.levels import (DOMAIN_LENGTHS, DOMAIN_PROBLEMS, LEVELS,
                                      domain_problems, level_config, problem_size)
from racbench.training.stream import Stream
from racbench.worlds.strips import generators
from racbench.worlds.strips.grounding import ground
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
    with pytest.raises(ConfigError, match="unknown domain 'nowhere'; accepted: .*ferry"):
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


@pytest.mark.parametrize("domain,problem", LEVEL_PROBLEMS)
def test_a_generated_level_problem_parses_grounds_and_is_solvable(domain, problem):
    """Read by our reader, grounded, its goal false at the start and reachable from it
    (a shortest plan in its enumerated state space), unlike every validation and test
    problem of the domain (other instances, not copies)."""
    domain_file, (problem_file,) = shipped_files(domain, [problem])
    dom = load_domain(domain_file)
    task = ground(dom, load_problem(problem_file, dom))
    assert task.actions and task.goal
    world = world_for(domain_file, problem_file)
    distance = world.distance(world.initial)
    assert distance is not None and distance > 0, (domain, problem)
    text = Path(problem_file).read_text().split("(:objects", 1)[1]
    for held_out in DEFAULT_SPLIT_PROBLEMS["validation"] + DEFAULT_SPLIT_PROBLEMS["test"]:
        other = Path(shipped_files(domain, [held_out])[1][0]).read_text()
        assert other.split("(:objects", 1)[1] != text, (domain, problem, held_out)


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
