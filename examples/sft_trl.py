"""Supervised fine-tuning on one racbench config with TRL, for a handful of steps.

    racbench build trac --out trac_data --scale 0.01
    pip install "racbench[train]"          # trl, transformers, accelerate, torch
    python examples/sft_trl.py trac_data projection_L1 --model PATH_OR_HUB_ID --steps 5

Each row becomes a prompt (its context and question) and a completion (its answer), the
shape TRL's SFTTrainer takes. `--model` is any causal language model transformers can
load (a small one for a try: a Hub id, or a local folder when offline).
"""

from __future__ import annotations

import argparse


def prompt_of(row: dict) -> str:
    return f"{row['context']}\n\n{row['question']}\n\nAnswer:"


def sft_records(folder: str, config: str, split: str = "train"):
    """The split as a `datasets.Dataset` of prompt/completion pairs."""
    import datasets

    ds = datasets.load_dataset(folder, config, split=split)
    return ds.map(lambda row: {"prompt": prompt_of(row), "completion": " " + row["answer"]},
                  remove_columns=ds.column_names)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    parser.add_argument("config")
    parser.add_argument("--model", required=True)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--out", default="sft_out")
    args = parser.parse_args()
    from trl import SFTConfig, SFTTrainer

    trainer = SFTTrainer(model=args.model, train_dataset=sft_records(args.folder, args.config),
                         args=SFTConfig(output_dir=args.out, max_steps=args.steps,
                                        per_device_train_batch_size=2, logging_steps=1,
                                        report_to=[], save_strategy="no"))
    trainer.train()


if __name__ == "__main__":
    main()
