"""GRPO on an endless racbench stream, with a curriculum, end to end in TRL's formats.

    python examples/grpo_stream.py [--steps 40] [--batch 8] [--group 4] [--seed 0]

The data is what TRL's GRPOTrainer takes: each record a `prompt` (chat messages) and the
row's columns, which TRL hands to the reward function beside the completions; the
reward function is `reward.grpo_reward` (racbench.score on each completion). With a
model (`pip install "racbench[train]"`, a GPU helps) the trainer runs on it as it is:

    from trl import GRPOConfig, GRPOTrainer
    trainer = GRPOTrainer(model=..., reward_funcs=grpo_reward,
                          train_dataset=grpo_dataset({"projection": 1}, seed=0),
                          args=GRPOConfig(output_dir="out", num_generations=4))

No model weights are reachable here, so `grpo_loop` runs GRPO's steps itself with a stub
policy: for each prompt a group of completions, their rewards from `grpo_reward`
called exactly as TRL calls it, group-normalised advantages, and a policy-gradient step.
The stub's "model" is one logit of answering right per (task, level), the completion
then the row's answer or a wrong one, in free text. The curriculum takes every reward
back and raises a task's level once its accuracy passes the band, which the stub's
falling accuracy at the new level brings back into the band.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import random
from pathlib import Path
from typing import Any, Iterator

import racbench
from racbench.training.stream import row_task


def _sibling(name: str):
    """examples/NAME.py, loaded from beside this file (examples are not a package)."""
    path = Path(__file__).resolve().with_name(f"{name}.py")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_reward = _sibling("reward")
ROW_COLUMNS, grpo_reward = _reward.ROW_COLUMNS, _reward.grpo_reward

DIFFICULTY = {"easy": 0.0, "medium": 1.5, "hard": 3.0, "expert": 4.5}  # the stub's


def prompt_of(row: dict) -> list[dict[str, str]]:
    """The row as the chat messages of a conversational prompt."""
    return [{"role": "user", "content": f"{row['context']}\n\n{row['question']}"}]


def grpo_record(row: dict) -> dict[str, Any]:
    """A row as one GRPOTrainer record: `prompt`, and the columns the reward reads."""
    return {"prompt": prompt_of(row), **{k: row[k] for k in ROW_COLUMNS}}


def grpo_dataset(tasks, seed: int = 0, **options):
    """The stream as a `datasets.IterableDataset` of GRPOTrainer records."""
    ds = racbench.stream(tasks, seed=seed, dataset=True, **options)
    return ds.map(lambda row: {"prompt": prompt_of(row)})


class StubPolicy:
    """One logit per (task, level): the chance of a right answer is its sigmoid."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.logits: dict[tuple[str, str], float] = {}

    def chance(self, key: tuple[str, str]) -> float:
        start = 2.0 - DIFFICULTY[key[1]]
        return 1 / (1 + math.exp(-self.logits.setdefault(key, start)))

    def complete(self, record: dict, key: tuple[str, str]) -> tuple[list[dict], bool]:
        right = self.rng.random() < self.chance(key)
        answer = record["answer"] if right else _wrong(record)
        return [{"role": "assistant", "content": f"Thinking it over... {answer}"}], right

    def step(self, key: tuple[str, str], rights: list[bool], advantages: list[float],
             lr: float) -> None:
        """d log pi / d logit is (1 - p) for a right completion and -p for a wrong one."""
        p = self.chance(key)
        grad = sum(a * ((1 - p) if r else -p) for r, a in zip(rights, advantages))
        self.logits[key] += lr * grad / len(rights)


def _wrong(record: dict) -> str:
    if record["form"] == "bool":
        return "false" if record["answer"] == "true" else "true"
    if record["form"] == "mc":
        return "ABCD"[(record["answer_index"] + 1) % 4]
    return "I do not know."


def advantages(rewards: list[float]) -> list[float]:
    """GRPO's advantages: each reward less its group's mean, over the group's std."""
    mean = sum(rewards) / len(rewards)
    std = (sum((r - mean) ** 2 for r in rewards) / len(rewards)) ** 0.5
    return [(r - mean) / (std + 1e-4) for r in rewards]


def grpo_loop(tasks, steps: int = 40, batch: int = 8, group: int = 4, seed: int = 0,
              lr: float = 2.0, curriculum: racbench.Curriculum | None = None
              ) -> Iterator[dict]:
    """GRPO steps on the stream; yields each step's mean reward and levels."""
    curriculum = curriculum or racbench.Curriculum(window=16, band=(0.55, 0.85))
    stream = racbench.stream(tasks, seed=seed, curriculum=curriculum)
    policy = StubPolicy(seed)
    rows = iter(stream)
    for step in range(steps):
        records = [grpo_record(next(rows)) for _ in range(batch)]
        rewards_all = []
        for record in records:
            task = row_task(record)
            key = (task, curriculum.level(task))
            made = [policy.complete(record, key) for _ in range(group)]
            completions = [c for c, _ in made]
            columns = {k: [record[k]] * group for k in record}  # TRL repeats each prompt
            columns["prompts"] = columns.pop("prompt")
            rewards = grpo_reward(completions, **columns)
            policy.step(key, [r for _, r in made], advantages(rewards), lr)
            for reward in rewards:
                curriculum.update(task, reward)
            rewards_all += rewards
        yield {"step": step, "reward": sum(rewards_all) / len(rewards_all),
               "levels": {k: curriculum.level(k) for k in stream.keys}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--group", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    curriculum = racbench.Curriculum(window=16, band=(0.55, 0.85))
    tasks = {"projection": 1, "applicability@gripper": 1}
    for log in grpo_loop(tasks, args.steps, args.batch, args.group, args.seed,
                         curriculum=curriculum):
        levels = ", ".join(f"{k} {v}" for k, v in log["levels"].items())
        print(f"step {log['step']:3d}  reward {log['reward']:.3f}  {levels}")
    for move in curriculum.moves:
        print(f"moved {move['task']} {move['from']} -> {move['to']} at update "
              f"{move['update']} (accuracy {move['accuracy']:.3f})")


if __name__ == "__main__":
    main()
