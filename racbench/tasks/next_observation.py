"""Next-observation prediction (JECC's forward prediction) on any world of the protocol.

A row's context shows what an agent saw lately (the state where its last `history`
commands began, then each command and what the world said back), then `horizon` more
commands; its question asks what the world says after the last of them (the options, or
one candidate: the question alone never names the commands). The candidates are what the world says to
the *other* commands valid where the last one is typed (JECC's distractors): the
commands alone decide the answer, which the engine computed. An observation is the
world's own answer to `observe(state, action, text)` (worlds/protocol.py): the science
lab's text, or in a STRIPS world the facts the action made true and false, told as
sentences by the domain's templates (templates/strips/observation.j2), or in a rule
world (worlds/rules/) what the move changed: where you and the entities went, what you
picked up, who was defeated, the outcome (templates/rules/facts.j2).

Where the history comes from (`trajectories`): the oracle's gold path (`gold`), the gold
path left after a random point for 1-3 exploratory steps, each a random valid command or,
one time in four, a failed attempt (a command valid a few steps earlier but not now:
the lab refuses it or says it does nothing; a STRIPS world says nothing happens)
(`explore`), or half and half by row position (`mixed`, the default). The first
`horizon - 1` commands of the row are random valid commands from there.

Options: the valid commands where the last command is typed are tried in a random order
until `distractors + 1` distinct observations are found (whitespace collapsed to one
line); a situation with fewer is drawn again (in another world of the split after ten
tries), so every row of a config has the same number of options (`metadata.n_options`). The found observations are shuffled before
one becomes the answer, so given the options each is the answer with the same chance:
options alone sit at chance (1 / options), whatever their length or wording
(`racbench audit` measures it). mc rows put the answer at the position their code
gives (balanced letters); bool rows show the answer or a distractor, 50/50.

Speed: a situation's observations are computed once and serve `rows_per_state` rows
(each a different answer among them; by default all of its options, as JECC asks about
every valid action of a state), and a block of rows shares one world (one
variation, one gold path); a row is a pure function of (seed, config, split, index,
attempt), so caches never change bytes. Splits: one science task by its variations
(`science: TASK`: ScienceWorld's train/dev/test variations), several tasks per split
(`tasks: {train: [...], validation: [...], test: [...]}`: unseen tasks in test), or a
STRIPS domain's problems per split (`domain`, `problems`, as acp), or a user's PDDL
(`domain_file`, with its problem files per split in `problems`, as the other families
take them; only stepped, never enumerated, so problems of any size build: the gold
path is the world's `plan_within_budget`, breadth-first or else greedy), or a rule world's
episodes per split (`rules: GAME`, `rule_options`, as the dynamics recipe's question
configs: no rule combination of validation or test in train, checked; the gold path is
the oracle's winning plan, and each situation draws its own episode).
"""

from __future__ import annotations

import math
import random
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from racbench.errors import GenerationError, InputError
from racbench.splits.dedup import canonical_json, symbolic_and_key
from racbench.splits.seeding import derive_seed
from racbench.tasks.base import Family
from racbench.tasks.options import DEFAULT_SPLIT_PROBLEMS, SPLITS
from racbench.tasks.schema import task_features
from racbench.text import Phrase, sayer
from racbench.text.phrasing import template
from racbench.version import __version__

NAME = "next_observation"
FORMS = ("mc", "bool")
TRAJECTORIES = ("mixed", "gold", "explore")
# recipe keys of a next_observation config (besides name, description, for_each, splits)
KEYS = ("family", "form", "science", "tasks", "simplifications", "domain", "domain_file",
        "problems", "rules", "rule_options", "horizon", "history", "distractors", "trajectories",
        "rows_per_state")
MAX_HORIZON = 5
MAX_HISTORY = 10
MAX_DISTRACTORS = 15
LETTERS = "ABCDEFGHIJKLMNOP"  # as many as 1 + MAX_DISTRACTORS options
EXPLORE_STEPS = 3  # exploratory steps after leaving the gold path: 1 to this many
FAILED_SHARE = 0.25  # of exploratory steps, failed attempts (where there is one)
FAILED_LOOKBACK = 3  # a failed attempt: a command valid this many steps back, not now
STATES_PER_BLOCK = 16  # situations drawn in one world before the next block of rows
SITUATION_TRIES = 60
WORLD_TRIES = 10  # draws in one world before a situation is sought in another of the split
LABS_KEPT = 4  # science-lab worlds (with their gold paths) kept per process
SITUATIONS_KEPT = 64


