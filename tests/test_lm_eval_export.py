"""`racbench export lm-eval`: the task YAMLs run in the real lm-evaluation-harness, offline,
on a small real build: with lm-eval's built-in dummy model through its CLI (every reply
"lol": nothing parsed, score 0), and through its Python API with a model that answers
every prompt with the row's answer (score 1: the prompts are the rows' and the scoring
is racbench.score's)."""

import glob
import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import datasets
import pytest
from click.testing import CliRunner

from racbench.cli import main

RECIPE = """
name: lm-eval-tiny
seed: 6
configs:
  - name: proj
    task: projection
    objects: 4
    splits: {train: 12, test: 8}
  - name: ferry_app_mc
    family: applicability
    domain: ferry
    form: mc
    problems: {train: [p04, p05, p06], test: [p07, p08]}
    splits: {train: 8, test: 4}
  - name: ferry_progression_open
    family: progression
    domain: ferry
    form: open
    problems: {train: [p04, p05, p06], test: [p07, p08]}
    splits: {train: 4, test: 4}
"""
OFFLINE = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1",
               TOKENIZERS_PARALLELISM="false")
TASKS = ["racbench_lm_eval_tiny_proj", "racbench_lm_eval_tiny_ferry_app_mc",
         "racbench_lm_eval_tiny_ferry_progression_open"]


def racbench(*args, check=True):
    """racbench's CLI through click's runner in this process (the console script's code
    path: its exit codes and messages): a process a call paid Python's, racbench's and
    pyarrow's start. lm-eval itself runs in processes of its own below."""
    result = CliRunner().invoke(main, [str(a) for a in args])
    if check:
        assert result.exit_code == 0, (args, result.output, result.exception)
    return SimpleNamespace(returncode=result.exit_code, stdout=result.stdout,
                           stderr=result.stderr)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    root = tmp_path_factory.mktemp("lm_eval")
    (root / "recipe.yaml").write_text(RECIPE)
    racbench("build", root / "recipe.yaml", "--out", root / "data", "--workers", 1, "--quiet")
    proc = racbench("export", "lm-eval", root / "data", "--out", root / "tasks")
    assert "racbench_lm_eval_tiny" in proc.stdout
    return root


def test_export_writes_a_task_per_config_a_group_and_the_scorer(exported):
    files = sorted(p.name for p in (exported / "tasks").iterdir())
    assert files == sorted([f"{t}.yaml" for t in TASKS] + ["racbench_lm_eval_tiny.yaml",
                                                           "utils.py"])


def test_lm_eval_runs_the_tasks_with_its_dummy_model_offline(exported):
    out = exported / "dummy_results"
    proc = subprocess.run([sys.executable, "-m", "lm_eval", "--model", "dummy", "--tasks",
                           "racbench_lm_eval_tiny", "--include_path", str(exported / "tasks"),
                           "--output_path", str(out)], capture_output=True, text=True,
                          env=OFFLINE, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = json.loads(Path(glob.glob(str(out / "**" / "results_*.json"),
                                        recursive=True)[0]).read_text())
    for task in TASKS:
        assert results["results"][task]["score,none"] == 0.0  # "lol" answers nothing
        assert results["results"][task]["parsed,none"] == 0.0
    sizes = {t: results["n-samples"][t]["effective"] for t in TASKS}
    assert sizes == {TASKS[0]: 8, TASKS[1]: 4, TASKS[2]: 4}  # each config's test split


def test_a_model_answering_each_row_right_scores_one(exported, monkeypatch):
    from lm_eval import simple_evaluate
    from lm_eval.api.model import LM
    from lm_eval.tasks import TaskManager

    answers = {}
    for config in ("proj", "ferry_app_mc", "ferry_progression_open"):
        for row in datasets.load_dataset(str(exported / "data"), config, split="test"):
            answers[f"{row['context']}\n\n{row['question']}\n\nAnswer:"] = row["answer"]

    class Oracle(LM):
        def generate_until(self, requests, disable_tqdm=False):
            return [f"The answer is {answers[r.arguments[0]]}" for r in requests]

        def loglikelihood(self, requests, disable_tqdm=False):
            raise NotImplementedError

        def loglikelihood_rolling(self, requests, disable_tqdm=False):
            raise NotImplementedError

    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")  # this test only: later tests go online
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    results = simple_evaluate(model=Oracle(), tasks=["racbench_lm_eval_tiny"],
                              task_manager=TaskManager(include_path=str(exported / "tasks")))
    for task in TASKS:
        assert results["results"][task]["score,none"] == 1.0, task
        assert results["results"][task]["parsed,none"] == 1.0, task
    assert results["results"]["racbench_lm_eval_tiny"]["score,none"] == 1.0


def test_export_refuses_an_out_in_use_and_a_folder_that_is_not_a_build(exported, tmp_path):
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "mine.txt").write_text("x")
    proc = racbench("export", "lm-eval", exported / "data", "--out", tmp_path / "used",
                    check=False)
    assert proc.returncode == 2 and "used" in proc.stderr and "Traceback" not in proc.stderr
    proc = racbench("export", "lm-eval", tmp_path / "used", "--out", tmp_path / "new",
                    check=False)
    assert proc.returncode == 2 and "racbench" in proc.stderr
    assert not (tmp_path / "new").exists()


def test_the_build_and_the_export_move_together(exported, tmp_path):
    """The task YAMLs name the build by its path relative to them: once both folders
    move (the place they were written no longer exists), lm-eval, run from elsewhere,
    still finds every config."""
    import shutil

    first = tmp_path / "first"
    shutil.copytree(exported / "data", first / "data")
    racbench("export", "lm-eval", first / "data", "--out", first / "tasks")
    assert str(first) not in "".join(p.read_text() for p in (first / "tasks").iterdir())
    moved = tmp_path / "elsewhere" / "moved"
    moved.parent.mkdir()
    first.rename(moved)
    out = tmp_path / "results"
    proc = subprocess.run([sys.executable, "-m", "lm_eval", "--model", "dummy", "--tasks",
                           "racbench_lm_eval_tiny", "--include_path", str(moved / "tasks"),
                           "--output_path", str(out)], capture_output=True, text=True,
                          env=OFFLINE, timeout=600, cwd=tmp_path / "elsewhere")
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = json.loads(Path(glob.glob(str(out / "**" / "results_*.json"),
                                        recursive=True)[0]).read_text())
    sizes = {t: results["n-samples"][t]["effective"] for t in TASKS}
    assert sizes == {TASKS[0]: 8, TASKS[1]: 4, TASKS[2]: 4}


def test_a_hub_id_names_the_dataset_instead_of_a_path(exported, tmp_path):
    racbench("export", "lm-eval", exported / "data", "--out", tmp_path / "hub",
             "--hub-id", "someone/racbench-tiny")
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_constructor("!function", lambda loader, node: loader.construct_scalar(node))
    task = yaml.load((tmp_path / "hub" / f"{TASKS[0]}.yaml").read_text(), Loader=Loader)
    assert task["dataset_path"] == "someone/racbench-tiny" and task["dataset_name"] == "proj"
    assert "custom_dataset" not in task and str(exported) not in str(task)
    proc = racbench("export", "lm-eval", exported / "data", "--out", tmp_path / "bad",
                    "--hub-id", "not a hub id", check=False)
    assert proc.returncode == 2 and "--hub-id 'not a hub id'" in proc.stderr
    assert not (tmp_path / "bad").exists()
