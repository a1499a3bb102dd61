"""The science lab's goal recognition at each level (issue 32): above easy the context
shows a state `length - 1` commands before the observed command (LAB_HISTORIES, as
progression's and applicability's) and the commands typed since; the question asks
whether the one observed command begins a shortest solution from where they lead. On
boil, whose two-command questions are one-sided, it is asked at every level; `racbench
verify` re-derives each label by replaying the history, and the stream's rows are the
same bytes whatever reads them and whatever the hash seed."""

from __future__ import annotations

import hashlib
import json


from racbench.checks.verify.dataset import verify_row
from racbench.checks.verify.replay import Replay, observed_since
from racbench.tasks.options import EARLIER_STATE_FAMILIES, LAB_MAX_DISTANCE
from racbench.training.levels import LAB_HISTORIES, LAB_LEVELS, LEVELS, level_config
from racbench.worlds.science.trajectory import gold_trajectory
from test_levels_lab_history import (Drawn, FirstVariation, printed_under_another_hash_seed,
                                     read_by_two_nodes)

FAMILY, TASK = "goal_recognition", "boil"
KEY = f"{FAMILY}@science/{TASK}"


_DRAWN = Drawn(FirstVariation)


def _rows(level: str, n: int) -> list[dict]:
    return _DRAWN.rows(KEY, level, n)


def test_the_table_asks_one_observed_command_after_the_levels_history():
    assert FAMILY in EARLIER_STATE_FAMILIES
    for k, level in enumerate(LEVELS):
        for task in (TASK, "power-component"):
            cfg = level_config(FAMILY, level, f"science/{task}")
            assert cfg.earlier_state and tuple(cfg.lengths) == LAB_LEVELS[k][1], (task, level)
            assert tuple(n - 1 for n in cfg.lengths) == LAB_HISTORIES[k]


def _answer_without_history(row: dict) -> bool:
    """The row's question asked at the state its context shows, the commands typed since
    left out: does the observed command begin a shortest solution from there (a state
    not proven within the oracle's reach: no)?"""
    sym = json.loads(row["symbolic"])
    _, observed = observed_since(sym)
    replay = Replay(sym)
    gold = [s["action"] for s in gold_trajectory(sym["task"], int(sym["variation"]),
                                                 sym["simplifications"])]
    total = replay.distance(gold[-LAB_MAX_DISTANCE:])
    if total is None or not replay.run_all(observed):
        return False
    rest = replay.distance()
    return rest is not None and rest + len(observed) == total


def test_boil_rows_carry_their_levels_history_and_verify_rederives_them():
    """At every level boil gives rows (one observed command); each row's history has the
    level's length (medium: both of its), its context shows the earlier state, the
    commands since and the observed one, verify re-derives its label by replaying the
    history, and a changed label fails verify. Some rows' answers differ from the one
    at the state shown: the history decides them."""
    changed = 0
    for k, level in enumerate(LEVELS):
        rows = _rows(level, 6 if k == 1 else 3)
        seen = set()
        for row in rows:
            sym = json.loads(row["symbolic"])
            since, observed = observed_since(sym)
            assert len(observed) == 1, row["id"]
            seen.add(len(since))
            assert len(since) in LAB_HISTORIES[k], (level, row["id"])
            assert row["sequence_length"] == len(since) + 1
            context, question = row["context"], row["question"]
            if since:
                assert sym["subject"] == [observed]
                assert "Earlier: " in context and "Since then, these actions have been " \
                    f"executed in order: (1) you " in context, row["id"]
                assert f"({len(since)}) you " in context
                assert context.endswith("Next, the agent is observed to execute: (1) you "
                                        f"{observed[0]}."), context[-200:]
                assert question.startswith("From the state those executed actions lead to, "
                                           "is the observed action the beginning"), question
            else:
                assert sym.get("subject") is None and "Earlier: " not in context
                assert "An agent is observed to execute, in order: (1) " in context
            check = verify_row(row)
            assert check.ok and "label" in check.checked, (row["id"], check.message)
            if row is rows[0]:  # a flipped label fails verify (once a level: a proof costs)
                wrong = dict(row, label=1 - row["label"], answer="false" if row["label"]
                             else "true", symbolic=json.dumps({**sym, "answer": not sym["answer"]}))
                assert not verify_row(wrong).ok, row["id"]
            if since and not changed:  # one such row is enough (each is a proof)
                changed += _answer_without_history(row) != bool(row["label"])
        assert seen == set(LAB_HISTORIES[k]), (level, seen)
    assert changed, "no row's answer depends on the commands typed since the state shown"


def _digest(rows: list[dict]) -> str:
    return hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()


def test_the_stream_is_the_same_bytes_for_any_number_of_readers_and_hash_seed():
    reference = _rows("expert", 4)  # the boil test's rows, drawn in this process
    assert read_by_two_nodes(FirstVariation(KEY, seed=0, level="expert"), 4) == reference
    code = ("import sys; sys.path.insert(0, 'tests'); from test_levels_lab_goal import "
            "_digest, _rows; print(_digest(_rows('expert', 4)))")
    assert printed_under_another_hash_seed(code) == _digest(reference) + "\n"
