"""Next-observation rows (racbench/tasks/next_observation.py): answers re-derived by
replaying the rows in fresh environments, JECC's distractors, horizons, splits by
unseen tasks, byte-identical builds and recipe errors. Tiny scales: CI's budget."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import racbench
from racbench.cli import main
from racbench.checks.verify.dataset import verify_row
from racbench.suites.recipe import RecipeError, parse_recipe
from racbench.tasks.next_observation import LETTERS, NextObservationConfig
from racbench.worlds.strips.world import domain_text

RECIPE = """
name: nobs-tiny
seed: 3
configs:
  - name: lab_h2
    family: next_observation
    science: boil
    horizon: 2
    history: 2
    distractors: 5
    splits: {train: 8, test: 4}
  - name: unseen
    family: next_observation
    form: bool
    tasks: {train: [boil], test: [melt]}
    distractors: 3
    splits: {train: 4, test: 4}
  - name: strips_h3
    family: next_observation
    domain: logistics
    problems: {train: [p01], test: [p13]}
    horizon: 3
    distractors: 3
    splits: {train: 4, test: 4}
"""


def _rows(cfg: NextObservationConfig, split: str, n: int) -> list[dict]:
    gen = cfg.rows("t", 1, ("train", "test"))
    return [gen.row(split, i, i).columns for i in range(n)]


@pytest.mark.parametrize("cfg", [NextObservationConfig(science="boil", distractors=7, horizon=1),
                                 NextObservationConfig(science="boil", form="bool", horizon=2,
                                                       distractors=3),
                                 NextObservationConfig(domain="logistics", distractors=3,
                                                       horizon=2),
                                 NextObservationConfig(rules="rtfm", distractors=3, horizon=4,
                                                       rule_options=(("episodes", 5),)),
                                 NextObservationConfig(rules="messenger", form="bool",
                                                       distractors=2, rule_options=(
                                                           ("episodes", 5), ("overlap", False))),
                                 # few distinct observations a state: fewer options (recipe)
                                 NextObservationConfig(domain="blocksworld", distractors=2),
                                 NextObservationConfig(domain="ferry", distractors=1, horizon=3),
                                 NextObservationConfig(domain="visitall", distractors=1)],
                         ids=["lab", "lab-bool", "strips", "rules", "rules-bool",
                              "blocksworld", "ferry-h3", "visitall"])
def test_rows_replay_with_distinct_distractors_of_other_actions(cfg):
    for row in _rows(cfg, "test", 6):
        sym = json.loads(row["symbolic"])
        check = verify_row(row)
        assert check.ok and "option command valid" in check.checked, check.detail
        assert len(set(sym["options"])) == len(sym["options"]) == cfg.distractors + 1
        assert len(set(map(json.dumps, sym["option_actions"]))) == cfg.distractors + 1
        assert row["sequence_length"] == len(sym["actions"]) == cfg.horizon
        assert json.loads(row["metadata"])["n_options"] == cfg.distractors + 1
        assert racbench.score(row, f"I think the answer is ({row['answer']}).").value == 1.0
        if cfg.form == "mc":
            assert row["choices"] == sym["options"] and row["answer_index"] == sym["answer"]
            assert sym["option_actions"][sym["answer"]] == sym["actions"][-1]
        else:
            assert row["label"] == int(sym["answer"]) and row["choices"] == []


def test_rule_world_rows_draw_episodes_of_their_split_only():
    cfg = NextObservationConfig(rules="rtfm", distractors=3, rule_options=(("episodes", 5),))
    for split in ("train", "test"):
        rows = _rows(cfg, split, 8)
        assert {r["problem"].split("-")[1] for r in rows} == {split}
        sym = json.loads(rows[0]["symbolic"])
        assert sym["world"] == "rules" and sym["episode"] == rows[0]["problem"]
        assert "Manual: " in rows[0]["context"]


def test_unseen_tasks_share_no_task_between_splits():
    cfg = NextObservationConfig(tasks={"train": ("boil", "melt"), "test": ("freeze",)})
    train = {item[1] for item in cfg.items("train")}
    test = {item[1] for item in cfg.items("test")}
    assert train == {"boil", "melt"} and test == {"freeze"}
    assert {r["problem"].rsplit("-", 1)[0] for r in _rows(cfg, "test", 4)} == {"freeze"}


def test_build_is_byte_identical_whatever_workers_and_hash_seed_and_verifies(tmp_path,
                                                                            competition_pddl):
    logistics = competition_pddl / "logistics00"  # and a user's files (paths as written)
    recipe = tmp_path / "r.yaml"
    recipe.write_text(RECIPE + f"""
  - name: user_h2
    family: next_observation
    domain_file: {logistics / 'domain.pddl'}
    problems: {{train: [{logistics / 'probLOGISTICS-4-0.pddl'}],
                test: [{logistics / 'probLOGISTICS-4-1.pddl'}]}}
    horizon: 2
    distractors: 3
    splits: {{train: 8, test: 4}}
