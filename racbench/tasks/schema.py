"""The declared schema of task rows (every family, every form, every suite).

`label` is a ClassLabel(false, true) for bool rows and -1 ("no label", which
`datasets` accepts for a ClassLabel) for mc and open rows; `answer_index` is the
correct option's index for mc rows and -1 otherwise; `answer` is always set: "true" /
"false", the option letter, or the canonical open answer.
"""

from __future__ import annotations

from datasets import ClassLabel, Features, Sequence, Value

LABEL_NAMES = ["false", "true"]


def task_features() -> Features:
    return Features({
        "id": Value("string"),
        "family": Value("string"),
        "domain": Value("string"),
        "problem": Value("string"),
        "form": Value("string"),
        "context": Value("string"),
        "question": Value("string"),
        "choices": Sequence(Value("string")),
        "answer": Value("string"),
        "answer_index": Value("int32"),
        "label": ClassLabel(names=LABEL_NAMES),
        "n_objects": Value("int32"),
        "n_ground_actions": Value("int32"),
        "optimal_plan_length": Value("int32"),
        "sequence_length": Value("int32"),
        "branching_factor": Value("int32"),
        "symbolic": Value("string"),
        "metadata": Value("string"),
        "generator_version": Value("string"),
        "seed": Value("int64"),
    })
