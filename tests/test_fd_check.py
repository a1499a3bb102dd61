"""The second checker: Fast Downward's translator, our finite-domain stepper over its
output, and Fast Downward's search, for the rows unified-planning refuses.

Competition files (tests/data/competition/, see its README) and the ADL test domains:
rows of every bool family verify with ``--require-checked`` (0 mismatching, 0
unchecked); a flipped label on a row only Fast Downward can check is caught; and the
stepper, fed the translator's own output, steps exactly as racbench's engine does."""

import json
import random
from pathlib import Path
from types import SimpleNamespace

import pytest

import racbench
from racbench.checks.verify import verify_row
from racbench.checks.verify.fd_context import FdContext
from racbench.checks.verify.fd_search import translated
from racbench.checks.verify.fd_stepper import FdStepper
from racbench.errors import GenerationError
from racbench.worlds.strips.world import stepping_world

from verify_rows import write_config

DATA = Path(__file__).parent / "data"
COMPETITION = DATA / "competition"
ADL = DATA / "adl"

# (domain folder, families, rows): what each domain is asked, kept small for the suite's
# CPU (citycar's optimal searches take seconds each; its stepping families none).
CASES = [
    (COMPETITION / "citycar", ("applicability", "progression", "projection",
                               "executability", "planning"), 2),
    (COMPETITION / "openstacks", ("applicability", "progression", "projection",
                                  "executability", "validation", "planning",
                                  "goal_recognition", "action_reachability", "landmarks",
                                  "next_action", "justification", "reachability"), 2),
    (COMPETITION / "scanalyzer", ("progression", "validation", "next_action"), 2),
    # derived predicates and a type under two parents: unified-planning's model has
    # neither, so these rows are Fast Downward's alone (never a model without its axioms)
    (COMPETITION / "philosophers", ("applicability", "progression", "validation"), 2),
    (COMPETITION / "psr-large", ("progression",), 2),
    (COMPETITION / "storage", ("progression", "applicability"), 2),
    (ADL / "elevator", ("applicability", "landmarks"), 2),
    (ADL / "assembly", ("progression", "validation"), 2),
]


def _files(folder: Path) -> tuple[Path, list[Path]]:
    problems = sorted((folder / "problems").glob("*.pddl")) or [folder / "p01.pddl"]
    return folder / "domain.pddl", problems[:1]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("fd-check")
    for folder, families, n in CASES:
        domain, problems = _files(folder)
        for family in families:
            try:
                rows = racbench.generate(family, domain_file=domain, problem=problems, n=n,
                                         form="bool", seed=5)
            except GenerationError as exc:  # a question this problem cannot pose
                assert "gives" in str(exc) or "options" in str(exc), exc
                continue
            write_config(out, f"{folder.name}_{family}_bool", rows)
    return out


def _verify(folder: Path, monkeypatch, *args: str) -> SimpleNamespace:
    """`racbench verify` through click's runner in this process (its exit code and
    report; a process paid Python's, racbench's, pyarrow's and unified-planning's
    start), with a fresh engine: no domain an earlier test read stays cached."""
    from click.testing import CliRunner

    from racbench.checks.verify import dataset
    from racbench.cli import main

    monkeypatch.setattr(dataset, "_ENGINE", None)
    result = CliRunner().invoke(main, ["verify", str(folder), "--quiet", "--jobs", "1", *args])
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += repr(result.exception)
    return SimpleNamespace(returncode=result.exit_code, stdout=result.stdout, stderr=stderr)


def test_every_row_is_checked_on_competition_and_adl_domains(built, monkeypatch):
    done = _verify(built, monkeypatch, "--require-checked", "--per-row")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " 0 mismatching" in done.stdout and "0 rows unchecked" in done.stdout, done.stdout
    rows = [line for line in done.stdout.splitlines() if line.startswith("ROW ")]
    assert rows and all("checked by" in line for line in rows), rows
    # the rows unified-planning cannot take are the finite-domain stepper's
    citycar = [line for line in rows if line.startswith("ROW citycar_")]
    assert citycar and all("fd-stepper" in line for line in citycar), citycar
    assert any("fd-search" in line for line in citycar), citycar
    assert any("unified-planning" in line for line in rows), rows
    openstacks = [line for line in rows if line.startswith("ROW openstacks_")]
    assert len({line.split("_")[1] for line in openstacks}) >= 8, openstacks
    assert all("fd-stepper" in line for line in openstacks), openstacks
    for name in ("philosophers", "psr-large", "storage"):
        wild = [line for line in rows if line.startswith(f"ROW {name}_")]
        assert wild and all("unified-planning" not in line for line in wild), wild