""")
    one = racbench.build(str(recipe), tmp_path / "one", workers=1)
    two = tmp_path / "two"  # two workers, another hash seed
    subprocess.run([sys.executable, "-m", "racbench.cli", "build", str(recipe), "--out", str(two),
                    "--workers", "2", "--quiet"], check=True,
                   env={**os.environ, "PYTHONHASHSEED": "1"})
    files = sorted(p.relative_to(one) for p in one.rglob("*.parquet"))
    assert len(files) == 8
    assert all((one / f).read_bytes() == (two / f).read_bytes() for f in files)
    out = CliRunner().invoke(main, ["verify", str(one)])  # in this process: no start to pay
    assert out.exit_code == 0 and "0 mismatching" in out.output, (out.output, out.exception)


@pytest.mark.parametrize("change", [
    ("    horizon: 2", "    horizon: 7") + ("'horizon' must be between 1 and 5",),
    ("    distractors: 5", "    distractors: 16") + ("'distractors' must be between 1 and 15",),
    ("test: [melt]", "test: [boil]") + ("in both 'train' and 'test'",),
    ("    history: 2", "    history: 2\n    length: 3") + ("unknown key 'length'",),
    ("    science: boil", "    rules: rtfm\n    rule_options: {grid: 2}")
    + ("rule option 'grid' of rtfm must be an integer from 3 to 8, got 2",),
    ("    science: boil", "    rules: rtfm\n    simplifications: easy")
    + ("a rule world takes 'rule_options'",),
    ("    science: boil", "    rule_options: {grid: 4}")
    + ("a next_observation config names one world",),
])
def test_bad_recipe_values_exit_2_naming_the_field(tmp_path, change):
    old, new, expected = change
    text = RECIPE.replace(old, new, 1)
    with pytest.raises(RecipeError, match=re.escape(expected)):
        parse_recipe(text, "bad.yaml")
    if change[0].strip() == "horizon: 2":  # and the CLI: exit 2, nothing written
        recipe = tmp_path / "bad.yaml"
        recipe.write_text(text)
        out = subprocess.run([sys.executable, "-m", "racbench.cli", "build", str(recipe),
                              "--out", str(tmp_path / "o")], capture_output=True, text=True)
        assert out.returncode == 2 and expected in out.stderr, out.stderr
        assert not Path(tmp_path / "o").exists()


# -- a user's PDDL: competition files through domain_file and problems -----------------------

LARGE = Path(__file__).parent / "data" / "pddl_large" / "gripper-30.pddl"  # see its README
GRIPPER = Path(__file__).parent / "data" / "pddl" / "gripper" / "domain.pddl"


def _user_recipe(pddl: Path, gripper: Path = GRIPPER, large: Path = LARGE) -> str:
    """Competition blocks (small, from `pddl`) and gripper with 30 balls (over 10^8
    states)."""
    blocks = pddl / "blocks"
    return f"""
configs:
  - name: blocks_mc
    family: next_observation
    domain_file: {blocks / 'domain.pddl'}
    problems: {{train: [{blocks / 'probBLOCKS-4-0.pddl'}, {blocks / 'probBLOCKS-4-1.pddl'}],
                test: [{blocks / 'probBLOCKS-5-0.pddl'}]}}
    distractors: 2
    horizon: 2
    splits: {{train: 16, test: 8}}
  - name: gripper30_bool
    family: next_observation
    form: bool
    domain_file: {gripper}
    problems: {{test: [{large}]}}
    distractors: 3
    splits: {{test: 24}}
