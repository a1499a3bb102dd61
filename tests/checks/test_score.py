"""`racbench.score`: free-form replies to rows built by the real generators, scored on
the row's own problem: right, wrong, and unreadable (parsed False, value 0.0)."""

import json
import subprocess
import sys
import time
from dataclasses import FrozenInstanceError

import pytest

import racbench
from racbench.checks.answers import extract_actions, extract_facts
from racbench.checks.score import OPEN_ANSWERS, Score, score
from racbench.errors import InputError
from racbench.tasks import FAMILIES
from racbench.tasks.config import TaskConfig
from racbench.tasks.rows import ConfigRows
from racbench.tasks.symbolic import SymbolicTask, symbolic_task
from racbench.worlds.strips import oracles

LONG = "Let me think about the state once more. " * 300
TALK = "Let me check the state first: the robot's position and what it holds matter here."


def task_of(row):
    """The row's problem, to phrase its answer the way the row phrases facts and actions."""
    return symbolic_task(row["symbolic"], json.loads(row["metadata"])["render"])


def check(row, reply, value, parsed=True):
    got = racbench.score(row, reply)
    assert isinstance(got, Score)
    assert (got.value, got.parsed) == (value, parsed), (row["id"], reply, got)
    if not parsed:
        assert got.value == 0.0
    return got


# -- bool: ACP bool rows and TRAC rows -----------------------------------------------------

SAYS = [
    lambda yes: "Yes, because every precondition holds." if yes else
    "No, because one precondition fails.",
    lambda yes: f"The answer is {'true' if yes else 'false'}.",
    lambda yes: f"**{'True' if yes else 'False'}**",
    lambda yes: "It is true." if yes else "It is not true.",
    lambda yes: f"{TALK}\n\nAnswer: {'yes' if yes else 'no'}",
    lambda yes: f"The statement is {'true' if yes else 'false'}.",
    lambda yes: "yes" if yes else "no",
    lambda yes: f"Final Answer: {'TRUE' if yes else 'FALSE'}\n\nExplanation: see the state.",
    lambda yes: f"{LONG}So the answer is {'yes' if yes else 'no'}.",
    lambda yes: "True" if yes else "False",
    lambda yes: f"The statement is {'correct' if yes else 'not correct'}.",
    lambda yes: "That's right." if yes else "That is wrong.",
    lambda yes: "It holds." if yes else "It does not hold.",
]
NO_ANSWER = ["", "I cannot tell.", "Neither true nor false.", "No. Wait, yes.", "Maybe",
             "It depends.", LONG, "True or false?", "Yes and no.",
             "The answer is true and false."]


def test_bool_replies(acp_rows, trac_rows):
    rows = (acp_rows("applicability", "gripper", "bool", 4)
            + acp_rows("landmarks", "blocksworld", "bool", 4) + trac_rows("projection")
            + trac_rows("executability"))
    truths = {r["answer"] == "true" if "form" in r else bool(r["label"]) for r in rows}
    assert truths == {True, False}
    for row in rows:
        truth = row["answer"] == "true" if "form" in row else bool(row["label"])
        for says in SAYS:
            assert check(row, says(truth), 1.0).extracted == ("true" if truth else "false")
            check(row, says(not truth), 0.0)
        for reply in NO_ANSWER:
            assert check(row, reply, 0.0, parsed=False).extracted is None


# -- mc -------------------------------------------------------------------------------------

NAMES = [
    lambda letter, text: f"The answer is {letter}.",
    lambda letter, text: f"({letter})",
    lambda letter, text: f"**{letter}**",
    lambda letter, text: f"{letter}. {text}",
    lambda letter, text: f"Answer: {letter}\n\nBecause the other options need another state.",
    lambda letter, text: text,
    lambda letter, text: f"I think the correct option is {letter}, the only one that fits.",
    lambda letter, text: f"{TALK}\n\nFinal answer: ({letter})",
    lambda letter, text: f"Option {letter}",
    lambda letter, text: f"{LONG}The answer is {letter}.",
]


@pytest.mark.parametrize("family,domain", [("applicability", "gripper"),
                                           ("next_action", "blocksworld"),
                                           ("executability", "gripper")])
def test_mc_replies(family, domain, acp_rows):
    for row in acp_rows(family, domain, "mc", 4):
        for i, text in enumerate(row["choices"]):
            letter = "ABCD"[i]
            for name in NAMES:
                check(row, name(letter, text), float(letter == row["answer"]))
        right = row["answer"]
        wrong = "ABCD"[(row["answer_index"] + 1) % 4]
        for reply in ["", "I cannot tell.", f"{right} or {wrong}", f"Neither {wrong} nor {right}",
                      f"({right}) or ({wrong})", "E", "None of the options.", LONG]:
            check(row, reply, 0.0, parsed=False)


