"""The science lab's progression and applicability at each level (issue 32): the context
shows a state `length - 1` commands before the one asked about (LAB_HISTORIES: none at
easy, so easy's rows are what they were) and the commands typed since; the label is the
command's after them, which `racbench verify` re-derives by replaying them, and the
stream's rows are the same bytes whatever reads them."""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import subprocess
import sys
from dataclasses import replace

import pytest
from datasets.distributed import split_dataset_by_node

from racbench.checks.verify.dataset import verify_row
from racbench.checks.verify.replay import Replay
from racbench.tasks import FAMILIES, OWN_CONFIG
from racbench.tasks.config import ConfigError, TaskConfig
from racbench.tasks.options import EARLIER_STATE_FAMILIES
from racbench.training.levels import LAB_HISTORIES, LAB_LEVELS, LEVELS, level_config
from racbench.training.stream import SPLIT, Stream
from racbench.worlds.science.lab import LEFT_OUT_VERBS
from racbench.worlds.science.registry import get_task

TASK = "boil"
VARIATIONS = 2  # the first train variations a level's rows are drawn from (survey CPU)


class FirstVariations(Stream):
    """A stream whose lab configs draw from the task's first `variations` train
    variations (the level's knobs otherwise), as the benchmark's `--variations` does."""

    variations = VARIATIONS

    def _config(self, key: str, level: str):
        cfg = super()._config(key, level)
        spec = get_task(cfg.science)
        chosen = [str(v) for v in range(spec.n_variations) if spec.split_of(v) == SPLIT]
        return replace(cfg, problems={SPLIT: chosen[:self.variations]}).validate()


class Drawn:
    """Rows drawn once in a test module: a (task, level, seed)'s stream is surveyed once
    (most of a lab test's CPU) and its rows kept, rows(0, n) being a prefix of any
    longer rows(0, m); each module keeps its own, so a file's tests still draw what they
    check wherever they run. Tests read the rows, never change them."""

    def __init__(self, stream: type[Stream] = FirstVariations):
        self.stream = stream
        self.made: dict[tuple, tuple[Stream, list[dict]]] = {}

    def rows(self, key: str, level: str, n: int, seed: int = 0) -> list[dict]:
        stream, made = self.made.setdefault((key, level, seed),
                                            (self.stream(key, seed=seed, level=level), []))
        made += [stream.row(i) for i in range(len(made), n)]
        return made[:n]


class FirstVariation(FirstVariations):
    """Boil's first train variation alone: its rows ask every level's history lengths
    (and some answers change with the history), at about half the CPU of two."""

    variations = 1


