"""The difficulty levels, measured: a bounded reasoner's accuracy per (family, world, level).

For each family and world, the first `--rows` rows of a stream at each level
(racbench.stream, seed `--seed`; true/false rows, labels 50/50) are answered twice from
the row's symbolic form alone, by the family's own `truth` (the exact answer: it must
agree with every label, which the "exact" column counts) and by a bounded reasoner,
whose accuracy is printed per level. A family with no true/false form is measured in
each form it has (`no_bool_forms`: plan_generation open, first_target mc and open): the
bounded reasoner's reply is scored by the row's own scorer (`racbench.score`), its mean
score printed; "exact" counts the rows an unbounded reasoner's reply scores 1.0:

* STRIPS worlds (TRAC's blocksworld and shipped domains): the same `truth` run on the
  row's task as a reasoner of bounded memory holds it: it keeps at most `--memory` true
  facts (by default as many as the largest state among the easy rows), those an action
  adds first and then the others in an arbitrary order fixed by a hash of their names,
  and takes the facts it forgot as false; its searches (optimal costs, landmarks,
  reachability, justification) are breadth-first with at most `--budget` stored states
  and no enumerated state space, and one that runs out answers "false". It is right on
  the easy rows because their states fit in its memory and their searches in its
  budget, not because of what a level is. plan_generation (open): the plan its
  breadth-first search (the same, `--budget` stored states, on the task as it holds it)
  finds from the row's state to the goal, one PDDL action a line; none if it ran out. A
  plan valid as it holds the state is valid (it only forgets true facts), but may be
  longer than a shortest one (0.5) where what it forgot hides a shorter.
* rule worlds (`rules/rtfm`, `rules/messenger`): the episode stepped as verify steps
  it, by a reasoner that reads only the manual's first `--memory` sentences (by default
  as many as the longest manual of the easy rows) and knows only what those say,
  following the code names they define: an entity whose behaviour it did not read stays
  where it is, one whose team it did not read is not the team to defeat, one whose role
  it did not read is an enemy, a weapon whose win it did not read does not win
  (projection, executability, applicability and progression rows). It also holds only
  as many of the things the grid lists (you, the entities, the items lying about) as
  the easy rows' grids list at most, the first in an order fixed by a hash of their
  names and the row's episode and state: a thing it forgot is gone to it, and if it
  forgot where you are it sees no wall in your way (applicability: "true") and cannot
  step the episode (the other families: "false"). "memory" is then sentences read +
  things held. Whether a move runs into the wall is decided by where you are and the
  grid's size (which the row states), by no rule of the manual: applicability falls
  as the levels list more things on the grid than the reasoner holds. first_target (mc,
  open; asked before any move, of the manual alone): the same reader of the first
  `--memory` sentences names what those make the first target (`target_reply`), or
  nothing where they do not say (no monster it read of is of the team to defeat, no
  beater it read of the monster's element; no entity it read of carries the message);
  it holds the whole grid (mc's options name the things anyway). "memory" is then the
  sentences read.

* the science lab (`science/TASK`, or `science`: each of the `--tasks` sample, one line
  per (family, task), `--rows` rows a level): the row's history replayed in a fresh
  simulator (the state its context shows, as racbench verify rebuilds it), then the row
  answered by a reasoner that learned the lab on the task's easy rows (`lab_reasoner`):
  it takes commands under their rules (the easy simplifications: teleport at hand, no
  electrical actions on a task without circuits, flower pots that water themselves) and
  imagines at most as many commands of a sequence as their longest (1), taking the rest
  to run and change nothing. Progression's, applicability's and goal recognition's rows
  above easy show an earlier state and the commands typed since (their sequence, before
  the asked or observed command): the reasoner imagines as many commands as the easy
  rows had (progression's and goal recognition's one, the asked or observed command
  itself; applicability's none), taking the rest to change nothing.
  It sees the state as shown (doors closed where they are). It is right on the easy
  rows because their rules and lengths are what it learned, not because of what a level
  is; a level that sets other rules or asks longer sequences asks what it never learned.
  "memory" is then the tasks measured (1), and a task that does not ask a family at
  every level is printed with the row maker's reason: measured alone (one `--tasks`),
  it is measured at the levels that ask it, easy among them ("-" and the reason at the
  others); among several it is left out (their rows are pooled a level). A level's row maker surveys every
  train variation of the task before its first row (minutes of CPU at some levels):
  `--variations N` draws each level's rows from the task's first N train variations only
  (the same knobs), to measure in minutes.

* next_observation (mc and bool, on shipped domains, rule worlds and `science/TASK`;
  `measure_next_observation`): what the row's last command makes the world say, worked
  out from the row's state (the shown window's first) with the world's model by the
  world's bounded reasoner above, its reply the option equal to it (mc; none: score 0)
  or whether the candidate is it (bool). STRIPS: the state held in `--memory` true facts
  (the easy rows' largest), the window's and the row's actions applied while they apply
  as it holds the state, then the last one's facts made true and false (`strips_observed`);
  rule worlds: the manual read and grid held as above, the moves stepped
  (`rules_observed`); the lab: the easy rows' rules, the window's commands and only the
  row's last command imagined (the easy rows' one), the ones before it taken to change
  nothing (`lab_observed`). A stream's next_observation rows of a STRIPS world or the
  lab share one problem or variation per 64 rows (a rule world's, one episode per 4):
  measure more rows than that (256) to draw from several.

"falls" says whether accuracy falls from each level to the next over the first three
levels (easy > medium > hard; with several `--seed`s, on each seed, the accuracies
printed being their mean), "expert<=hard" whether the fourth is no easier than the
third. The "exact" column counts the rows whose label the family's exact `truth`
re-derives (all of them, or the row maker is wrong). A (family, world) the levels
cannot ask (no train problem of a level gives such questions: reachability where every
state reaches every fact, say) is printed with the row maker's reason, and so is a
level that cannot ask it ("-" in its column). "cpu/row" is the seconds of CPU a row
cost, made and answered twice (measure the lab by it on a shared machine: a lab row
costs seconds).

By default every shipped domain and TRAC's blocksworld are measured, 64 rows a level
and one seed (`--seed 0,1` for two: TRAC's blocksworld to gripper took 408 s of CPU;
plan_generation on the 13 shipped domains 356 s more, household's and ferry's rows
the dearest).
The science lab is measured with `--worlds science` over `--tasks`.

    python benchmarks/difficulty_levels.py [--rows 64] [--families projection,...]
        [--worlds blocksworld_trac,blocksworld,...] [--budget 200] [--memory 0] [--seed 0[,1]]
        [--tasks boil,grow-plant,power-component|wide|all] [--variations 3]  (with --worlds science)
        [--first-commands]  (the lab: the verbs each level's rows and cells begin with)
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import inspect
import json
import re
import time
from collections import Counter
from dataclasses import dataclass, fields, replace
from functools import wraps

from racbench import score
from racbench.checks.verify.replay import Replay, observed_since
from racbench.errors import InputError
from racbench.tasks import FAMILIES
from racbench.tasks.base import pddl_term
from racbench.tasks.first_target import first_target
from racbench.tasks.next_observation import NAME as NEXT_OBSERVATION
from racbench.tasks.next_observation import one_line
from racbench.tasks.options import LAB_MAX_DISTANCE, TRAC_DOMAIN, TRAC_FAMILIES
from racbench.tasks.question import LETTERS
from racbench.tasks.symbolic import SymbolicTask, symbolic_task
from racbench.training.levels import LEVELS
from racbench.training.stream import SPLIT, Stream, task_key
from racbench.worlds.rules.episode import Episode, Layout
from racbench.worlds.rules.grammar import RuleSet
from racbench.worlds.rules.world import fresh_world, state_from_json
from racbench.worlds.science.env import ScienceEnv
from racbench.worlds.science.lab import LEFT_OUT_VERBS
from racbench.worlds.science.registry import get_task, parse_simplifications, task_names
from racbench.worlds.science.trajectory import gold_trajectory
from racbench.worlds.strips import oracles
from racbench.worlds.strips.search import SearchBudgetExceeded, bfs_plan
from racbench.worlds.strips.shipped import shipped_domains
from racbench.worlds.strips.task import GroundAction, GroundTask
from racbench.worlds.strips.world import observation

RULE_FAMILIES = ("projection", "executability", "applicability", "progression")
# the science lab's tasks the world "science" samples: heat and circuits, one task without
# electrical actions at easy and one with (a lab row costs seconds: grow-plant's twice boil's)
LAB_SAMPLE = ("boil", "power-component")
# a wider sample spanning the lab's kinds (`--tasks wide`): a change of state, a chemistry
# mix, a find-a-living-thing, a genetics and a measuring task (docs/training.md)
LAB_WIDE = ("melt", "chemistry-mix", "find-living-thing", "mendelian-genetics-known-plant",
            "use-thermometer")
LAB_ROWS = 4  # rows a level from each sampled task unless --rows says (about 10 min of CPU)
# why a lab family may not fall for the reasoner the easy rows teach, printed where it does not
LAB_WHY_FLAT = {
    "applicability": "its context shows the state 0, 0 or 1, 2, 3 commands before the asked "
                     "one and the commands since, which the reasoner does not imagine (the "
                     "easy rows show none): it errs only where they, or a level's rules "
                     "(electrical actions, teleport), change whether the asked one runs",
    "progression": "its context shows the state 0, 0 or 1, 2, 3 commands before the asked "
                   "one; the reasoner imagines one command (the easy rows' own) and takes "
                   "the rest to change nothing: it errs only where those change the fact asked",
    "goal_recognition": "its context shows the state 0, 0 or 1, 2, 3 commands before the "
                        "observed one and the commands since; the reasoner imagines one "
                        "command (the easy rows' own, the observed) and takes the rest to "
                        "change nothing: past the first it says no command brings the task "
                        "nearer, hard's and expert's rows alike",
}
# tasks a lab family skipped (not asked at some level), with the row maker's reason
LAB_SKIPPED: dict[str, list[tuple[str, str]]] = {}
# per lab family measured, per level: the verbs its rows' sequences begin with (--first-commands)
LAB_FIRST: dict[str, dict[str, Counter]] = {}
# ... and the verbs its bool cells (the sequences of verbs a row may ask) begin with
LAB_CELLS: dict[str, dict[str, Counter]] = {}
SEARCHES = ("optimal_cost", "optimal_first_actions", "on_some_optimal_plan",
            "is_fact_landmark", "fact_reachable", "action_reachable", "split_landmarks",
            "is_justified_step", "unnecessary_steps")


def lab_families() -> list[str]:
    """The lab's true/false families `lab_truth` answers (next_observation, in both its
    forms, is `measure_next_observation`'s: `world_tasks`)."""
    return [f for f, fam in FAMILIES.items() if "science" in fam.worlds and "bool" in fam.forms
            and f != NEXT_OBSERVATION]