# -- open rows: lists of actions ------------------------------------------------------------

def _phrased(row, line):
    st = task_of(row)
    if line.startswith("(not "):
        return st.text.fact(tuple(line[6:-2].split()), False)
    term = tuple(line[1:-1].split())
    return st.text.action(term) if st.action(term) is not None else st.text.fact(term, True)


def list_forms(row):
    """Replies giving the row's own answer (a list of terms), in several styles."""
    ts = row["answer"].splitlines()
    words = [_phrased(row, t) for t in ts]
    return [
        "\n".join(ts),
        "\n".join(f"{i}. {t}" for i, t in enumerate(ts, 1)),
        "Here is the answer:\n" + "\n".join(f"- {t}" for t in ts)
        + "\n\nEach of these follows from the state.",
        "```pddl\n" + "\n".join(ts) + "\n```",
        f"{TALK}\n\nFinal answer:\n" + "\n".join(ts),
        "[" + ", ".join(ts) + "]",
        "\n".join(f"{i}. {w}" for i, w in enumerate(words, 1)),
        "\n".join(f"**{w}**" for w in words),
        "; ".join(words),
        ", ".join(words),
        "First " + ", then ".join(words) + ".",
        f"{TALK}\n\nThe answer is: " + ", ".join(words[:-1]) + " and " + words[-1] + ".",
        "First, " + ", ".join(words[:-1]) + ", and finally " + words[-1] + ".",
    ]


UNREADABLE_ITEMS = ["", "I cannot tell.", "   ", "The robot teleports to the goal.",
                    "Sure! Happy to help with that"]


@pytest.mark.parametrize("family,domain", [("applicability", "blocksworld"),
                                           ("applicability", "gripper"),
                                           ("plan_generation", "blocksworld"),
                                           ("plan_generation", "gripper"),
                                           ("reachability", "gripper")])
def test_action_list_replies(family, domain, acp_rows):
    for row in acp_rows(family, domain, "open", 3):
        ts = row["answer"].splitlines()
        assert row["answer"] != "none"
        for reply in list_forms(row):
            assert check(row, reply, 1.0).extracted.count("\n") == len(ts) - 1
        if len(ts) > 1:
            check(row, "\n".join(ts[:-1]), 0.0)  # one action short
        check(row, "\n".join(ts + ["(fly plane1 city1 city2)"]), 0.0)  # not an action here
        check(row, "Here is my answer:\n" + "\n".join(f"- {t}" for t in ts[::-1] + ts), 0.0
              if family != "applicability" else 1.0)  # a set: order and repeats do not matter
        check(row, "none", 0.0)
        for reply in UNREADABLE_ITEMS:
            check(row, reply, 0.0, parsed=False)


def test_longer_plans_score_half(acp_rows):
    for row in acp_rows("plan_generation", "gripper", "open", 3):
        st = task_of(row)
        best = len(row["answer"].splitlines())
        for k in st.task.applicable(st.state):
            after = st.task.actions[k].apply(st.state)
            rest = oracles.optimal_cost(st.task, after, st.goal)
            if rest is None or rest + 1 <= best:
                continue
            plan, state = [st.task.actions[k].term], after
            while not st.goal.holds(state):
                nxt = oracles.optimal_first_actions(st.task, state, st.goal)[0]
                plan.append(st.task.actions[nxt].term)
                state = st.task.actions[nxt].apply(state)
            steps = "\n".join(f"Step {i}: ({' '.join(t)})" for i, t in enumerate(plan, 1))
            check(row, f"{TALK}\n\nThe plan is:\n{steps}\n\nIt reaches the goal.", 0.5)
            break


# -- open rows: sets of facts ---------------------------------------------------------------

@pytest.mark.parametrize("family,domain", [("progression", "blocksworld"),
                                           ("progression", "gripper"),
                                           ("projection", "blocksworld")])
def test_fact_list_replies(family, domain, acp_rows):
    for row in acp_rows(family, domain, "open", 3):
        lines = row["answer"].splitlines()
        assert row["answer"] != "none"
        for reply in list_forms(row):
            check(row, reply, 1.0)
        pos = [l for l in lines if not l.startswith("(not ")]
        neg = [l[5:-1] for l in lines if l.startswith("(not ")]
        if neg:
            check(row, "Positive effects: " + ", ".join(pos) + "\nNegative effects: "
                  + ", ".join(neg), 1.0)
            check(row, "**Become true:**\n" + "\n".join(f"- {p}" for p in pos)
                  + "\n**Become false:**\n" + "\n".join(f"- {n}" for n in neg), 1.0)
            check(row, "\n".join(pos + neg), 0.0)  # the deleted facts said to hold
        if len(lines) > 1:
            check(row, "\n".join(lines[1:]), 0.0)  # one fact missing
        check(row, "none", 0.0)
        for reply in UNREADABLE_ITEMS:
            check(row, reply, 0.0, parsed=False)


