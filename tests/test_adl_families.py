"""Six families on the ADL domains (tests/data/adl/), every form, made through the public
API and re-derived by unified-planning and Fast Downward (`racbench verify`): every
claim agrees, no row is left unchecked, and each row's symbolic form carries the
domain exactly as written, so it replays with the uncompiled domain."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import racbench
from racbench.checks.verify import fd_available, verify_row
from racbench.errors import GenerationError

ADL = Path(__file__).parent / "data" / "adl"
DOMAINS = ("elevator", "scheduling", "assembly", "household")
FAMILIES = ("projection", "executability", "planning", "applicability", "progression",
            "validation")
ROWS = 4


def rows_of(domain: str, family: str, form: str, n: int = ROWS) -> list[dict]:
    return racbench.generate(family, domain_file=ADL / domain / "domain.pddl",
                             problem=sorted((ADL / domain / "problems").glob("*.pddl")),
                             n=n, form=form, seed=7)


def test_fast_downward_is_there():
    assert fd_available(), "the ADL checks need up-fast-downward (pip install 'racbench[verify]')"


@pytest.mark.parametrize("domain,family", [(d, f) for f in FAMILIES for d in DOMAINS] + [
    ("elevator", "landmarks"), ("scheduling", "landmarks")])  # facts added conditionally
def test_rows_verify_with_the_original_domain(domain, family):
    text = (ADL / domain / "domain.pddl").read_text()
    forms = ("bool", "mc", "open")
    if family == "landmarks":  # no four-option sets; weighted options would tell the answer
        with pytest.raises(GenerationError, match="options alone would not tell"):
            rows_of(domain, family, "mc")
        forms = ("bool", "open")
    for form in forms:
        rows = rows_of(domain, family, form)
        assert len(rows) == ROWS
        for row in rows:
            sym = json.loads(row["symbolic"])
            assert sym["domain_pddl"] == text
            check = verify_row(row, optimal=True)
            assert check.ok and not check.unchecked, (form, row["id"], check)
            assert "answer" in check.checked or "label" in check.checked, check


def test_an_action_split_for_a_disjunction_is_listed_once():
    # assembly p02: open-shelf s1 opens with the key or with the hammer
    rows = rows_of("assembly", "applicability", "open", n=30)
    for row in rows:
        answer = json.loads(row["symbolic"])["answer"]
        assert len(answer) == len({tuple(t) for t in answer}), row["id"]
    assert any(["open-shelf", "s1"] in json.loads(r["symbolic"])["answer"] for r in rows)


SCRIPT = """
import hashlib, json, racbench
from pathlib import Path
adl = Path("tests/data/adl/elevator")
rows = racbench.generate("projection", domain_file=adl / "domain.pddl",
                         problem=sorted((adl / "problems").glob("*.pddl")), n=6, form="mc",
                         seed=3)
print(hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest())
"""


def test_same_rows_under_two_hash_seeds():
    root = Path(__file__).resolve().parents[1]
    out = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed,
                   PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
        out.append(subprocess.run([sys.executable, "-c", SCRIPT], cwd=root, env=env,
                                  capture_output=True, text=True, check=True).stdout)
    assert out[0] == out[1] and len(out[0].strip()) == 64


def test_racbench_generate_and_verify_on_the_command_line(tmp_path):
    """The CLI path a user takes: `racbench generate` on the ADL files, then `racbench
    verify` on the folder, with Fast Downward required."""
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root),
                                                       os.environ.get("PYTHONPATH", "")]))
    domain = ADL / "elevator"
    problems = [a for p in sorted((domain / "problems").glob("*.pddl"))
                for a in ("--problem-file", str(p))]
    out = tmp_path / "out"
    subprocess.run([sys.executable, "-m", "racbench.cli", "generate", "projection",
                    "--domain-file", str(domain / "domain.pddl"), *problems, "--form", "mc",
                    "-n", "6", "--out", str(out), "--quiet"], env=env, check=True)
    done = subprocess.run([sys.executable, "-m", "racbench.cli", "verify", str(out),
                           "--require-optimal"], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 mismatching" in done.stdout and "0 rows unchecked" in done.stdout, done.stdout
