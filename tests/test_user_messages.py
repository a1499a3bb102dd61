"""What a newcomer's own domain meets (issue 29): the names rows give it and the messages
that say what happened and what to do, with the numbers. Real PDDL, real CLI
subprocesses."""

import os
import subprocess
import sys

import datasets
import pytest

DOMAIN = """(define (domain keys-doors)
  (:requirements :strips :typing)
  (:types room key)
  (:predicates (at ?r - room) (door ?from ?to - room) (has ?k - key) (in ?k - key ?r - room))
  (:action move :parameters (?from ?to - room)
    :precondition (and (at ?from) (door ?from ?to))
    :effect (and (at ?to) (not (at ?from))))
  (:action take :parameters (?k - key ?r - room)
    :precondition (and (at ?r) (in ?k ?r))
    :effect (and (has ?k) (not (in ?k ?r)))))
"""
PROBLEM = """(define (problem {name}) (:domain keys-doors)
  (:objects hall kitchen vault cellar - room k1 k2 - key)
  (:init (at hall) (door hall kitchen) (door kitchen hall) (door kitchen vault)
         (door vault cellar) (in k1 kitchen) (in k2 vault))
  (:goal (and (has {key}) (at cellar))))
"""
UNREACHABLE = """(define (problem walled) (:domain keys-doors)
  (:objects hall kitchen vault - room k1 - key)
  (:init (at hall) (door hall kitchen) (in k1 vault))
  (:goal (has k1)))
"""


def racbench(*args, cwd=None, env=None):
    return subprocess.run([sys.executable, "-m", "racbench.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, env=env)


def assert_user_error(result, *words):
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    for w in words:
        assert w in result.stderr, result.stderr


@pytest.fixture
def keys_doors(tmp_path):
    """A user's keys-and-doors domain in a folder named job1 (not its PDDL name)."""
    folder = tmp_path / "job1"
    folder.mkdir()
    (folder / "domain.pddl").write_text(DOMAIN)
    for i in range(1, 6):
        (folder / f"p0{i}.pddl").write_text(PROBLEM.format(name=f"p0{i}", key=f"k{i % 2 + 1}"))
    (folder / "walled.pddl").write_text(UNREACHABLE)
    return folder


def _problems(folder, names):
    return [a for n in names for a in ("--problem-file", folder / f"{n}.pddl")]


def test_the_domain_column_and_card_name_the_pddl_domain_however_the_path_is_typed(
        keys_doors, tmp_path):
    typed = {"plain": keys_doors / "domain.pddl",
             "roundabout": keys_doors / ".." / "job1" / "." / "domain.pddl"}
    for how, domain_file in typed.items():
        out = tmp_path / how
        r = racbench("generate", "projection", "--domain-file", domain_file,
                     *_problems(keys_doors, ["p01", "p02", "p03", "p04", "p05"]),
                     "-n", 6, "--out", out, "--quiet", "--workers", 1)
        assert r.returncode == 0, r.stderr
        rows = datasets.load_dataset(str(out), "projection_bool", split="train")
        assert set(rows["domain"]) == {"keys-doors"}
        card = (out / "README.md").read_text()
        assert "| keys-doors |" in card and "| job1 |" not in card
    # relative to another working folder: the same name
    r = racbench("generate", "projection", "--domain-file", "job1/domain.pddl",
                 "--problem-file", "job1/p01.pddl", "-n", 6, "--out", "rel", "--quiet",
                 "--workers", 1, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    rows = datasets.load_dataset(str(tmp_path / "rel"), "projection_bool", split="test")
    assert set(rows["domain"]) == {"keys-doors"}


def test_too_many_rows_names_the_split_and_how_many_rows_it_can_give(keys_doors, tmp_path):
    r = racbench("generate", "projection", "--domain-file", keys_doors / "domain.pddl",
                 *_problems(keys_doors, ["p01", "p02", "p03", "p04", "p05"]),
                 "-n", 3000, "--out", tmp_path / "big", "--quiet", "--workers", 1)
    assert_user_error(r, "config 'projection_bool'", "the train split asks for 2000 rows",
                      "distinct questions", "so it can give about")
    import re
    offered = int(re.search(r"offer about (\d+) distinct", r.stderr).group(1))
    assert 0 < offered < 2000 and f"at most {offered} train rows" in r.stderr
    assert not (tmp_path / "big").exists() and not list(tmp_path.glob(".big*"))


def test_an_unreachable_goal_says_so_and_names_the_problem_file(keys_doors, tmp_path):
    for form in ("bool", "mc"):
        r = racbench("generate", "projection", "--domain-file", keys_doors / "domain.pddl",
                     "--problem-file", keys_doors / "walled.pddl", "--form", form,
                     "-n", 6, "--out", tmp_path / "x", "--quiet", "--workers", 1)
        assert_user_error(r, "walled.pddl", "cannot be reached from the initial state")
        assert "whatever the state" not in r.stderr and "options alone" not in r.stderr
        assert not (tmp_path / "x").exists()


def test_plan_generation_without_form_takes_its_only_form(tmp_path):
    r = racbench("generate", "plan_generation", "--domain", "ferry", "--problem-file", "p04",
                 "-n", 6, "--out", tmp_path / "pg", "--quiet", "--workers", 1)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "pg" / "plan_generation_open").is_dir()
    # a form typed that the family lacks still names the forms it has
    r = racbench("generate", "plan_generation", "--domain", "ferry", "--form", "bool",
                 "--out", tmp_path / "x")
    assert_user_error(r, "has no form 'bool'", "accepted: open")


def test_an_existing_out_gets_advice_that_works(tmp_path):
    mine = tmp_path / "thesis"
    mine.mkdir()
    (mine / "chapter1.tex").write_text("mine")
    build = ("generate", "projection", "--objects", 3, "-n", 6, "--quiet", "--workers", 1)
    r = racbench(*build, "--out", mine)
    assert_user_error(r, "already exists", "chapter1.tex", "--overwrite would refuse",
                      f"--out {tmp_path / 'thesis-2'}")
    assert racbench(*build, "--out", tmp_path / "thesis-2").returncode == 0  # as advised
    # a dataset racbench built: --overwrite is the advice, and it works
    r = racbench(*build, "--out", tmp_path / "thesis-2")
    assert_user_error(r, "a dataset racbench built", "pass --overwrite")
    assert racbench(*build, "--out", tmp_path / "thesis-2", "--overwrite").returncode == 0
    assert (mine / "chapter1.tex").read_text() == "mine"


def test_play_science_help_lists_every_task():
    from racbench.worlds.science.registry import task_names

    r = racbench("play", "science", "--help")
    assert r.returncode == 0, r.stderr
    listed = {line.strip() for line in r.stdout.splitlines()}
    assert len(task_names()) == 30 and set(task_names()) <= listed
    assert "TASK is one of the 30 tasks" in r.stdout
