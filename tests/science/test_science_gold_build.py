"""`racbench build` on a science-gold recipe: real subprocess, Parquet, load_dataset."""

import os
import subprocess
import sys

import datasets

from racbench.worlds.science import TASKS, variation_split

RECIPE = """
name: sg
configs:
  - name: "{science}"
    for_each: {science: [melt, find-plant]}
    simplifications: ["", easy]
    valid_actions: true
"""


def build(recipe, out, workers):
    subprocess.run([sys.executable, "-m", "racbench.cli", "build", str(recipe), "--out", str(out),
                    "--workers", str(workers), "--quiet"], check=True,
                   env=dict(os.environ, PYTHONHASHSEED=str(workers)))


def test_gold_build_round_trip_and_determinism(tmp_path):
    recipe = tmp_path / "sg.yaml"
    recipe.write_text(RECIPE)
    build(recipe, tmp_path / "a", 2)
    ds = datasets.load_dataset(str(tmp_path / "a"), "melt")
    expected = {}
    for v in range(TASKS["melt"].n_variations):
        split = variation_split("melt", v)
        expected[split] = expected.get(split, 0) + 2  # two simplification settings
    assert {s: len(d) for s, d in ds.items()} == expected
    for split, d in ds.items():
        assert set(d["split"]) == {split}
        assert set(d["final_score"]) == {1.0}
        assert set(d["simplifications"]) == {"", "easy"}
    step = ds["train"][0]["steps"][0]
    assert step["valid_actions"] and step["look"]
    build(recipe, tmp_path / "b", 1)
    for f in sorted((tmp_path / "a").rglob("*.parquet")):
        assert f.read_bytes() == (tmp_path / "b" / f.relative_to(tmp_path / "a")).read_bytes()