"""


def _stepped_from_files(domain_file: Path, problem_file: Path, row: dict) -> None:
    """The row's window, options and answer, re-derived by stepping the task grounded
    from the user's files (not the row's stored domain text, not the generator's
    situation) from the window's first state the row stores."""
    from racbench.text.phrasing import TaskText
    from racbench.worlds.strips.grounding import ground
    from racbench.worlds.strips.pddl_reader import load_domain, load_problem
    from racbench.worlds.strips.world import observation
    from racbench.tasks.next_observation import one_line
    domain = load_domain(domain_file)
    task = ground(domain, load_problem(problem_file, domain))
    text = TaskText(domain)
    sym = json.loads(row["symbolic"])
    index = {tuple(a): i for i, a in enumerate(task.atoms)}
    state = sum(1 << index[tuple(a)] for a in sym["state"] if tuple(a) in index)
    by_term = {tuple(a.term): k for k, a in enumerate(task.actions)}

    def said(bits, term):
        a = task.actions[by_term[tuple(term)]]
        if not a.applicable(bits):
            return bits, one_line(observation(task, None, None, text))
        after = a.apply(bits)
        return after, one_line(observation(task, bits, after, text))

    for term, stored in sym["window"]:
        state, seen = said(state, term)
        assert seen == stored
    for term in sym["actions"][:-1]:
        assert task.actions[by_term[tuple(term)]].applicable(state)
        state = task.actions[by_term[tuple(term)]].apply(state)
    for option, term in zip(sym["options"], sym["option_actions"]):
        assert task.actions[by_term[tuple(term)]].applicable(state)
        assert said(state, term)[1] == option
    truth = said(state, sym["actions"][-1])[1]
    if row["form"] == "mc":
        assert row["choices"][row["answer_index"]] == truth
        assert row["answer"] == LETTERS[row["answer_index"]]
    else:
        assert row["label"] == int(sym["subject"] == truth)
        assert row["answer"] == ("true" if row["label"] else "false")
    meta = json.loads(row["metadata"])
    assert meta["problem_file"] == row["problem"] == problem_file.stem


def test_competition_files_build_through_the_cli_and_answers_step_true(tmp_path, monkeypatch,
                                                                      competition_pddl):
    datasets = pytest.importorskip("datasets")
    # paths relative to the recipe's folder, as for every family, and run from a folder
    # where they would name nothing
    recipe = tmp_path / "recipes" / "user.yaml"
    recipe.parent.mkdir()
    recipe.write_text(_user_recipe(*(Path(os.path.relpath(p, recipe.parent))
                                     for p in (competition_pddl, GRIPPER, LARGE))))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the CLI through click's runner, in this process
    out = CliRunner().invoke(main, ["build", str(recipe), "--out", str(tmp_path / "ds"),
                                    "--quiet"])
    assert out.exit_code == 0, (out.output, out.exception)
    files = {"blocks_mc": {"train": ("probBLOCKS-4-0", "probBLOCKS-4-1"),
                           "test": ("probBLOCKS-5-0",)},
             "gripper30_bool": {"test": ("gripper-30",)}}
    for config, splits in files.items():
        domain_file = competition_pddl / ("blocks" if "blocks" in config else "gripper") \
            / "domain.pddl"
        for split, stems in splits.items():
            rows = datasets.load_dataset(str(tmp_path / "ds"), config, split=split)
            assert len(rows) and {r["problem"] for r in rows} <= set(stems)
            for row in rows:
                # the PDDL's own name, (domain blocksworld), not the folder's ("blocks")
                assert row["domain"] == domain_text(domain_file)[1].name
                problem = LARGE if row["problem"] == "gripper-30" else \
                    competition_pddl / "blocks" / f"{row['problem']}.pddl"
                _stepped_from_files(domain_file, problem, row)
    check = CliRunner().invoke(main, ["verify", str(tmp_path / "ds"), "--no-optimal"])
    assert check.exit_code == 0 and "0 mismatching" in check.output, (check.output,
                                                                       check.exception)


