"""The dataset card of a real build: what huggingface_hub and `datasets` read from it,
configs.json beside it, the recipe's licence and citation, and the audit splice."""

import json
import re
import shutil
from collections import Counter

import datasets
import pyarrow.parquet as pq
import pytest
import yaml
from datasets.utils.metadata import known_task_ids
from huggingface_hub import DatasetCard, DatasetCardData

from racbench.tasks.schema import task_features
from racbench.checks.audit import audit_dataset, update_card
from racbench.export.card_section import CARD_START
from racbench.export.build import ConfigStats, SplitStats, build
from racbench.export.card import render_card
from racbench.export.hub import size_category, task_tags
from racbench.tasks.gold_trajectories import FEATURES as SCIENCE_FEATURES
from racbench.suites.recipe import RecipeError, load_recipe, parse_recipe

CITATION = "@misc{smith2024blocks,\n  title = {Blocks},\n  year = {2024}\n}"

# one config of each row kind: TRAC (bool), ACP bool, mc and open, science trajectories
RECIPE = f"""
name: card-mix
seed: 2
license: cc-by-4.0
citation: |
{"".join("  " + line + chr(10) for line in CITATION.splitlines())}
configs:
  - name: trac_projection
    task: projection
    objects: 4
    splits: {{train: 20, validation: 10, test: 10}}
  - name: "ferry_applicability_{{form}}"
    for_each: {{form: [bool, mc, open]}}
    family: applicability
    domain: ferry
    problems: {{train: [p04, p05, p06], test: [p07, p08]}}
    splits: {{train: 8, test: 4}}
  - name: power
    science: power-component
    simplifications: [easy]
"""
NAMES = ["trac_projection", "ferry_applicability_bool", "ferry_applicability_mc",
         "ferry_applicability_open", "power"]
DECLARED = {"trac_projection": task_features(), "ferry_applicability_bool": task_features(),
            "ferry_applicability_mc": task_features(), "ferry_applicability_open": task_features(),
            "power": SCIENCE_FEATURES}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("card") / "data"
    build(parse_recipe(RECIPE, "card-mix.yaml"), out, workers=2, progress=False)
    return out


def split_rows(folder, config) -> dict[str, int]:
    """Rows per split read back from the shards, in file-name order."""
    rows: dict[str, int] = {}
    for f in sorted((folder / config).glob("*.parquet")):
        split = f.name.split("-")[0]
        rows[split] = rows.get(split, 0) + pq.read_metadata(f).num_rows
    return rows


def yaml_of(card_text: str) -> str:
    return card_text.split("---\n")[1]


def test_card_parses_with_huggingface_hub_and_carries_the_hub_fields(built):
    card = DatasetCard.load(built / "README.md")
    data = card.data
    assert isinstance(data, DatasetCardData)
    assert data.license == "cc-by-4.0" and data.language == ["en"]
    total = sum(n for name in NAMES for n in split_rows(built, name).values())
    assert total < 1000 and data.size_categories == ["n<1K"]
    assert data.task_categories == ["text-classification", "multiple-choice", "text-generation",
                                    "reinforcement-learning"]
    assert data.task_ids == ["multi-input-text-classification", "multiple-choice-qa"]
    assert [c["config_name"] for c in data.configs] == NAMES
    assert [c["config_name"] for c in data.configs if c.get("default")] == [NAMES[0]]
    for config in data.configs:
        for entry in config["data_files"]:
            files = sorted(built.glob(entry["path"]))
            assert files and all(f.name.startswith(entry["split"] + "-") for f in files)
    info = {c["config_name"]: c for c in data.dataset_info}
    assert list(info) == NAMES
    for name in NAMES:
        assert "features" not in info[name]  # the shards carry them
        declared = {s["name"]: s["num_examples"] for s in info[name]["splits"]}
        assert declared == split_rows(built, name)
        order = [s["name"] for s in info[name]["splits"]]
        assert order == [s for s in ("train", "validation", "test") if s in declared]


def test_load_dataset_without_a_name_loads_the_default_config(built):
    ds = datasets.load_dataset(str(built))
    assert {k: len(v) for k, v in ds.items()} == split_rows(built, "trac_projection")
    assert ds["train"].features == task_features()
    assert datasets.get_dataset_config_names(str(built)) == NAMES


def test_each_config_loads_with_its_declared_features_and_recorded_sizes(built):
    info = {c["config_name"]: c for c in DatasetCard.load(built / "README.md").data.dataset_info}
    for name in NAMES:
        ds = datasets.load_dataset(str(built), name)
        for split, part in ds.items():
            assert part.features == DECLARED[name], (name, split)
            recorded = part.info.splits[split]
            declared = next(s for s in info[name]["splits"] if s["name"] == split)
            assert (declared["num_examples"], declared["num_bytes"]) == (
                recorded.num_examples, recorded.num_bytes), (name, split)
    assert datasets.load_dataset(str(built), "ferry_applicability_bool")["train"].features[
        "label"].names == ["false", "true"]
    builder = datasets.load_dataset_builder(str(built), "power")
    assert builder.info.splits["train"].num_examples == split_rows(built, "power")["train"]


