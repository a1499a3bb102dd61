"""Reward functions for RL fine-tuning on racbench rows, built on `racbench.score`.

* `grpo_reward(completions, **columns)`: TRL's GRPOTrainer calling convention (a reward
  function gets the completions and every other dataset column as lists), so a racbench
  config loaded with `datasets` can be passed as the training set as it is:

      from trl import GRPOConfig, GRPOTrainer
      trainer = GRPOTrainer(model=..., reward_funcs=grpo_reward,
                            train_dataset=ds.map(to_prompt), args=GRPOConfig(...))

* `verl_reward(data_source, solution_str, ground_truth, extra_info)`: veRL's
  `compute_score` convention (custom_reward_function.path / .name in its config), the
  row's columns carried in `extra_info["row"]` (see `verl_record`).

Each reply is scored as `racbench.score` scores it: 1.0 right (open plans: 0.5 when
valid but longer than the shortest), 0.0 wrong or unreadable.
"""

from __future__ import annotations

from typing import Any

import racbench

# the columns racbench.score reads of a row, besides the reply
ROW_COLUMNS = ("id", "family", "domain", "problem", "form", "context", "question", "choices",
               "answer", "answer_index", "label", "symbolic", "metadata")


def _text(completion: Any) -> str:
    """A completion as text: TRL passes strings, or chat messages for conversational
    datasets (the last message's content)."""
    if isinstance(completion, list) and completion and isinstance(completion[-1], dict):
        return str(completion[-1].get("content", ""))
    return str(completion)


def grpo_reward(completions: list, **columns: list) -> list[float]:
    rows = [{k: columns[k][i] for k in ROW_COLUMNS if k in columns}
            for i in range(len(completions))]
    return [float(racbench.score(row, _text(c)).value) for row, c in zip(rows, completions)]


def verl_record(row: dict, prompt: str) -> dict:
    """A racbench row as one record of veRL's RL parquet format."""
    return {"data_source": "racbench", "prompt": [{"role": "user", "content": prompt}],
            "ability": row["family"], "reward_model": {"style": "rule",
                                                       "ground_truth": row["answer"]},
            "extra_info": {"row": {k: row[k] for k in ROW_COLUMNS if k in row}}}


def verl_reward(data_source: str, solution_str: str, ground_truth: str,
                extra_info: dict | None = None) -> float:
    return float(racbench.score(extra_info["row"], solution_str).value)
