"""racbench verify: labels re-derived by unified-planning (and Fast Downward) agree with
ours on freshly built datasets, and corrupted rows are caught by id."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("unified_planning", reason="racbench verify needs unified-planning "
                                                "(pip install 'racbench[verify]')")

import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
from click.testing import CliRunner  # noqa: E402

from racbench.checks import verify as verification  # noqa: E402
from racbench.checks.verify import dataset as verify_rows  # noqa: E402
from racbench.cli import main  # noqa: E402
from racbench.checks.verify import verify_dataset, verify_row  # noqa: E402

HAVE_FD = verification.fd_available()
needs_fd = pytest.mark.skipif(not HAVE_FD, reason="Fast Downward checks need up-fast-downward "
                                                  "(pip install 'racbench[verify]')")
TASKS = ("projection", "executability", "planning", "goal_recognition")
GRIPPER = Path(__file__).resolve().parents[1] / "racbench" / "data" / "domains" / "gripper" / "domain.pddl"


# ACP families whose claims UP's simulator and plan validator decide, every form.
ACP_RECIPE = """
name: acp_verify
seed: 0
configs:
  - name: "{family}_{form}"
    for_each:
      family: [applicability, progression, executability, projection, validation,
               justification]
      form: [bool, mc, open]
    exclude: [{family: justification, form: mc}]
    domain: blocksworld
    length: 2
    problems: {train: [p01, p02, p03, p04, p05, p06], test: [p07, p08]}
    splits: {train: 4, test: 2}
  # blocksworld has too few actions removable in one plan and needed in another
  - name: justification_mc
    family: justification
    form: mc
    domain: logistics
    length: 2
    problems: {train: [p01, p02, p03, p04, p05, p06], test: [p07, p08]}
    splits: {train: 4, test: 2}
"""


@pytest.fixture(scope="module")
def trac(tmp_path_factory) -> Path:
    """One dataset folder with the four TRAC tasks (N = 2, 60 rows each), built by the CLI
    (click's runner in this process: five processes paid Python's, racbench's and
    pyarrow's start five times)."""
    work = tmp_path_factory.mktemp("trac")
    (work / "acp.yaml").write_text(ACP_RECIPE)
    commands = [["generate", task, "--length", "2", "-n", "60", "--out", str(work / task)]
                for task in TASKS]
    commands.append(["build", str(work / "acp.yaml"), "--out", str(work / "acp")])
    for command in commands:
        result = CliRunner().invoke(main, [*command, "--quiet", "--workers", "1"])
        assert result.exit_code == 0, (command, result.output, result.exception)
    root = work / "all"
    root.mkdir()
    for task in TASKS:
        shutil.copytree(work / task / f"{task}_L2", root / f"{task}_L2")
    shutil.copy(work / "projection" / "README.md", root / "README.md")
    return root


@pytest.fixture(scope="module")
def acp(trac) -> Path:
    """A small ACP dataset (6 families x 3 forms, blocksworld), built by the CLI."""
    return trac.parent / "acp"


def run(*args: str):
    result = CliRunner().invoke(main, ["verify", *(str(a) for a in args)])
    return result.exit_code, result.output


def copy_config(root: Path, config: str, dest: Path) -> Path:
    shutil.copytree(root / config, dest / config)
    return dest


def rewrite_row(path: Path, index: int, **changes) -> str:
    """Change columns of one row in place, keeping the schema (and its metadata)."""
    table = pq.read_table(path)
    rows = table.to_pylist()
    rows[index].update(changes)
    pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), path)
    return rows[index]["id"]


def test_simulator_claims_agree_on_every_row(trac):
    code, out = run(trac, "--configs", "projection_L2,executability_L2", "--jobs", "1",
                    "--quiet")
    assert code == 0, out
    assert "verified 120 rows in 2 configs: 0 mismatching" in out
    assert "label 120" in out and "answer 120" in out