def test_a_problem_past_10_8_states_is_stepped_never_enumerated(competition_pddl):
    from racbench.worlds.strips import world as strips_world
    enumerations = strips_world._world.cache_info().misses  # every enumeration tried
    cfg = NextObservationConfig(form="mc", distractors=3,
                                domain_file=str(competition_pddl / "gripper" / "domain.pddl"),
                                problems={"test": (str(LARGE),)}).validate()
    gen = cfg.rows("large", 5, ("test",))
    rows = [gen.row("test", i, i).columns for i in range(32)]
    assert strips_world._world.cache_info().misses == enumerations  # none even tried
    assert {json.loads(r["metadata"])["trajectory"] for r in rows} == {"gold", "explore"}
    assert len({r["symbolic"] for r in rows}) == len(rows)  # no two rows alike
    for row in rows:
        assert verify_row(row).ok


def test_gold_path_of_a_large_problem_reaches_its_goal(competition_pddl):
    from racbench.worlds.strips.world import stepping_world
    world = stepping_world(competition_pddl / "gripper" / "domain.pddl", LARGE)
    plan = world.plan_within_budget(world.initial)  # breadth-first runs out: greedy path
    state = world.initial
    for action in plan:
        state = world.step(state, action)
    assert plan and world.at_goal(state)
    small = stepping_world(competition_pddl / "gripper" / "domain.pddl",
                           competition_pddl / "gripper" / "prob01.pddl")
    assert len(small.plan_within_budget(small.initial)) == 11  # shortest, as Fast Downward's


@pytest.mark.parametrize("change, expected", [
    (("{blocks}/domain.pddl\n", "{blocks}/nowhere.pddl\n"),
     "'domain_file' {blocks}/nowhere.pddl not found"),
    (("probBLOCKS-5-0.pddl", "probBLOCKS-9-9.pddl"),
     "problem file {blocks}/probBLOCKS-9-9.pddl in 'test' of 'problems' not found"),
    (("probBLOCKS-5-0.pddl", "broken.pddl"), "broken.pddl:2:"),
    (("{blocks}/domain.pddl\n", "{blocks}/broken-domain.pddl\n"), "broken-domain.pddl:1:"),
    (("    distractors: 2", "    distractors: 2\n    domain: blocksworld"),
     "a next_observation config names one world: 'science'"),
    (("    domain_file: {blocks}/domain.pddl", "    domain: blocksworld"),
     "'problems' of shipped domain blocksworld are its problem names"),
    (("    problems: {train", "    problem_file: x.pddl\n    problems: {train"),
     "unknown key 'problem_file'"),
    (("    splits: {test: 24}", "    splits: {train: 2, test: 24}"),
     "'problems' lists no problem files for split 'train'"),
    (("probBLOCKS-5-0.pddl", "probBLOCKS-4-0.pddl"),
     "'{blocks}/probBLOCKS-4-0.pddl' is in both 'train' and 'test' of 'problems'"),
])
def test_bad_user_pddl_exits_2_naming_the_field_or_file(tmp_path, competition_pddl, change,
                                                        expected):
    blocks = tmp_path / "blocks"  # a copy: the broken file sits beside the good ones
    blocks.mkdir()
    for f in (competition_pddl / "blocks").glob("*.pddl"):
        (blocks / f.name).write_bytes(f.read_bytes())
    (blocks / "broken.pddl").write_text("(define (problem x) (:domain BLOCKS)\n (:objects a b\n")
    (blocks / "broken-domain.pddl").write_text("(define (domain BLOCKS) (:action)")
    text = _user_recipe(tmp_path)
    old, new = (c.replace("{blocks}", str(blocks)) for c in change)
    assert old in text
    recipe = tmp_path / "bad.yaml"
    recipe.write_text(text.replace(old, new, 1))
    # click's runner in this process (the console script's code path, as
    # tests/test_bad_input.py runs it): a process each would pay Python's, racbench's and
    # pyarrow's start; test_bad_recipe_values_exit_2_naming_the_field runs the real CLI
    out = CliRunner().invoke(main, ["build", str(recipe), "--out", str(tmp_path / "o")])
    assert out.exit_code == 2, (out.stderr, out.exception)
    assert expected.replace("{blocks}", str(blocks)) in out.stderr, out.stderr
    assert "Traceback" not in out.output and not (tmp_path / "o").exists()