def strips_families() -> list[str]:
    """STRIPS worlds' true/false families `answers` answers (as `lab_families`)."""
    return [f for f, fam in FAMILIES.items() if "strips" in fam.worlds and "bool" in fam.forms
            and f != NEXT_OBSERVATION]


def no_bool_forms(kind: str) -> list[tuple[str, str]]:
    """(family, form) of the families of worlds of `kind` ("strips", "rules") that have
    no true/false form, in each form they have: what the bool lists above leave out."""
    return [(f, form) for f, fam in FAMILIES.items() if kind in fam.worlds
            and "bool" not in fam.forms for form in fam.forms]


def world_tasks(world: str) -> list[tuple[str, str]]:
    """(family, form) measured on `world`: its true/false families, then the others."""
    if world == TRAC_DOMAIN:
        return [(f, "bool") for f in TRAC_FAMILIES]
    own = [(NEXT_OBSERVATION, form) for form in FAMILIES[NEXT_OBSERVATION].forms]
    if world.startswith("rules/"):
        return [(f, "bool") for f in RULE_FAMILIES] + no_bool_forms("rules") + own
    if world == "science":  # the tasks pooled: next_observation is measured per task
        return [(f, "bool") for f in lab_families()]
    if world.startswith("science/"):
        return [(f, "bool") for f in lab_families()] + own
    return [(f, "bool") for f in strips_families()] + no_bool_forms("strips") + own


