"""The ordered task table and argument checking (task names, variations, simplifications)."""

from __future__ import annotations

from .tasks.base import Flags, TaskError, TaskSpec
from .tasks import matter

SIMPLIFICATIONS = ("teleport", "openDoors", "openContainers", "noElectricalAction", "easy")


def _all_specs() -> list[TaskSpec]:
    specs = list(matter.SPECS)
    for module_name in ("measurement", "electricity", "classification"):
        try:
            module = __import__(f"{__package__}.tasks.{module_name}", fromlist=["SPECS"])
        except ModuleNotFoundError:
            continue
        specs.extend(module.SPECS)
    return specs


TASKS: dict[str, TaskSpec] = {s.name: s for s in _all_specs()}


def task_names() -> list[str]:
    return list(TASKS)


def get_task(name: str) -> TaskSpec:
    spec = TASKS.get(name)
    if spec is None:
        raise TaskError(f"unknown science task {name!r}; accepted: {', '.join(TASKS)}")
    return spec


def check_variation(spec: TaskSpec, variation) -> int:
    if isinstance(variation, bool) or not isinstance(variation, int) or not 0 <= variation < spec.n_variations:
        raise TaskError(f"variation {variation!r} is out of range for task {spec.name!r}; "
                        f"accepted: integers 0 to {spec.n_variations - 1}")
    return variation


def parse_simplifications(text: str) -> Flags:
    """'teleport,openDoors' -> Flags; 'easy' turns every simplification on."""
    if not isinstance(text, str):
        raise TaskError(f"simplifications must be a comma-separated string of: {', '.join(SIMPLIFICATIONS)}")
    names = [p.strip() for p in text.split(",") if p.strip()]
    bad = [n for n in names if n not in SIMPLIFICATIONS]
    if bad:
        raise TaskError(f"unknown simplification(s) {', '.join(map(repr, bad))}; "
                        f"accepted: {', '.join(SIMPLIFICATIONS)} (comma-separated)")
    on = set(names)
    easy = "easy" in on
    return Flags(teleport=easy or "teleport" in on, open_doors=easy or "openDoors" in on,
                 open_containers=easy or "openContainers" in on,
                 no_electrical=easy or "noElectricalAction" in on)


def variation_split(task: str, variation: int) -> str:
    spec = get_task(task)
    return spec.split_of(check_variation(spec, variation))
