"""A user's own domain in good English: default guesses, a phrasing file, and the
`racbench phrasing init` / `check` commands (issue 29, item 1)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

import racbench
from racbench.cli import main
from racbench.tasks import FAMILIES, OWN_CONFIG
from racbench.text.domain import DomainText
from racbench.text.phrasing_check import check
from racbench.text.user_phrasing import Phrasing, PhrasingError, load_phrasing
from racbench.worlds.strips.pddl_reader import load_domain, parse_domain

ROOT = Path(__file__).resolve().parents[1]
KEYS = ROOT / "examples" / "phrasing" / "keys-doors"
SHIPPED = sorted(p.parent.name for p in (ROOT / "racbench" / "data" / "domains").glob("*/domain.pddl"))


def cli(*args, cwd=ROOT):
    """The CLI in its own process, as a user runs it."""
    return subprocess.run([sys.executable, "-m", "racbench.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd)


def cli_here(*args):
    """The CLI in this process (click's runner: the console script's code path, exit codes
    and messages, as tests/test_bad_input.py runs it), for `phrasing` and the refusals: a
    process each would pay Python's, racbench's and pyarrow's start (about 1.3 CPU s).
    test_a_recipe_names_a_phrasing_file_relative_to_itself runs the real CLI."""
    result = CliRunner().invoke(main, [str(a) for a in args])
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += repr(result.exception)  # an error click's runner caught, for the message
    return SimpleNamespace(returncode=result.exit_code, stdout=result.stdout, stderr=stderr)


# ------------------------------------------------------------------ default guesses

TPP_LIKE = """
(define (domain shop)
  (:requirements :strips :typing)
  (:types goods market level room)
  (:predicates (ready-to-load ?g - goods ?m - market ?l - level) (at ?r - room)
               (door ?from ?to - room) (above ?a ?b - level))
  (:action buy :parameters (?g - goods ?m - market ?l - level)
    :precondition (ready-to-load ?g ?m ?l) :effect (not (ready-to-load ?g ?m ?l))))
"""


def test_issue_examples_read_as_english_and_name_every_object():
    text = DomainText(parse_domain(TPP_LIKE))
    assert text.fact(("at", "vault")) == "the agent is at vault"
    assert text.fact(("door", "hall", "kitchen")) == "there is a door from hall to kitchen"
    ready = text.fact(("ready-to-load", "goods1", "market1", "level0"))
    assert ready == "goods1 is ready to load market1 with level level0"


def test_sentences_keep_the_case_of_the_object_they_start_with():
    text = DomainText(parse_domain(TPP_LIKE))
    assert text.sentence(text.fact(("above", "f0", "f1"))) == "f0 is above f1."
    assert text.sentence(text.fact(("at", "Cocktail1"))) == "The agent is at Cocktail1."
    # a conjunction keeps the case of its first clause too
    both = text.conjunction([(("above", "f0", "f1"), True), (("at", "r1"), False)])
    assert text.sentence(both).startswith("f0 is above f1 and ")


UNTYPED_LIFT = """
(define (domain lift)
  (:requirements :strips)
  (:predicates (floor ?f) (passenger ?p) (lift-at ?f) (origin ?p ?f) (boarded ?p))
  (:action board :parameters (?f ?p)
    :precondition (and (floor ?f) (passenger ?p) (lift-at ?f) (origin ?p ?f))
    :effect (boarded ?p)))