_say = sayer("cli", ("next_observation.j2",))


class NextObservationError(InputError):
    """A next_observation config value outside what is accepted."""


@dataclass(frozen=True)
class NextObservationConfig:
    """One next_observation config: its world(s), form and knobs (see the module)."""

    form: str = "mc"
    science: str = ""  # one science task, split by its variations
    tasks: dict = field(default_factory=dict)  # split -> science tasks (unseen tasks)
    simplifications: str = ""
    domain: str = ""  # a shipped STRIPS domain
    domain_file: str = ""  # or a user's PDDL domain file (STRIPS or ADL)
    problems: dict = field(default_factory=dict)  # split -> problem names or files (STRIPS)
    rules: str = ""  # a rule world's game (rtfm, messenger): a split's episodes
    rule_options: tuple = ()  # its knobs, as (name, value) pairs (tasks/options.py)
    horizon: int = 1
    history: int = 3
    distractors: int = MAX_DISTRACTORS
    trajectories: str = "mixed"
    rows_per_state: int = 1 + MAX_DISTRACTORS  # rows of one situation (each its own answer)

    family = NAME

    @classmethod
    def from_entry(cls, entry: dict) -> "NextObservationConfig":
        """The config of a recipe entry (keys already checked against KEYS)."""
        def mapping(key):
            value = entry.get(key) or {}
            if not isinstance(value, dict) or any(
                    not isinstance(v, list) or not all(isinstance(x, (str, int))
                                                       and not isinstance(x, bool) for x in v)
                    for v in value.values()):
                raise NextObservationError(_say("mapping_of_splits", key=key, splits=SPLITS,
                                                got=repr(value)[:80]))
            return {str(k): tuple(str(x) for x in v) for k, v in value.items()}

        ints = {}
        for key, default in (("horizon", 1), ("history", 3), ("distractors", MAX_DISTRACTORS),
                             ("rows_per_state", 1 + MAX_DISTRACTORS)):
            value = entry.get(key, default)
            if not isinstance(value, int) or isinstance(value, bool):
                raise NextObservationError(_say("not_integer", key=key, got=repr(value)))
            ints[key] = value
        simplifications = entry.get("simplifications", "")
        if not isinstance(simplifications, str):
            raise NextObservationError(_say("simplifications_one",
                                            got=repr(simplifications)))
        knobs = entry.get("rule_options") or {}
        if not isinstance(knobs, dict):
            raise NextObservationError(_say("rule_options_mapping", got=repr(knobs)[:80]))
        return cls(form=str(entry.get("form", "mc")), science=str(entry.get("science", "")),
                   tasks=mapping("tasks"), simplifications=simplifications,
                   domain=str(entry.get("domain", "")),
                   domain_file=str(entry.get("domain_file", "")), problems=mapping("problems"),
                   rules=str(entry.get("rules", "")),
                   rule_options=tuple(sorted((str(k), v) for k, v in knobs.items())),
                   trajectories=str(entry.get("trajectories", "mixed")), **ints)

    def validate(self) -> "NextObservationConfig":
        from racbench.worlds.science.registry import get_task, parse_simplifications
        from racbench.worlds.strips.shipped import shipped_domains, shipped_problem_names
        if self.form not in FORMS:
            raise NextObservationError(_say("unknown_form", family=NAME, form=self.form,
                                            accepted=FORMS))
        for key, low, high in (("horizon", 1, MAX_HORIZON), ("history", 0, MAX_HISTORY),
                               ("distractors", 1, MAX_DISTRACTORS),
                               ("rows_per_state", 1, 1 + MAX_DISTRACTORS)):
            value = getattr(self, key)
            if not low <= value <= high:
                raise NextObservationError(_say("out_of_range", key=key, low=low, high=high,
                                                got=value))
        if self.trajectories not in TRAJECTORIES:
            raise NextObservationError(_say("unknown_trajectories",
                                            trajectories=self.trajectories,
                                            accepted=TRAJECTORIES))
        worlds = [k for k in ("science", "tasks", "domain", "domain_file", "rules")
                  if getattr(self, k)]
        if len(worlds) != 1:
            raise NextObservationError(_say("one_world", family=NAME, worlds=worlds))
        if self.rule_options and not self.rules:
            raise NextObservationError(_say("rule_options_without_rules"))
        if self.rules:
            if self.simplifications or self.problems:
                raise NextObservationError(_say("rules_other_settings"))
            from racbench.tasks.config import rule_world_options
            rule_world_options(self.rules, self.rule_options)
            return self
        for key, value in (("tasks", self.tasks), ("problems", self.problems)):
            bad = sorted(set(value) - set(SPLITS))
            if bad:
                raise NextObservationError(_say("unknown_split", split=bad[0], key=key,
                                                accepted=SPLITS))
            empty = [s for s, names in value.items() if not names]
            if empty:
                raise NextObservationError(_say("empty_split", split=empty[0], key=key))
        if self.domain or self.domain_file:
            if self.simplifications or self.tasks:
                raise NextObservationError(_say("strips_lab_settings"))
            if self.domain_file:
                self._validate_files()
                return self
            if self.domain not in shipped_domains():
                raise NextObservationError(_say("unknown_domain", domain=self.domain,
                                                accepted=list(shipped_domains())))
            known = set(shipped_problem_names(self.domain))
            files = sorted(p for names in self.problems.values() for p in names
                           if p not in known and (p.endswith(".pddl") or "/" in p))
            if files:
                raise NextObservationError(_say("shipped_problem_file", domain=self.domain,
                                                accepted=sorted(known), file=files[0]))
            _disjoint("problems", self.problems, known,
                      Phrase(_say, "problem_of_domain", domain=self.domain))
            return self
        if self.problems:
            raise NextObservationError(_say("problems_in_lab"))
        from racbench.worlds.science.registry import TASKS
        _disjoint("tasks", self.tasks, set(TASKS), Phrase(_say, "science_task"))
        for task in [self.science] if self.science else sorted(
                {t for names in self.tasks.values() for t in names}):
            try:
                parse_simplifications(self.simplifications, get_task(task).electrical)
            except ValueError as exc:
                raise NextObservationError(str(exc)) from None
        return self

    def _validate_files(self) -> None:
        """A user's domain file and problem files (paths as the other families take
        them: a recipe reads relative ones from its folder): present, each in one split."""
        from racbench.tasks.config import PROBLEM_FILE, is_readable_file, not_a_file
        if not is_readable_file(self.domain_file, "'domain_file'"):
            raise NextObservationError(_say("bad_domain_file", path=self.domain_file,
                                            why=not_a_file(self.domain_file)))
        if not self.problems:
            raise NextObservationError(_say("domain_file_needs_problems"))
        for split, names in sorted(self.problems.items()):
            for path in names:
                if not is_readable_file(path, PROBLEM_FILE):
                    raise NextObservationError(_say("bad_problem_file", path=path,
                                                    split=split, why=not_a_file(path)))
        _disjoint("problems", self.problems, None, Phrase(_say, "problem_file"))

    def check_splits(self, splits) -> None:
        """Every split asked for has tasks (a config split by unseen tasks), or problem
        files (a config of the user's PDDL)."""
        missing = [s for s in splits if self.tasks and s not in self.tasks]
        if missing:
            raise NextObservationError(_say("no_tasks_for_split", split=missing[0]))
        missing = [s for s in splits if self.domain_file and s not in self.problems]
        if missing:
            raise NextObservationError(_say("no_problems_for_split", split=missing[0]))

    # -- worlds per split -----------------------------------------------------------------
    def items(self, split: str) -> list[tuple]:
        """The worlds a split's rows are drawn from, as keys: ("science", task, variation,
        simplifications), ("strips", domain, problem), ("pddl", domain file, problem
        file) or ("rules", options, episodes, split, episode)."""
        from racbench.worlds.science.registry import get_task
        if self.rules:
            opts, n = self.rule_world()
            return [("rules", opts, n, split, i) for i in range(n)]
        if self.domain_file:
            return [("pddl", self.domain_file, p) for p in self.problems[split]]
        if self.domain:
            names = self.problems.get(split) or DEFAULT_SPLIT_PROBLEMS[split]
            return [("strips", self.domain, p) for p in names]
        if self.science:
            spec = get_task(self.science)
            return [("science", spec.name, v, self.simplifications)
                    for v in range(spec.n_variations) if spec.split_of(v) == split]
        return [("science", get_task(t).name, v, self.simplifications)
                for t in self.tasks[split] for v in range(get_task(t).n_variations)]

    def rule_world(self):
        """(RuleOptions, episodes per split) of a rule-world config."""
        from racbench.tasks.config import rule_episodes, rule_world_options
        return rule_world_options(self.rules, self.rule_options), rule_episodes(self.rule_options)

    def rule_worlds(self, splits) -> dict:
        """split -> [its RuleWorld] (worlds/rules/world.py: cached per process), the
        splits' rule combinations checked apart (a held-out one in train raises)."""
        from racbench.worlds.rules.splits import checked_worlds
        return checked_worlds(*self.rule_world(), splits)

    @property
    def world_label(self) -> str:
        if self.rules:
            return f"rules/{self.rules}"
        if self.domain:
            return self.domain
        if self.domain_file:
            from racbench.tasks.config import domain_file_label
            return domain_file_label(self.domain_file)
        if self.science:
            return f"science/{self.science}"
        return "science/" + "+".join(sorted({t for n in self.tasks.values() for t in n}))

    # -- what the build engine asks of a config --------------------------------------------
    @property
    def worlds_key(self) -> str:
        if self.rules:  # as a task config of the same rule world (tasks/config.py)
            return f"{self.world_label}{sorted(self.rule_options)}"
        return self.world_label

    def warm(self, splits) -> None:
        """Rule worlds are made (and checked) before forking, so workers share them;
        other worlds load per block of rows."""
        if self.rules:
            self.rule_worlds(splits)

    def release(self) -> None:
        from racbench.tasks.rows import release_worlds
        labs = bool(_LABS)
        _LABS.clear()
        release_worlds(dropped=labs)

    def probe(self, name: str, seed: int, splits) -> None:
        """Nothing to probe: a situation without enough options is drawn again."""

    def rows(self, name: str, seed: int, splits, probed=None,
             lazy: bool = False) -> "NextObservationRows":
        return NextObservationRows(name, self, seed, splits)


