"""The ordered task table and argument checking (task names, variations, simplifications)."""

from __future__ import annotations

import operator

from racbench.worlds.science.tasks.base import Flags, TaskError, TaskSpec
from racbench.worlds.science.text import say
from racbench.worlds.science.tasks import (chemistry, classification, electricity, life_stages, lifespan,
                                           matter, measurement)

SIMPLIFICATIONS = ("teleport", "openDoors", "openContainers", "noElectricalAction", "easy")


def _all_specs() -> list[TaskSpec]:
    """ScienceWorld's topics in its order (topics 5, 9 and 10 are not here yet)."""
    return [*matter.SPECS, *measurement.SPECS, *electricity.SPECS, *classification.SPECS,
            *chemistry.SPECS, *lifespan.SPECS, *life_stages.SPECS]


TASKS: dict[str, TaskSpec] = {s.name: s for s in _all_specs()}


def task_names() -> list[str]:
    return list(TASKS)


def get_task(name: str) -> TaskSpec:
    spec = TASKS.get(name)
    if spec is None:
        raise TaskError(say("unknown_task", name=repr(name), accepted=list(TASKS)))
    return spec


def check_variation(spec: TaskSpec, variation) -> int:
    """The variation as a plain int (numpy integers welcome); out of range raises TaskError."""
    try:
        value = None if isinstance(variation, bool) else operator.index(variation)
    except TypeError:
        value = None
    if value is None or not 0 <= value < spec.n_variations:
        raise TaskError(say("bad_variation", variation=repr(variation), task=spec.name,
                            last=spec.n_variations - 1))
    return value


def parse_simplifications(text: str) -> Flags:
    """'teleport,openDoors' -> Flags; 'easy' turns every simplification on."""
    if not isinstance(text, str):
        raise TaskError(say("bad_simplification_type", accepted=SIMPLIFICATIONS))
    names = [p.strip() for p in text.split(",") if p.strip()]
    bad = [n for n in names if n not in SIMPLIFICATIONS]
    if bad:
        raise TaskError(say("bad_simplification", bad=[repr(b) for b in bad], accepted=SIMPLIFICATIONS))
    on = set(names)
    easy = "easy" in on
    return Flags(teleport=easy or "teleport" in on, open_doors=easy or "openDoors" in on,
                 open_containers=easy or "openContainers" in on,
                 no_electrical=easy or "noElectricalAction" in on)


def variation_split(task: str, variation: int) -> str:
    spec = get_task(task)
    return spec.split_of(check_variation(spec, variation))