def test_configs_json_holds_each_configs_detail(built):
    details = json.loads((built / "configs.json").read_text(encoding="utf-8"))
    recipe = parse_recipe(RECIPE, "card-mix.yaml")
    assert [c["name"] for c in details["configs"]] == NAMES
    for entry, spec in zip(details["configs"], recipe.configs):
        assert entry["description"] == spec.description
        assert [s["name"] for s in entry["splits"]] == list(spec.splits)
        rows = split_rows(built, spec.name)
        for split in entry["splits"]:
            assert split["num_examples"] == rows[split["name"]]
            assert sum(split["labels"].values()) == split["num_examples"]
            assert split["files"] == sorted(f.name for f in (built / spec.name).glob(
                f"{split['name']}-*.parquet"))
    assert [c["rows"] for c in details["configs"]] == ["bool", "bool", "mc", "open",
                                                       "trajectory"]
    card = (built / "README.md").read_text(encoding="utf-8")
    assert "`configs.json`" in card


def test_card_body_gives_the_licence_and_the_citation(built):
    card = DatasetCard.load(built / "README.md")
    assert f"```bibtex\n{CITATION}\n```" in card.text
    assert "`cc-by-4.0`" in card.text


def glance_table(card: str) -> dict[str, list[str]]:
    """The 'At a glance' table: config -> its cells after the name."""
    section = card.split("## At a glance", 1)[1].split("\n## ", 1)[0].split("\n### ", 1)[0]
    rows = [line.split(" | ") for line in section.splitlines() if line.startswith("| `")]
    return {cells[0].strip("| `"): [c.strip(" |") for c in cells[1:]] for cells in rows}


def per_split_table(card: str) -> dict[tuple[str, str], list[str]]:
    """The 'Per split' table: (config, split) -> its cells after those two."""
    section = card.split("### Per split", 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip(" |`") for c in line.split(" | ")] for line in section.splitlines()
            if line.startswith("| `")]
    return {(cells[0], cells[1]): cells[2:] for cells in rows}


def _cell(values: list, nulls: int) -> str:
    if not values:
        return "null"
    low, high, mean = min(values), max(values), sum(values) / len(values)
    return (str(low) if low == high else f"{low}-{high} (mean {mean:.1f})") + (
        f"; {nulls} null" if nulls else "")


def test_card_shows_each_split_its_problems_and_difficulty(built):
    """Generalization splits (ferry: p04-p06 to train, p07-p08 to test) are shown apart:
    each split's problems and figures, read from its own rows."""
    table = per_split_table((built / "README.md").read_text(encoding="utf-8"))
    assert {config for config, _ in table} == set(NAMES) - {"power"}  # no trajectories
    for (config, split), (rows, problems, objects, lengths, plans) in table.items():
        ds = datasets.load_dataset(str(built), config, split=split)
        assert int(rows) == len(ds)
        assert problems == ", ".join(sorted(set(ds["problem"])))
        for cell, column in ((objects, "n_objects"), (lengths, "sequence_length"),
                             (plans, "optimal_plan_length")):
            values = [v for v in ds[column] if v is not None]
            assert cell == _cell(values, len(ds) - len(values)), (config, split, column)
    train = table[("ferry_applicability_bool", "train")][1].split(", ")
    test = table[("ferry_applicability_bool", "test")][1].split(", ")
    assert set(train) <= {"p04", "p05", "p06"} and set(test) <= {"p07", "p08"}


def test_the_configs_table_gives_the_sequence_lengths_rows_have(built):
    """Applicability asks about a state, with no sequence: its lengths are 0, not the
    families' default of 2."""
    card = (built / "README.md").read_text(encoding="utf-8")
    section = card.split("## Configs", 1)[1].split("\n## ", 1)[0]
    lengths = {cells[0].strip("| `"): cells[4].strip() for cells in
               (line.split(" | ") for line in section.splitlines() if line.startswith("| `"))}
    for form in ("bool", "mc", "open"):
        ds = datasets.load_dataset(str(built), f"ferry_applicability_{form}", split="train")
        assert set(ds["sequence_length"]) == {0}
        assert lengths[f"ferry_applicability_{form}"] == "0"
    assert lengths["trac_projection"] == "1"