def _disjoint(key: str, value: dict, known: set | None, what) -> None:
    """Each name of `value` (split -> names) known (unless `known` is None), in one split."""
    seen: dict[str, str] = {}
    for split, names in value.items():
        for n in names:
            if known is not None and n not in known:
                raise NextObservationError(_say("unknown_name", what=what, name=n, key=key,
                                                accepted=sorted(known)))
            if n in seen and seen[n] != split:
                raise NextObservationError(_say("in_two_splits", name=n, first=seen[n],
                                                second=split, key=key))
            seen[n] = split


# -- worlds ---------------------------------------------------------------------------------

_LABS: OrderedDict = OrderedDict()


class _Place:
    """One world under the protocol, its gold path and its phrasing, for one block:
    where it starts (`initial`) and what rows call it (`label`). A rule world's place
    is one episode of its split's world, its gold path the oracle's winning plan."""

    def __init__(self, item: tuple):
        self.item = item
        if item[0] == "rules":
            from racbench.worlds.rules.world import split_world
            _, opts, n, split, index = item
            self.world = split_world(opts, split, 0, n)
            episode = self.world.episodes[index]
            self.text = self.world.text()
            self.initial, self.label = (index, episode.start), episode.label
            self.gold = list(episode.plan)  # its last move wins: never typed before a row
            return
        if item[0] == "science":
            from racbench.worlds.science.env import ScienceEnv
            from racbench.worlds.science.lab import ScienceLab
            from racbench.worlds.science.trajectory import run_oracle
            _, task, variation, simplifications = item
            self.world = ScienceLab(task, variation, simplifications)
            self.text = self.world.text()
            env = ScienceEnv(task, variation, simplifications)
            env.reset()
            steps = run_oracle(env)
            self.gold = [s["action"] for s in steps][:-1]  # the last ends the episode
        elif item[0] == "pddl":  # a user's files: stepped, never enumerated
            from racbench.text.phrasing import TaskText
            from racbench.text.user_phrasing import beside, load_phrasing
            from racbench.worlds.strips.world import stepping_world
            self.world = stepping_world(item[1], item[2])
            found = beside(item[1])  # the user's phrasing.yaml beside their domain file
            self.phrasing = load_phrasing(found, self.world.domain, self.world.domain_text) \
                if found else None
            self.text = TaskText(self.world.domain, phrasing=self.phrasing) if found \
                else self.world.text()
            self.gold = self.world.plan_within_budget(self.world.initial) or []
        else:
            from racbench.worlds.strips.search import SearchBudgetExceeded
            from racbench.worlds.strips.shipped import shipped_files
            from racbench.worlds.strips.world import world_for
            domain_file, files = shipped_files(item[1], [item[2]])
            self.world = world_for(domain_file, files[0], implicit=True)
            self.text = self.world.text()
            try:
                plan = self.world.optimal_plan(random.Random(derive_seed("gold", *item)),
                                               self.world.initial)
            except SearchBudgetExceeded:
                plan = None
            self.gold = list(plan or [])
        self.initial, self.label = self.world.initial, self.world.label

    @property
    def science(self) -> bool:
        return self.item[0] == "science"

    def term(self, action) -> str | list:
        return action if self.science else list(self.world.action_term(action))

    def phrase(self, action) -> str:
        return action if self.science else self.text.action(tuple(self.world.action_term(action)))

    def observe(self, state, action):
        nxt, said = self.world.observe(state, action, self.text)
        return nxt, one_line(said)

    def failed_attempts(self, states: list) -> list:
        """Commands valid a few steps back but not now (STRIPS: inapplicable actions of
        the schemas applicable now)."""
        here = states[-1]
        if not self.science:
            return self.world.inapplicable(here)
        now = set(self.world.applicable(here))
        earlier = {c for s in states[-1 - FAILED_LOOKBACK:-1] for c in self.world.applicable(s)}
        return sorted(earlier - now)