def read_by_two_nodes(stream: Stream, n: int) -> list[dict]:
    """A stream's first `n` rows (`n` even) as two nodes read them (split_dataset_by_node:
    each every other row), put back in order: a test compares them with `rows(0, n)`."""
    ds = stream.to_iterable_dataset(n_shards=2)
    readers = [list(itertools.islice(split_dataset_by_node(ds, rank=r, world_size=2), n // 2))
               for r in range(2)]
    return [readers[i % 2][i // 2] for i in range(n)]


def printed_under_another_hash_seed(code: str) -> str:
    """What `code` prints run from the checkout under a PYTHONHASHSEED other than this
    process's: a test compares it with what this process computes, so two hash seeds are
    compared for one subprocess (a lab stream's rows cost a survey in each)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    other = "123" if os.environ.get("PYTHONHASHSEED") == "0" else "0"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=root, env={**os.environ, "PYTHONHASHSEED": other}).stdout


_DRAWN = Drawn(FirstVariation)


def _rows(family: str, level: str, n: int, seed: int = 0) -> list[dict]:
    return _DRAWN.rows(f"{family}@science/{TASK}", level, n, seed)


def _since(row: dict) -> list[str]:
    """The commands typed since the state the row's context shows."""
    sym = json.loads(row["symbolic"])
    commands = [a[0] for a in sym.get("actions") or []]
    return commands[:-1] if sym["family"] == "progression" else commands


def test_the_table_shows_earlier_states_as_projections_lengths_grow():
    assert LAB_HISTORIES == ((0,), (0, 1), (2,), (3,))
    assert LAB_HISTORIES == tuple(tuple(n - 1 for n in lengths) for _, lengths in LAB_LEVELS)
    lab = [f for f, fam in FAMILIES.items() if "science" in fam.worlds
           and "bool" in fam.forms and f not in OWN_CONFIG]
    for family in lab:
        for k, level in enumerate(LEVELS):
            cfg = level_config(family, level, f"science/{TASK}")
            assert cfg.earlier_state == (family in EARLIER_STATE_FAMILIES), (family, level)
            if cfg.earlier_state:
                assert tuple(n - 1 for n in cfg.lengths) == LAB_HISTORIES[k]


# goal recognition's rows (one observed command after the history): test_levels_lab_goal.py
@pytest.mark.parametrize("family", ["progression", "applicability"])
def test_rows_carry_a_history_of_their_levels_length_and_verify_rederives_them(family):
    """Every row's history has the level's length (medium: both of its), its context
    shows the earlier state and the commands since, and verify re-derives its label by
    replaying them; where the history changes the answer, the label is the answer after
    it (some rows: the answer at the state shown would be the other one)."""
    changed = 0
    for k, level in enumerate(LEVELS):
        rows = _rows(family, level, 8 if k == 1 else 4)
        seen = set()
        for row in rows:
            since = _since(row)
            seen.add(len(since))
            assert len(since) in LAB_HISTORIES[k], (level, row["id"])
            context = row["context"]
            if since:
                assert context.startswith("Earlier: ") and "Since then, these actions " \
                    "have been executed in order: (1) you " in context, row["id"]
                assert f"({len(since)}) you " in context and f"({len(since) + 1}) " \
                    not in context
                if family == "applicability":  # the asked command is not one of "these"
                    assert row["question"].startswith(
                        "After those actions, is the following action applicable: you "), \
                        row["question"]
            else:
                assert context.startswith("Currently: "), row["id"]
            check = verify_row(row)
            assert check.ok and "label" in check.checked, (row["id"], check.problems)
            changed += bool(since) and _answer_at_shown_state(row) != bool(row["label"])
        assert seen == set(LAB_HISTORIES[k]), (level, seen)
    assert changed, "no row's answer depends on the commands typed since the state shown"


def _answer_at_shown_state(row: dict) -> bool:
    """The row's question answered at the state its context shows, the history left
    out: the asked command alone (progression), or asked there (applicability)."""
    sym = json.loads(row["symbolic"])
    replay = Replay(sym)
    if sym["family"] == "applicability":
        command = sym["subject"][0]
        return command in replay.valid() and not command.startswith(LEFT_OUT_VERBS)
    ran = replay.run_all([sym["actions"][-1][0]], any_verb=False)
    return ran and replay.holds(sym["subject"])


def test_easy_rows_show_the_state_the_command_is_asked_in():
    for family in ("progression", "applicability"):  # goal recognition: test_levels_lab_goal
        for row in _rows(family, "easy", 4):
            assert _since(row) == [] and row["context"].startswith("Currently: ")
            sym = json.loads(row["symbolic"])
            assert ("actions" in sym) == (family == "progression")


def test_the_stream_is_the_same_bytes_for_any_number_of_readers_and_hash_seed():
    # the rows other tests drew in this process (seed 0) are the reference
    reference = _rows("applicability", "hard", 6)
    key = "applicability@science/boil"
    assert read_by_two_nodes(FirstVariation(key, seed=0, level="hard"), 6) == reference
    code = ("import hashlib, json, sys; sys.path.insert(0, 'tests'); "
            "from test_levels_lab_history import _rows; print(hashlib.sha256(json.dumps("
            "_rows('progression', 'expert', 4), sort_keys=True).encode())"
            ".hexdigest())")
    here = hashlib.sha256(json.dumps(_rows("progression", "expert", 4),
                                     sort_keys=True).encode()).hexdigest()
    assert printed_under_another_hash_seed(code) == here + "\n"


@pytest.mark.parametrize("config", [
    {"family": "projection", "science": "boil"},
    {"family": "progression", "domain": "gripper"},
])
def test_earlier_state_is_refused_where_it_is_not_asked(config):
    with pytest.raises(ConfigError, match="'earlier_state' .* is asked of progression, "
                                          "applicability, goal_recognition on the science "
                                          "lab; got "):
        TaskConfig(**config, earlier_state=True).validate()
