"""`racbench generate FAMILY` on shipped domains and on user PDDL files."""

import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pyarrow.parquet as pq
from click.testing import CliRunner

from racbench.cli import main

from racbench.worlds.strips.shipped import shipped_files


def racbench_here(*args):
    """The CLI run in this process (click's runner: the console script's code path, as
    tests/test_bad_input.py runs it), for the refusals and the generate runs whose process
    is not what is tested (test_same_bytes_under_two_hash_seeds runs one real CLI): a
    process each would pay Python's, racbench's and pyarrow's start. Gives returncode and
    stderr as `racbench`."""
    result = CliRunner().invoke(main, [str(a) for a in args])
    return SimpleNamespace(returncode=result.exit_code, stderr=result.stderr,
                           stdout=result.stdout)


def user_files(tmp_path: Path, n: int = 3, first: int = 1) -> tuple[Path, list[Path]]:
    domain, problems = shipped_files("gripper", [f"p{i:02d}" for i in range(first, first + n)])
    shutil.copy(domain, tmp_path / "domain.pddl")
    out = []
    for i, p in enumerate(problems):
        out.append(tmp_path / f"task{i}.pddl")
        shutil.copy(p, out[-1])
    return tmp_path / "domain.pddl", out


def test_generate_on_user_files(tmp_path):
    domain, problems = user_files(tmp_path, first=4)  # p01-p03 offer too few mc subjects
    args = ["generate", "next_action", "--domain-file", domain, "--form", "mc", "-n", 12,
            "--out", tmp_path / "out", "--workers", 1, "--quiet"]
    for p in problems:
        args += ["--problem-file", p]
    r = racbench_here(*args)
    assert r.returncode == 0, r.stderr
    files = sorted((tmp_path / "out" / "next_action_mc").glob("*.parquet"))
    splits = {f.name.split("-")[0] for f in files}
    assert splits == {"train", "validation", "test"}
    test = pq.read_table(tmp_path / "out" / "next_action_mc" / files[0].name).to_pylist()
    assert all(row["family"] == "next_action" and len(row["choices"]) == 4 for row in test)


def test_generate_on_a_shipped_domain(tmp_path):
    r = racbench_here("generate", "progression", "--domain", "ferry", "--form", "open", "-n", 12,
                 "--out", tmp_path / "o", "--workers", 1, "--quiet")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "o" / "progression_open").is_dir()


def assert_user_error(r, *words):
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert "Traceback" not in r.stderr
    for w in words:
        assert w in r.stderr, r.stderr


def test_syntax_error_names_file_line_and_column(tmp_path):
    domain, problems = user_files(tmp_path, 1)
    text = domain.read_text().replace("(:action move", "(:action move (", 1)
    domain.write_text(text)
    r = racbench_here("generate", "applicability", "--domain-file", domain,
                      "--problem-file", problems[0], "-n", 4, "--out", tmp_path / "o")
    line = next(i for i, l in enumerate(text.splitlines(), 1) if "(:action move (" in l)
    assert_user_error(r, f"{domain}:{line}:")
    assert not (tmp_path / "o").exists()


def test_unsupported_requirement_is_named(tmp_path):
    domain, problems = user_files(tmp_path, 1)
    domain.write_text(domain.read_text().replace(":strips", ":strips :numeric-fluents", 1))
    r = racbench_here("generate", "applicability", "--domain-file", domain,
                      "--problem-file", problems[0], "-n", 4, "--out", tmp_path / "o")
    assert_user_error(r, ":numeric-fluents", "is not supported", ":derived-predicates")


def test_too_many_rows_refused_before_writing(tmp_path):
    domain, problems = user_files(tmp_path, 1)
    r = racbench_here("generate", "applicability", "--domain-file", domain,
                      "--problem-file", problems[0], "-n", 100_000, "--out", tmp_path / "o")
    assert_user_error(r, "distinct")
    assert sorted(os.listdir(tmp_path)) == ["domain.pddl", "task0.pddl"]


def test_unknown_family_and_form(tmp_path):
    assert_user_error(racbench_here("generate", "nope", "--domain", "ferry", "--out",
                                    tmp_path / "o"), "unknown family 'nope'", "landmarks")
    assert_user_error(racbench_here("generate", "plan_generation", "--domain", "ferry",
                                    "--form", "bool", "--out", tmp_path / "o"),
                      "no form 'bool'")


def test_same_bytes_under_two_hash_seeds(tmp_path):
    """The CLI under a hash seed other than this process's, on two workers, writes the
    bytes it writes in this process on one (one subprocess, not one a hash seed)."""
    args = ["generate", "reachability", "--domain", "floortile", "--problem-file", "p04",
            "--problem-file", "p06", "--form", "mc", "-n", "12", "--quiet"]
    other = "1" if os.environ.get("PYTHONHASHSEED") == "0" else "0"
    r = subprocess.run([sys.executable, "-m", "racbench.cli", *args, "--workers", "2",
                        "--out", str(tmp_path / "there")], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONHASHSEED=other))
    assert r.returncode == 0, r.stderr
    r = racbench_here(*args, "--workers", "1", "--out", tmp_path / "here")
    assert r.returncode == 0, r.stderr
    outs = [{p.relative_to(out): p.read_bytes() for p in out.rglob("*.parquet")}
            for out in (tmp_path / "there", tmp_path / "here")]
    assert outs[0] == outs[1] and outs[0]


def test_generate_makes_the_config_racbench_generate_makes(tmp_path):
    """The command and the Python function turn their arguments into a config one way:
    the same defaults (a TRAC task of length 1, a family of length 2) and the same rows."""
    import racbench as api

    r = racbench_here("generate", "projection", "-n", 6, "--out", tmp_path / "t", "--workers", 1,
                 "--quiet")
    assert r.returncode == 0, r.stderr
    table = pq.read_table(tmp_path / "t" / "projection_L1" / "test-00000-of-00001.parquet")
    assert set(table.column("sequence_length").to_pylist()) == {1}
    r = racbench_here("generate", "projection", "--domain", "gripper", "--problem-file", "p04",
                 "-n", 4, "--out", tmp_path / "a", "--workers", 1, "--quiet")
    assert r.returncode == 0, r.stderr
    built = pq.read_table(tmp_path / "a" / "projection_bool" / "test-00000-of-00001.parquet")
    assert built.to_pylist() == api.generate("projection", domain="gripper", problem="p04", n=4)
    assert set(built.column("sequence_length").to_pylist()) == {2}


def test_trac_knobs_are_refused_on_a_domain(tmp_path):
    assert_user_error(racbench_here("generate", "applicability", "--domain", "gripper",
                                    "--objects", 7, "--out", tmp_path / "o"), "'objects'")
    assert_user_error(racbench_here("generate", "landmarks", "--out", tmp_path / "o"),
                      "task 'landmarks' needs a domain (--domain")