def keep_first(state: int, m: int, order: tuple[int, ...]) -> int:
    """The first `m` true atoms of `state` in `order` (atom indices)."""
    kept = 0
    for i in order:
        if m <= 0:
            break
        if state >> i & 1:
            kept, m = kept | 1 << i, m - 1
    return kept


@dataclass(frozen=True)
class ForgetfulAction(GroundAction):
    """An action whose result keeps at most `memory` true atoms: the ones it adds,
    then the others in the reasoner's fixed `order`; the rest are forgotten (taken
    as false)."""

    memory: int = 0
    order: tuple[int, ...] = ()

    def apply(self, state: int) -> int:
        new = (state & ~self.delete) | self.add
        if new.bit_count() <= self.memory:
            return new
        return self.add | keep_first(new & ~self.add, self.memory - self.add.bit_count(),
                                     self.order)


def forgetful(task: GroundTask, memory: int) -> GroundTask:
    """The task as a reasoner of `memory` atoms holds it (atoms keep their indices); the
    atoms it keeps first are in an arbitrary order fixed by a hash of their names."""
    order = tuple(sorted(range(len(task.atoms)),
                         key=lambda i: hashlib.blake2b(repr(task.atoms[i]).encode(),
                                                       digest_size=8).digest()))
    init = keep_first(task.init, memory, order)
    return GroundTask(task.domain_name, task.objects, task.atoms,
                      [ForgetfulAction(**{f.name: getattr(a, f.name) for f in fields(a)},
                                       memory=memory, order=order) for a in task.actions],
                      task.static_atoms,
                      frozenset(a for i, a in enumerate(task.atoms) if init >> i & 1),
                      task.goal)


def row_states(row: dict) -> list[int]:
    """The row's state and those its actions (if any) lead to while they apply."""
    st = SymbolicTask(json.loads(row["symbolic"]))
    states = [st.state]
    for term in json.loads(row["symbolic"]).get("actions") or []:
        a = st.action(term)
        if a is None or not st.task.actions[a].applicable(states[-1]):
            break
        states.append(st.task.actions[a].apply(states[-1]))
    return states


def easy_memory(rows: list[dict]) -> int:
    """The most true atoms of any row's state (or one its actions lead to): a memory
    that holds them all."""
    return max(s.bit_count() for r in rows for s in row_states(r))


@contextlib.contextmanager
def budgeted(budget: int):
    """The oracles' searches bounded to `budget` stored states, never enumerated."""
    saved = {name: getattr(oracles, name) for name in SEARCHES}

    def bounded(f):
        signature = inspect.signature(f)

        @wraps(f)
        def call(*args, **kwargs):
            bound = signature.bind(*args, **kwargs)
            bound.arguments["max_states"] = budget
            if "explicit" in signature.parameters:
                bound.arguments["explicit"] = False
            return f(*bound.args, **bound.kwargs)
        return call
    try:
        for name, f in saved.items():
            setattr(oracles, name, bounded(f))
        yield
    finally:
        for name, f in saved.items():
            setattr(oracles, name, f)


def answers(row: dict, budget: int, memory: int) -> tuple[bool, bool]:
    """(the exact answer, the bounded reasoner's) to a true/false row."""
    sym = json.loads(row["symbolic"])
    family = FAMILIES[row["family"]]
    exact = bool(family.truth(SymbolicTask(sym), sym.get("subject")))
    st = SymbolicTask(sym)
    st.task = forgetful(st.task, memory)
    st.state = st.task.init
    try:
        with budgeted(budget):
            bounded = bool(family.truth(st, sym.get("subject")))
    except (SearchBudgetExceeded, ValueError):  # out of budget, or a premise it forgot
        bounded = False  # (justification's plan no longer valid as it holds the state)
    oracles.clear_cache(st.task)
    return exact, bounded


def plan_reply(row: dict, budget: int, memory: int) -> str:
    """A plan_generation row's plan by the bounded reasoner: breadth-first search of at
    most `budget` stored states from the row's state to its goal, on the task as a
    reasoner of `memory` true facts holds it (`forgetful`), one PDDL action a line; ""
    if it ran out of budget or found none (what it forgot may make the goal unreachable)."""
    st = SymbolicTask(json.loads(row["symbolic"]))
    task = forgetful(st.task, memory)
    try:
        plan = bfs_plan(task, task.init, st.goal.pos, st.goal.neg, budget)
    except SearchBudgetExceeded:
        plan = None
    return "\n".join(pddl_term(task.actions[k].term) for k in plan or ())


def target_reply(row: dict, read: int | None) -> str:
    """A first_target row's answer by a reasoner reading the manual's first `read`
    sentences (all if None; `read_rules`): the letter of the option (mc) or the name (open)
    of what they make the first target; "" where they do not say."""
    sym = json.loads(row["symbolic"])
    statements = sym["rules"]["statements"]
    rules = RuleSet.from_json(read_rules(sym["rules"], len(statements) if read is None
                                         else read))
    try:
        name = first_target(rules)
    except StopIteration:  # no monster of the team it read of, no beater; no messenger
        return ""
    if row["form"] == "open":
        return name
    choices = list(row["choices"])
    return LETTERS[choices.index(name)] if name in choices else ""


