"""The order test files are handed to xdist's workers (tests/conftest.py applies it).

`--dist loadfile` gives a worker a whole file at a time, in collection order (pyproject
turns off xdist's own reordering, which puts the files with the most tests first and so
left one-test files of a minute, test_golden, for the end while the other worker sat
idle). The files below cost the most CPU (benchmarks/suite_files.py prints each file's
and this list); they go first, costliest first, so the short files fill in at the end.
A file missing from the list only runs later; a listed file that no longer exists is
skipped here (collection goes on for everyone) and named by
tests/test_suite_order.py::test_listed_files_exist, which fails.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# CPU s of each file run alone (benchmarks/suite_files.py, 2 cores shared with other jobs).
# suite_files.py counts every process a file starts, Ray's raylet and workers included
# (it is their subreaper); before it did, test_ray_engine was ranked at 28.4 and handed
# out eighteenth, though it is one of the longest files. Ray's workers it counts by a
# cgroup where it can make one (the raylet ignores SIGCHLD: their CPU reaches no
# RUSAGE_CHILDREN): test_ray_engine's figure is the cgroup's; the others were measured
# without (test_benchmarks' run of benchmarks/ray_engine.py leaves out its Ray workers).
# suite-cut2's, suite-cut3's and suite-cut4's figures are the earlier ones scaled by the
# file's new/old CPU in alternating pairs (a loaded machine), so they stay comparable with
# the figures measured before; suite-cut4's unchanged files measured again (lab_families)
# are scaled by 1/1.47, the median ratio of its loaded figures to this list's.
SLOW_FIRST = [
    "tests/test_ray_engine.py",  # 61-68 by a cgroup (79-85 before suite-cut6)
    "tests/test_benchmarks.py",  # about 65 (70.1 before suite-cut2: acp scripts on ferry)
    "tests/test_levels_forms.py",  # 65.7 loaded (rule worlds' projection mc 27 of it)
    "tests/science/test_reference_scienceworld.py",  # 45.9 with its JVM (90.1 before suite-cut3)
    "tests/test_levels_lab_goal.py",  # 45.8 loaded (84.3 before suite-cut: one variation, rows drawn once)
    "tests/test_golden_acp.py",  # 45 (its build 42.8; golden small was 52.5 in one file)
    "tests/test_docs.py",  # 44.0 (49.3 before suite-cut4: README's build of projection_* only)
    "tests/test_adl_families.py",  # 42.4 (45.9 before suite-cut2)
    "tests/test_build.py",  # about 42 (56.2 before suite-cut2: runs in-process)
    "tests/acp/test_leaks.py",  # 40.9 (42.7 before suite-cut4: the mc build by one worker)
    "tests/test_verification.py",  # 37.7 (47.6 before suite-cut2: datasets made in-process)
    "tests/test_implicit_worlds.py",  # about 34 (37.9 before suite-cut2; satellite p14 in-process)
    "tests/test_levels_lab.py",  # 32.8 loaded (72.0 before suite-cut: surveys shared, fewer variations)
    "tests/test_bad_input.py",  # 26.0 (27.4 before suite-cut4: its shared build in-process)
    "tests/test_user_messages.py",  # 25.3
    "tests/test_build_resume.py",  # 23.9 (27.0 before suite-cut2: one clean build)
    "tests/science/test_lab_families.py",  # about 23.5 (34.6 loaded; listed 56.1 before stop 43's cut)
    "tests/test_domains.py",  # 23.4
    "tests/test_fd_check.py",  # 21.8 (27.0 before suite-cut2: verify in-process)
    "tests/test_lm_eval_export.py",  # 21.3 (24.0 before suite-cut2)
    "tests/test_parquet_writer.py",  # about 21 (30.5 before suite-cut3: rows made once)
    "tests/test_levels_strips.py",  # 19.4
    "tests/test_competition.py",  # 19.1
    "tests/test_next_observation.py",  # 18.6 (38.1 before suite-cut2: refusals, verify in-process)
    "tests/acp/test_labels.py",  # 17.1
    "tests/science/test_reference_thermo.py",  # 16.6 (32.9 before suite-cut3)
    "tests/test_phrasing_file.py",  # 15.6 (37.2 before suite-cut2: phrasing commands in-process)
    "tests/test_text_guesses.py",  # 14.9
    "tests/test_inspect_export.py",  # 13.4 (17.2 before suite-cut2)
    "tests/acp/test_cli.py",  # 13.1 (23.1 before suite-cut2, 38.4 before suite-cut)
    "tests/science/test_scienceworld_gold_paths.py",  # 12.9 (27.0 before suite-cut3)
    "tests/test_golden.py",  # about 8 (trac's part of golden small)
]


def stale_entries() -> list[str]:
    """SLOW_FIRST's names of files that do not exist (renamed or removed)."""
    return [name for name in SLOW_FIRST if not (ROOT / name).is_file()]


def costliest_first(items: list) -> None:
    """Sort pytest's items in place: SLOW_FIRST's files in its order, then the rest in
    collection order (a file's tests keep theirs). A stale entry only ranks nothing:
    stopping the collection would stop every test of the session for one list."""
    rank = {name: i for i, name in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))
