"""examples/grpo_stream.py and examples/verl_stream.py: a GRPO loop on the stream with a
curriculum, in TRL's record and reward conventions, and the stream in veRL's Parquet
format with its compute_score, run offline on real rows (no model: a stub policy)."""

import subprocess
import sys
from pathlib import Path

import datasets

import racbench

ROOT = Path(__file__).resolve().parents[1]


def example(name):
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_grpo_loop_runs_on_the_stream_and_the_curriculum_follows():
    grpo = example("grpo_stream")
    tasks = {"projection": 1, "applicability@gripper": 1}
    cur = racbench.Curriculum(window=8, band=(0.5, 0.8))
    logs = list(grpo.grpo_loop(tasks, steps=6, batch=4, group=4, seed=1, curriculum=cur))
    assert len(logs) == 6 and all(0.0 <= log["reward"] <= 1.0 for log in logs)
    assert cur.moves and cur.moves[0]["from"] == "easy"  # the stub starts good at easy
    assert cur.updates == 6 * 4 * 4  # every completion's reward went back
    again = list(grpo.grpo_loop(tasks, steps=6, batch=4, group=4, seed=1,
                                curriculum=racbench.Curriculum(window=8, band=(0.5, 0.8))))
    assert again == logs


def test_grpo_records_are_what_trl_takes_and_the_reward_scores_them():
    grpo = example("grpo_stream")
    ds = grpo.grpo_dataset({"projection": 1, "applicability@gripper": 1}, seed=0)
    assert isinstance(ds, datasets.IterableDataset)
    records = list(ds.take(6))
    assert all(r["prompt"][0]["role"] == "user" and r["question"] in r["prompt"][0]["content"]
               for r in records)
    columns = {k: [r[k] for r in records] for k in records[0]}
    columns["prompts"] = columns.pop("prompt")
    right = [[{"role": "assistant", "content": f"So: {r['answer']}"}] for r in records]
    assert grpo.grpo_reward(right, **columns) == [1.0] * 6
    wrong = [[{"role": "assistant", "content": grpo._wrong(r)}] for r in records]
    assert grpo.grpo_reward(wrong, **columns) == [0.0] * 6
    assert [round(a, 3) for a in grpo.advantages([1.0, 0.0, 1.0, 0.0])] == [1.0, -1.0, 1.0,
                                                                           -1.0]


def test_verl_parquet_has_verls_fields_and_compute_score_reads_it(tmp_path):
    verl = example("verl_stream")
    paths = verl.write_verl(tmp_path / "data", train=6, val=4, seed=3)
    train = datasets.load_dataset("parquet", data_files=str(paths["train"]), split="train")
    val = datasets.load_dataset("parquet", data_files=str(paths["val"]), split="train")
    assert train.column_names == ["data_source", "prompt", "ability", "reward_model",
                                  "extra_info"]
    assert len(train) == 6 and len(val) == 4
    assert not {r["extra_info"]["row"]["symbolic"] for r in train} & \
        {r["extra_info"]["row"]["symbolic"] for r in val}
    stream = racbench.stream(verl.TASKS, seed=3)
    for i, record in enumerate(train):
        assert record["extra_info"]["index"] == i and record["extra_info"]["split"] == "train"
        assert record["prompt"][0]["content"].endswith(stream.row(i)["question"])
        truth = record["reward_model"]["ground_truth"]
        args = (record["data_source"], truth, truth, record["extra_info"])
        assert verl.verl_reward(*args) == 1.0
        assert verl.verl_reward(args[0], "no idea", *args[2:]) == 0.0


def test_the_example_scripts_run_as_a_user_runs_them(tmp_path):
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "grpo_stream.py"),
                          "--steps", "3", "--batch", "2"], capture_output=True, text=True,
                         check=True).stdout
    assert out.count("reward") == 3
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "verl_stream.py"),
                          str(tmp_path / "v"), "--train", "2", "--val", "2"],
                         capture_output=True, text=True, check=True).stdout
    assert "train.parquet" in out and (tmp_path / "v" / "val.parquet").is_file()