def graded(row: dict, budget: int, memory: int, things: int) -> tuple[bool, float]:
    """(the exact answer agrees with the row's label, the bounded reasoner's score) of a
    row: true/false rows by `answers`/`rule_answers`; plan_generation and first_target
    by their replies, scored by `racbench.score` (the exact reply must score 1.0)."""
    if row["family"] == "plan_generation":
        return (score(row, row["answer"]).value == 1.0,
                score(row, plan_reply(row, budget, memory)).value)
    if row["family"] == "first_target":
        return (score(row, target_reply(row, None)).value == 1.0,
                score(row, target_reply(row, memory)).value)
    sym = json.loads(row["symbolic"])
    exact, bounded = (rule_answers(row, memory, things) if "rules" in sym
                      else answers(row, budget, memory))
    return exact == bool(row["label"]), float(bounded == bool(row["label"]))


def rule_truth(sym: dict, rules: dict, state: tuple | None = None) -> bool:
    """A rule-world true/false row's answer in the episode of `rules` (the row's layout)
    from `state` (the row's by default), as racbench verify re-derives it."""
    episode = Episode(RuleSet.from_json(rules), Layout.from_json(sym["layout"]))
    state = state_from_json(sym["state"]) if state is None else state
    moves = [a[0] for a in sym.get("actions") or []]
    subject = sym.get("subject")
    if sym["family"] == "applicability":
        return subject[0] in episode.applicable(state)
    end, failed = episode.execute(state, moves)
    if sym["family"] == "executability":
        return failed is None
    if failed is not None:
        return False
    facts = episode.facts(end)
    if sym["family"] == "progression":
        return tuple(subject) in facts
    return all((tuple(lit["atom"]) in facts) == lit["positive"] for lit in subject)


def read_rules(rules: dict, read: int) -> dict:
    """The rules as a reasoner knows them from the manual's first `read` sentences, and
    nothing else: what an entity does, its team (rtfm) or role (messenger) from a
    sentence about its reference or a code name that read alias sentences lead to, and
    the beats sentences it read. What it did not read takes a default: an entity stays
    where it is, is of no team to defeat (defeating it does not win), is an enemy
    (messenger: meeting it loses), and a weapon whose win it did not read does not win."""
    seen = rules["statements"][:read]
    aliases = {a[0]: a[1] for kind, a, _, _ in seen if kind == "alias"}
    said = {(kind, a[0]): a[1] for kind, a, _, _ in seen
            if kind in ("behaviour", "member", "role")}
    refs = dict(map(tuple, rules["references"]))

    def known(name: str, kind: str, default: str) -> str:
        ref, hops = refs.get(name), 0
        while (kind, ref) not in said and ref in aliases and hops < len(aliases):
            ref, hops = aliases[ref], hops + 1
        return said.get((kind, ref), default)
    entities = [[name, known(name, "behaviour", "stays"), element,
                 known(name, "member", "") if team else team,
                 known(name, "role", "enemy") if role else role]
                for name, _, element, team, role in rules["entities"]]
    beats = [list(a) for kind, a, _, _ in seen if kind == "beats"]
    return {**rules, "entities": entities,
            "beats": [b for b in rules["beats"] if list(b) in beats]}


def grid_things(sym: dict) -> list[tuple[str, str, int]]:
    """The things the row's grid lists (kind, name, index): you, then the entities and
    items lying about."""
    rules, state = sym["rules"], sym["state"]
    things = [("you", "you", 0)]
    things += [("entity", " ".join(filter(None, (e[2], e[0]))), i)
               for i, (e, cell) in enumerate(zip(rules["entities"], state[1])) if cell >= 0]
    things += [("item", f"{it[0]} {it[1]}", i)
               for i, (it, cell) in enumerate(zip(rules["items"], state[2])) if cell >= 0]
    return things


def held_state(sym: dict, things: int) -> tuple | None:
    """The row's state as a reasoner holds it that keeps only `things` of the things the
    grid lists, the first in an arbitrary order fixed by a hash of their names and the
    row's episode and state (as a row's text lists them in an order of its own): a thing
    it forgot is gone to it (an entity or an item not on the grid); None if it forgot
    where you are."""
    salt = f"{sym['episode']}/{sym['state']}/"
    listed = sorted(grid_things(sym), key=lambda t: hashlib.blake2b(
        (salt + t[1]).encode(), digest_size=8).digest())
    kept = {(kind, i) for kind, _, i in listed[:things]}
    if ("you", 0) not in kept:
        return None
    agent, ents, items, *rest = state_from_json(sym["state"])
    return (agent, tuple(c if ("entity", i) in kept else -1 for i, c in enumerate(ents)),
            tuple(c if ("item", i) in kept else -1 for i, c in enumerate(items)), *rest)


def rule_answers(row: dict, read: int, things: int) -> tuple[bool, bool]:
    """(the exact answer, that of a reasoner reading the manual's first `read` sentences
    and holding `things` of the things on the grid) to a rule-world row. One that forgot
    where you are sees no wall in your way (applicability: every move can be made) and
    cannot step the episode (the other families: "false", as a STRIPS reasoner's
    forgotten premise)."""
    sym = json.loads(row["symbolic"])
    exact = rule_truth(sym, sym["rules"])
    state = held_state(sym, things)
    if state is None:
        return exact, sym["family"] == "applicability"
    return exact, rule_truth(sym, read_rules(sym["rules"], read), state)


def manual_length(rows: list[dict]) -> int:
    """The most sentences of any row's manual: a reader of that many reads them all."""
    return max(len(json.loads(r["symbolic"])["rules"]["statements"]) for r in rows)


def grid_length(rows: list[dict]) -> int:
    """The most things any row's grid lists: a reasoner holding that many holds them all."""
    return max(len(grid_things(json.loads(r["symbolic"]))) for r in rows)


