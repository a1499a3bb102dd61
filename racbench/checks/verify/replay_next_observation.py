"""Next-observation rows re-derived by replaying their commands in a fresh environment.

The science lab has no engine but its own, so its rows are checked by replaying what
they store from the start in a new episode (a new ScienceEnv, no cache of the lab that
made them), STRIPS rows by regrounding their symbolic problem (tasks/symbolic.py)
and stepping it, and rule-world rows in a fresh episode rebuilt from the rule set and
layout they store (worlds/rules/world.py). The lab's question families replay in
replay.py.
"""

from __future__ import annotations

import json

from racbench.checks.verify.report import Claims
from racbench.checks.verify.words import say
from racbench.tasks.next_observation import LETTERS, one_line
from racbench.worlds.science.lab import LEFT_OUT_VERBS


def check_next_observation(row: dict, sym: dict, claims: Claims) -> None:
    """The window's observations, each option (what its command gives where the last
    command is typed, the command valid there), options pairwise distinct, and the
    answer: the option the row's last command gives."""
    if sym.get("world") == "science":
        said, valid = _replay_lab(sym)
    elif sym.get("world") == "rules":
        said, valid = _replay_rules(sym)
    else:
        meta = row.get("metadata") or "{}"
        meta = json.loads(meta) if isinstance(meta, str) else meta
        said, valid = _replay_strips(sym, meta.get("render"))
    for i, (stored, derived) in enumerate(zip([s for _, s in sym["window"]], said["window"])):
        claims.expect("window observation", stored, derived, say("at_step", step=i + 1))
    claims.expect("options distinct", len(set(sym["options"])), len(sym["options"]))
    for i, (option, action) in enumerate(zip(sym["options"], sym["option_actions"])):
        claims.expect("option command valid", True, valid(action), say("option", index=i))
        claims.expect("option observation", option, said["option"](action),
                      say("option", index=i))
    truth = said["option"](sym["actions"][-1])
    if sym["form"] == "mc":
        claims.expect("answer", sym["answer"], sym["options"].index(truth)
                      if truth in sym["options"] else None)
        claims.expect("answer letter", row.get("answer"), LETTERS[sym["answer"]])
    else:
        claims.expect("answer", sym["answer"], sym["subject"] == truth)


def _replay_lab(sym: dict):
    from racbench.worlds.science.env import ScienceEnv
    env = ScienceEnv(sym["task"], sym["variation"], sym["simplifications"])
    env.reset()
    for command in sym["history"]:  # to where the shown window starts
        env.act(command)
    seen = [one_line(env.act(command)[0]) for command, _ in sym["window"]]
    for command in sym["actions"][:-1]:
        env.act(command)
    here = env.save()
    valid = {a for a in env.valid_actions() if not a.startswith(LEFT_OUT_VERBS)}

    def option(command):
        env.restore(here)
        return one_line(env.act(command)[0])

    return {"window": seen, "option": option}, lambda c: c in valid


def _replay_strips(sym: dict, render):
    from racbench.tasks.symbolic import symbolic_task
    from racbench.worlds.strips.world import observation
    st = symbolic_task(sym, render)
    task, text, bits = st.task, st.text, st.task.init
    seen = []
    for term, _ in sym["window"]:
        k = st.action(term)
        if k is None or not task.actions[k].applicable(bits):
            seen.append(one_line(observation(task, None, None, text)))
            continue
        nxt = task.actions[k].apply(bits)
        seen.append(one_line(observation(task, bits, nxt, text)))
        bits = nxt
    for term in sym["actions"][:-1]:
        bits = task.actions[st.action(term)].apply(bits)

    def valid(term):
        k = st.action(term)
        return k is not None and task.actions[k].applicable(bits)

    def option(term):
        k = st.action(term)
        if k is None or not task.actions[k].applicable(bits):
            return one_line(observation(task, None, None, text))
        return one_line(observation(task, bits, task.actions[k].apply(bits), text))

    return {"window": seen, "option": option}, valid


def _replay_rules(sym: dict):
    from racbench.worlds.rules.world import fresh_world
    world, state = fresh_world(sym)
    text = world.text()
    seen = []
    for (move,), _ in sym["window"]:
        state, said = world.observe(state, move, text)
        seen.append(one_line(said))
    for (move,) in sym["actions"][:-1]:
        state = world.step(state, move)
    here = state
    valid = set(world.applicable(here))

    def option(term):
        return one_line(world.observe(here, term[0], text)[1])

    return {"window": seen, "option": option}, lambda term: term[0] in valid
