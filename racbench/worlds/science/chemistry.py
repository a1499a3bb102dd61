"""Mixing by recipe: a container whose contents are exactly a recipe's ingredients turns them into
its product. Substances count by material, things by archetype, so 'water' from a tap and the
water of a cup are one ingredient. The recipe table lives in data/science/chemistry.json."""

from __future__ import annotations

from racbench.worlds.science.data import load
from racbench.worlds.science.house import make, make_substance

_TABLE = load("chemistry")
RECIPES: dict[str, list[str]] = _TABLE["recipes"]
_BY_INGREDIENTS = {tuple(sorted(ingredients)): product for product, ingredients in RECIPES.items()}


def ingredient(t) -> str:
    return t.mat.name if t.is_substance else t.base


def product_of(container) -> str | None:
    """What mixing the container would make now, or None."""
    return _BY_INGREDIENTS.get(tuple(sorted(ingredient(c) for c in container.contents)))


def make_thing(world, name: str, temp: float):
    """A substance when the material table knows `name` (a paint, salt water), else a thing."""
    if name in load("materials"):
        return make_substance(world, name, temp)
    return make(world, name, temp=temp)


def mix(world, container):
    """Replace the container's contents by their product; returns (product, ingredient names) or None."""
    product = product_of(container)
    if product is None:
        return None
    used = [c.name for c in container.contents]
    for c in list(container.contents):
        world.remove(c)
    made = make_thing(world, product, container.temp)
    world.move(made, container)
    return made, used
