"""The shared task families on the science lab: a recipe entry with `science:` builds
true/false projection, executability and applicability rows over a task's variations,
and every label holds when the row's commands are replayed in a fresh simulator."""

from __future__ import annotations

import json
from collections import Counter

import pytest
import yaml

import racbench
from racbench.errors import InputError
from racbench.export.layout import read_columns, split_files
from racbench.worlds.science.env import ScienceEnv
from racbench.worlds.science.lab import LEFT_OUT_VERBS

FAMILIES = ("projection", "executability", "applicability")


@pytest.fixture(scope="module")
def lab_rows(tmp_path_factory):
    root = tmp_path_factory.mktemp("lab")
    recipe = {"name": "lab", "seed": 3, "configs": [
        {"name": f"boil_{f}", "family": f, "science": "boil",
         "problems": {"train": [0, 1], "test": [25]}, "splits": {"train": 8, "test": 6}}
        for f in FAMILIES]}
    (root / "lab.yaml").write_text(yaml.safe_dump(recipe))
    racbench.build(str(root / "lab.yaml"), root / "out", workers=1)
    return {f: {split: [row for path in paths for row in read_columns(path).to_pylist()]
                for split, paths in split_files(root / "out" / f"boil_{f}").items()}
            for f in FAMILIES}


def _replay(sym: dict) -> ScienceEnv:
    """A fresh simulator stepped through the row's history, each command checked valid."""
    env = ScienceEnv(sym["task"], sym["variation"], sym["simplifications"])
    info = env.reset()[1]
    for command in sym["history"]:
        assert command in info["valid_actions"], command
        info = env.step(command)[4]
    return env, info


def _runs(env: ScienceEnv, info: dict, commands: list[str]) -> bool:
    for command in commands:
        if command.startswith(LEFT_OUT_VERBS) or command not in info["valid_actions"]:
            return False
        info = env.step(command)[4]
    return True


def test_every_label_holds_in_a_fresh_simulator(lab_rows):
    for family, splits in lab_rows.items():
        for split, rows in splits.items():
            assert rows, (family, split)
            for row in rows:
                sym = json.loads(row["symbolic"])
                assert sym["world"] == "science" and sym["family"] == family
                assert row["answer"] == ("true" if row["label"] else "false")
                env, info = _replay(sym)
                if family == "applicability":
                    (command,) = sym["subject"]
                    truth = command in info["valid_actions"]
                elif family == "executability":
                    truth = _runs(env, info, [a[0] for a in sym["actions"]])
                else:
                    assert _runs(env, info, [a[0] for a in sym["actions"]]), row["id"]
                    facts = set(env.facts())
                    truth = all((tuple(lit["atom"]) in facts) == lit["positive"]
                                for lit in sym["subject"])
                assert truth == bool(row["label"]), (row["id"], row["question"])


def test_labels_are_balanced_and_variations_stay_in_their_split(lab_rows):
    for family, splits in lab_rows.items():
        for split, rows in splits.items():
            assert Counter(r["label"] for r in rows) == {0: len(rows) // 2, 1: len(rows) // 2}
            variations = {json.loads(r["symbolic"])["variation"] for r in rows}
            assert variations <= ({0, 1} if split == "train" else {25}), (family, split)


def test_rows_are_phrased_from_templates_not_ids(lab_rows):
    for splits in lab_rows.values():
        for rows in splits.values():
            for row in rows:
                assert "#" not in row["context"] + row["question"], row["id"]
                assert row["context"].startswith("Currently: This room is called")


@pytest.mark.parametrize("entry,needle", [
    ({"family": "projection", "form": "mc"}, "true/false"),
    ({"family": "planning"}, "projection, executability, applicability"),
    ({"family": "projection", "problems": {"train": [25]}}, "test split"),
    ({"family": "projection", "problems": {"test": [999]}}, "variations"),
    ({"family": "projection", "domain": "gripper"}, "not both"),
    ({"family": "projection", "science": "no-such-task"}, "no-such-task"),
])
def test_bad_lab_entries_are_refused_by_name(tmp_path, entry, needle):
    config = {"name": "bad", "science": "boil", "splits": {"train": 2, "test": 2}, **entry}
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump({"name": "bad", "configs": [config]}))
    with pytest.raises(InputError, match="(?s)" + needle.replace("/", ".")):
        racbench.build(str(path), tmp_path / "out", workers=1)
    assert not (tmp_path / "out").exists()