"""


def test_static_class_predicates_name_the_kind_once_in_a_schema():
    description = DomainText(parse_domain(UNTYPED_LIFT)).describe_domain()
    assert "Here A is a floor and B is a passenger." in description
    assert "is an object" not in description
    assert "A is a floor," not in description and "B is a passenger," not in description
    assert "It requires that the lift is at A and the origin of B is A." in description


def test_competition_domains_pass_the_check_with_no_phrasing_file():
    paths = sorted((ROOT / "tests" / "data").glob("pddl/*/domain.pddl")) + \
        sorted((ROOT / "tests" / "data").glob("adl/*/domain.pddl")) + \
        sorted((ROOT / "tests" / "data").glob("competition/*/domain.pddl"))
    assert len(paths) >= 10
    for path in paths:
        _count, flags = check(DomainText(load_domain(path)))
        assert flags == [], (path, [f.line() for f in flags])


# ---------------------------------------------------------------------- the check

@pytest.mark.parametrize("name", SHIPPED)
def test_check_passes_on_every_shipped_domain(name):
    result = cli_here("phrasing", "check", ROOT / "racbench" / "data" / "domains" / name / "domain.pddl")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "none flagged" in result.stdout


def test_check_flags_a_dropped_object_and_a_dangling_preposition(tmp_path):
    shutil.copy(KEYS / "domain.pddl", tmp_path / "domain.pddl")
    (tmp_path / "phrasing.yaml").write_text(
        "predicates:\n  at:\n    positive: the robot is at\n    negative: the robot is not in {r}\n"
        "actions:\n  move: walk to {to}\n")
    result = cli_here("phrasing", "check", tmp_path / "domain.pddl")
    assert result.returncode == 1, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert any(l.startswith("at (positive)") and "does not name room1" in l
               and "ends on 'at'" in l for l in lines), lines
    assert any(l.startswith("move:") and "does not name room1" in l for l in lines), lines
    assert not any(l.startswith("at (negative)") for l in lines)
    assert "2 flagged" in lines[-1]


def test_init_writes_todays_guesses_and_check_accepts_them(tmp_path):
    shutil.copy(KEYS / "domain.pddl", tmp_path / "domain.pddl")
    result = cli_here("phrasing", "init", tmp_path / "domain.pddl")
    assert result.returncode == 0, result.stderr
    written = (tmp_path / "phrasing.yaml").read_text()
    assert 'positive: "the agent is at {r}"' in written
    assert 'door:  # (door ?from ?to)' in written
    assert 'move: "move from {from} to {to}"' in written
    domain = load_domain(tmp_path / "domain.pddl")
    loaded = load_phrasing(tmp_path / "phrasing.yaml", domain,
                           (tmp_path / "domain.pddl").read_text())
    guessed, edited = DomainText(domain), DomainText(domain, phrasing=loaded)
    for atom in (("at", "hall"), ("door", "a", "b"), ("opens", "k", "a", "b")):
        for positive in (True, False):
            assert edited.fact(atom, positive) == guessed.fact(atom, positive)
    assert cli_here("phrasing", "check", tmp_path / "domain.pddl").returncode == 0
    again = cli_here("phrasing", "init", tmp_path / "domain.pddl")
    assert again.returncode == 2 and "exists" in again.stderr
    out = cli_here("phrasing", "init", "gripper", "-o", tmp_path / "g.yaml")
    assert out.returncode == 0 and "pick:" in (tmp_path / "g.yaml").read_text()


@pytest.mark.parametrize("content, where, says", [
    ("predicates:\n  att:\n    positive: x\n    negative: y\n", ":2: predicates.att",
     "no such predicate; accepted: at, door, holding"),
    ("predicates:\n  at:\n    positive: in {room}\n    negative: y {r}\n",
     ":3: predicates.at.positive", "{room} is not a parameter of at; accepted: {r}"),
    ("predicates:\n  at:\n    positive: in {r}\n", ":2: predicates.at", "needs 'negative'"),
    ("actions:\n  move: [walk]\n", ":2: actions.move", "must be a sentence"),
    ("verbs:\n  move: walk\n", ":1: verbs", "unknown section; accepted: types, predicates"),
    ("types:\n  room: {r}\n", ":2: types.room", "must be a noun"),
    ("predicates: [\n", ":2", "not valid YAML"),
])
def test_a_bad_phrasing_file_gets_one_line_naming_file_line_and_key(tmp_path, content, where,
                                                                  says):
    shutil.copy(KEYS / "domain.pddl", tmp_path / "domain.pddl")
    bad = tmp_path / "phrasing.yaml"
    bad.write_text(content)
    for args in (("phrasing", "check", tmp_path / "domain.pddl"),
                 ("generate", "projection", "--domain-file", tmp_path / "domain.pddl",
                  "--problem-file", KEYS / "p01.pddl", "-n", "6", "--out", tmp_path / "out")):
        result = cli_here(*args)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        message = result.stderr.strip().splitlines()
        assert len(message) == 1 and f"{bad}{where}" in message[0] and says in message[0], \
            message
    assert not (tmp_path / "out").exists()
    with pytest.raises(PhrasingError):
        load_phrasing(bad, load_domain(tmp_path / "domain.pddl"), "")


# ------------------------------------------------------- every family and form

MARK = "by the file,"
# first_target asks about rule worlds only; next_observation has a recipe entry of its own
CONFIGS = [(family, form) for family, spec in sorted(FAMILIES.items())
           if family not in OWN_CONFIG and family != "first_target" for form in spec.forms]
# gripper's states all reach each other (no reachability question depends on the state),
# and its landmark options are too few (racbench/data/recipes/acp.yaml leaves both out)
DOMAIN_FOR = {"reachability": "goldminer", "action_reachability": "goldminer",
              "landmarks": "logistics"}


def marked_phrasing(folder: Path, name: str) -> Path:
    """`racbench phrasing init`'s file for a shipped domain with every sentence marked."""
    path = folder / f"{name}.yaml"
    if not path.exists():
        assert cli_here("phrasing", "init", name, "-o", path).returncode == 0
        types, rest = path.read_text().split("\npredicates:")
        rest = re.sub(r'(positive|negative|^  [\w-]+): "', rf'\1: "{MARK} ', rest, flags=re.M)
        path.write_text(types + "\npredicates:" + rest)
    return path