def test_no_optimal_checks_planning_and_skips_goal_recognition(trac):
    code, out = run(trac, "--configs", "planning_L2,goal_recognition_L2", "--no-optimal",
                    "--jobs", "1", "--quiet")
    assert code == 0, out
    assert "verified 120 rows in 2 configs: 0 mismatching" in out
    assert "optimal_plan_length" not in out.split("skipped:")[0]
    assert "skipped:" in out and "no Fast Downward" in out


@needs_fd
def test_optimal_claims_agree_with_fast_downward(trac):
    code, out = run(trac, "--limit", "4", "--jobs", "2", "--quiet")
    assert code == 0, out
    assert "verified 16 rows in 4 configs: 0 mismatching" in out
    assert "optimal_plan_length 8" in out
    assert "skipped" not in out


def test_acp_dataset_agrees_in_every_form(acp):
    code, out = run(acp, "--jobs", "1", "--quiet", "--no-optimal", "--limit", "3")
    assert code == 0, out
    assert "verified 54 rows in 18 configs: 0 mismatching" in out
    assert "label 54" in out


def test_acp_corrupted_rows_are_reported(acp, tmp_path):
    root = tmp_path / "acp"
    for config in ("applicability_mc", "progression_open"):
        copy_config(acp, config, root)
    shard = root / "applicability_mc" / "train-00000-of-00001.parquet"
    row = pq.read_table(shard).slice(0, 1).to_pylist()[0]
    sym = json.loads(row["symbolic"])
    sym["answer"] = (sym["answer"] + 1) % len(sym["options"])
    rewrite_row(shard, 0, symbolic=json.dumps(sym), answer_index=sym["answer"],
                answer="ABCD"[sym["answer"]])
    shard = root / "progression_open" / "test-00000-of-00001.parquet"
    other = pq.read_table(shard).slice(1, 1).to_pylist()[0]
    sym = json.loads(other["symbolic"])
    sym["answer"] = sym["answer"][1:]
    rewrite_row(shard, 1, symbolic=json.dumps(sym))
    code, out = run(root, "--jobs", "1", "--quiet", "--no-optimal")
    assert code == 1, out
    bad = [line for line in out.splitlines() if line.startswith("MISMATCH")]
    assert len(bad) == 2, out
    assert row["id"] in bad[0] and "options that are correct" in bad[0]
    assert other["id"] in bad[1] and "changed facts: the answer misses" in bad[1]


def test_corrupted_label_is_reported_by_row_id(trac, tmp_path):
    root = copy_config(trac, "executability_L2", tmp_path)
    shard = root / "executability_L2" / "validation-00000-of-00001.parquet"
    metadata = pq.read_schema(shard).metadata
    table = pq.read_table(shard)
    row_id = rewrite_row(shard, 1, label=1 - table.column("label")[1].as_py())
    assert pq.read_schema(shard).metadata == metadata
    code, out = run(root, "--quiet", "--jobs", "1")
    assert code == 1, out
    bad = [line for line in out.splitlines() if line.startswith("MISMATCH")]
    assert len(bad) == 1, out
    assert row_id in bad[0] and "executability_L2/validation" in bad[0]
    assert "answer: stored" in bad[0] and "label column" in bad[0]
    assert "1 mismatching" in out


def test_corrupted_symbolic_answer_alone_is_reported(trac, tmp_path):
    root = copy_config(trac, "projection_L2", tmp_path)
    shard = root / "projection_L2" / "train-00000-of-00001.parquet"
    row = pq.read_table(shard).slice(3, 1).to_pylist()[0]
    sym = json.loads(row["symbolic"])
    sym["answer"] = not sym["answer"]
    rewrite_row(shard, 3, symbolic=json.dumps(sym))
    code, out = run(root, "--quiet", "--jobs", "1", "--limit", "10")
    assert code == 1, out
    assert f"{row['id']}: answer: stored" in out


