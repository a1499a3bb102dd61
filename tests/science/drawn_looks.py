"""The draws ScienceWorld's variations make beyond their descriptions (variations.json's vessels,
genetics_pots, genetics_seeds and stage_pots), as a look shows them. One reader for either world's
look, so the tests compare what an agent sees in ScienceWorld, in ours, and in our table."""

from __future__ import annotations

import re

from racbench.worlds.science.data import load
from racbench.worlds.science.tasks.base import scienceworld_draw, scienceworld_facts

# a test helper, not a test module: pytest collects only test_*.py
DRAWN = {
    "vessels": ("boil", "melt", "freeze", "change-the-state-of-matter-of", "measure-melting-point-known-substance",
                "measure-melting-point-unknown-substance"),
    "genetics_pots": ("mendelian-genetics-known-plant", "mendelian-genetics-unknown-plant"),
    "genetics_seeds": ("mendelian-genetics-known-plant", "mendelian-genetics-unknown-plant"),
    "stage_pots": ("identify-life-stages-2",),
}
STAGES = ("seed", "seedling", "adult", "reproducing", "dead")
# both worlds with these: a look into a room from anywhere, and the fridge's contents shown
SIMPLIFICATIONS = "teleportAction,openContainers"


def _substance(task: str, v: int) -> str:
    facts = scienceworld_facts(task, v)
    return facts[0] if isinstance(facts, list) else facts


def room(table: str, task: str, v: int) -> str | None:
    """The room whose look shows the draw (None: the substance comes from a tap)."""
    if table == "vessels":
        facts = scienceworld_facts(task, v)
        return facts[1] if isinstance(facts, list) else load("tasks")["matter_substances"][facts].get("room")
    return "greenhouse" if table.startswith("genetics") else "outside"


def seen(table: str, task: str, v: int, look: str):
    """What `look` (of `room(...)`) shows of the draw, in the table's form."""
    if table == "vessels":
        name = re.escape(_substance(task, v))
        found = re.search(rf"\ban? ([a-z ]+?) \(containing (?:a substance called )?(?:solid |liquid )?{name}\)", look)
        return found.group(1) if found else None
    if table == "genetics_pots":
        return [int(n) for n in re.findall(r"\ta flower pot (\d+) ", look)]
    if table == "genetics_seeds":
        jar = re.search(r"seed jar \(containing (.+?)\)\n", look).group(1)
        return sorted(re.sub(r"^an? ", "", s) for s in jar.split(", "))
    pots = re.findall(r"\tan? (self watering )?flower pot (\d+) \(containing an? ([^,)]+)", look)
    return [[int(n), next(s for s in STAGES if s in first.split()), bool(sw)] for sw, n, first in pots]


def expected(table: str, task: str, v: int):
    """Our table's draw in the form `seen` gives."""
    drawn = scienceworld_draw(table, task, v)
    if table == "genetics_seeds":
        plant = scienceworld_facts(task, v)[0]
        return sorted(" ".join([*values, plant, "seed"]) for values in drawn)
    return drawn


def look_in(step, where: str) -> str:
    """`step(action) -> observation` of either world: teleport to the room and look around."""
    step(f"teleport to {where}")
    return step("look around")
