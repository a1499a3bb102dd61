"""The dataset card of a real build: what huggingface_hub and `datasets` read from it,
configs.json beside it, the recipe's licence and citation, and the audit splice."""

import re

import pytest

from racbench.recipe import RecipeError, load_recipe, parse_recipe


@pytest.mark.parametrize("value, hint", [("MIT", "did you mean 'mit'"),
                                         ("cc-by-4", "did you mean 'cc-by-4.0'"),
                                         ("other", "All accepted: apache-2.0"),
                                         ("[mit]", "All accepted")])
def test_unknown_licence_is_refused_naming_the_field(value, hint):
    with pytest.raises(RecipeError) as err:
        parse_recipe(f"name: x\nlicense: {value}\nconfigs:\n  - {{name: p, task: projection, "
                     "objects: 4, splits: {test: 4}}\n", "x.yaml")
    message = str(err.value)
    assert message.startswith("x.yaml: 'license' must be") and hint in message


@pytest.mark.parametrize("value", ["Smith 2024, Blocks.", "[1, 2]"])
def test_citation_that_is_not_bibtex_is_refused(value):
    with pytest.raises(RecipeError, match="x.yaml: 'citation' must be BibTeX"):
        parse_recipe(f"name: x\ncitation: {value}\nconfigs:\n  - {{name: p, task: projection, "
                     "objects: 4, splits: {test: 4}}\n", "x.yaml")


@pytest.mark.parametrize("name", ["trac", "acp", "science-gold"])
def test_builtin_recipes_name_a_licence_and_cite_their_sources(name):
    recipe = load_recipe(name)
    assert recipe.license != "unknown"
    entries = re.findall(r"^@(\w+)\{(\w+),", recipe.citation, flags=re.M)
    assert entries and all(kind in ("article", "inproceedings", "misc") for kind, _ in entries)
    assert recipe.citation.count("{") == recipe.citation.count("}")
