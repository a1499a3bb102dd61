"""Rule-world rows re-derived by replaying them in a fresh episode.

A rule row's `symbolic` holds the episode's rules and layout and the state it asks
about; `episode_from_symbolic` rebuilds both from them alone (worlds/rules/world.py),
and each family's answer is re-derived by stepping that episode: projection and
progression read its facts after the moves, executability whether they all run,
applicability whether the move is one the episode allows there, first_target what the
rules make the first thing to get (and the oracle's shortest win gets it first).
"""

from __future__ import annotations

from racbench.checks.verify.replay import bool_or_options
from racbench.checks.verify.report import Claims, Skip
from racbench.checks.verify.words import say
from racbench.tasks.first_target import first_target
from racbench.worlds.rules.world import episode_from_symbolic


def check_rule_row(row: dict, sym: dict, claims: Claims) -> None:
    episode, state = episode_from_symbolic(sym)
    moves = [a[0] for a in sym.get("actions") or []]
    family = sym["family"]
    if family == "projection":
        end, failed = episode.execute(state, moves)

        def truth(item) -> bool:
            facts = episode.facts(end)
            if sym["form"] == "mc":
                return tuple(item) in facts
            return all((tuple(lit["atom"]) in facts) == lit["positive"] for lit in item)

        if failed is not None:
            claims.fail("label", say("actions_do_not_run", world="rules"))
            return
        bool_or_options(row, sym, claims, truth)
    elif family == "executability":
        bool_or_options(row, sym, claims, lambda _: episode.execute(state, moves)[1] is None)
    elif family == "applicability":
        bool_or_options(row, sym, claims, lambda subject: subject[0] in episode.applicable(state))
    elif family == "progression":
        def after_holds(fact) -> bool:
            end, failed = episode.execute(state, moves)
            return failed is None and tuple(fact) in episode.facts(end)

        bool_or_options(row, sym, claims, after_holds)
    elif family == "first_target":
        right = first_target(episode.rules)
        if sym["form"] == "open":
            claims.expect("label", [sym["answer"], row.get("answer")], [right, right],
                          say("rules_first"))
            return
        claims.expect("label", sym["options"][sym["answer"]], right, say("rules_first"))
        if row.get("answer_index") is not None:
            claims.expect("answer", row["answer_index"], sym["answer"],
                          say("column", name="answer_index"))
    else:
        raise Skip(say("no_replay_checker", world="rules", family=family))