def place(item: tuple) -> _Place:
    got = _LABS.get(item)
    if got is None:
        got = _LABS[item] = _Place(item)
        if len(_LABS) > LABS_KEPT:
            _LABS.popitem(last=False)
    else:
        _LABS.move_to_end(item)
    return got


def one_line(text: str) -> str:
    """An observation as an option shows it: whitespace collapsed to single spaces."""
    return " ".join(str(text).split())


# -- situations -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Situation:
    """Where rows are asked: the typed history (`states[i]` before `steps[i]`), the
    shown window (its last `history` steps, with observations), the given commands
    before the last, and the observations found where the last is typed."""

    kind: str  # gold or explore
    states: list
    steps: list  # (action, observation) of every step of the trail
    failed: list  # whether each step was a failed attempt
    walk: list  # the row's first horizon-1 actions
    last_state: object  # where the last action is typed
    options: list  # distinct observations, shuffled
    option_actions: list  # an action giving each
    n_valid: int
    memo: dict = field(default_factory=dict, compare=False)  # what its rows share


def draw_situation(p: _Place, cfg: NextObservationConfig, rng: random.Random,
                   kind: str) -> Situation | None:
    world = p.world
    gold = p.gold
    if kind == "gold" and not gold:
        kind = "explore"
    t = rng.randrange(len(gold)) if gold else 0
    states, steps, failed = [p.initial], [], []
    for action in gold[:t]:
        states.append(world.step(states[-1], action) if not p.science
                      else states[-1] + (action,))
        steps.append((action, None))
        failed.append(False)
    if kind == "explore":
        for _ in range(rng.randint(1, EXPLORE_STEPS)):
            refused = p.failed_attempts(states) if rng.random() < FAILED_SHARE else []
            choices = refused or world.applicable(states[-1])
            if not choices:
                return None
            action = rng.choice(choices)
            nxt, said = p.observe(states[-1], action)
            states.append(nxt)
            steps.append((action, said))
            failed.append(bool(refused))
    window = len(steps) - min(cfg.history, len(steps))
    for i in range(window, len(steps)):
        if steps[i][1] is None:
            steps[i] = (steps[i][0], p.observe(states[i], steps[i][0])[1])
    here, walk = states[-1], []
    for _ in range(cfg.horizon - 1):
        valid = world.applicable(here)
        if not valid:
            return None
        action = rng.choice(valid)
        walk.append(action)
        here = world.step(here, action)
    valid = list(world.applicable(here))
    rng.shuffle(valid)
    found: dict[str, object] = {}
    for action in valid:
        said = p.observe(here, action)[1]
        if said not in found:
            found[said] = action
            if len(found) == cfg.distractors + 1:
                break
    if len(found) < cfg.distractors + 1:
        return None
    options = sorted(found)  # then shuffled: no trace of the order they were found in
    rng.shuffle(options)
    return Situation(kind, states, steps, failed, walk, here, options,
                     [found[o] for o in options], len(valid))


