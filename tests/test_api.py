"""The public Python API as a user calls it: racbench.generate, racbench.build, racbench.score."""

import json
import subprocess
import sys

import datasets
import pyarrow.parquet as pq
import pytest

import racbench
from racbench.errors import InputError
from racbench.tasks.schema import task_features

ROOT_PDDL = "racbench/data/domains/gripper"


def test_generate_trac_rows_by_default():
    rows = racbench.generate("projection", n=8, length=[1, 2], seed=3)
    assert len(rows) == 8 and sorted(r["label"] for r in rows) == [0] * 4 + [1] * 4
    assert {r["domain"] for r in rows} == {"blocksworld_trac"}
    assert all(r["question"].endswith(".") and "Jane" in r["context"] for r in rows)
    assert rows == racbench.generate("projection", n=8, length=[1, 2], seed=3)
    assert rows != racbench.generate("projection", n=8, length=[1, 2], seed=4)


def test_generate_a_family_on_a_shipped_problem_and_as_a_dataset():
    rows = racbench.generate("applicability", domain="gripper", problem=["p04", "p05"],
                             form="mc", n=4)
    assert [r["answer"] for r in rows] and all(len(r["choices"]) == 4 for r in rows)
    assert {r["problem"] for r in rows} <= {"p04", "p05"}
    ds = racbench.generate("applicability", domain="gripper", problem="p04", n=4,
                           dataset=True)
    assert isinstance(ds, datasets.Dataset) and ds.features == task_features()


def test_generate_on_user_files(tmp_path):
    from pathlib import Path
    root = Path(__file__).resolve().parents[1] / ROOT_PDDL
    rows = racbench.generate("progression", domain_file=root / "domain.pddl",
                             problem=[root / "problems" / "p03.pddl"], form="open", n=3)
    assert all(json.loads(r["symbolic"])["family"] == "progression" for r in rows)


def test_generated_rows_are_the_rows_a_build_writes(tmp_path):
    recipe = tmp_path / "r.yaml"
    recipe.write_text("name: r\nconfigs:\n  - name: applicability_bool\n"
                      "    family: applicability\n    domain: gripper\n"
                      "    problems: {test: [p04]}\n    splits: {test: 6}\n")
    out = racbench.build(recipe, tmp_path / "out", workers=1)
    built = pq.read_table(out / "applicability_bool" / "test-00000-of-00001.parquet").to_pylist()
    assert built == racbench.generate("applicability", domain="gripper", problem="p04", n=6)


@pytest.mark.parametrize("kwargs,words", [
    ({"family": "nope"}, "^unknown family 'nope'; accepted: projection, executability"),
    ({"family": "landmarks"}, "^family 'landmarks' needs a domain"),
    ({"family": "applicability", "domain": "gripper", "domain_file": "d.pddl",
      "problem": "p.pddl"}, "either domain="),
    ({"family": "applicability", "domain_file": __file__}, "domain_file= needs at least one problem="),
    ({"family": "landmarks", "domain": "gripper", "problem": "p04", "form": "mc", "n": 4},
     "no four options"),
    ({"family": "projection", "query_kinds": []}, "unknown query kind"),
    ({"family": "projection", "n": 5}, "even"),
    ({"family": "projection", "n": 0}, "positive"),
    ({"family": "projection", "split": "dev"}, "unknown split"),
    ({"family": "projection", "domain": "chess"}, "unknown domain 'chess'"),
    ({"family": "juggling", "domain": "gripper"}, "unknown family"),
    ({"family": "projection", "problem": "p01"}, "problem= needs"),
])
def test_bad_arguments_raise_one_input_error(kwargs, words):
    family = kwargs.pop("family")
    with pytest.raises(InputError, match=words):
        racbench.generate(family, **kwargs)


def test_score_reads_a_free_form_reply():
    row = racbench.generate("applicability", domain="gripper", problem="p04", form="mc",
                            n=4)[0]
    assert float(racbench.score(row, f"The answer is ({row['answer']}).")) == 1.0
    wrong = "ABCD".replace(row["answer"], "")[0]
    assert racbench.score(row, f"I pick {wrong}.").value == 0.0
    assert racbench.score(row, "I cannot tell.").parsed is False


def test_defaults_are_the_commands_and_recipes():
    """One rule: a TRAC task asks about 1 action, a family on a domain about 2."""
    trac = racbench.generate("projection", n=2)
    assert {r["sequence_length"] for r in trac} == {1}
    assert trac[0]["id"].startswith("projection_L1-") and trac[0]["n_objects"] == 5
    acp = racbench.generate("projection", domain="gripper", problem="p04", n=2)
    assert {r["sequence_length"] for r in acp} == {2}
    from racbench.suites.generate import CLI, generate_config
    from racbench.suites.recipe import parse_recipe
    recipe = parse_recipe("name: r\nconfigs:\n  - name: c\n    task: projection\n"
                          "    splits: {test: 2}\n", "r.yaml")
    assert generate_config("projection", arguments=CLI) == recipe.configs[0].task


def test_importing_racbench_stays_light():
    code = ("import sys, racbench; heavy = {'datasets', 'scipy', 'numpy', 'jinja2', "
            "'gymnasium', 'pyarrow'} & set(sys.modules); print(sorted(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"
