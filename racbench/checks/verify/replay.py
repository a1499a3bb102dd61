"""Science-lab rows re-derived by replaying them in a fresh simulator.

A lab row's `symbolic` names the task, variation and simplifications and the commands
typed since the start (`history`); replaying them in a new ScienceEnv (not the
generator's ScienceLab, which restores saved states) rebuilds the state the row asks
about. Each family's checker then re-derives the row's answer from there with the
simulator alone and compares it with the stored one: `REPLAY_CHECKS[family](row, sym,
claims)`. Commands run as the lab counts them: a command is carried out if the
simulator lists it as valid where it is typed; projection, executability, applicability
and progression ask about commands that change the world (not look, read, inventory,
task or focus), planning and goal recognition about any.
"""

from __future__ import annotations

from racbench.checks.verify.families import _row_label
from racbench.checks.verify.report import Claims, Skip
from racbench.checks.verify.words import say
from racbench.tasks.options import LAB_MAX_DISTANCE
from racbench.worlds.science.env import ScienceEnv
from racbench.worlds.science.lab import LEFT_OUT_VERBS, likeliest_first
from racbench.worlds.science.trajectory import gold_trajectory


class Replay:
    """A fresh episode stepped through a row's history; `save`/`restore` return to it.
    `at`: the commands it carried out since the reset (what its state is, to the
    simulator), which `distances` are kept by; `likely`: the commands `distance` tries
    first (the gold path's last)."""

    likely: tuple[str, ...] = ()

    def __init__(self, sym: dict):
        self.sym = sym
        self.env = ScienceEnv(sym["task"], int(sym["variation"]), sym["simplifications"])
        self.env.reset()
        self.at: tuple[str, ...] = ()
        self.distances: dict = {}
        for i, command in enumerate(sym["history"]):
            if not self.runs(command):
                raise ValueError(say("history_invalid", step=i + 1, command=repr(command)))
        self.mark()

    def mark(self) -> None:
        """Where `run_all` starts from: here."""
        self.start, self.start_at = self.env.save(), self.at

    def valid(self) -> list[str]:
        return [] if self.env.finished else self.env.valid_actions()

    def runs(self, command: str, any_verb: bool = True) -> bool:
        """Carry out `command` if the simulator takes it here (of a verb the family asks
        about): whether it did."""
        if command not in self.valid() or (not any_verb and command.startswith(LEFT_OUT_VERBS)):
            return False
        self.env.act(command)   # not `step`: its info dict (look, valid actions) goes unread
        self.at += (command,)
        return True

    def run_all(self, commands, any_verb: bool = True) -> bool:
        self.env.restore(self.start)
        self.at = self.start_at
        return all(self.runs(c, any_verb) for c in commands)

    def holds(self, atom) -> bool:
        return tuple(atom) in set(self.env.facts())

    @property
    def complete(self) -> bool:
        return self.env.episode.complete

    def distance(self, witness=()) -> int | None:
        """Commands from the current state to completing the task if proven at most
        LAB_MAX_DISTANCE (see goal_recognition.lab_distance); None: at least 2, and not 2
        by `witness`. Worked out once per state and witness (`distances`)."""
        key = (self.at, tuple(witness))
        if key not in self.distances:
            self.distances[key] = self._distance(witness)
        return self.distances[key]

    def _distance(self, witness) -> int | None:
        if self.complete:
            return 0
        here = self.env.save()
        found = None
        for command in likeliest_first(self.valid(), self.likely):
            self.env.restore(here)
            self.env.act(command)
            if self.complete:
                found = 1
                break
        if found is None and witness:  # typed as the oracle types them: an upper bound
            self.env.restore(here)
            found = 2 if all(self.env.act(c)[2] for c in witness) and self.complete else None
        self.env.restore(here)
        return found


def _commands(sym: dict) -> list[str]:
    return [a[0] for a in sym.get("actions") or []]


def bool_or_options(row: dict, sym: dict, claims: Claims, truth) -> None:
    """A bool row's label against `truth(subject)`, an mc row's answer against the one
    option `truth` holds for."""
    if sym["form"] == "mc":
        truths = [truth(option) for option in sym["options"]]
        derived = truths.index(True) if truths.count(True) == 1 else None
        claims.expect("label", sym["answer"], derived, say("one_option_holds"))
        if row.get("answer_index") is not None:
            claims.expect("answer", row["answer_index"], sym["answer"],
                          say("column", name="answer_index"))
        return
    derived = truth(sym.get("subject"))
    claims.expect("label", sym["answer"], derived, say("replayed_fresh"))
    label = _row_label(row)
    if label is not None:
        claims.expect("answer", label, sym["answer"], say("label_vs_answer"))


