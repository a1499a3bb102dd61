"""Stream rows written in the Parquet format veRL's RL trainers read, and its reward.

    python examples/verl_stream.py OUT_DIR [--train 1000] [--val 100] [--seed 0]

Writes OUT_DIR/train.parquet and OUT_DIR/val.parquet, one record a row of a racbench
stream (train: rows 0 .. train-1 of seed `--seed`; val: those of seed `--seed` + 1
hashed apart, never the same rows), in veRL's dataset fields: `data_source`,
`prompt` (chat messages), `ability` (the family), `reward_model` {style "rule",
ground_truth the answer} and `extra_info` (the row's columns that scoring reads, its
stream index and split). veRL scores replies with a `compute_score`-style function;
`reward.verl_reward` is one (racbench.score on the row in extra_info):

    python -m verl.trainer.main_ppo data.train_files=OUT_DIR/train.parquet \\
        data.val_files=OUT_DIR/val.parquet \\
        custom_reward_function.path=examples/reward.py \\
        custom_reward_function.name=verl_reward ...
"""

from __future__ import annotations

import argparse
import importlib.util
from pathlib import Path

import racbench
from racbench.splits.seeding import derive_seed


def _sibling(name: str):
    """examples/NAME.py, loaded from beside this file (examples are not a package)."""
    path = Path(__file__).resolve().with_name(f"{name}.py")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_reward = _sibling("reward")
verl_record, verl_reward = _reward.verl_record, _reward.verl_reward  # verl_reward: veRL's

TASKS = {"projection": 1, "executability": 1, "applicability@gripper": 1}


def verl_records(tasks, start: int, stop: int, split: str, seed: int = 0,
                 **options) -> list[dict]:
    """Rows start .. stop-1 of the stream as veRL records."""
    stream = racbench.stream(tasks, seed=seed, **options)
    records = []
    for i in range(start, stop):
        row = stream.row(i)
        record = verl_record(row, f"{row['context']}\n\n{row['question']}")
        record["extra_info"].update(index=i, split=split)
        records.append(record)
    return records


def write_verl(out: str | Path, train: int, val: int, seed: int = 0, tasks=None,
               **options) -> dict[str, Path]:
    """train.parquet and val.parquet in `out` (val from a seed hashed apart from train's)."""
    import datasets

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    paths = {}
    for split, n, split_seed in (("train", train, seed),
                                 ("val", val, derive_seed(seed, "verl-val"))):
        records = verl_records(tasks or TASKS, 0, n, split, split_seed, **options)
        paths[split] = out / f"{split}.parquet"
        datasets.Dataset.from_list(records).to_parquet(str(paths[split]))
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--train", type=int, default=1000)
    parser.add_argument("--val", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--level", default="easy")
    args = parser.parse_args()
    for split, path in write_verl(args.out, args.train, args.val, args.seed,
                                  level=args.level).items():
        print(f"{split}: {path}")


if __name__ == "__main__":
    main()