def test_card_opens_with_rows_answers_and_difficulty_read_from_the_shards(built):
    card = (built / "README.md").read_text(encoding="utf-8")
    table = glance_table(card)
    assert list(table) == NAMES
    for name in NAMES:
        rows, answers, objects, lengths, plans = table[name]
        counts = split_rows(built, name)  # in the recipe's split order
        assert rows == ", ".join(f"{k} {counts[k]}" for k in ("train", "validation", "test")
                                 if k in counts)
        if name == "power":  # science trajectories: none of these columns
            assert (answers, objects, lengths, plans) == ("-", "-", "-", "-")
            continue
        ds = datasets.load_dataset(str(built), name)
        every = [row for split in ds.values() for row in split]
        for cell, column in ((objects, "n_objects"), (lengths, "sequence_length"),
                             (plans, "optimal_plan_length")):
            values = [r[column] for r in every if r[column] is not None]
            nulls = len(every) - len(values)
            if not values:
                assert cell == "null"
                continue
            low, high, mean = min(values), max(values), sum(values) / len(values)
            expected = str(low) if low == high else f"{low}-{high} (mean {mean:.1f})"
            assert cell == expected + (f"; {nulls} null" if nulls else ""), (name, column)
        if name.endswith("_open"):
            assert answers == "-"
        else:
            counts = Counter(r["answer"] for r in every)
            assert answers == ", ".join(f"{a} {100 * n / len(every):.1f}%"
                                        for a, n in sorted(counts.items()))
    assert table["trac_projection"][1] == "false 50.0%, true 50.0%"


def test_card_embeds_its_figures_which_are_reproducible_pngs(built, tmp_path):
    import matplotlib.image

    card = (built / "README.md").read_text(encoding="utf-8")
    for name in ("difficulty.png", "answers.png"):
        assert f"]({name})" in card
        image = matplotlib.image.imread(built / name)
        assert image.shape[0] > 100 and image.shape[1] > 300
        assert b"Software" not in (built / name).read_bytes()[:200]
    # a rebuild (one worker) over a copy: --overwrite takes the figures for racbench's
    # own files, and they come out byte-identical
    again = tmp_path / "again"
    shutil.copytree(built, again)
    build(parse_recipe(RECIPE, "card-mix.yaml"), again, workers=1, progress=False,
          overwrite=True)
    for name in ("difficulty.png", "answers.png", "README.md"):
        assert (again / name).read_bytes() == (built / name).read_bytes(), name


def test_audit_splices_into_the_card_and_leaves_the_front_matter(built, tmp_path):
    folder = tmp_path / "audited"
    shutil.copytree(built, folder)
    before = (folder / "README.md").read_text(encoding="utf-8")
    update_card(folder, audit_dataset(folder))
    after = (folder / "README.md").read_text(encoding="utf-8")
    assert after != before and after.count(CARD_START) == 1
    assert "| trac_projection |" in after
    assert yaml_of(after) == yaml_of(before)
    assert DatasetCard.load(folder / "README.md").data.to_dict() == \
        DatasetCard.load(built / "README.md").data.to_dict()


def test_recipe_without_license_gets_unknown_and_the_card_says_how_to_set_it(tmp_path):
    recipe = parse_recipe("name: bare\nconfigs:\n  - {name: p, task: projection, objects: 4,"
                          " splits: {test: 4}}\n", "bare.yaml")
    build(recipe, tmp_path / "bare", workers=1, progress=False)
    card = DatasetCard.load(tmp_path / "bare" / "README.md")
    assert card.data.license == "unknown"
    assert "add `license:` to the top of the recipe" in card.text
    assert "```bibtex" not in card.text


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


def test_yaml_of_the_full_acp_recipe_stays_small():
    """The 412 configs of the acp recipe at full size, with every split's size declared:
    no features and no per-config detail in the YAML (it was 472 KB with them)."""
    recipe = load_recipe("acp")
    stats = [ConfigStats(name=spec.name, description=spec.description, task="", row_kind=spec.task.form, objects=0,
                         lengths=[], query_kinds=[], world="", names="",
                         splits={split: SplitStats(n, [], {}, {}, {})
                                 for split, n in spec.splits.items()},
                         redrawn_duplicates=0, excluded_forms=[]) for spec in recipe.configs]
    sizes = {s.name: {split: (st.rows, 9_999_999) for split, st in s.splits.items()}
             for s in stats}
    front = yaml_of(render_card(recipe, 0, 1.0, stats, 0, sizes))
    assert len(recipe.configs) == 412 and "features" not in yaml.safe_load(front)["dataset_info"][0]
    assert len(front.encode()) < 412 * 600, len(front.encode())


def test_size_buckets_follow_the_hub():
    assert [size_category(n) for n in (0, 999, 1000, 9_999, 10_000, 999_999, 1_000_000)] == [
        "n<1K", "n<1K", "1K<n<10K", "1K<n<10K", "10K<n<100K", "100K<n<1M", "1M<n<10M"]
    assert size_category(10 ** 12) == "n>1T" and size_category(10 ** 15) == "n>1T"


def test_task_categories_are_hub_categories():
    categories, ids = task_tags(["trajectory", "open", "mc", "bool"])
    assert categories == ["text-classification", "multiple-choice", "text-generation",
                          "reinforcement-learning"]
    assert all(c in known_task_ids for c in categories)
    assert task_tags(["open"]) == (["text-generation"], [])