def check_projection(row: dict, sym: dict, claims: Claims) -> None:
    replay = Replay(sym)
    if not replay.run_all(_commands(sym), any_verb=False):
        claims.fail("label", say("actions_do_not_run", world="science"))
        return

    def truth(item) -> bool:
        if sym["form"] == "mc":
            return replay.holds(item)
        return all(replay.holds(lit["atom"]) == lit["positive"] for lit in item)

    bool_or_options(row, sym, claims, truth)


def check_executability(row: dict, sym: dict, claims: Claims) -> None:
    replay = Replay(sym)
    bool_or_options(row, sym, claims,
                     lambda _: replay.run_all(_commands(sym), any_verb=False))


def check_applicability(row: dict, sym: dict, claims: Claims) -> None:
    """The command asked about, after the row's actions if any (the commands typed since
    the state its context shows)."""
    replay = Replay(sym)
    if not replay.run_all(_commands(sym), any_verb=False):
        claims.fail("label", say("actions_do_not_run", world="science"))
        return
    bool_or_options(row, sym, claims, lambda subject: subject[0] in replay.valid()
                     and not subject[0].startswith(LEFT_OUT_VERBS))


def check_progression(row: dict, sym: dict, claims: Claims) -> None:
    check_projection(row, {**sym, "subject": [{"atom": sym["subject"], "positive": True}]}
                     if sym["form"] == "bool" else sym, claims)


def check_planning(row: dict, sym: dict, claims: Claims) -> None:
    replay = Replay(sym)
    if not replay.env.decided():
        claims.fail("label", say("readings_do_not_decide"))
        return
    bool_or_options(row, sym, claims,
                     lambda _: replay.run_all(_commands(sym)) and replay.complete)


def observed_since(sym: dict) -> tuple[list[str], list[str]]:
    """A goal-recognition row's (commands typed since the state its context shows,
    observed commands): its actions, split where its subject (the observed, where
    commands typed since come first) says; without one, all are observed."""
    commands = _commands(sym)
    observed = len(sym.get("subject") or []) or len(commands)
    return commands[:len(commands) - observed], commands[len(commands) - observed:]


def check_goal_recognition(row: dict, sym: dict, claims: Claims) -> None:
    """The observations begin a shortest solution: the state's distance (proven with
    the gold trajectory's last commands as witness), minus their number, is the
    distance after them; the stored optimal plan length is the state's distance. With
    commands typed since the state shown, the state is the one they lead to."""
    replay = Replay(sym)
    if not replay.env.decided():
        claims.fail("label", say("readings_do_not_decide"))
        return
    since, observed = observed_since(sym)
    if since and [s[0] for s in sym["subject"]] != observed:
        claims.fail("label", say("subject_not_last"))
        return
    if not replay.run_all(since):
        claims.fail("label", say("actions_do_not_run", world="science"))
        return
    replay.mark()
    gold = [s["action"] for s in gold_trajectory(sym["task"], int(sym["variation"]),
                                                 sym["simplifications"])]
    replay.likely = tuple(gold[-LAB_MAX_DISTANCE:])
    total = replay.distance(gold[-LAB_MAX_DISTANCE:])
    if total is None:
        claims.fail("label", say("not_proven_within", commands=LAB_MAX_DISTANCE))
        return
    if row.get("optimal_plan_length") is not None:
        claims.expect("optimal_plan_length", row["optimal_plan_length"], total)

    def truth(_) -> bool:
        if not replay.run_all(observed):
            return False
        rest = replay.distance()
        return rest is not None and rest + len(observed) == total

    bool_or_options(row, sym, claims, truth)


#: family -> checker(row, symbolic, claims) of science-lab rows
REPLAY_CHECKS = {
    "projection": check_projection,
    "executability": check_executability,
    "applicability": check_applicability,
    "progression": check_progression,
    "planning": check_planning,
    "goal_recognition": check_goal_recognition,
}


def check_science_row(row: dict, sym: dict, claims: Claims) -> None:
    """Replay a science-lab row with its family's checker (a family without one is
    reported as skipped)."""
    checker = REPLAY_CHECKS.get(sym.get("family"))
    if checker is None:
        raise Skip(say("no_replay_checker", world="science", family=sym.get("family")))
    checker(row, sym, claims)