def learned_rules(env, simplifications: str) -> None:
    """Make `env` take commands under the rules `simplifications` set (teleport, electrical
    actions, self-watering pots), whatever the row's own: the state stays the one shown
    (doors open or closed as it shows them: the reasoner sees them)."""
    flags = parse_simplifications(simplifications, env.task_spec.electrical)
    env.teleport_ok, env.electric_ok = flags.teleport, not flags.no_electrical
    env.world.self_watering = flags.self_watering
    env._cache.clear()  # and the commands listed per view while the row's history was
    env._views.clear()  # replayed under its own rules: a wait leaves the view as it was


@dataclass(frozen=True)
class LabReasoner:
    """A reasoner that learned the lab on the easy rows: it takes commands under their
    rules (`simplifications`, the easy rows' own) and imagines at most `horizon`
    commands of a sequence (the easy rows' longest), taking the rest to change nothing
    and to run."""

    simplifications: str
    horizon: int


def lab_reasoner(rows: list[dict]) -> LabReasoner:
    """What the easy rows teach: their rules (one setting) and their longest sequence."""
    syms = [json.loads(r["symbolic"]) for r in rows]
    rules = {s["simplifications"] for s in syms}
    if len(rules) != 1:
        raise ValueError(f"the easy rows mix simplifications: {sorted(rules)}")
    return LabReasoner(rules.pop(), max(len(s.get("actions") or []) for s in syms))


def lab_truth(sym: dict, reasoner: LabReasoner | None = None) -> bool:
    """A lab true/false row's answer, from its history replayed in a fresh simulator (the
    state its context shows), as racbench verify re-derives it; with `reasoner`, as that
    reasoner answers from the same state."""
    replay = Replay(sym)
    family, commands = sym["family"], [a[0] for a in sym.get("actions") or []]
    if reasoner is not None:
        learned_rules(replay.env, reasoner.simplifications)
        replay.mark()
        commands = commands[:reasoner.horizon]
    subject = sym.get("subject")
    if family == "applicability":  # after the commands typed since the state shown, if any
        return (replay.run_all(commands, any_verb=False) and subject[0] in replay.valid()
                and not subject[0].startswith(LEFT_OUT_VERBS))
    if family == "planning":
        return replay.run_all(commands) and replay.complete
    if family == "goal_recognition":  # from where the commands typed since lead, if any
        gold = [s["action"] for s in gold_trajectory(sym["task"], int(sym["variation"]),
                                                     sym["simplifications"])]
        since, observed = observed_since(sym)
        length = len(observed)  # the rest of the sequence: run, changing nothing
        if not replay.run_all(since[:len(commands)]):
            return False
        replay.mark()
        total = replay.distance(gold[-LAB_MAX_DISTANCE:])
        if total is None or not replay.run_all(observed[:max(0, len(commands) - len(since))]):
            return False
        rest = replay.distance()
        return rest is not None and rest + length == total
    ran = replay.run_all(commands, any_verb=False)
    if family == "executability":
        return ran
    if family == "progression":
        subject = [{"atom": subject, "positive": True}]
    return ran and all(replay.holds(lit["atom"]) == lit["positive"] for lit in subject)


# -- next_observation -----------------------------------------------------------------------

def strips_observed(row: dict, memory: int = 0) -> tuple[str, list[int]]:
    """What a STRIPS next_observation row's last action makes the world say, as a reasoner
    of `memory` true facts (`forgetful`; 0: all) works it out from the window's first state
    (the row's state): the window's actions and the row's applied while they apply as it
    holds the state, then the last one's facts made true and false (a forgotten fact it
    deletes is not said false; a forgotten premise: nothing happens). And the states it
    held on the way (their sizes set the easy rows' memory)."""
    sym = json.loads(row["symbolic"])
    st = symbolic_task(sym, json.loads(row["metadata"]).get("render"))
    task = st.task
    held = forgetful(task, memory) if memory else task
    states = [held.init]
    for term in [t for t, _ in sym["window"]] + sym["actions"][:-1]:
        k = st.action(term)
        if k is not None and held.actions[k].applicable(states[-1]):
            states.append(held.actions[k].apply(states[-1]))
    here, k = states[-1], st.action(sym["actions"][-1])
    if k is None or not task.actions[k].applicable(here):
        return one_line(observation(task, None, None, st.text)), states
    after = task.actions[k].apply(here)
    return one_line(observation(task, here, after, st.text)), states + [after]


def rules_observed(sym: dict, read: int | None = None, things: int | None = None
                   ) -> str | None:
    """What a rule-world next_observation row's last move makes the world say, as a
    reasoner reading the manual's first `read` sentences (`read_rules`) and holding
    `things` of the grid's things (`held_state`) steps the window's and the row's moves
    (all of both if None); None if it forgot where you are (it cannot step the episode)."""
    rules = sym["rules"] if read is None else read_rules(sym["rules"], read)
    state = state_from_json(sym["state"]) if things is None else held_state(sym, things)
    if state is None:
        return None
    world, _ = fresh_world({**sym, "rules": rules})
    text, here = world.text(), (0, state)
    for (move,), _ in sym["window"]:
        here = world.observe(here, move, text)[0]
    for (move,) in sym["actions"][:-1]:
        here = world.step(here, move) or here
    return one_line(world.observe(here, sym["actions"][-1][0], text)[1])


def lab_observed(sym: dict, reasoner: LabReasoner | None = None) -> str:
    """What a lab next_observation row's last command makes the lab say, from its history
    replayed in a fresh simulator (the state its context shows); with `reasoner`, taking
    the window's commands and the row's under its rules (`learned_rules`) and imagining
    only the row's last `reasoner.horizon` commands (the easy rows' one, the asked one),
    the others taken to change nothing."""
    env = ScienceEnv(sym["task"], int(sym["variation"]), sym["simplifications"])
    env.reset()
    for command in sym["history"]:
        env.act(command)
    commands = sym["actions"]
    if reasoner is not None:
        learned_rules(env, reasoner.simplifications)
        commands = commands[-max(1, reasoner.horizon):]
    for command, _ in sym["window"]:
        env.act(command)
    for command in commands[:-1]:
        env.act(command)
    return one_line(env.act(commands[-1])[0])


