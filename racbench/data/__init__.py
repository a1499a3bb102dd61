"""Package data: PDDL domains, vocabularies, science tables and the built-in recipes.

Kept free of heavy imports: the CLI lists the built-in recipes in its help from here.
"""

from __future__ import annotations

from importlib import resources


def recipe_names() -> list[str]:
    """The built-in recipes, by the name `racbench build NAME` takes."""
    folder = resources.files(__name__).joinpath("recipes")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml"))


def recipe_text(name: str) -> str:
    return resources.files(__name__).joinpath("recipes", f"{name}.yaml").read_text("utf-8")
