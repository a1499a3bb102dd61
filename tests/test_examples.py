"""examples/: the reward functions score real rows as racbench.score does, in TRL's and
veRL's calling conventions, and the SFT script's data preparation reads a real build.
The training runs themselves cannot run here (no model weights, no torch): see
examples/README.md."""

import importlib.util
from pathlib import Path

import racbench

ROOT = Path(__file__).resolve().parents[1]


def example(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rows():
    return (racbench.generate("projection", n=4)
            + racbench.generate("applicability", domain="gripper", problem="p04", form="mc",
                                n=4)
            + racbench.generate("progression", domain="ferry", form="open", n=2))


def columns_of(batch):
    return {k: [r[k] for r in batch] for k in batch[0]}


def test_grpo_reward_scores_right_wrong_and_unreadable_replies():
    reward = example("reward")
    batch = rows()
    right = [f"Let me think. The answer is {r['answer']}" for r in batch]
    assert reward.grpo_reward(right, **columns_of(batch)) == [1.0] * len(batch)
    wrong = [("false" if r["answer"] == "true" else "true") if r["form"] == "bool" else
             ("A" if r["answer"] != "A" else "B") if r["form"] == "mc" else "(nothing)"
             for r in batch]
    assert reward.grpo_reward(wrong, **columns_of(batch)) == [0.0] * len(batch)
    chat = [[{"role": "assistant", "content": text}] for text in right]
    assert reward.grpo_reward(chat, **columns_of(batch)) == [1.0] * len(batch)
    assert reward.grpo_reward(["I cannot tell."] * len(batch), **columns_of(batch)) == \
        [0.0] * len(batch)


def test_verl_reward_reads_the_row_from_extra_info():
    reward = example("reward")
    for row in rows():
        record = reward.verl_record(row, "prompt")
        args = (record["data_source"], row["answer"], record["reward_model"]["ground_truth"],
                record["extra_info"])
        assert reward.verl_reward(*args) == 1.0
        assert reward.verl_reward(args[0], "no idea", *args[2:]) == 0.0


def test_sft_records_are_prompts_and_answers_of_a_real_build(tmp_path):
    sft = example("sft_trl")
    (tmp_path / "r.yaml").write_text("name: sft\nconfigs:\n  - {name: p, task: projection, "
                                     "objects: 4, splits: {train: 10, test: 4}}\n")
    racbench.build(str(tmp_path / "r.yaml"), tmp_path / "data", workers=1, progress=False)
    records = sft.sft_records(str(tmp_path / "data"), "p")
    assert records.column_names == ["prompt", "completion"] and len(records) == 10
    assert all(r["completion"] in (" true", " false") for r in records)
    assert all(r["prompt"].endswith("\n\nAnswer:") for r in records)
