"""The public Python API as a user calls it: racbench.generate, racbench.build, racbench.score."""

import json
import subprocess
import sys
from pathlib import Path

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


def test_a_shipped_domain_takes_problem_files_and_names_with_suffix(tmp_path):
    root = Path(__file__).resolve().parents[1] / ROOT_PDDL
    by_file = racbench.generate("applicability", domain="gripper",
                                problem=root / "problems" / "p04.pddl", n=2)
    by_name = racbench.generate("applicability", domain="gripper", problem="p04.pddl", n=2)
    assert [r["symbolic"] for r in by_file] == [r["symbolic"] for r in by_name]


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


def test_score_is_exported_for_type_hints():
    from racbench.checks.score import Score

    assert racbench.Score is Score and "Score" in racbench.__all__
    from racbench import Score as exported
    assert exported is Score
    with pytest.raises(AttributeError):
        racbench.Scores


def _code_lines(text: str, indent: str) -> list[str]:
    return [line[len(indent):] for line in text.splitlines() if line.startswith(indent)
            and line.strip()]


def test_docstring_examples_run():
    """Every example in the public functions' docstrings runs as written."""
    namespace = {"racbench": racbench}
    for function in (racbench.generate, racbench.score):
        code = "\n".join(_code_lines(function.__doc__, " " * 8))
        assert "racbench." in code, function.__name__
        exec(code, namespace)
    assert len(namespace["rows"]) == 10


# -- a user's evaluation: generated rows, scored replies of a chatty model ------------------

THINKING = ("Let me work through the current state step by step before I answer, "
            "checking each precondition against the facts listed.\n\n")


def _phrase(row):
    """How the row's context phrases a PDDL action or literal line."""
    from racbench.tasks.symbolic import symbolic_task

    st = symbolic_task(row["symbolic"], json.loads(row["metadata"])["render"])

    def phrase(line: str) -> str:
        if line.startswith("(not "):
            return st.text.fact(tuple(line[6:-2].split()), False)
        term = tuple(line[1:-1].split())
        return st.text.action(term) if st.action(term) is not None else st.text.fact(term, True)
    return phrase


def _reply(row, style: int, right: bool = True) -> str:
    """A model's reply in one of several usual shapes; `right` False answers wrongly
    (the other label, another letter, a list one item short)."""
    if row["form"] == "bool":
        says = (row["answer"] == "true") == right
        return [f"{THINKING}So the statement is {'correct' if says else 'not correct'}.",
                f"{'Yes' if says else 'No'}, because of the facts above.",
                f"{THINKING}**Final answer:** {'True' if says else 'False'}"][style % 3]
    if row["form"] == "mc":
        index = row["answer_index"] if right else (row["answer_index"] + 1) % 4
        letter, text = "ABCD"[index], row["choices"][index]
        return [f"{THINKING}The answer is ({letter}).", f"{letter}. {text}",
                f"{THINKING}Answer: {text}"][style % 3]
    items = row["answer"].splitlines()
    assert len(items) > 1, row["id"]  # a wrong answer leaves one out
    items = items if right else items[:-1]
    words = [_phrase(row)(i) for i in items]
    shapes = [f"{THINKING}Final answer:\n" + "\n".join(f"{k}. {i}" for k, i in
                                                       enumerate(items, 1)),
              "Here is my answer:\n" + "\n".join(f"- **{w}**" for w in words),
              f"{THINKING}The answer is: " + ", ".join(words) + "."]
    if len(words) > 1:
        shapes.append("First " + ", then ".join(words[:-1]) + ", and finally " + words[-1] + ".")
    return shapes[style % len(shapes)]


EVALUATED = [
    ("projection", {"n": 6}),
    ("executability", {"n": 4, "length": [1, 2]}),
    ("applicability", {"domain": "gripper", "problem": "p04", "n": 4}),
    ("landmarks", {"domain": "logistics", "problem": "p04", "form": "mc", "n": 6}),
    ("next_action", {"domain": "gripper", "problem": ["p04", "p05"], "form": "mc", "n": 4}),
    ("plan_generation", {"domain": "blocksworld", "problem": "p04", "form": "open", "n": 2}),
    ("progression", {"domain": "gripper", "problem": "p04", "form": "open", "n": 3}),
    ("applicability", {"domain": "ferry", "problem": "p04", "form": "open", "n": 2}),
]


@pytest.mark.parametrize("family,kwargs", EVALUATED)
def test_a_model_evaluation_over_generated_rows(family, kwargs):
    """Accuracy and the unparsed count, computed as a user computes them."""
    rows = racbench.generate(family, **kwargs)
    for style in range(4):
        right = [racbench.score(row, _reply(row, style)) for row in rows]
        assert all(isinstance(s, racbench.Score) and s.parsed for s in right), right
        assert sum(map(float, right)) / len(rows) == 1.0, right
        wrong = [racbench.score(row, _reply(row, style, right=False)) for row in rows]
        assert [(s.value, s.parsed) for s in wrong] == [(0.0, True)] * len(rows), wrong
    hedges = ["I am not sure; it could go either way.", "Yes and no.", "",
              "As an AI language model I cannot see the blocks."]
    unparsed = [racbench.score(row, h) for row in rows for h in hedges]
    assert [(s.value, s.parsed) for s in unparsed] == [(0.0, False)] * len(unparsed)


def test_rows_of_a_dataset_are_scored_as_generated():
    ds = racbench.generate("progression", domain="gripper", problem="p04", form="open", n=2,
                           dataset=True)
    for row in ds:
        for style in range(4):
            got = racbench.score(row, _reply(row, style))
            assert (got.value, got.parsed) == (1.0, True), got


def test_importing_racbench_stays_light():
    code = ("import sys, racbench; heavy = {'datasets', 'scipy', 'numpy', 'jinja2', "
            "'gymnasium', 'pyarrow'} & set(sys.modules); print(sorted(heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "[]"
