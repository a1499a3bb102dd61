"""Gold-trajectory rows of the science lab for the dataset pipeline.

The schema, the ordered list of (task, variation, simplifications) items, one row per
item, and `ScienceGoldRows`, which serves them to the build engine split by split (a
variation's split is fixed by the task, not by the row's position). The simulator
itself knows nothing of datasets.
"""

from __future__ import annotations

from dataclasses import dataclass

import datasets

from racbench.worlds.science.env import ScienceEnv
from racbench.worlds.science.registry import TASKS, get_task, parse_simplifications
from racbench.worlds.science.trajectory import run_oracle

GENERATOR_VERSION = "science-gold-1"

_STEP = {
    "action": datasets.Value("string"),
    "observation": datasets.Value("string"),
    "score": datasets.Value("float32"),
    "look": datasets.Value("string"),
    "inventory": datasets.Value("string"),
    "valid_actions": [datasets.Value("string")],
}

FEATURES = datasets.Features({
    "id": datasets.Value("string"),
    "task": datasets.Value("string"),
    "variation": datasets.Value("int32"),
    "simplifications": datasets.Value("string"),
    "split": datasets.Value("string"),
    "task_description": datasets.Value("string"),
    "steps": [_STEP],
    "n_steps": datasets.Value("int32"),
    "final_score": datasets.Value("float32"),
    "generator_version": datasets.Value("string"),
})


def gold_items(tasks=None, simplification_settings=("",)) -> list[tuple[str, int, str]]:
    """Every (task, variation, simplifications) to generate, sorted; bad names raise ValueError."""
    names = list(TASKS) if tasks is None else [get_task(t).name for t in tasks]
    settings = list(simplification_settings)
    for s in settings:
        parse_simplifications(s)
    return sorted((t, v, s) for t in names for s in settings for v in range(TASKS[t].n_variations))


def row_id(task: str, variation: int, simplifications: str) -> str:
    simp = simplifications.replace(",", "+") if simplifications else "none"
    return f"{task}/{variation}/{simp}"


def gold_row(task: str, variation: int, simplifications: str = "", with_valid_actions: bool = False) -> dict:
    """One dataset row matching FEATURES (look, inventory and valid actions empty unless requested)."""
    env = ScienceEnv(task, variation, simplifications)
    _, info = env.reset()
    steps = run_oracle(env, with_valid_actions)
    rows = [{
        "action": s["action"],
        "observation": s["observation"],
        "score": float(s["score"]),
        "look": s.get("look", ""),
        "inventory": s.get("inventory", ""),
        "valid_actions": list(s.get("valid_actions", [])),
    } for s in steps]
    return {
        "id": row_id(task, variation, simplifications),
        "task": task,
        "variation": variation,
        "simplifications": simplifications,
        "split": env.task_spec.split_of(variation),
        "task_description": info["task_description"],
        "steps": rows,
        "n_steps": len(rows),
        "final_score": float(steps[-1]["score"]),
        "generator_version": GENERATOR_VERSION,
    }


@dataclass(frozen=True)
class ScienceGoldConfig:
    """One science task's gold trajectories under some simplification settings."""

    task: str
    simplifications: tuple[str, ...] = ("",)
    valid_actions: bool = False

    def validate(self) -> "ScienceGoldConfig":
        gold_items([self.task], self.simplifications)  # ValueError naming what is accepted
        return self


class ScienceGoldRows:
    """Serves one task's gold rows to the build engine: row `index` of a split is the
    index-th variation of that split, in order, under the given simplifications."""

    features = FEATURES
    excluded: list = []

    def __init__(self, name: str, cfg: ScienceGoldConfig):
        self.name = name
        self.with_valid_actions = cfg.valid_actions
        spec = get_task(cfg.task)
        self.items: dict[str, list[tuple[str, int, str]]] = {}
        for item in gold_items([cfg.task], cfg.simplifications):
            self.items.setdefault(spec.split_of(item[1]), []).append(item)

    def split_sizes(self) -> dict[str, int]:
        return {s: len(self.items[s]) for s in ("train", "validation", "test") if s in self.items}

    def row(self, split: str, index: int, code: int = 0, attempt: int = 0):
        from racbench.generators.rows import Row

        task, variation, simplifications = self.items[split][index]
        columns = gold_row(task, variation, simplifications, self.with_valid_actions)
        return Row(columns, columns["id"])
