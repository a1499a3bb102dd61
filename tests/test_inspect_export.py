"""`racbench export inspect`: the exported tasks file runs in the real Inspect, offline,
on a small real build (a true/false and a multiple-choice config), loaded by path as
`inspect eval FILE` loads it. Inspect's mock model answers through `custom_outputs`
(its default reply counts tokens with a tiktoken encoding fetched from the internet, so
the default text is given with its usage): an oracle that answers each prompt with its
row's answer scores 1 (the prompts are the rows' and lm-eval's, the scoring is
racbench.score's), and the mock's default reply scores sample by sample what
racbench.score gives it."""

import os
import subprocess
import sys
from types import SimpleNamespace

import datasets
import pytest
from click.testing import CliRunner

from racbench.cli import main

RECIPE = """
name: inspect-tiny
seed: 6
configs:
  - name: proj_x
    task: projection
    objects: 4
    splits: {train: 4, test: 4}
  - name: proj-x  # the same task name as proj_x: exported only when left out
    task: projection
    objects: 4
    splits: {test: 2}
  - name: ferry_app_mc
    family: applicability
    domain: ferry
    form: mc
    problems: {train: [p04, p05], test: [p07]}
    splits: {train: 4, test: 4}
"""
CONFIGS = ("proj_x", "ferry_app_mc")
TASKS = {"proj_x": "racbench_inspect_tiny_proj_x",
         "ferry_app_mc": "racbench_inspect_tiny_ferry_app_mc"}
FILE = "racbench_inspect_tiny.py"


def racbench(*args, check=True):
    """racbench's CLI through click's runner in this process (the console script's code
    path: its exit codes and messages): a process a call paid Python's, racbench's and
    pyarrow's start. Inspect runs in a process of its own below."""
    result = CliRunner().invoke(main, [str(a) for a in args])
    if check:
        assert result.exit_code == 0, (args, result.output, result.exception)
    return SimpleNamespace(returncode=result.exit_code, stdout=result.stdout,
                           stderr=result.stderr)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    root = tmp_path_factory.mktemp("inspect")
    (root / "recipe.yaml").write_text(RECIPE)
    racbench("build", root / "recipe.yaml", "--out", root / "data", "--workers", 1, "--quiet")
    proc = racbench("export", "inspect", root / "data", "--out", root / "tasks",
                    "--configs", "ferry_*, proj_*")
    assert FILE in proc.stdout and "inspect eval" in proc.stdout
    return root


@pytest.fixture(scope="module")
def rows(exported):
    return {config: {split: list(datasets.load_dataset(str(exported / "data"), config,
                                                       split=split))
                     for split in ("train", "test")}
            for config in CONFIGS}


# Inspect's eval in a process of its own, as `inspect eval FILE` runs in the tasks folder
# (Inspect imports the 'acp' package while it runs, which tests/acp shadows under pytest;
# and before Python 3.13 it reads a FILE without @task as a glob relative to the working
# directory). Its mock model answers through custom_outputs: "oracle" answers each prompt
# of the test splits with its row's answer, "default" gives the mock's default reply, on
# the train splits (a task argument).
RUN = """
import sys

import datasets
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.model._providers.mockllm import MockLLM

data, file, logs = sys.argv[1:]
answers = {}
for config in datasets.get_dataset_config_names(data):
    for row in datasets.load_dataset(data, config, split="test"):
        answers[f"{row['context']}\\n\\n{row['question']}\\n\\nAnswer:"] = row["answer"]


def mock(reply):
    def outputs(messages, tools, tool_choice, config):
        output = ModelOutput.from_content("mockllm", reply(messages[-1].text))
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    return get_model("mockllm/model", custom_outputs=outputs, memoize=False)


runs = {"oracle": (lambda p: f"Let me see. The answer is {answers[p]}.", "test"),
        "default": (lambda p: MockLLM.default_output, "train")}
for name, (reply, split) in runs.items():
    done = inspect_eval(file, model=mock(reply), log_dir=f"{logs}/{name}", display="none",
                        task_args={"split": split})
    assert all(log.status == "success" for log in done), [log.error for log in done]
"""
OFFLINE = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1")


