"""`racbench.checks.score.score`: bool, mc, and open answers checked by simulation, set
equality and search, with wrong and partially right answers."""

import json

from racbench.tasks.symbolic import symbolic_task
from racbench.worlds.strips import oracles
from racbench.checks.score import score


def test_bool_and_mc_answers(make_rows):
    row = make_rows("applicability", "gripper", "bool")[0]
    truth = row["answer"]
    assert score(row, truth.capitalize()).value == 1.0
    assert score(row, "yes" if truth == "true" else "no").value == 1.0
    assert score(row, "false" if truth == "true" else "true").value == 0.0
    assert score(row, "maybe").value == 0.0
    mc = make_rows("applicability", "gripper", "mc")[0]
    i = mc["answer_index"]
    assert score(mc, f"({mc['answer']})").value == 1.0
    assert score(mc, mc["choices"][i]).value == 1.0
    assert score(mc, "ABCD"[(i + 1) % 4]).value == 0.0


def _task(row):
    return symbolic_task(row["symbolic"], json.loads(row["metadata"])["render"])


def test_plans_full_partial_and_zero(make_rows):
    checked = 0
    for row in make_rows("plan_generation", "gripper", "open", n=8):
        st = _task(row)
        best = row["answer"].splitlines()
        assert score(row, row["answer"]).value == 1.0
        # the same plan phrased as the question phrases actions, numbered
        phrased = "\n".join(f"{i}. {st.text.action(tuple(t[1:-1].split()))}"
                            for i, t in enumerate(best, 1))
        assert score(row, phrased).value == 1.0
        assert score(row, "\n".join(best[:-1])).value == 0.0  # goal not reached
        assert score(row, "\n".join(best[1:])).value == 0.0 or len(best) == 1
        assert score(row, "").value == 0.0
        # a valid detour: some first action, then a shortest plan from there
        for k in st.task.applicable(st.state):
            after = st.task.actions[k].apply(st.state)
            rest = oracles.optimal_cost(st.task, after, st.goal)
            if rest is not None and rest + 1 > len(best):
                first = st.task.actions[k]
                plan = [first.term]
                state = after
                while not st.goal.holds(state):
                    nxt = oracles.optimal_first_actions(st.task, state, st.goal)[0]
                    plan.append(st.task.actions[nxt].term)
                    state = st.task.actions[nxt].apply(state)
                text = "\n".join("(" + " ".join(t) + ")" for t in plan)
                assert score(row, text).value == 0.5
                checked += 1
                break
    assert checked


def test_sets_must_be_equal(make_rows):
    row = make_rows("applicability", "logistics", "open")[0]
    lines = row["answer"].splitlines()
    assert score(row, "\n".join(reversed(lines))).value == 1.0
    assert score(row, "\n".join(lines[1:])).value == 0.0
    prog = make_rows("progression", "logistics", "open")[0]
    assert score(prog, prog["answer"]).value == 1.0
    flipped = [l[5:-1] if l.startswith("(not ") else f"(not {l})"
               for l in prog["answer"].splitlines()]
    assert score(prog, "\n".join(flipped)).value == 0.0


def test_search_checked_answers(make_rows):
    for row in make_rows("landmarks", "logistics", "open", n=6):
        assert score(row, row["answer"]).value == 1.0
        st = _task(row)
        true_now = st.sym["state"][0]
        assert score(row, "(" + " ".join(true_now) + ")").value == 0.0  # already true
    for row in make_rows("next_action", "logistics", "open", n=6):
        st = _task(row)
        bad = [a for k, a in enumerate(st.task.actions) if a.applicable(st.state)
               and not oracles.on_some_optimal_plan(st.task, st.state, st.goal, k)]
        if bad:
            assert score(row, "(" + " ".join(bad[0].term) + ")").value == 0.0
    for row in make_rows("validation", "logistics", "open", n=8):
        assert score(row, row["answer"]).value == 1.0
        other = "none" if row["answer"] != "none" else "1"
        assert score(row, other).value == 0.0


def test_obfuscated_rows_accept_either_names():
    from racbench.tasks.config import TaskConfig
    from racbench.tasks.rows import ConfigRows
    cfg = TaskConfig("plan_generation", "logistics", "open", problems={"test": ("p04",)},
                    obfuscation="random")
    row = ConfigRows("obf", cfg, 0, ("test",)).row("test", 0, 0).columns
    st = _task(row)
    surface = {v: k for k, v in st.text.original_names(st.sym["objects"]).items()}
    assert "truck" not in row["context"] and "plane1" not in row["context"]
    renamed = "\n".join("(" + " ".join(surface.get(t, t) for t in line[1:-1].split()) + ")"
                        for line in row["answer"].splitlines())
    assert renamed != row["answer"]
    assert score(row, renamed).value == 1.0 and score(row, row["answer"]).value == 1.0