def observation_reply(row: dict, said: str | None) -> str:
    """A next_observation row's reply from the observation a reasoner worked out: the
    letter of the option it equals (mc; "" if none), or whether the candidate is it."""
    if row["form"] == "mc":
        choices = list(row["choices"])
        return LETTERS[choices.index(said)] if said in choices else ""
    return "true" if said == json.loads(row["symbolic"])["subject"] else "false"


def measure_next_observation(world: str, rows: int, memory: int, seed: int, form: str):
    """`measure` for next_observation: per level, the mean score of the bounded reasoner's
    replies (the world's: `strips_observed` of `memory` facts, or the easy rows' largest
    state; `rules_observed` of the easy rows' manual and grid; `lab_observed` of what
    the easy rows teach) and the rows an unbounded one's reply scores 1.0 on."""
    made = {lv: Stream(task_key(NEXT_OBSERVATION, world), seed=seed, level=lv,
                       form=form).rows(0, rows) for lv in LEVELS}
    easy = made[LEVELS[0]]
    kind = ("rules" if world.startswith("rules/") else
            "science" if world.startswith("science/") else "strips")
    if kind == "strips":
        memory = memory or max(s.bit_count() for r in easy for s in strips_observed(r)[1])
        label = memory
    elif kind == "rules":
        memory = memory or manual_length(easy)
        things = grid_length(easy)
        label = f"{memory}+{things}"
    else:
        reasoner, label = lab_reasoner(easy), 1  # one task: the lab's rows-a-task count

    def said(row: dict, bounded: bool) -> str | None:
        sym = json.loads(row["symbolic"])
        if kind == "strips":
            return strips_observed(row, memory if bounded else 0)[0]
        if kind == "rules":
            return rules_observed(sym, memory, things) if bounded else rules_observed(sym)
        return lab_observed(sym, reasoner if bounded else None)

    out = []
    for level in LEVELS:
        exact = sum(score(r, observation_reply(r, said(r, False))).value == 1.0
                    for r in made[level])
        right = sum(score(r, observation_reply(r, said(r, True))).value for r in made[level])
        out.append((level, right / rows, exact, None))
    return out, label


def first_verbs(rows: list[dict]) -> Counter:
    """The verbs the rows' sequences begin with ("connect", "open"...), counted; a row
    with no sequence (the easy level's applicability) counts under "-"."""
    return Counter((actions[0][0].split()[0] if actions else "-")
                   for actions in (json.loads(r["symbolic"]).get("actions") for r in rows))


def cell_verbs(stream: Stream) -> Counter:
    """The verbs the cells of the stream's row makers begin with, where a cell's kind is
    a sequence of verbs (executability's, goal recognition's): what a row whose cell is
    drawn uniformly begins with, to hold the rows' count against."""
    return Counter(kind[0] for _, made in stream._makers.values()
                   for group in getattr(made, "groups", {}).get(SPLIT, ())
                   for _, kind in group if isinstance(kind, tuple) and kind
                   and isinstance(kind[0], str))


def first_line(level: str, verbs: Counter, what: str = "first commands",
               top: int = 6) -> str:
    """A level's first verbs, most common first ("connect 26, activate 4 of 32")."""
    common = verbs.most_common(top)
    rest = sum(verbs.values()) - sum(n for _, n in common)
    return (f"{'':38} {level:>6} {what}: "
            + ", ".join(f"{verb} {n}" for verb, n in common)
            + (f", others {rest}" if rest else "") + f" of {sum(verbs.values())}")


class FewVariations(Stream):
    """A stream whose lab configs ask only the first `variations` train variations of
    their task (same knobs): a level's row maker surveys each variation it may draw
    before its first row, minutes of CPU over a whole task."""

    def __init__(self, tasks: str, *, variations: int, **kwargs):
        self.variations = variations  # (the stream validates its configs as it starts)
        super().__init__(tasks, **kwargs)

    def _config(self, key: str, level: str):
        cfg = super()._config(key, level)
        spec = get_task(cfg.science)
        chosen = [str(v) for v in range(spec.n_variations) if spec.split_of(v) == SPLIT]
        return replace(cfg, problems={SPLIT: chosen[:self.variations]}).validate()


def same_text(rows: list[dict]) -> int:
    """Rows in groups of the same text (context and question) holding both labels: right
    by the simulator, but no reader of the row can decide them (hidden plant timers)."""
    labels: dict[tuple[str, str], set] = {}
    for row in rows:
        labels.setdefault((row["context"], row["question"]), set()).add(row["label"])
    return sum(len(labels[(r["context"], r["question"])]) > 1 for r in rows)


#: family -> level -> rows in same-text groups of both labels (`--same-text`)
SAME_TEXT: dict[str, dict[str, int]] = {}


