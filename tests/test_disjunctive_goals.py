"""Goals that are not one conjunction (tests/data/adl/courier, written for these tests: no
domain of the public competition collection has one). The goal is grounded into
alternatives, the literals they share kept apart; grounding makes the rest one derived
atom, as Fast Downward's translator does, so every state of the world answers the goal
exactly as the formula written in the file; rows state it as "either ..., or ...",
carry it as {"any": [...]}, and `racbench verify --require-checked` re-derives every
row of every family that builds, with unified-planning and with Fast Downward alone."""

import json
from pathlib import Path

import pytest

import racbench
from racbench.checks.verify import verify_row
from racbench.checks.verify.fd_context import FdContext
from racbench.errors import GenerationError
from racbench.worlds.strips import adl
from racbench.worlds.strips.model import AnyOf, Literal
from racbench.worlds.strips.pddl_reader import _ProblemReader, load_domain, load_problem
from racbench.worlds.strips.sexpr import SList, Source, read
from racbench.worlds.strips.world import ExplicitWorld

from verify_rows import write_config

COURIER = Path(__file__).parent / "data" / "adl" / "courier"
DOMAIN = COURIER / "domain.pddl"
PROBLEMS = sorted((COURIER / "problems").glob("*.pddl"))
BOOL_FAMILIES = ("applicability", "executability", "goal_recognition", "justification",
                 "landmarks", "next_action", "planning", "progression", "projection",
                 "validation")
OPEN_FAMILIES = ("plan_generation", "landmarks", "next_action", "reachability")


def _lit(*atom, positive=True):
    return Literal(tuple(atom), positive)


def test_the_goal_is_read_into_shared_literals_and_alternatives():
    domain = load_domain(DOMAIN)
    p01 = load_problem(COURIER / "problems" / "p01.pddl", domain)
    assert p01.goal == (_lit("at", "home"), AnyOf((
        (_lit("pkg-at", "p1", "office"),), (_lit("pkg-at", "p2", "home"),),
        (_lit("pkg-at", "p3", "home"),))))
    p02 = load_problem(COURIER / "problems" / "p02.pddl", domain)
    assert p02.goal[0] == _lit("holding", "p1", positive=False)
    assert len(p02.goal) == 2 and len(p02.goal[1].clauses) == 4  # imply x or: 2 x 2


@pytest.mark.parametrize("problem", PROBLEMS, ids=lambda p: p.stem)
def test_every_state_meets_the_goal_exactly_where_the_written_formula_holds(problem):
    domain = load_domain(DOMAIN)
    prob = load_problem(problem, domain)
    world = ExplicitWorld(domain, DOMAIN.read_text(), prob, problem.stem, 100_000)
    # the goal as written in the file, evaluated on each state's atoms
    source = Source(problem.read_text(), str(problem))
    section = next(s for s in read(source).items[1:]
                   if isinstance(s, SList) and s.head() == ":goal")
    reader = _ProblemReader(source, domain)
    formula = reader.goal(section.items[1], section.start + 2, prob.objects)
    objects = adl.Objects(domain, prob.objects)
    met = 0
    for sid in range(len(world.states)):
        atoms = set(world.task.atoms_of(world.bits(sid))) | set(world.task.static_atoms)
        truth = adl.ground(formula, {}, objects, lambda a: a in atoms)
        assert truth in (adl.TRUE, adl.FALSE)
        assert world.at_goal(sid) == (truth == adl.TRUE), world.state_atoms(sid)
        met += truth == adl.TRUE
    assert 0 < met < len(world.states)
    assert not world.at_goal(0) and world.goal_distance[0] > 0


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("disjunctive")
    made = {}
    for family, form in [(f, "bool") for f in BOOL_FAMILIES] + \
                        [(f, "open") for f in OPEN_FAMILIES]:
        try:
            rows = racbench.generate(family, domain_file=DOMAIN, problem=PROBLEMS, n=2,
                                     form=form, seed=3)
        except GenerationError as exc:  # a question these small problems cannot pose
            assert "gives" in str(exc), exc
            continue
        write_config(out, f"courier_{family}_{form}", rows)
        made[(family, form)] = rows
    assert set(made) >= {(f, "bool") for f in BOOL_FAMILIES} | {("plan_generation", "open")}
    return out


def _rows(built: Path) -> list[dict]:
    import pyarrow.parquet as pq

    return [row for folder in sorted(built.iterdir()) for row in pq.read_table(folder).to_pylist()]


def test_rows_state_and_carry_the_disjunction(built):
    asked = [row for row in _rows(built)
             if any("any" in g for g in json.loads(row["symbolic"]).get("goal") or [])]
    families = {json.loads(row["symbolic"])["family"] for row in asked}
    assert families >= {"validation", "landmarks", "next_action", "justification",
                        "plan_generation"}, families
    for row in asked:
        assert "either " in row["context"] and ", or " in row["context"], row["context"]
    p01 = [row for row in asked if "or p3 is pkg at home" in row["context"]]
    assert p01 and all("The goal is that the agent is at home and either p1 is pkg at office, "
                       "or p2 is pkg at home, or p3 is pkg at home." in row["context"]
                       for row in p01)


def test_every_row_verifies_with_require_checked(built, monkeypatch):
    """`racbench verify` through click's runner in this process (a process paid the start
    of Python, racbench, pyarrow and unified-planning), with a fresh engine."""
    from click.testing import CliRunner

    from racbench.checks.verify import dataset
    from racbench.cli import main

    monkeypatch.setattr(dataset, "_ENGINE", None)
    done = CliRunner().invoke(main, ["verify", str(built), "--quiet", "--jobs", "1",
                                     "--require-checked"])
    assert done.exit_code == 0, (done.output[-5000:], done.exception)
    assert " 0 mismatching" in done.stdout and "0 rows unchecked" in done.stdout, done.stdout


def _disjunctive(built: Path, family: str) -> list[dict]:
    return [row for row in _rows(built) if json.loads(row["symbolic"])["family"] == family
            and any("any" in g for g in json.loads(row["symbolic"]).get("goal") or [])]


def test_a_flipped_label_on_a_disjunctive_goal_is_caught(built):
    rows = [row for row in _disjunctive(built, "validation") + _disjunctive(built, "next_action")
            if row["label"] in (0, 1)]
    assert rows
    for row in rows:
        sym = json.loads(row["symbolic"])
        flipped = {**row, "label": 1 - row["label"],
                   "symbolic": json.dumps({**sym, "answer": not sym["answer"]})}
        check = verify_row(flipped, optimal=True)
        assert not check.ok and "label: stored" in check.message, check


def test_fast_downward_alone_reads_the_disjunction(built):
    """The finite-domain checker (what verify uses where unified-planning cannot): the
    translator compiles the `(or ...)` goal into an axiom; its optimal lengths and plan
    validity agree with the rows."""
    rows = _disjunctive(built, "plan_generation") + _disjunctive(built, "validation")
    assert rows
    for row in rows:
        sym = json.loads(row["symbolic"])
        ctx = FdContext(row, sym, 60.0, optimal=True)
        if sym["family"] == "plan_generation":
            plan = [line.strip("()").split() for line in row["answer"].splitlines()]
            assert ctx.valid(plan) and ctx.cost() == len(plan), row["id"]
            assert not ctx.valid(plan[:-1]), row["id"]
        else:
            assert ctx.valid(ctx.actions) == sym["answer"], row["id"]