@pytest.fixture(scope="module")
def logs(exported):
    """The logs of both runs, by run and task name."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    proc = subprocess.run([sys.executable, "-c", RUN, str(exported / "data"), FILE,
                           str(exported / "logs")], cwd=exported / "tasks", env=OFFLINE,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = {}
    for run in ("oracle", "default"):
        read = [read_eval_log(info) for info in list_eval_logs(str(exported / "logs" / run))]
        out[run] = {log.eval.task: log for log in read}
    return out


def metrics(log):
    return {name: m.value for s in log.results.scores for name, m in s.metrics.items()}


def prompt(row):
    return f"{row['context']}\n\n{row['question']}\n\nAnswer:"


def test_the_file_holds_a_task_per_config_and_the_samples_are_the_rows(exported, rows,
                                                                         logs):
    assert sorted(p.name for p in (exported / "tasks").iterdir()) == [FILE]
    assert sorted(logs["oracle"]) == sorted(TASKS.values())  # not proj-x (--configs)
    for config, task in TASKS.items():
        log = logs["oracle"][task]
        assert log.eval.task_args == {"split": "test"}
        assert metrics(log) == {"accuracy": 1.0, "stderr": 0.0, "parsed": 1.0}, task
        test = rows[config]["test"]
        assert [s.id for s in log.samples] == [r["id"] for r in test]
        for sample, row in zip(log.samples, test):
            assert sample.input == prompt(row)  # the lm-eval export's prompt
            assert sample.target == row["answer"]
            assert sample.choices == (row["choices"] or None)
            assert sample.metadata == row
            assert sample.scores["racbench_score"].answer == row["answer"]
    assert logs["oracle"][TASKS["ferry_app_mc"]].samples[0].choices  # mc rows carry their options


def test_the_mock_default_reply_scores_as_racbench_scores_it_on_another_split(rows, logs):
    import racbench
    from inspect_ai.model._providers.mockllm import MockLLM

    reply = MockLLM.default_output
    for config, task in TASKS.items():
        log = logs["default"][task]
        assert log.eval.task_args == {"split": "train"}
        train = rows[config]["train"]
        expected = [racbench.score(row, reply) for row in train]
        samples = log.samples
        assert [s.output.completion for s in samples] == [reply] * len(train)
        assert [s.id for s in samples] == [r["id"] for r in train]
        assert [s.scores["racbench_score"].value for s in samples] == [
            e.value for e in expected]
        assert [s.scores["racbench_score"].metadata["parsed"] for s in samples] == [
            e.parsed for e in expected]
        assert metrics(log)["accuracy"] == pytest.approx(
            sum(e.value for e in expected) / len(expected))
        assert metrics(log)["parsed"] == pytest.approx(
            sum(e.parsed for e in expected) / len(expected))


def test_bad_inputs_exit_2_writing_nothing(exported, tmp_path):
    (tmp_path / "used").mkdir()
    (tmp_path / "used" / "mine.txt").write_text("x")
    refused = {
        "used": ("export", "inspect", exported / "data", "--out", tmp_path / "used"),
        "racbench": ("export", "inspect", tmp_path / "used", "--out", tmp_path / "new"),
        "nope_*": ("export", "inspect", exported / "data", "--out", tmp_path / "new",
                   "--configs", "nope_*"),
        "racbench_inspect_tiny_proj_x": ("export", "inspect", exported / "data", "--out",
                                         tmp_path / "new"),
    }
    for says, args in refused.items():
        proc = racbench(*args, check=False)
        assert proc.returncode == 2, (args, proc.stderr)
        assert says in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert not (tmp_path / "new").exists()
    assert sorted(p.name for p in (tmp_path / "used").iterdir()) == ["mine.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["used"]  # no temporary left


def test_the_build_and_the_tasks_file_move_together(exported, tmp_path):
    """The tasks file finds the build by its path relative to itself: once both folders
    move (the place they were written no longer exists), Inspect still runs every task;
    with --hub-id the file names the Hub dataset instead."""
    import shutil

    first = tmp_path / "first"
    shutil.copytree(exported / "data", first / "data")
    racbench("export", "inspect", first / "data", "--out", first / "tasks", "--configs",
             "ferry_*,proj_*")
    assert str(first) not in (first / "tasks" / FILE).read_text()
    moved = tmp_path / "elsewhere" / "moved"
    moved.parent.mkdir()
    first.rename(moved)
    proc = subprocess.run([sys.executable, "-c", RUN, str(moved / "data"), FILE,
                           str(tmp_path / "logs")], cwd=moved / "tasks", env=OFFLINE,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    racbench("export", "inspect", exported / "data", "--out", tmp_path / "hub", "--configs",
             "ferry_*,proj_*", "--hub-id", "someone/racbench-tiny")
    text = (tmp_path / "hub" / FILE).read_text()
    assert 'FOLDER = "someone/racbench-tiny"' in text and str(exported) not in text