def test_a_flipped_label_is_caught_by_the_fd_checker(built, flip_first_label, tmp_path,
                                                     monkeypatch):
    import shutil

    folder = tmp_path / "flipped"
    for config in ("citycar_projection_bool", "openstacks_landmarks_bool"):
        shutil.copytree(built / config, folder / config)
    flipped = [flip_first_label(folder, config)
               for config in ("citycar_projection_bool", "openstacks_landmarks_bool")]
    done = _verify(folder, monkeypatch, "--require-checked")
    assert done.returncode == 1, done.stdout + done.stderr
    mismatches = [line for line in done.stdout.splitlines() if line.startswith("MISMATCH")]
    assert len(mismatches) == 2, done.stdout
    for row_id, line in zip(flipped, mismatches):
        assert row_id in line and "label" in line, line


def test_unchecked_rows_fail_only_with_require_checked(built, tmp_path, monkeypatch):
    """Without the translator no engine takes citycar's rows: they are reported unchecked,
    exit code 0 (other rows were checked), or 3 when every row must be checked."""
    import shutil

    from racbench.checks.verify import fd_search, verify_dataset

    folder = tmp_path / "some"
    for config in ("citycar_progression_bool", "scanalyzer_progression_bool"):
        shutil.copytree(built / config, folder / config)
    monkeypatch.setattr(fd_search, "TRANSLATOR_MODULE", "racbench_no_such_translator")
    report = verify_dataset(folder, jobs=1, optimal=False)
    assert report.unchecked_rows == 2 and report.checked_rows == 2, report.summary()
    assert report.engines == {"unified-planning": 2}, report.engines
    assert "unchecked: 2 rows" in report.summary()
    assert "translator is not installed" in report.summary()
    assert any("translator (fast-downward-translate) is not installed" in note
               for note in report.notes), report.notes
    assert report.exit_code == 0
    report = verify_dataset(folder, jobs=1, optimal=False, require_checked=True)
    assert report.exit_code == 3 and not report.mismatches


# philosophers and psr-large have derived predicates that no action needs (only a goal,
# or nothing): the translator drops their axioms unless told they are needed
STEP_CASES = [(COMPETITION / "citycar", 40), (COMPETITION / "openstacks", 40),
              (COMPETITION / "scanalyzer", 20), (COMPETITION / "philosophers", 40),
              (COMPETITION / "psr-large", 40), (ADL / "elevator", 30),
              (ADL / "assembly", 30), (ADL / "scheduling", 20), (ADL / "household", 30)]


@pytest.mark.parametrize("folder,steps", STEP_CASES, ids=[f.name for f, _ in STEP_CASES])
def test_the_stepper_on_the_translators_output_steps_as_our_engine(folder, steps):
    """A seeded random walk through the problem: at every state the checker's stepper
    (Fast Downward's translation of the problem as verify writes it from a row: the
    initial state, no goal) and racbench's own engine agree on the applicable actions,
    the true atoms (derived ones included) and the goal."""
    domain, problems = _files(folder)
    world = stepping_world(str(domain), str(problems[0]))
    stepper = FdContext({}, world.symbolic(world.initial), 60.0, optimal=False).stepper
    rng = random.Random(f"{folder.name}-walk")
    ours, theirs = world.initial, stepper.initial()
    for step in range(steps):
        terms = sorted(" ".join(world.action_term(a)) for a in world.applicable(ours))
        assert terms == stepper.applicable_names(theirs), (folder.name, step)
        atoms = {tuple(a) for a in world.state_atoms(ours)}
        assert atoms == stepper.true_atoms(theirs), (folder.name, step,
                                                    atoms ^ stepper.true_atoms(theirs))
        assert world.at_goal(ours) == all(stepper.holds(theirs, g[0]) == g[1]
                                          for g in _goal(world)), (folder.name, step)
        if not terms:
            break
        action = rng.choice(sorted(world.applicable(ours)))
        ours = world.step(ours, action)
        theirs = stepper.step(theirs, world.action_term(action))
        assert theirs is not None


def _goal(world) -> list[tuple[tuple, bool]]:
    """The problem's goal literals (atom, positive), as racbench read them."""
    from racbench.worlds.strips.model import Literal

    goal = world.problem.goal
    out = []
    for item in goal:
        if isinstance(item, Literal):
            out.append((item.atom, item.positive))
        else:
            out.append((tuple(item), True))
    return out