def measure_lab(family: str, tasks: list[str], rows: int, seed: int, variations: int = 0):
    """`measure` on the science lab: `rows` rows a level from each of `tasks` (those that
    ask `family` at every level; `variations`: of its first N train variations only),
    answered exactly and by the reasoner the easy rows teach (`lab_reasoner`)."""
    made: dict[str, list[dict]] = {lv: [] for lv in LEVELS}
    asked, missing = [], {}
    for task in tasks:
        key = task_key(family, f"science/{task}")
        per_task, refused = {}, {}
        for lv in LEVELS:
            try:
                stream = (FewVariations(key, seed=seed, level=lv, variations=variations)
                          if variations else Stream(key, seed=seed, level=lv))
                per_task[lv] = stream.rows(0, rows)
                LAB_CELLS.setdefault(family, {}).setdefault(lv, Counter()).update(
                    cell_verbs(stream))
            except InputError as exc:  # not asked on this task at this level (planning on
                refused[lv] = str(exc)  # a task decided by reading; goal recognition two
                # commands from boil's end: a wait ends it; lifespan's animals, outside)
        if refused and (len(tasks) > 1 or LEVELS[0] in refused):
            # several tasks pool each level's rows: only one asked at every level counts;
            # a lone task is measured at the levels that ask it (its reasoner: easy's rows)
            LAB_SKIPPED.setdefault(family, []).append((task, next(iter(refused.values()))))
            continue
        asked.append(task)
        missing.update(refused)
        for lv in per_task:
            made[lv] += per_task[lv]
    if not asked:
        raise InputError(f"{family} is asked on none of {', '.join(tasks)}")
    out = []
    for level in LEVELS:
        if level in missing:
            out.append((level, None, 0, missing[level]))
            continue
        labels = [bool(r["label"]) for r in made[level]]
        LAB_FIRST.setdefault(family, {}).setdefault(level, Counter()).update(
            first_verbs(made[level]))  # over the seeds measured
        counted = SAME_TEXT.setdefault(family, {})
        counted[level] = counted.get(level, 0) + same_text(made[level])
        exact = right = 0
        for task in asked:  # each task's reasoner learned on that task's easy rows
            mine = [i for i, r in enumerate(made[level])
                    if json.loads(r["symbolic"])["task"] == task]
            reasoner = lab_reasoner([r for r in made[LEVELS[0]]
                                     if json.loads(r["symbolic"])["task"] == task])
            for i in mine:
                sym = json.loads(made[level][i]["symbolic"])
                exact += lab_truth(sym) == labels[i]
                right += lab_truth(sym, reasoner) == labels[i]
        out.append((level, right / len(labels), exact, None))
    return out, len(asked)


def measure(family: str, world: str, rows: int, budget: int, memory: int, seed: int,
            tasks: list[str] | None = None, variations: int = 0, form: str = "bool"):
    """Per level: (level, the bounded reasoner's accuracy (mean score: `graded`), exact
    answers agreeing with labels, None) or (level, None, 0, why) for a level that cannot
    ask the family here; and the memory used (`memory`, or 0: the easy level's largest
    state or manual). A family the easy level cannot ask raises InputError."""
    if family == NEXT_OBSERVATION:
        return measure_next_observation(world, rows, memory, seed, form)
    if world == "science" or world.startswith("science/"):
        return measure_lab(family, tasks or [world.split("/", 1)[1]], rows, seed, variations)
    made, why = {}, {}
    for lv in LEVELS:
        try:
            made[lv] = Stream(task_key(family, world), seed=seed, level=lv,
                              form=form).rows(0, rows)
        except InputError as exc:
            if lv == LEVELS[0]:
                raise
            why[lv] = str(exc)
    rules = world.startswith("rules/")
    grid = rules and family != "first_target"  # first_target asks of the manual alone
    memory = memory or (manual_length if rules else easy_memory)(made[LEVELS[0]])
    things = grid_length(made[LEVELS[0]]) if grid else 0
    out = []
    for level in LEVELS:
        if level in why:
            out.append((level, None, 0, why[level]))
            continue
        got = [graded(r, budget, memory, things) for r in made[level]]
        out.append((level, sum(v for _, v in got) / rows, sum(e for e, _ in got), None))
    return out, f"{memory}+{things}" if grid else memory


def why_not(message: str) -> str:
    """The reason in a refusal to ask a family, short: the row maker's own words on
    why its problems give no such question, where it says."""
    found = re.search(r"\((in each, [^)]*)\)", message)
    return found.group(1) if found else message[:110]


def pooled(runs: list[tuple[list, int]]) -> tuple[list, int]:
    """`measure`'s results over several seeds as one: per level the mean accuracy and
    the exact answers summed; the memory of the first seed."""
    out = []
    for per_level in zip(*(result for result, _ in runs)):
        level, acc, _, why = per_level[0]
        accs = [a for _, a, _, _ in per_level]
        out.append((level, None if None in accs else sum(accs) / len(accs),
                    sum(e for _, _, e, _ in per_level), why))
    return out, runs[0][1]


def falls(accuracies: list[float | None]) -> bool:
    a = accuracies
    return None not in a[:3] and a[0] > a[1] > a[2]


def expert_no_easier(accuracies: list[float | None]) -> str:
    if None in accuracies[2:]:
        return "-"
    return "yes" if accuracies[3] <= accuracies[2] else "no"


def task_name(family: str, form: str) -> str:
    """A (family, form) as the lines name it: the family, and its form unless bool."""
    return family if form == "bool" else f"{family} {form}"