@needs_fd
def test_wrong_optimal_plan_length_is_reported(trac, tmp_path):
    root = copy_config(trac, "planning_L2", tmp_path)
    shard = root / "planning_L2" / "train-00000-of-00001.parquet"
    row = pq.read_table(shard).slice(0, 1).to_pylist()[0]
    rewrite_row(shard, 0, optimal_plan_length=row["optimal_plan_length"] + 1)
    code, out = run(root, "--quiet", "--jobs", "1", "--limit", "2")
    assert code == 1, out
    assert f"{row['id']}: optimal_plan_length: stored {row['optimal_plan_length'] + 1}, " \
           f"re-derived {row['optimal_plan_length']}" in out


def test_not_a_dataset_exits_2_with_one_line(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.txt").write_text("hello")
    for folder in (tmp_path, tmp_path / "missing"):
        code, out = run(folder)
        assert code == 2, out
        lines = out.strip().splitlines()
        assert len(lines) == 1 and "not a racbench dataset" in lines[0], out
    other = tmp_path / "other" / "cfg"
    other.mkdir(parents=True)
    pq.write_table(pa.table({"text": ["x"], "label": [0]}), other / "train-00000-of-00001.parquet")
    code, out = run(tmp_path / "other")
    assert code == 2 and "no 'symbolic' column" in out, out


def test_unknown_config_exits_2(trac):
    code, out = run(trac, "--configs", "projection_L9")
    assert code == 2 and "projection_L9" in out and "available: executability_L2" in out, out


def test_missing_fast_downward_is_said_once_and_not_an_error(trac, monkeypatch):
    monkeypatch.setattr(verify_rows, "fd_available", lambda: False)
    code, out = run(trac, "--configs", "planning_L2", "--limit", "4", "--jobs", "1",
                    "--quiet")
    assert code == 0, out
    assert out.count("Fast Downward (up-fast-downward) is not installed") == 1
    code, out = run(trac, "--configs", "planning_L2", "--require-optimal")
    assert code == 2 and "not installed" in out


def test_missing_unified_planning_exits_2(trac, monkeypatch):
    monkeypatch.setattr(verify_rows, "up_available", lambda: False)
    code, out = run(trac, "--limit", "2")
    assert code == 2 and "needs unified-planning" in out and "racbench[verify]" in out


def test_verify_dataset_api_counts_rows_per_config(trac):
    report = verify_dataset(trac, limit=7, configs=["executability_L2"], optimal=False)
    assert report.ok and report.rows == {"executability_L2": 7}
    assert report.checked["label"] == 7


# -- rows directly --------------------------------------------------------

BLOCKS = ["a", "b", "c"]
INIT = [["clear", "a"], ["on", "a", "b"], ["ontable", "b"], ["clear", "c"], ["ontable", "c"]]


def trac_row(family: str, label: bool, query=None, **sym) -> dict:
    """A TRAC row as the families write it: their symbolic form on TRAC's blocksworld
    (projection's subject is the queried conjunction)."""
    from racbench.worlds.strips.shipped import trac_domain_file

    symbolic = {"family": family, "form": "bool", "domain": "blocksworld",
                "domain_pddl": Path(trac_domain_file()).read_text(encoding="utf-8"),
                "objects": {b: "block" for b in BLOCKS}, "state": INIT, "subject": query,
                "answer": label, **sym}
    return {"id": "r", "family": family, "form": "bool", "label": int(label),
            "answer": "true" if label else "false", "symbolic": json.dumps(symbolic),
            "n_objects": 3, "optimal_plan_length": None}


def test_verify_row_trac_semantics():
    move = [["move", "a", "b", "c"]]
    assert verify_row(trac_row("executability", True, actions=move)).ok
    bad = verify_row(trac_row("executability", True, actions=[["move", "b", "a", "c"]]))
    assert not bad.ok and "action 1 move(b, a, c) is not applicable" in bad.message
    on_c = [{"atom": ["on", "a", "c"], "positive": True},
            {"atom": ["clear", "b"], "positive": True}]
    assert verify_row(trac_row("projection", True, actions=move, query=on_c)).ok
    assert not verify_row(trac_row("projection", False, actions=move, query=on_c)).ok
    assert verify_row(trac_row("planning", True, actions=move, goal=on_c)).ok
    assert verify_row(trac_row("planning", False, actions=[["movetotable", "a", "b"]],
                               goal=on_c)).ok


def test_verify_row_reports_broken_symbolic():
    row = trac_row("executability", True, actions=[["fly", "a"]])
    check = verify_row(row)
    assert not check.ok and "unknown action fly" in check.message
    check = verify_row({"id": "x", "label": 1, "symbolic": "{}"})
    assert not check.ok and "not a racbench row" in check.message


@needs_fd
def test_verify_row_goal_recognition_with_fast_downward():
    goal = [{"atom": ["on", "a", "c"], "positive": True}]
    prefix = trac_row("goal_recognition", True, actions=[["move", "a", "b", "c"]], goal=goal)
    prefix["optimal_plan_length"] = 1
    check = verify_row(prefix)
    assert check.ok and "optimal_plan_length" in check.checked, check
    detour = trac_row("goal_recognition", True, actions=[["movetotable", "a", "b"]], goal=goal)
    check = verify_row(detour)
    assert not check.ok and "goal_recognition of the actions movetotable(a, b)" in check.message


# -- ACP rows (hand-written, in the shape racbench/acp/ writes) -------------

GRIPPER_OBJECTS = {"room1": "room", "room2": "room", "ball1": "ball", "ball2": "ball",
                   "left": "gripper", "right": "gripper"}
GRIPPER_STATE = [["robot-at", "room1"], ["free", "left"], ["free", "right"],
                 ["at", "ball1", "room2"], ["at", "ball2", "room1"]]
GRIPPER_GOAL = [{"atom": ["at", "ball1", "room1"], "positive": True},
                {"atom": ["at", "ball2", "room1"], "positive": True}]
PLAN = [["move", "room1", "room2"], ["pick", "ball1", "room2", "left"],
        ["move", "room2", "room1"], ["drop", "ball1", "room1", "left"]]


def acp_row(family: str, form: str, answer, **sym) -> dict:
    """A row shaped like racbench/tasks/rows.py writes them."""
    symbolic = {"family": family, "form": form, "domain": "gripper",
                "domain_pddl": GRIPPER.read_text(), "problem": "p01",
                "objects": GRIPPER_OBJECTS, "state": GRIPPER_STATE, "goal": GRIPPER_GOAL,
                "subject": None, "answer": answer, **sym}
    if form == "bool":
        columns = {"label": int(answer), "answer": "true" if answer else "false",
                   "answer_index": -1}
    elif form == "mc":
        columns = {"label": -1, "answer": "ABCD"[answer], "answer_index": answer}
    else:
        columns = {"label": -1, "answer": json.dumps(answer), "answer_index": -1}
    return {"id": f"{family}-{form}", "family": family, "form": form,
            "optimal_plan_length": None, "symbolic": json.dumps(symbolic), **columns}


ACP_SIMULATOR_CASES = [
    ("applicability", "bool", True, {"subject": ["pick", "ball2", "room1", "left"]}),
    ("applicability", "bool", False, {"subject": ["pick", "ball1", "room1", "left"]}),
    ("applicability", "mc", 1, {"options": [["pick", "ball1", "room1", "left"],
                                            ["move", "room1", "room2"],
                                            ["drop", "ball2", "room1", "left"]]}),
    ("applicability", "open", [["move", "room1", "room2"], ["pick", "ball2", "room1", "left"],
                               ["pick", "ball2", "room1", "right"]], {}),
    ("progression", "bool", False, {"actions": [["pick", "ball2", "room1", "left"]],
                                    "subject": ["free", "left"]}),
    ("progression", "mc", 1, {"actions": [["move", "room1", "room2"]],
                              "options": [["robot-at", "room1"], ["robot-at", "room2"]]}),
    ("progression", "open", [{"atom": ["robot-at", "room2"], "positive": True},
                             {"atom": ["robot-at", "room1"], "positive": False}],
     {"actions": [["move", "room1", "room2"]]}),
    ("executability", "bool", False, {"actions": PLAN[1:]}),
    ("executability", "open", 1, {"actions": PLAN[1:]}),
    ("projection", "bool", True, {"actions": PLAN[:2],
                                  "subject": {"atom": ["free", "left"], "positive": False}}),
    ("projection", "open", [["carry", "ball1", "left"]], {"actions": PLAN[:2],
                                                          "subject": "carry"}),
    ("validation", "bool", True, {"actions": PLAN}),
    ("validation", "bool", False, {"actions": PLAN[:3]}),
    ("validation", "mc", 0, {"options": [PLAN, PLAN[:3]]}),
    ("justification", "bool", True, {"actions": PLAN + PLAN[:1], "subject": 4}),
    ("justification", "bool", False, {"actions": PLAN + PLAN[:1], "subject": 3}),
    ("justification", "open", [5], {"actions": PLAN + PLAN[:1]}),
]
ACP_FD_CASES = [
    ("reachability", "bool", True, {"subject": [["carry", "ball1", "right"]]}),
    ("reachability", "bool", False, {"subject": [["robot-at", "room1"]]}),  # true now
    ("reachability", "mc", 0, {"options": [[["carry", "ball1", "right"]],
                                           [["at", "ball2", "room1"]]]}),
    ("reachability", "open", PLAN[:2], {"subject": [["carry", "ball1", "left"]]}),
    ("action_reachability", "bool", True, {"subject": [["drop", "ball1", "room1", "right"]]}),
    ("action_reachability", "bool", False, {"subject": [["move", "room1", "room1"]]}),
    ("action_reachability", "bool", False, {"subject": [["move", "room2", "room1"],
                                                        ["move", "room1", "room2"]]}),
    ("action_reachability", "open", PLAN[:1], {"subject": [["move", "room2", "room1"]]}),
    ("landmarks", "bool", True, {"subject": ["robot-at", "room2"]}),
    ("landmarks", "bool", False, {"subject": ["carry", "ball1", "left"]}),
    ("next_action", "bool", True, {"subject": ["move", "room1", "room2"]}),
    ("next_action", "mc", 1, {"options": [["pick", "ball2", "room1", "left"],
                                          ["move", "room1", "room2"]]}),
    ("next_action", "open", [["move", "room1", "room2"]], {}),
    ("goal_recognition", "bool", True, {"actions": [["move", "room1", "room2"]]}),
    ("planning", "open", PLAN, {}),
    ("plan_generation", "open", PLAN, {}),
]


def _flip(answer, form):
    if form == "bool":
        return not answer
    if form == "mc":
        return 1 - answer
    if isinstance(answer, int):
        return answer + 1
    return answer[:-1]


@pytest.mark.parametrize("family,form,answer,sym", ACP_SIMULATOR_CASES,
                         ids=[f"{c[0]}-{c[1]}-{c[2] if c[1] == 'bool' else ''}"
                              for c in ACP_SIMULATOR_CASES])
def test_acp_simulator_families(family, form, answer, sym):
    check = verify_row(acp_row(family, form, answer, **sym), optimal=False)
    assert check.ok and "label" in check.checked, check
    wrong = verify_row(acp_row(family, form, _flip(answer, form), **sym), optimal=False)
    assert not wrong.ok and "label" in wrong.message, wrong


@needs_fd
def test_acp_fast_downward_families():
    for family, form, answer, sym in ACP_FD_CASES:
        check = verify_row(acp_row(family, form, answer, **sym), optimal=True)
        assert check.ok and "label" in check.checked, (family, check)
        wrong = verify_row(acp_row(family, form, _flip(answer, form), **sym), optimal=True)
        assert not wrong.ok, (family, wrong)


def test_acp_without_fast_downward_or_checker_is_skipped_not_failed():
    check = verify_row(acp_row("landmarks", "bool", True, subject=["robot-at", "room2"]),
                       optimal=False)
    assert check.ok and check.skipped == ["label (no Fast Downward)"]
    check = verify_row(acp_row("mystery", "bool", True, subject=[]), optimal=False)
    assert check.ok and "no bool checker for ACP family mystery" in check.skipped[0]


def test_problem_pddl_parses_to_the_same_initial_state():
    from unified_planning.io import PDDLReader

    from racbench.worlds.strips.shipped import trac_domain_file

    domain = Path(trac_domain_file()).read_text(encoding="utf-8")
    text = verification.problem_pddl(BLOCKS, INIT, [{"atom": ["on", "a", "c"], "positive": True}])
    prob = PDDLReader().parse_problem_string(domain, text)
    engine = verification.Engine(optimal=False)
    built = engine.problem(domain, {b: "block" for b in BLOCKS}, INIT)
    true = {str(k) for k, v in prob.initial_values.items() if v.is_true()}
    assert true == {str(k) for k, v in built.initial_values.items() if v.is_true()}


def test_science_lab_rows_are_replayed_in_a_fresh_simulator():
    """No door to the kitchen at the start of boil 1 (ScienceWorld's: the art studio, whose
    one door leads to the hallway)."""
    sym = {"world": "science", "family": "applicability", "form": "bool", "answer": True,
           "task": "boil", "variation": 1, "simplifications": "", "history": [],
           "subject": ["open door to kitchen"]}
    row = {"id": "lab-train-000000", "label": 1, "symbolic": json.dumps(sym)}
    check = verify_row(row, optimal=False)
    assert not check.ok and "label" in check.checked and "re-derived false" in check.message
    sym.update(answer=False, subject=["open door to hallway"])
    check = verify_row({**row, "label": 0, "symbolic": json.dumps(sym)}, optimal=False)
    assert not check.ok and "re-derived true" in check.message
    sym["answer"] = True
    assert verify_row({**row, "symbolic": json.dumps(sym)}, optimal=False).ok


# -- domains unified-planning's reader refuses ------------------------------------------

def _fresh_engine(monkeypatch) -> None:
    """No domain read by an earlier test stays cached in this process's engine."""
    monkeypatch.setattr(verify_rows, "_ENGINE", None)


def _up_reader_refuses(monkeypatch) -> None:
    from unified_planning.io import PDDLReader

    def refuse(self, *args, **kwargs):
        raise SyntaxError("refused for the test")
    monkeypatch.setattr(PDDLReader, "parse_problem_string", refuse)


def test_a_domain_ups_reader_refuses_is_checked_through_racbench_model(tmp_path, monkeypatch):
    """A competition-style domain whose :types names a type twice: UP's reader refuses
    it, racbench reads it, and the rows are still checked (through UP's API, from
    racbench's model), with Fast Downward too: none is a mismatch or unchecked."""
    import racbench

    _fresh_engine(monkeypatch)
    text = GRIPPER.read_text()
    start = text.index("(:types") + len("(:types")
    domain = tmp_path / "gripper-twice.pddl"
    domain.write_text(text[:start] + " room" + text[start:])
    problems = [str(GRIPPER.parent / "problems" / f"p0{i}.pddl") for i in (1, 2)]
    rows = (racbench.generate("applicability", domain_file=domain, problem=problems, n=6)
            + racbench.generate("next_action", domain_file=domain, problem=problems, n=6,
                                form="mc"))
    for row in rows:
        check = verify_row(row, optimal=HAVE_FD)
        assert check.ok and not check.unchecked and check.checked, (row["id"], check)


def test_the_model_translation_agrees_with_ups_reader_on_every_row(acp, monkeypatch):
    """Every row of the ACP fixture (six families, three forms) checked with domains
    built from racbench's model instead of UP's reader: the same verdicts."""
    _fresh_engine(monkeypatch)
    _up_reader_refuses(monkeypatch)
    report = verify_dataset(acp, optimal=HAVE_FD, jobs=1)
    assert sum(report.rows.values()) > 50
    assert not report.mismatches and not report.unchecked, report.summary()


def test_rows_no_engine_can_run_on_are_unchecked_never_mismatching(acp, monkeypatch):
    from racbench.checks.verify import fd_search, translate

    _fresh_engine(monkeypatch)
    _up_reader_refuses(monkeypatch)

    def untranslatable(domain):
        raise translate.Untranslatable("a construct for the test")
    monkeypatch.setattr(translate, "up_domain", untranslatable)
    # Fast Downward's translator takes the rows unified-planning refuses ...
    report = verify_dataset(acp, configs=["applicability_bool"], optimal=False, jobs=1,
                            limit=6)
    assert report.mismatches == [] and report.unchecked_rows == 0, report.summary()
    assert report.engines == {"fd-stepper": 6}, report.engines
    assert "checked 6 rows (by engine: fd-stepper 6)" in report.summary()
    # ... and without it, no engine can run on them
    monkeypatch.setattr(fd_search, "TRANSLATOR_MODULE", "racbench_no_such_translator")
    report = verify_dataset(acp, configs=["applicability_bool"], optimal=False, jobs=1)
    assert report.mismatches == []
    assert sum(report.unchecked.values()) == sum(report.rows.values()) > 0
    assert "unchecked" in report.summary() and "a construct for the test" in report.summary()
    assert report.exit_code == 1  # nothing was checked: the run proves nothing
    report.require_checked = True
    assert report.exit_code == 3



def test_a_row_the_checkers_own_code_fails_on_is_unchecked_never_mismatching(monkeypatch):
    """A next_action row of the competition's logistics00 (problem 6-0, answered by search):
    unified-planning's grounder raises a ValueError of its own on it (list.remove in
    _purge_items_list), which says the checker could not run, not that the row is wrong."""
    _fresh_engine(monkeypatch)
    path = Path(__file__).resolve().parent / "data" / "verify" / "logistics00-next-action-open.json"
    row = json.loads(path.read_text())
    check = verify_row(row, optimal=False)
    assert check.ok, check
    assert not check.unchecked or check.unchecked.startswith("ValueError in an engine"), check
    broken = {**row, "symbolic": json.dumps({**json.loads(row["symbolic"]), "state": 7})}
    assert not verify_row(broken, optimal=False).ok  # our own reading of a bad row still fails

IMPLICIT_RECIPE = """
name: implicit
seed: 3
configs:
  - name: "ferry_{family}_{form}"
    for_each: {family: [next_action, landmarks, justification, validation, reachability,
                        plan_generation], form: [bool, mc, open]}
    exclude: [{family: justification, form: mc}, {family: landmarks, form: mc},
              {family: reachability, form: bool}, {family: reachability, form: mc}]
    domain: ferry
    length: 2
    problems: {test: [p05]}
    splits: {test: 4}
"""


@needs_fd
def test_rows_answered_by_search_agree_with_unified_planning_and_fast_downward(tmp_path):
    """Rows of problems beyond the enumeration limit (here lowered so a small problem
    goes that way): answers by bounded search, re-derived by the independent engines."""
    (tmp_path / "implicit.yaml").write_text(IMPLICIT_RECIPE)
    out = tmp_path / "implicit"
    built = CliRunner().invoke(main, ["build", str(tmp_path / "implicit.yaml"), "--out",
                                      str(out), "--quiet", "--workers", "1",
                                      "--max-enumerated-states", "20"])  # in this process
    assert built.exit_code == 0, (built.output, built.exception)
    code, text = run(out, "--jobs", "1", "--quiet")
    assert code == 0, text
    assert "verified 48 rows in 12 configs: 0 mismatching" in text
    assert "optimal_plan_length" in text