def test_an_action_the_translator_split_is_one_action(tmp_path):
    """assembly's open-shelf opens with the key or with the hammer: the translator makes
    one operator per disjunct, the stepper lists the action once and applies it when
    either operator applies."""
    domain, problems = _files(ADL / "assembly")
    task = translated(domain.read_text(), problems[0].read_text(), keep_all=True)
    names = [op.name for op in task.operators]
    assert len(names) > len(set(names))  # some action was split
    rows = racbench.generate("applicability", domain_file=domain, problem=problems, n=6,
                             form="open", seed=2)
    for row in rows:
        sym = json.loads(row["symbolic"])
        ctx = FdContext(row, sym, 60.0, optimal=False)
        assert sorted(map(tuple, ctx.applicable_actions())) == sorted(map(tuple, sym["answer"]))
        assert verify_row(row, optimal=False).ok


def test_derived_predicates_are_evaluated_layer_by_layer():
    """A domain with axioms (tests/data/verify/derived): reach is recursive (one layer),
    isolated negates reach (the next layer). After cutting c, a still reaches b, c
    reaches d, and a and c are isolated: touching c becomes applicable."""
    folder = DATA / "verify" / "derived"
    task = translated((folder / "domain.pddl").read_text(), (folder / "p01.pddl").read_text(),
                      keep_all=True)
    assert len({v.axiom_layer for v in task.variables if v.axiom_layer >= 0}) == 2
    links = [("link", "a", "b"), ("link", "b", "c"), ("link", "c", "d")]
    stepper = FdStepper(task, links)
    shown = ("reach", "isolated")
    state = stepper.initial()
    assert sorted(a for a in stepper.true_atoms(state) if a[0] in shown) == [
        ("isolated", "a"), ("reach", "a", "b"), ("reach", "a", "c"), ("reach", "a", "d"),
        ("reach", "b", "c"), ("reach", "b", "d"), ("reach", "c", "d")]
    assert stepper.step(state, ["touch", "c"]) is None
    state = stepper.step(state, ["cut", "c"])
    assert sorted(a for a in stepper.true_atoms(state) if a[0] in shown) == [
        ("isolated", "a"), ("isolated", "c"), ("reach", "a", "b"), ("reach", "c", "d")]
    assert stepper.applicable_names(state) == ["cut a", "cut b", "cut d", "touch a", "touch c"]
    state = stepper.step(state, ["cut", "d"])  # nothing reaches d now: isolated, by layer 2
    assert stepper.holds(state, ("isolated", "d")) and not stepper.holds(state, ("reach", "c", "d"))


def test_a_row_whose_domain_has_axioms_is_checked_by_fast_downward():
    """A projection row on the axiom domain (made by hand: its state lists derived atoms
    too, which a problem's :init may not): checked by the stepper, and its flipped
    answer caught."""
    domain = (DATA / "verify" / "derived" / "domain.pddl").read_text()
    sym = {"family": "projection", "form": "bool", "domain_pddl": domain,
           "objects": {o: "object" for o in "abcd"},
           "state": [["link", "a", "b"], ["link", "b", "c"], ["link", "c", "d"],
                     ["reach", "a", "b"], ["isolated", "a"]],
           "actions": [["cut", "c"]], "subject": {"atom": ["isolated", "c"], "positive": True},
           "answer": True}
    check = verify_row({"id": "derived-0", "symbolic": json.dumps(sym), "label": 1})
    assert check.ok and "label" in check.checked and "fd-stepper" in check.engines, check
    flipped = {**sym, "answer": False}
    check = verify_row({"id": "derived-1", "symbolic": json.dumps(flipped), "label": 0})
    assert not check.ok and "label: stored false, re-derived true" in check.message, check


