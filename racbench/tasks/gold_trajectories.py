"""Gold-trajectory rows of the science lab for the dataset pipeline.

The schema, the ordered list of (task, variation, simplifications) items, one row per
item, and `ScienceGoldRows`, which serves them to the build engine split by split (a
variation's split is fixed by the task, not by the row's position). The simulator
itself knows nothing of datasets.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import datasets

from racbench.worlds.science.env import ScienceEnv
from racbench.tasks.rows import Row
from racbench.worlds.science.registry import TASKS, accepts, get_task, parse_simplifications
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
    """Every (task, variation, simplifications) to generate, sorted; bad names raise ValueError.
    A setting a task refuses (noElectricalAction on an electrical task) is left out for it."""
    names = list(TASKS) if tasks is None else [get_task(t).name for t in tasks]
    settings = list(simplification_settings)
    for s in settings:
        parse_simplifications(s)
    return sorted((t, v, s) for t in names for s in settings if accepts(TASKS[t], s)
                  for v in range(TASKS[t].n_variations))


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

    # -- what the build engine asks of a config ------------------------------------------
    @property
    def worlds_key(self) -> str:
        """Configs with the same key share worlds (built in one run, then let go)."""
        return f"science/{self.task}"

    def warm(self, splits) -> None:
        """Nothing to share: each trajectory builds its own small world."""

    def release(self) -> None:
        """Nothing kept between configs."""

    def probe(self, name: str, seed: int, splits) -> None:
        """Every variation has a gold trajectory: nothing to probe."""

    def rows(self, name: str, seed: int, splits, probed=None) -> "ScienceGoldRows":
        return ScienceGoldRows(name, self)


class ScienceGoldRows:
    """Serves one task's gold rows to the build engine: row `index` of a split is the
    index-th variation of that split, in order, under the given simplifications."""

    features = FEATURES

    def __init__(self, name: str, cfg: ScienceGoldConfig):
        self.name = name
        self.task = cfg.task
        self.simplifications = cfg.simplifications
        self.with_valid_actions = cfg.valid_actions
        spec = get_task(cfg.task)
        self.items: dict[str, list[tuple[str, int, str]]] = {}
        for item in gold_items([cfg.task], cfg.simplifications):
            self.items.setdefault(spec.split_of(item[1]), []).append(item)

    def split_sizes(self) -> dict[str, int]:
        return {s: len(self.items[s]) for s in ("train", "validation", "test") if s in self.items}

    def capacity(self, split: str) -> int:
        return len(self.items.get(split, ()))

    def summary(self) -> dict:
        """What the card's table shows of this config."""
        return {"task": self.task, "row_kind": "trajectory", "objects": "-", "lengths": [],
                "query_kinds": [], "world": f"science/{self.task}", "names": "-",
                "excluded_forms": []}

    @staticmethod
    def split_counts(rows: list[dict]) -> tuple[Counter, Counter, Counter]:
        """Final scores, kinds (simplification settings) and trajectory lengths, for the
        card."""
        return (Counter(f"final score {r['final_score']:.2f}" for r in rows),
                Counter(r["simplifications"] or "none" for r in rows),
                Counter(r["n_steps"] for r in rows))

    def row(self, split: str, index: int, code: int = 0, attempt: int = 0):
        task, variation, simplifications = self.items[split][index]
        columns = gold_row(task, variation, simplifications, self.with_valid_actions)
        return Row(columns, columns["id"])
