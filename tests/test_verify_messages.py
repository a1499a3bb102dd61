"""What `racbench verify` says comes from templates/cli/verify.j2: every sentence it
stores for a wrong row is that template's rendering (so a reworded template changes
what verify prints), names the row's field first, and every message the template
holds renders to one line."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("unified_planning", reason="racbench verify needs unified-planning "
                                                "(pip install 'racbench[verify]')")

from test_verification import PLAN, acp_row, trac_row  # noqa: E402

from racbench.checks.verify import verify_row  # noqa: E402
from racbench.checks.verify.report import VerifyReport  # noqa: E402
from racbench.checks.verify.words import say  # noqa: E402
from racbench.text import environment  # noqa: E402


def _lab_row(**sym) -> dict:
    base = {"world": "science", "family": "applicability", "form": "bool", "answer": True,
            "task": "boil", "variation": 1, "simplifications": "", "history": [],
            "subject": ["open door to hallway"]}
    return {"id": "lab", "label": 1, "symbolic": json.dumps({**base, **sym})}


def _cases():
    """(row, optimal, the claim it fails, the sentence verify must store)."""
    sub = ["pick", "ball1", "room1", "left"]
    columns = acp_row("applicability", "bool", True, subject=["pick", "ball2", "room1", "left"])
    columns["form"] = "mc"
    return [
        (acp_row("applicability", "bool", True, subject=sub), False, "label",
         say("differs", claim="label", stored="true", derived="false",
             detail=say("family_of", family="applicability", subject=json.dumps(sub)))),
        (acp_row("applicability", "mc", 0, options=[sub, ["move", "room1", "room2"]]), False,
         "label", say("differs", claim="label", stored="A", derived="B",
                      detail=say("correct_options", family="applicability"))),
        (acp_row("executability", "open", 2, actions=PLAN[1:]), False, "label",
         say("fails", claim="label", message=say(
             "first_failure_differs", family="executability", stored="2", derived="1"))),
        (acp_row("justification", "open", [1, 5], actions=PLAN + PLAN[:1]), False, "label",
         say("fails", claim="label", message=say(
             "answer_differs", what=say("removable_steps"), missing=None, extra="[1]"))),
        (columns, False, "form",
         say("fails", claim="form", message=say("column_differs", column="mc",
                                                  symbolic="bool"))),
        (trac_row("executability", True, actions=[["fly", "a"]]), False, "symbolic",
         say("fails", claim="symbolic", message=say(
             "symbolic_unusable", replayed=False, missing=None,
             reason=say("unknown_symbol", kind="action", name="fly", term="fly(a)")))),
        (trac_row("planning", True, actions=[["movetotable", "a", "b"]]), False, "symbolic",
         say("fails", claim="symbolic", message=say(
             "symbolic_unusable", replayed=False, missing=None,
             reason=say("no_goal", family="planning")))),
        (_lab_row(family="projection", actions=[["fly away"]], subject=[]), False, "label",
         say("fails", claim="label", message=say("actions_do_not_run", world="science"))),
        (_lab_row(answer=False), False, "label",
         say("differs", claim="label", stored="false", derived="true",
             detail=say("replayed_fresh"))),
    ]


@pytest.mark.parametrize("case", range(9))
def test_a_wrong_rows_message_is_the_templates_and_names_the_field(case):
    row, optimal, claim, expected = _cases()[case]
    check = verify_row(row, optimal=optimal)
    assert not check.ok and claim in check.checked, check
    problems = check.message.split("; ")
    assert expected in problems, (check.message, expected)
    assert all(p.split(":", 1)[0] in check.checked for p in problems), check


def test_a_skipped_claim_and_the_summary_are_the_templates():
    check = verify_row(acp_row("landmarks", "bool", True, subject=["robot-at", "room2"]),
                       optimal=False)
    assert check.ok and check.skipped == [say("skipped", claim="label",
                                              reason=say("no_fast_downward"))]
    report = VerifyReport(root=None)
    report.rows.update({"a": 2})
    report.checked.update(check.checked * 2)
    report.skipped.update(check.skipped * 2)
    report.engines.update(check.engines * 2)
    assert report.summary() == (
        "verified 2 rows in 1 configs: 0 mismatching; checked 2 rows (by engine: "
        "unified-planning 2); claims checked: answer 2; skipped: label (no Fast Downward) 2; "
        "0 rows unchecked")
    report.unchecked.update({"why": 1})
    assert report.summary().endswith("; unchecked: 1 rows the engines could not run on (why: 1)")


#: Arguments that are lists: of (name, rows) pairs, or of names.
PAIRS = ("pairs", "engines", "claims", "skipped", "unchecked")
NAMES = ("unknown", "found", "actions", "facts", "types")


def test_every_message_of_the_template_renders_to_one_line():
    """Each macro with every argument given renders one line, with no newline from a
    message nested in it (install, counts, translator_missing)."""
    module = environment().get_template("cli/verify.j2").module
    names = [n for n in dir(module) if not n.startswith("_")]
    assert len(names) > 80
    for name in names:
        args = {a: [("x", 1), ("y", 2)] if a in PAIRS else ["x", "y"] if a in NAMES
                else f"<{a}>" for a in getattr(module, name).arguments}
        text = say(name, **args)
        assert text and "\n" not in text, (name, text)
        assert "{{" not in text and "{%" not in text, (name, text)