# -- rows -----------------------------------------------------------------------------------

class NextObservationRows:
    """Serves a next_observation config's rows to the build engine (see the module)."""

    features = task_features()

    def __init__(self, name: str, cfg: NextObservationConfig, seed: int, splits=SPLITS):
        self.name, self.cfg, self.seed = name, cfg.validate(), seed
        cfg.check_splits(splits)
        self.items = {s: cfg.items(s) for s in splits}
        for split, items in self.items.items():
            if not items:
                raise GenerationError(_say("no_worlds", config=name, split=split))
        self.per_state = min(cfg.rows_per_state, cfg.distractors + 1)
        # a rule world's episode costs nothing to load: each situation draws its own
        self.block = self.per_state * (1 if cfg.rules else STATES_PER_BLOCK)
        self.rule_worlds = cfg.rule_worlds(splits) if cfg.rules else None
        self._situations: OrderedDict = OrderedDict()
        self._t = template(NAME)
        strips = {i for items in self.items.values() for i in items
                  if i[0] in ("strips", "pddl")}
        for item in sorted(strips):
            place(item)  # a STRIPS world's gold path is searched here, once (kept by the world)

    def capacity(self, split: str) -> float:
        return math.inf

    def summary(self) -> dict:
        out = {"task": NAME, "row_kind": self.cfg.form, "objects": "-",
               "lengths": [self.cfg.horizon], "query_kinds": [],
               "world": self.cfg.world_label, "names": "problem", "excluded_forms": []}
        if self.rule_worlds is not None:
            from racbench.worlds.rules.splits import rule_world_summary
            out["world_summary"] = rule_world_summary(self.rule_worlds)
        return out

    @staticmethod
    def split_counts(rows: list[dict]) -> tuple[Counter, Counter, Counter]:
        return (Counter(r["answer"] for r in rows), Counter(r["form"] for r in rows),
                Counter(r["sequence_length"] for r in rows))

    def _situation(self, split: str, key: tuple, number: int):
        """The block's world and its `number`-th situation (cached: rows of one
        situation share it; the result depends on the key only)."""
        cache_key = (split, key, number)
        got = self._situations.get(cache_key)
        if got is not None:
            return got
        items = self.items[split]
        item = items[random.Random(derive_seed(self.seed, self.name, split, *key,
                                               "world")).randrange(len(items))]
        rng = random.Random(derive_seed(self.seed, self.name, split, *key, number))
        kind = self.cfg.trajectories
        if kind == "mixed":
            kind = ("gold", "explore")[number % 2]
        for tries in range(SITUATION_TRIES):
            if tries and tries % WORLD_TRIES == 0:  # too few options here: another world
                item = items[rng.randrange(len(items))]
            p = place(item)
            sit = draw_situation(p, self.cfg, rng, kind)
            if sit is not None:
                break
        else:
            raise GenerationError(_say("no_situation", config=self.name, split=split,
                                       worlds=len(items), world=self.cfg.world_label,
                                       options=self.cfg.distractors + 1,
                                       draws=SITUATION_TRIES))
        got = self._situations[cache_key] = (p, sit)
        if len(self._situations) > SITUATIONS_KEPT:
            self._situations.popitem(last=False)
        return got

    def row(self, split: str, index: int, code: int = 0, attempt: int = 0):
        from racbench.tasks.rows import Row
        if attempt == 0:
            block, slot = divmod(index, self.block)
            number, which = divmod(slot, self.per_state)
            key = (block,)
        else:  # a redraw: a situation of its own
            key, number, which = (index, attempt), 0, 0
        p, sit = self._situation(split, key, number)
        seed = derive_seed(self.seed, self.name, split, index, attempt)
        rng = random.Random(seed)
        n = len(sit.options)
        order = [i for i in range(n) if i != which]
        rng.shuffle(order)
        form = self.cfg.form
        if form == "mc":
            position = code % n
            order.insert(position, which)
            answer, label = LETTERS[position], -1
            sym_answer = position
        else:
            label = code % 2
            candidate = which if label else order[0]
            order.insert(rng.randrange(n), which)  # the symbolic options hold them all
            answer, sym_answer = ("true" if label else "false"), bool(label)
            position = -1
        options = [sit.options[i] for i in order]
        actions = [p.term(a) for a in sit.walk] + [p.term(sit.option_actions[which])]
        start = len(sit.steps) - min(self.cfg.history, len(sit.steps))
        window = [[p.term(a), said] for a, said in sit.steps[start:]]
        world = p.world
        if "world" not in sit.memo:  # the window's first state, the same for every row
            sit.memo["world"] = world.symbolic(sit.states[start])
        sym = {"family": NAME, "form": form, **sit.memo["world"],
               "window": window, "actions": actions, "options": options,
               "option_actions": [p.term(sit.option_actions[i]) for i in order]}
        if form == "bool":
            sym["subject"] = sit.options[candidate]
        sym["answer"] = sym_answer
        shown = [p.phrase(a) for a in sit.walk + [sit.option_actions[which]]]
        context = self._context(p, sit, start, shown, rng)
        if form == "mc":
            question = str(self._t.mc(options, LETTERS))
        else:
            question = str(self._t.bool(sit.options[candidate]))
        meta = {"n_options": n, "horizon": self.cfg.horizon, "history": len(window),
                "trajectory": sit.kind, "problem_file": p.label,
                "failed_attempts": sum(sit.failed[start:]),
                "render": {"obfuscation": None, "paraphrase": 0, "seed": 0}}
        if getattr(p, "phrasing", None) is not None:
            meta["render"]["phrasing"] = p.phrasing.to_json()
        symbolic, key = symbolic_and_key(sym)
        columns = {
            "id": f"{self.name}-{split}-{index:06d}",
            "family": NAME,
            "domain": self.cfg.world_label,
            "problem": p.label,
            "form": form,
            "context": context,
            "question": question,
            "choices": options if form == "mc" else [],
            "answer": answer,
            "answer_index": position,
            "label": label,
            "n_objects": world.sizes()[0],
            "n_ground_actions": world.sizes()[1],
            "optimal_plan_length": None,
            "sequence_length": len(actions),
            "branching_factor": sit.n_valid,
            "symbolic": symbolic,
            "metadata": canonical_json(meta),
            "generator_version": __version__,
            "seed": seed,
        }
        return Row(columns, key)

    def _context(self, p: _Place, sit: Situation, start: int, shown: list[str],
                 rng: random.Random) -> str:
        """The window's first state, its steps, and the row's commands (the question
        holds only what is asked about them: options alone, or one candidate alone)."""
        world, text = p.world, p.text
        state = world.render_state(sit.states[start], text, rng)
        intro = world.task_description if p.science else text.describe()
        steps = [(p.phrase(a), said) for a, said in sit.steps[start:]]
        return str(self._t.context(intro, state, steps, shown))


def _refuse(*args, **kwargs):
    raise NextObservationError(_say("own_entries", family=NAME, keys=KEYS))


# Registered with the other families (names, forms, the worlds it asks about); its rows
# come from NextObservationConfig, not from TaskConfig's row maker.
FAMILY = Family(name=NAME, forms=FORMS, sample=_refuse, render=_refuse,
                uses_actions=True, worlds=("strips", "science", "rules"))
