"""The ordered task table and argument checking (task names, variations, simplifications)."""

from __future__ import annotations

import operator

from racbench.worlds.science.tasks.base import Flags, TaskError, TaskSpec
from racbench.worlds.science.text import say
from racbench.worlds.science.tasks import (chemistry, classification, electricity, forces, genetics,
                                           life_stages, lifespan, matter, measurement, plants)

# ScienceWorld's simplification names ('teleport' is kept as another name for teleportAction)
SIMPLIFICATIONS = ("teleportAction", "teleport", "openDoors", "openContainers", "selfWateringFlowerPots",
                   "noElectricalAction", "easy")


def _all_specs() -> list[TaskSpec]:
    """ScienceWorld's ten topics in its order."""
    return [*matter.SPECS, *measurement.SPECS, *electricity.SPECS, *classification.SPECS,
            *plants.SPECS, *chemistry.SPECS, *lifespan.SPECS, *life_stages.SPECS, *forces.SPECS,
            *genetics.SPECS]


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


def parse_simplifications(text: str, electrical: bool = False) -> Flags:
    """'teleportAction,openDoors' -> Flags. As in ScienceWorld, 'easy' is teleportAction,
    openDoors, selfWateringFlowerPots and noElectricalAction (the last left out on an
    `electrical` task), and naming noElectricalAction on an electrical task is an error."""
    if not isinstance(text, str):
        raise TaskError(say("bad_simplification_type", accepted=SIMPLIFICATIONS))
    names = [p.strip() for p in text.split(",") if p.strip()]
    bad = [n for n in names if n not in SIMPLIFICATIONS]
    if bad:
        raise TaskError(say("bad_simplification", bad=[repr(b) for b in bad], accepted=SIMPLIFICATIONS))
    on = set(names)
    if electrical and "noElectricalAction" in on:
        raise TaskError(say("electrical_task_needs_actions"))
    easy = "easy" in on
    return Flags(teleport=easy or bool(on & {"teleport", "teleportAction"}),
                 open_doors=easy or "openDoors" in on, open_containers="openContainers" in on,
                 no_electrical=(easy and not electrical) or "noElectricalAction" in on,
                 self_watering=easy or "selfWateringFlowerPots" in on)


def accepts(spec: TaskSpec, simplifications: str) -> bool:
    """Whether a task takes these simplifications (electrical tasks refuse noElectricalAction)."""
    try:
        parse_simplifications(simplifications, spec.electrical)
    except TaskError:
        return False
    return True


def variation_split(task: str, variation: int) -> str:
    spec = get_task(task)
    return spec.split_of(check_variation(spec, variation))