def test_derived_atoms_that_no_action_needs_follow_the_state():
    """A philosophers validation row (tests/data/verify/philosophers-validation.json):
    its goal, (blocked philosopher-0) and (blocked philosopher-1), is derived, and the
    problem verify translates for stepping has no goal, so no goal, precondition or
    effect condition needs blocked or blocked-trans. The translator drops the axioms of
    such atoms (they stayed false, and the valid plan was called invalid); the checker's
    task keeps them, layered, and its probe actions stay out of the applicable ones."""
    stored = json.loads((DATA / "verify" / "philosophers-validation.json").read_text())
    sym = {**stored["symbolic"],
           "domain_pddl": (COMPETITION / "philosophers" / "domain.pddl").read_text()}
    ctx = FdContext({}, sym, 60.0, optimal=False)
    derived = [v for v in ctx.stepper.task.variables
               if any(x.startswith("Atom blocked") for x in v.values)]
    assert len(derived) == 10 and all(v.axiom_layer >= 0 for v in derived), derived
    assert all(not n.startswith("racbench") for n in ctx.stepper.applicable_names(ctx.state))
    state, failed = ctx.after(ctx.actions[:3])
    assert failed is None
    assert {("blocked-trans", "philosopher-0", "forks-__-pidp1__2_-rfork"),
            ("blocked", "philosopher-0")} <= ctx.atoms(state)
    assert ctx.valid(ctx.actions)
    row = {"id": stored["id"], "symbolic": json.dumps(sym), "label": stored["label"]}
    check = verify_row(row, optimal=False)
    assert check.ok and "label" in check.checked and "fd-stepper" in check.engines, check
    flipped = {**row, "symbolic": json.dumps({**sym, "answer": False}), "label": 0}
    check = verify_row(flipped, optimal=False)
    assert not check.ok and "label: stored false, re-derived true" in check.message, check


def test_an_action_that_changes_nothing_is_still_applicable():
    """tests/data/verify/noop: `wait` adds the fact it requires. The translator drops such
    operators unless told to keep them; the stepper's task keeps them."""
    folder = DATA / "verify" / "noop"
    task = translated((folder / "domain.pddl").read_text(), (folder / "p01.pddl").read_text(),
                      keep_all=True)
    stepper = FdStepper(task, [("p",)])
    state = stepper.initial()
    assert stepper.applicable_names(state) == ["go", "wait"]
    assert stepper.step(state, ["wait"]) == state
    assert stepper.applicable_names(stepper.step(state, ["go"])) == []


def test_rows_fast_downward_through_unified_planning_fails_on_go_to_fast_downward_alone(
        built, monkeypatch):
    """Where Fast Downward run through unified-planning returns an error (as on trucks),
    the row is checked by Fast Downward alone, not left unchecked."""
    import pyarrow.parquet as pq

    from racbench.checks.verify import dataset, engines
    from racbench.checks.verify.report import Unchecked

    def error(self, prob):
        raise Unchecked("Fast Downward through unified-planning returned INTERNAL_ERROR")

    monkeypatch.setattr(dataset, "_ENGINE", None)
    monkeypatch.setattr(dataset, "_ENGINE_SETTINGS", None)  # restored with the engine
    monkeypatch.setattr(engines.Engine, "optimal_cost", error)
    rows = pq.read_table(built / "scanalyzer_validation_bool").to_pylist()
    for row in rows:
        check = verify_row(row, optimal=True)
        assert check.ok and not check.unchecked, check
        assert check.engines == ["fd-search", "fd-stepper"], check
        assert "optimal_plan_length" in check.checked, check


def test_a_landmark_that_is_a_derived_fact_is_checked_by_fast_downward():
    """Philosophers: a landmarks row asked about each derived atom false in its state
    (blocked-trans ..., which the axioms derive, no action sets): Fast Downward's search
    checks it through states where the atom stays false (every operator and the goal
    require it false), agreeing with our oracle on landmarks and non-landmarks alike,
    and a flipped label is caught."""
    from racbench.tasks import landmarks
    from racbench.tasks.symbolic import SymbolicTask

    folder = COMPETITION / "philosophers"
    row = racbench.generate("landmarks", domain_file=folder / "domain.pddl",
                             problem=[folder / "p01.pddl"], n=2, form="bool", seed=5)[0]
    sym = json.loads(row["symbolic"])
    st = SymbolicTask(sym)
    goal = {tuple(g["atom"]) for g in sym["goal"]}
    asked = [a for a in st.task.atoms if a[0] == "blocked-trans"
             and not st.holds(st.state, a) and a not in goal]
    assert len(asked) >= 4, asked
    answers = []
    for atom in asked:
        truth = landmarks.truth(st, list(atom))
        answers.append(truth)
        mine = {**sym, "subject": list(atom), "answer": truth}
        check = verify_row({"id": "lm", "symbolic": json.dumps(mine), "label": int(truth)})
        assert check.ok and not check.unchecked and "fd-search" in check.engines, (atom, check)
        if truth:
            flipped = {**mine, "answer": False}
            check = verify_row({"id": "lm", "symbolic": json.dumps(flipped), "label": 0})
            assert not check.ok and "re-derived true" in check.message, check
    assert True in answers and False in answers, answers