# -- open rows: one action or one fact -------------------------------------------------------

def single_forms(row):
    t = row["answer"]
    return [t, f"The next one is {t}.", f"**{_phrased(row, t)}**", f"Answer: {t}",
            f"{TALK}\n\nFinal answer: {_phrased(row, t)}", f"```\n{t}\n```",
            f"{t}\n\nExplanation: every plan needs it.", f"- {t}"]


def test_next_action_replies(acp_rows):
    for row in acp_rows("next_action", "gripper", "open", 3):
        st = task_of(row)
        for reply in single_forms(row):
            check(row, reply, 1.0)
        # an applicable action that starts no shortest plan, else an inapplicable one
        bad = [a.term for k, a in enumerate(st.task.actions) if not a.applicable(st.state)
               or not oracles.on_some_optimal_plan(st.task, st.state, st.goal, k)]
        bad.sort(key=lambda t: not st.task.actions[st.action(t)].applicable(st.state))
        other = "(" + " ".join(bad[0]) + ")"
        check(row, f"The next action is {other}.", 0.0)
        check(row, f"{row['answer']} or {other}", 0.0, parsed=False)
        check(row, f"{row['answer']}\n{other}", 0.0, parsed=False)
        for reply in UNREADABLE_ITEMS:
            check(row, reply, 0.0, parsed=False)


def test_landmark_replies(acp_rows):
    for row in acp_rows("landmarks", "blocksworld", "open", 3):
        st = task_of(row)
        for reply in single_forms(row):
            check(row, reply, 1.0)
        true_now = "(" + " ".join(st.sym["state"][0]) + ")"
        check(row, f"A landmark is {true_now}.", 0.0)  # already true: not the answer
        check(row, "none", 0.0)
        for reply in UNREADABLE_ITEMS:
            check(row, reply, 0.0, parsed=False)


# -- open rows: step numbers -----------------------------------------------------------------

def step_forms(answer):
    if answer == "none":
        return ["none", "No step can be removed.", "None of the steps can be removed.",
                "Answer: none", f"{TALK}\n\nThe answer is none."]
    numbers = answer.split(", ")
    return [answer, f"Steps {' and '.join(numbers)} can be removed.", f"The answer is {answer}.",
            "\n".join(f"- Step {n}" for n in numbers), f"{TALK}\n\nFinal answer: {answer}",
            f"Step {numbers[0]}" if len(numbers) == 1 else f"steps {answer}"]


@pytest.mark.parametrize("family,domain", [("justification", "gripper"),
                                           ("justification", "logistics"),
                                           ("executability", "gripper")])
def test_step_replies(family, domain, acp_rows):
    rows = acp_rows(family, domain, "open", 4)
    assert {r["answer"] == "none" for r in rows} != {True}
    for row in rows:
        for reply in step_forms(row["answer"]):
            check(row, reply, 1.0)
        wrong = "none" if row["answer"] != "none" else "1"
        for reply in step_forms(wrong):
            check(row, reply, 0.0)
        for reply in ["", "I cannot tell.", "Maybe 1 or 2.", "Step 1 is fine. Step 2 fails.",
                      LONG]:
            check(row, reply, 0.0, parsed=False)


# -- malformed rows ---------------------------------------------------------------------------

def _without(key):
    def edit(row):
        sym = json.loads(row["symbolic"])
        del sym[key]
        row["symbolic"] = json.dumps(sym)
    return edit


@pytest.mark.parametrize("form,edit,words", [
    ("open", _without("domain_pddl"), "'domain_pddl'"),
    ("open", _without("state"), "'state'"),
    ("open", _without("subject"), "'subject'"),
    ("open", lambda r: r.update(symbolic="not json"), "'symbolic' is not JSON"),
    ("open", lambda r: r.update(symbolic="[1, 2]"), "'symbolic' is not a JSON object"),
    ("open", lambda r: r.update(metadata="{"), "'metadata' is not JSON"),
    ("open", lambda r: r.pop("symbolic"), "no 'symbolic' field"),
    ("open", lambda r: r.update(family="juggling"), "family 'juggling'"),
    ("open", lambda r: r.pop("form"), "no 'form' field"),
    ("open", lambda r: r.update(form="essay"), "form 'essay'"),
    ("bool", lambda r: r.pop("answer"), "no 'answer' field"),
    ("mc", lambda r: r.pop("answer"), "no 'answer' field"),
])
def test_malformed_rows_raise_an_input_error(form, edit, words, acp_rows):
    row = dict(acp_rows("reachability" if form == "open" else "applicability", "gripper",
                        form, 1)[0])
    edit(row)
    # a field only the family's verifier reads is missed once there is an answer to verify
    replies = ["I cannot tell."] if words != "'subject'" else []
    for reply in [row.get("answer") or "A"] + replies:
        with pytest.raises(InputError, match=words):
            racbench.score(row, reply)