def markdown_line(family: str, world: str, accuracies: list[float | None] | None,
                  falls: str, rows: int, variations: int) -> str:
    """One (family, world) as a line of docs/training.md's tables: accuracies as ".875"
    ("-" where a level does not ask it), the task alone for a lab world, whose train
    variations drawn from are the last column ("all" unless `--variations` says)."""
    lab = world.startswith("science/")
    name = world.split("/", 1)[1] if lab else world
    cells = ["-" if a is None else f"{a:.3f}".removeprefix("0")
             for a in (accuracies or [None] * len(LEVELS))]
    drawn = (str(variations) if variations else "all") if rows and lab else ""
    return "| " + " | ".join([family.replace("_", " "), name, *cells, falls,
                              str(rows) if rows else "", drawn]) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=0,
                        help=f"rows a level (default 64; {LAB_ROWS} from each lab task)")
    parser.add_argument("--worlds", default=",".join([TRAC_DOMAIN, *sorted(shipped_domains())]),
                        help="comma-separated (default: TRAC's blocksworld and every shipped "
                             "domain)")
    parser.add_argument("--families", default="")
    parser.add_argument("--budget", type=int, default=200)
    parser.add_argument("--memory", type=int, default=0,
                        help="true facts the reasoner holds, or manual sentences it reads "
                             "(default: as many as the easy rows' largest state/manual)")
    parser.add_argument("--seed", default="0",
                        help="a stream seed, or several comma-separated (0,1): accuracies "
                             "are then pooled and a pair falls only if it falls on each")
    parser.add_argument("--tasks", default=",".join(LAB_SAMPLE),
                        help="the science-lab tasks the world 'science' samples (rows each); "
                             f"'wide': {','.join(LAB_WIDE)}; 'all': every task, in the "
                             "registry's order")
    parser.add_argument("--markdown", action="store_true",
                        help="also print the lines measured as a Markdown table at the end, "
                             "in docs/training.md's columns")
    parser.add_argument("--first-commands", action="store_true",
                        help="the science lab: also print, per level, the verbs its rows' "
                             "sequences begin with, counted, and those its cells (the verb "
                             "sequences a row may ask) begin with (docs/training.md)")
    parser.add_argument("--variations", type=int, default=0,
                        help="the science lab: each level's rows from its task's first N train "
                             "variations only (0: all, as a stream draws them)")
    parser.add_argument("--same-text", action="store_true",
                        help="the science lab: also print, per level, how many rows are in "
                             "groups of the same text (context and question) with both labels")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seed.split(",")]
    if args.tasks == "wide":
        args.tasks = ",".join(LAB_WIDE)
    elif args.tasks == "all":
        args.tasks = ",".join(task_names())
    wanted = [f for f in args.families.split(",") if f]
    worlds = [w for world in args.worlds.split(",")  # the lab: one line per (family, task)
              for w in ([f"science/{t}" for t in args.tasks.split(",")] if world == "science"
                        else [world])]
    args.rows = args.rows or (LAB_ROWS if all(w == "science" or w.startswith("science/")
                                              for w in worlds) else 64)
    if any(w == "science" or w.startswith("science/") for w in worlds):
        print("science lab: a reasoner that learned the lab on each task's easy rows (their "
              "rules, their longest sequence); "
              + (f"the first {args.variations} train variations of each task"
                 if args.variations else "all train variations"))
    print(f"bounded reasoner: {args.memory or 'as many true facts as easy states hold'}"
          f" in memory, searches of at most {args.budget} states; "
          f"{args.rows} rows per level and seed, seed {args.seed}")
    print(f"{'family':20} {'world':17} " + " ".join(f"{lv:>7}" for lv in LEVELS)
          + f" {'exact':>7} {'falls':>5} {'expert<=hard':>12} {'memory':>6} {'cpu/row':>7}")
    covered = pairs = 0
    table: list[str] = []  # --markdown: the docs' lines
    for world in worlds:
        lab = world == "science" or world.startswith("science/")
        for family, form in world_tasks(world):
            if wanted and family not in wanted:
                continue
            name = task_name(family, form)
            start = time.process_time()
            try:
                runs = [measure(family, world, args.rows, args.budget, args.memory, seed,
                                variations=args.variations, form=form)
                        for seed in seeds]
            except InputError as exc:  # a family this world cannot ask: say why
                print(f"{name:20} {world:17} not asked: {why_not(str(exc))}")
                table.append(markdown_line(name, world, None, "not asked", 0, 0))
                for task, reason in dict.fromkeys(LAB_SKIPPED.pop(family, [])):
                    print(f"{'':38} {task}: {why_not(reason)}")
                continue
            seconds = time.process_time() - start
            result, memory = pooled(runs)
            accuracies = [acc for _, acc, _, _ in result]
            exact = sum(e for _, _, e, _ in result)
            asked = sum(acc is not None for acc in accuracies) * len(seeds)
            ok = all(falls([acc for _, acc, _, _ in run]) for run, _ in runs)
            covered += ok
            pairs += 1
            print(f"{name:20} {world:17} "
                  + " ".join("      -" if a is None else f"{a:7.3f}" for a in accuracies)
                  + f" {f'{exact}/{args.rows * asked * (memory if lab else 1)}':>7}"
                  + f" {'yes' if ok else 'no':>5}"
                  + f" {expert_no_easier(accuracies):>12}"
                  + f" {memory!s:>6}"
                  + f" {seconds / (args.rows * asked * (memory if lab else 1)):7.3f}",
                  flush=True)
            table.append(markdown_line(name, world, accuracies, "yes" if ok else "no",
                                       args.rows, args.variations))
            if args.same_text and family in SAME_TEXT:
                print(f"{'':38} same text, both labels: " + ", ".join(
                    f"{lv} {n}" for lv, n in SAME_TEXT.pop(family).items()))
            for level, _, _, reason in result:
                if reason:
                    print(f"{'':38} {level} not asked: {why_not(reason)}")
            first, cells = LAB_FIRST.pop(family, {}), LAB_CELLS.pop(family, {})
            for level, verbs in first.items() if args.first_commands else ():
                print(first_line(level, verbs))
                if cells.get(level):
                    print(first_line(level, cells[level], "cells begin"))
            for task, reason in dict.fromkeys(LAB_SKIPPED.pop(family, [])):
                print(f"{'':38} {task} not asked at every level: {why_not(reason)}")
            if lab and not ok and family in LAB_WHY_FLAT:
                print(f"{'':38} does not fall: {LAB_WHY_FLAT[family]}")
    print(f"{covered} of {pairs} (family, world) pairs measured fall over the first three "
          f"levels; {time.process_time():.0f} s of CPU")
    if args.markdown:
        print()
        print("| family | " + ("task" if all(w.startswith("science/") for w in worlds)
                              else "world") + " | " + " | ".join(LEVELS)
              + " | falls | rows | variations |")
        print("|---" * (len(LEVELS) + 5) + "|")
        print("\n".join(table))


if __name__ == "__main__":
    main()