@pytest.fixture(scope="module")
def phrasing_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("phrasing")


def _text(rows) -> str:
    return " ".join(r["context"] + " " + r["question"] + " " + " ".join(r["choices"]) + " "
                    + r["answer"] for r in rows)


@pytest.mark.parametrize("family, form", CONFIGS)
def test_a_phrasing_file_changes_the_text_of_every_family_and_form(family, form,
                                                                  phrasing_folder):
    domain = DOMAIN_FOR.get(family, "gripper")
    phrasing = marked_phrasing(phrasing_folder, domain)
    plain = racbench.generate(family, domain=domain, n=2, form=form)
    phrased = racbench.generate(family, domain=domain, n=2, form=form, phrasing=phrasing)
    assert MARK in _text(phrased).lower(), _text(phrased)[:800]
    assert MARK not in _text(plain).lower()
    # the file's sentences are today's guesses (here the domain's templates) marked
    unmarked = re.sub(re.escape(MARK) + " ", "", _text(phrased), flags=re.I)
    assert unmarked.lower() == _text(plain).lower()
    assert [r["label"] for r in phrased] == [r["label"] for r in plain]
    assert "phrasing" in json.loads(phrased[0]["metadata"])["render"]
    assert "phrasing" not in json.loads(plain[0]["metadata"])["render"]


def test_a_phrasing_file_beside_the_domain_file_is_found(tmp_path):
    for path in KEYS.glob("*.pddl"):
        shutil.copy(path, tmp_path / path.name)
    files = dict(domain_file=tmp_path / "domain.pddl", problem=[tmp_path / "p02.pddl"], n=2)
    plain = _text(racbench.generate("projection", **files))
    shutil.copy(KEYS / "phrasing.yaml", tmp_path / "phrasing.yaml")
    found = _text(racbench.generate("projection", **files))
    assert "a door leads from" in found and "a door leads from" not in plain
    assert "there is a door from" in plain


def test_a_recipe_names_a_phrasing_file_relative_to_itself(tmp_path):
    folder = tmp_path / "job"
    shutil.copytree(KEYS, folder)
    (folder / "phrasing.yaml").rename(folder / "english.yaml")
    (folder / "recipe.yaml").write_text(
        "name: kd\nconfigs:\n  - name: kd_projection\n    family: projection\n"
        "    domain_file: domain.pddl\n    phrasing: english.yaml\n"
        "    problems: {train: [p01.pddl, p02.pddl], test: [p03.pddl]}\n"
        "    splits: {train: 4, test: 2}\n")
    result = cli("build", folder / "recipe.yaml", "--out", tmp_path / "out", "--quiet",
                 cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    shown = cli("show", tmp_path / "out", "kd_projection", "-n", "2")
    assert "a door leads from" in shown.stdout.lower(), shown.stdout


def test_open_answers_in_the_phrasing_are_scored_from_the_row_alone(phrasing_folder):
    row = racbench.generate("plan_generation", domain="gripper", n=1, form="open",
                            phrasing=marked_phrasing(phrasing_folder, "gripper"))[0]
    phrasing = Phrasing.from_json(json.loads(row["metadata"])["render"]["phrasing"])
    steps = json.loads(row["symbolic"])["answer"]
    reply = "\n".join(phrasing.action(s[0], tuple(s[1:])) for s in steps)
    assert reply.startswith(MARK), reply
    assert racbench.score(row, reply).value == 1.0
    # the same plan in words the row never used is not read
    assert racbench.score(row, reply.replace(MARK, "in other words,")).value == 0.0


@pytest.mark.parametrize("form", ["mc", "bool"])
def test_next_observation_reads_the_phrasing_beside_a_users_domain(tmp_path, form):
    from racbench.tasks.next_observation import NextObservationConfig

    def rows(folder: Path, phrasing: bool):
        folder.mkdir()
        for path in KEYS.glob("*.pddl"):
            shutil.copy(path, folder / path.name)
        if phrasing:
            shutil.copy(KEYS / "phrasing.yaml", folder / "phrasing.yaml")
        cfg = NextObservationConfig(domain_file=str(folder / "domain.pddl"), form=form,
                                    problems={"train": (str(folder / "p03.pddl"),),
                                              "test": (str(folder / "p04.pddl"),)},
                                    distractors=1)
        gen = cfg.rows("t", 1, ("train", "test"))
        return [gen.row("test", i, i).columns for i in range(4)]

    plain, phrased = rows(tmp_path / "plain", False), rows(tmp_path / "phrased", True)
    assert "the robot stands in" in _text(phrased) and "the robot stands in" not in _text(plain)
    assert "phrasing" in json.loads(phrased[0]["metadata"])["render"]
    assert [r["answer"] for r in phrased] == [r["answer"] for r in plain]