# -- the API ---------------------------------------------------------------------------------

def test_score_is_a_small_frozen_result(acp_rows):
    row = acp_rows("applicability", "gripper", "bool", 4)[0]
    got = racbench.score(row, f"The answer is {row['answer']}.")
    assert got == score(row, row["answer"]) == Score(1.0, True, row["answer"])
    assert float(got) == 1.0 and sum(map(float, [got, got])) == 2.0
    with pytest.raises(FrozenInstanceError):
        got.value = 0.0


def test_every_open_family_has_a_reader():
    assert set(OPEN_ANSWERS) == {n for n, f in FAMILIES.items() if "open" in f.forms}


def test_importing_racbench_stays_light():
    code = ("import sys, racbench; heavy = {'datasets', 'scipy', 'jinja2', 'numpy'}; "
            "print(sorted(heavy & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


DOMAINS = ("blocksworld", "depots", "ferry", "floortile", "goldminer", "grid", "gripper",
           "household", "logistics", "rovers", "satellite", "swap", "visitall")


@pytest.mark.parametrize("domain", DOMAINS)
def test_phrasings_survive_extraction(domain):
    """English lists of every action and fact of a problem, in every phrasing a row may
    use (paraphrases, obfuscated names), read back as those actions and facts: no
    phrasing contains what the readers split lists on."""
    cfg = TaskConfig(family="applicability", domain=domain, form="open",
                    problems={"test": ("p04",)})
    sym = json.loads(ConfigRows("p", cfg, 0, ("test",)).row("test", 0, 0).columns["symbolic"])
    for obfuscation in (None, "random", "misleading"):
        for paraphrase in (0, 1, 2):
            st = SymbolicTask(sym, {"obfuscation": obfuscation, "paraphrase": paraphrase,
                                    "seed": 3})
            terms = [a.term for a in st.task.actions]
            words = [st.text.action(t) for t in terms]
            numbered = "Here they are:\n" + "\n".join(f"{i}. {w}." for i, w in
                                                      enumerate(words, 1))
            assert st.parse_actions(extract_actions(numbered)) == terms
            prose = "First, " + ". Then, ".join(words) + "."
            assert st.parse_actions(extract_actions(prose)) == terms
            literals = [(a, p) for a in st.task.atoms for p in (True, False)]
            facts = [st.text.fact(a, p) for a, p in literals]
            if len(set(facts)) == len(facts):  # rovers paraphrases "empty" as "not full"
                assert st.parse_literals(extract_facts("; ".join(facts)),
                                         st.task.atoms) == literals


@pytest.mark.parametrize("domain", DOMAINS)
def test_phrased_lists_split_at_commas(domain):
    """An inline list of phrased actions ("a, b and c") scores as its actions in every
    phrasing, though phrasings hold commas and "and" themselves (obfuscated names, "at
    waypoint2, rover1 ...")."""
    for obfuscation, paraphrase in ((None, 0), (None, 1), (None, 2), ("random", 0),
                                    ("misleading", 1)):
        cfg = TaskConfig(family="applicability", domain=domain, form="open",
                         problems={"test": ("p04",)}, obfuscation=obfuscation,
                         paraphrase=paraphrase)
        row = ConfigRows("p", cfg, 0, ("test",)).row("test", 0, 0).columns
        st = task_of(row)
        words = [st.text.action(tuple(t[1:-1].split())) for t in row["answer"].splitlines()]
        if len(words) < 2:
            continue
        got = check(row, "They are: " + ", ".join(words[:-1]) + " and " + words[-1] + ".", 1.0)
        assert got.extracted.splitlines() == words
        check(row, ", ".join(words[:-1]), 0.0)  # one missing


@pytest.mark.parametrize("line", ["{w}, " * 3000 + "junk", "Well, so, and, hmm, " * 3000,
                                  "{w} and " * 2000 + "{w}", "a, " * 30000])
def test_long_phrased_lines_are_scored_in_linear_time(line, acp_rows):
    row = acp_rows("applicability", "gripper", "open", 1)[0]
    st = task_of(row)
    reply = line.replace("{w}", st.text.action(st.task.actions[0].term))
    start = time.perf_counter()
    racbench.score(row, reply)
    assert time.perf_counter() - start < 10  # trying every pair of commas takes minutes
