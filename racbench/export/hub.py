"""The Hub's vocabularies the card's front matter draws on: size buckets and task tags.

Size buckets are `datasets`' size_categories (huggingface_hub's DatasetCardData lists
the same); task categories and their subtasks (task_ids) come from the Hub's task list
(huggingface.js, packages/tasks/src/pipelines.ts).
"""

from __future__ import annotations

SIZE_CATEGORIES = ("n<1K", "1K<n<10K", "10K<n<100K", "100K<n<1M", "1M<n<10M", "10M<n<100M",
                   "100M<n<1B", "1B<n<10B", "10B<n<100B", "100B<n<1T", "n>1T")

# What a config's rows ask for -> (task category, task id or None).
TASKS = {
    "bool": ("text-classification", "multi-input-text-classification"),  # context + question
    "mc": ("multiple-choice", "multiple-choice-qa"),
    "open": ("text-generation", None),  # answers are written out and checked by a validator
    "trajectory": ("reinforcement-learning", None),  # gold demonstrations of an environment
    "behaviour_cloning": ("reinforcement-learning", None),  # gold steps with their context
    "return_conditioned": ("reinforcement-learning", None),
}


def size_category(rows: int) -> str:
    """The bucket of a dataset of `rows` examples: 999 -> n<1K, 1000 -> 1K<n<10K."""
    bucket, bound = 0, 1000
    while bucket < len(SIZE_CATEGORIES) - 1 and rows >= bound:
        bucket, bound = bucket + 1, bound * 10
    return SIZE_CATEGORIES[bucket]


def task_tags(kinds) -> tuple[list[str], list[str]]:
    """task_categories and task_ids for the row kinds present, in TASKS order."""
    kinds = set(kinds)
    present = [TASKS[k] for k in TASKS if k in kinds]
    return list(dict.fromkeys(c for c, _ in present)), [i for _, i in present if i]
