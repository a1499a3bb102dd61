"""User mistakes: one clear line, exit code 2, nothing written."""

import os
import subprocess
import sys

import pytest


def racbench(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "racbench.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd)


def racbench_in_process(*args):
    """The same command through click's runner, without a Python start and its imports
    (about 1.5 CPU-s each): for the variants of a mistake one real subprocess already
    shows the CLI refusing (tests/test_bad_input.py does the same for its battery)."""
    from click.testing import CliRunner

    from racbench.cli import main

    result = CliRunner().invoke(main, [str(a) for a in args])
    assert isinstance(result.exception, SystemExit), result.exception
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)


def assert_user_error(result, *words):
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    for w in words:
        assert w in result.stderr, result.stderr


def test_unknown_task(tmp_path):
    r = racbench("generate", "projecton", "--out", tmp_path / "x")
    assert_user_error(r, "unknown task 'projecton'", "projection, executability")
    assert not (tmp_path / "x").exists()


def test_unknown_recipe(tmp_path):
    assert_user_error(racbench("build", "tarc", "--out", tmp_path / "x"),
                      "unknown recipe 'tarc'", "trac")


@pytest.mark.parametrize("yaml_text,words", [
    ("name: r\nconfigs:\n  - name: a\n    task: projection\n    colour: red\n"
     "    splits: {test: 10}\n", ["unknown key 'colour'", "accepted:"]),
    ("name: r\nconfigs:\n  - name: a\n    task: juggling\n    splits: {test: 10}\n",
     ["unknown family 'juggling'", "configs[0] (a)"]),
    ("name: r\nconfigs:\n  - name: a\n    task: projection\n    splits: {test: 11}\n",
     ["even number of rows"]),
    ("name: r\nconfigs:\n  - name: a\n    task: projection\n    splits: {tset: 10}\n",
     ["unknown split 'tset'", "train, validation, test"]),
    ("name: r\nconfigs: [\n", ["not valid YAML"]),
])
def test_bad_recipe_values_name_the_field(tmp_path, yaml_text, words):
    recipe = tmp_path / "r.yaml"
    recipe.write_text(yaml_text)
    r = racbench_in_process("build", recipe, "--out", tmp_path / "x")
    assert_user_error(r, "r.yaml", *words)
    assert not (tmp_path / "x").exists()
    assert not list(tmp_path.glob(".x*"))


def test_a_bad_recipe_value_through_a_real_subprocess(tmp_path):
    recipe = tmp_path / "r.yaml"
    recipe.write_text("name: r\nconfigs:\n  - name: a\n    task: projection\n    colour: red\n"
                      "    splits: {test: 10}\n")
    r = racbench("build", recipe, "--out", tmp_path / "x")
    assert_user_error(r, "r.yaml", "unknown key 'colour'", "accepted:")
    assert not (tmp_path / "x").exists()
    assert not list(tmp_path.glob(".x*"))


def test_bad_option_values(tmp_path):
    assert_user_error(racbench("generate", "projection", "--objects", 99, "--out", tmp_path / "x"),
                      "objects must be between 2 and")
    assert_user_error(racbench_in_process("generate", "planning", "--query-kinds",
                                          "disjunction", "--out", tmp_path / "x"),
                      "unknown query kind")


def test_impossible_request_is_refused_before_writing(tmp_path):
    r = racbench("generate", "executability", "--objects", 2, "-n", 10_000_000,
                 "--out", tmp_path / "x")
    assert_user_error(r, "distinct questions", "so it can give at most")
    assert os.listdir(tmp_path) == []


def test_existing_output_is_not_overwritten(tmp_path):
    (tmp_path / "x").mkdir()
    assert_user_error(racbench("generate", "projection", "-n", 10, "--out", tmp_path / "x"),
                      "already exists", "--overwrite")


def test_show_unknown_config(tmp_path):
    assert_user_error(racbench("show", tmp_path, "nope"), "no config 'nope'")
