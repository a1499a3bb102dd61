"""The declared schema of TRAC-style rows: never inferred from the first row."""

from __future__ import annotations

from datasets import ClassLabel, Features, Value

LABEL_NAMES = ["false", "true"]


def trac_features() -> Features:
    return Features({
        "id": Value("string"),
        "task": Value("string"),
        "context": Value("string"),
        "query": Value("string"),
        "label": ClassLabel(names=LABEL_NAMES),
        "n_objects": Value("int32"),
        "n_actions": Value("int32"),
        "query_kind": Value("string"),
        "optimal_plan_length": Value("int32"),
        "symbolic": Value("string"),
        "metadata": Value("string"),
        "generator_version": Value("string"),
        "seed": Value("int64"),
    })
