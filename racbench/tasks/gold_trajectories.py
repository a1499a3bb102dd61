"""Rows made from gold trajectories (the science lab's, and rule worlds'), for the
dataset pipeline.

Three kinds of row (a config's `rows`), all from one play of the task's oracle
(worlds/science/trajectory.py) per (task, variation, simplifications) item:

- `trajectory`: one row per item, every step's action, observation and score (look,
  inventory and valid actions with `valid_actions`); the science-gold rows.
- `behaviour_cloning`: one row per gold step, as ScienceWorld's behaviour-cloning
  baseline reads its demonstrations (inputs d, o_{t-1}, a_{t-1}, o_t; target a_t): the
  task description, the last `history` (observation, action) pairs, the current
  observation (with look, inventory, valid actions and score), and the gold action.
- `return_conditioned`: one row per gold step, as its text decision transformer reads
  them (d, o_{t-1}, R_{t-1}, a_{t-1}, o_t, R_t; target a_t): the same, every
  observation paired with its return-to-go R, the score still to gain on ScienceWorld's
  0-100 scale (100 x (final score - score so far), the world's own scoring).

Splits are ScienceWorld's, by variation (the task spec's `split_of`). A step row's
`symbolic` JSON holds what a fresh environment needs to replay it (task, variation,
simplifications, the gold commands before it, the gold command itself); `racbench
verify` replays them (racbench/checks/verify/replay_imitation.py). A step config's split
sizes are the numbers of gold steps of its variations, read when the recipe is read
from data/science/gold_lengths.json (tools/gold_lengths.py writes it) for the settings
the built-in recipes use, or counted by playing the oracles for other settings; every
trajectory a build plays is checked against them. The simulator knows nothing of
datasets.

Rule worlds (`rules: GAME`, racbench/worlds/rules/) give the same rows, in the same
columns, from the oracle's winning play of each episode of a split
(worlds/rules/trajectory.py): `task` is the world (rules/rtfm), `variation` the
episode's number in its split, `task_description` the manual and the goal; the score is
the environment's reward (1 once won), so a return-to-go is the reward still to come;
splits are by rule combination (no assignment of validation or test in train,
checked). Their rows' `symbolic` (trajectory rows have the column too) holds the rule
set and layout a fresh episode is rebuilt from. Sources of trajectories: `LabGold`,
`RuleGold`.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate

import datasets

from racbench.errors import GenerationError
from racbench.splits.dedup import canonical_json
from racbench.tasks.config import ConfigError
from racbench.text import sayer
from racbench.worlds.science.data import load
from racbench.worlds.science.env import ScienceEnv
from racbench.tasks.rows import Row
from racbench.worlds.science.registry import TASKS, accepts, get_task, parse_simplifications
from racbench.worlds.science.trajectory import run_oracle

GENERATOR_VERSION = "science-gold-1"
STEP_GENERATOR_VERSION = "science-imitation-1"
_say = sayer("cli", ("gold.j2",))
ROW_KINDS = ("trajectory", "behaviour_cloning", "return_conditioned")
STEP_KINDS = ROW_KINDS[1:]
DEFAULT_HISTORY = 1  # ScienceWorld's baselines see the previous observation and action
MAX_HISTORY = 1000  # an episode's moves at most (worlds/science/env.py MAX_MOVES)
TABLE_SETTINGS = ("", "easy")  # the simplification settings gold_lengths.json holds
SPLIT_ORDER = ("train", "validation", "test")
# rows a shard holds (all in memory while it is written): a step with its valid actions
# weighs some 15 KB there (Python and Arrow), a whole trajectory with them up to 2 MB;
# 20,000 steps with valid actions a shard made the build's peak (661 MiB building
# bc-inclined-plane-friction-named-surfaces at scale 0.1, 505 MiB with 5,000)
STEPS_PER_SHARD = 20_000
VALID_STEPS_PER_SHARD = 5_000
TRAJECTORIES_PER_SHARD = 200

_STEP = {
    "action": datasets.Value("string"),
    "observation": datasets.Value("string"),
    "score": datasets.Value("float32"),
    "look": datasets.Value("string"),
    "inventory": datasets.Value("string"),
    "valid_actions": [datasets.Value("string")],
}

# the columns that say which trajectory a row comes from, first in every row kind
_ITEM = {
    "id": datasets.Value("string"),
    "task": datasets.Value("string"),
    "variation": datasets.Value("int32"),
    "simplifications": datasets.Value("string"),
    "split": datasets.Value("string"),
    "task_description": datasets.Value("string"),
}

FEATURES = datasets.Features({
    **_ITEM,
    "steps": [_STEP],
    "n_steps": datasets.Value("int32"),
    "final_score": datasets.Value("float32"),
    "generator_version": datasets.Value("string"),
})
# a rule world's trajectory rows also carry the rule set and layout to replay them
RULE_FEATURES = datasets.Features({**{k: v for k, v in FEATURES.items()
                                      if k != "generator_version"},
                                   "symbolic": datasets.Value("string"),
                                   "generator_version": datasets.Value("string")})
RULE_GENERATOR_VERSION = "rules-imitation-1"


def _step_features(kind: str) -> datasets.Features:
    """One gold step with its context: behaviour cloning carries the score so far,
    return-conditioned rows the return-to-go of every observation."""
    rtg = kind == "return_conditioned"
    past = {"observation": datasets.Value("string")}
    if rtg:
        past["return_to_go"] = datasets.Value("int32")
    past["action"] = datasets.Value("string")
    return datasets.Features({
        **_ITEM,
        "step": datasets.Value("int32"),
        "n_steps": datasets.Value("int32"),
        "history": [past],
        "observation": datasets.Value("string"),
        **({"return_to_go": datasets.Value("int32")} if rtg else
           {"score": datasets.Value("float32")}),
        "look": datasets.Value("string"),
        "inventory": datasets.Value("string"),
        "valid_actions": [datasets.Value("string")],
        "action": datasets.Value("string"),
        "symbolic": datasets.Value("string"),
        "generator_version": datasets.Value("string"),
    })


STEP_FEATURES = {kind: _step_features(kind) for kind in STEP_KINDS}


def gold_items(tasks=None, simplification_settings=("",)) -> list[tuple[str, int, str]]:
    """Every (task, variation, simplifications) to generate, sorted; bad names raise ValueError.
    A setting a task refuses (noElectricalAction on an electrical task) is left out for it."""
    names = list(TASKS) if tasks is None else [get_task(t).name for t in tasks]
    settings = list(simplification_settings)
    for s in settings:
        parse_simplifications(s)
    return sorted((t, v, s) for t in names for s in settings if accepts(TASKS[t], s)
                  for v in range(TASKS[t].n_variations))


def setting_key(simplifications: str) -> str:
    """A simplification setting as ids and gold_lengths.json name it ('none' for none)."""
    return simplifications.replace(",", "+") if simplifications else "none"


def row_id(task: str, variation: int, simplifications: str) -> str:
    return f"{task}/{variation}/{setting_key(simplifications)}"


@dataclass(frozen=True)
class GoldPlay:
    """One play of the oracle: the reset's observation and info, and its steps."""

    task_description: str
    split: str
    start: dict  # observation, score, look, inventory, valid_actions before any action
    steps: list  # run_oracle's steps

    def situations(self, with_valid_actions: bool) -> list[dict]:
        """What the agent sees before each gold action: at the reset, then after each
        step but the last."""
        blank = {"look": "", "inventory": "", "valid_actions": []}
        out = []
        one: dict[str, str] = {}  # each distinct text as one object, shared by the rows
        for s in [self.start, *self.steps[:-1]]:
            seen = {"observation": s["observation"], "score": float(s["score"]), **blank}
            if with_valid_actions:
                seen["look"] = one.setdefault(s["look"], s["look"])
                seen["inventory"] = one.setdefault(s["inventory"], s["inventory"])
                seen["valid_actions"] = [one.setdefault(a, a) for a in s["valid_actions"]]
            out.append(seen)
        return out


def play_gold(task: str, variation: int, simplifications: str = "",
              with_valid_actions: bool = False) -> GoldPlay:
    env = ScienceEnv(task, variation, simplifications)
    observation, info = env.reset()
    steps = run_oracle(env, with_valid_actions)
    start = {"observation": observation, "score": info["score"], "look": info["look"],
             "inventory": info["inventory"], "valid_actions": info["valid_actions"]}
    return GoldPlay(info["task_description"], env.task_spec.split_of(variation), start, steps)


def gold_row(task: str, variation: int, simplifications: str = "", with_valid_actions: bool = False) -> dict:
    """One dataset row matching FEATURES (look, inventory and valid actions empty unless requested)."""
    play = play_gold(task, variation, simplifications, with_valid_actions)
    return trajectory_row(play, {"id": row_id(task, variation, simplifications), "task": task,
                                 "variation": variation, "simplifications": simplifications})


def trajectory_row(play: GoldPlay, item: dict, version: str = GENERATOR_VERSION) -> dict:
    """A trajectory row of `play`: the columns naming its trajectory (`item`: id, task,
    variation, simplifications), then its steps."""
    steps = play.steps
    one: dict[str, str] = {}  # each distinct text as one object (pickled once a chunk)
    rows = [{
        "action": s["action"],
        "observation": s["observation"],
        "score": float(s["score"]),
        "look": s.get("look", ""),
        "inventory": s.get("inventory", ""),
        "valid_actions": [one.setdefault(a, a) for a in s.get("valid_actions", ())],
    } for s in steps]
    return {
        **item,
        "split": play.split,
        "task_description": play.task_description,
        "steps": rows,
        "n_steps": len(rows),
        "final_score": float(steps[-1]["score"]),
        "generator_version": version,
    }


def sw_points(score: float) -> int:
    """A score (0-1) on ScienceWorld's 0-100 scale, as info['scienceworld_score'] says it."""
    return round(100 * score)


def step_rows(kind: str, play: GoldPlay, task: str, variation: int, simplifications: str,
              history: int = DEFAULT_HISTORY, with_valid_actions: bool = False,
              steps=None, seen=None) -> list[dict]:
    """The rows of gold steps `steps` (default: all) of one science play, matching
    STEP_FEATURES[kind]; `seen`: the play's situations, if already listed."""
    item = {"id": row_id(task, variation, simplifications), "task": task,
            "variation": variation, "simplifications": simplifications}
    where = {"task": task, "variation": variation, "simplifications": simplifications}
    return steps_of(kind, play, item, where, sw_points, history, with_valid_actions, steps,
                    seen)


def steps_of(kind: str, play: GoldPlay, item: dict, where: dict, points, history: int,
             with_valid_actions: bool, steps=None, seen=None,
             version: str = STEP_GENERATOR_VERSION) -> list[dict]:
    """Step rows of any gold play: `item` the columns naming its trajectory (id, task,
    variation, simplifications), `where` what its rows' `symbolic` says to replay it,
    `points(score)` a score as returns count it."""
    actions = [s["action"] for s in play.steps]
    seen = play.situations(with_valid_actions) if seen is None else seen
    final = points(play.steps[-1]["score"])
    rtg = kind == "return_conditioned"
    out = []
    for t in range(len(actions)) if steps is None else steps:
        past = []
        for i in range(max(0, t - history), t):
            entry = {"observation": seen[i]["observation"]}
            if rtg:
                entry["return_to_go"] = final - points(seen[i]["score"])
            entry["action"] = actions[i]
            past.append(entry)
        now = seen[t]
        symbolic = {"kind": kind, **where, "history": history,
                    "valid_actions": with_valid_actions, "actions": actions[:t],
                    "answer": actions[t]}
        out.append({
            **item, "id": f"{item['id']}/{t}", "split": play.split,
            "task_description": play.task_description, "step": t, "n_steps": len(actions),
            "history": past, "observation": now["observation"],
            **({"return_to_go": final - points(now["score"])} if rtg else
               {"score": now["score"]}),
            "look": now["look"], "inventory": now["inventory"],
            "valid_actions": list(now["valid_actions"]), "action": actions[t],
            "symbolic": canonical_json(symbolic), "generator_version": version,
        })
    return out


@lru_cache(maxsize=None)
def gold_lengths(task: str, simplifications: str) -> tuple[int, ...]:
    """Steps of each variation's gold trajectory: from gold_lengths.json for its
    settings, else counted by playing every variation's oracle (slow: seconds a task)."""
    shipped = load("gold_lengths").get(setting_key(simplifications), {}).get(task)
    if shipped is not None and simplifications in TABLE_SETTINGS:
        return tuple(shipped)
    return tuple(len(play_gold(task, v, simplifications).steps)
                 for v in range(get_task(task).n_variations))


def _check_rows(rows_kind: str, history) -> None:
    """`rows` and `history` of a gold config, whatever its world."""
    if rows_kind not in ROW_KINDS:
        raise ConfigError(_say("unknown_rows", rows=rows_kind, accepted=ROW_KINDS))
    if (not isinstance(history, int) or isinstance(history, bool)
            or not 0 <= history <= MAX_HISTORY):
        raise ConfigError(_say("bad_history", most=MAX_HISTORY, history=repr(history)))


class _GoldConfig:
    """What the build engine asks of a gold config, whatever its world (its
    `trajectories()` are the source of its plays)."""

    def warm(self, splits) -> None:
        """Nothing to share: each trajectory builds its own small world."""

    def release(self) -> None:
        """Nothing kept between configs."""

    def probe(self, name: str, seed: int, splits) -> None:
        """Every item has a gold trajectory: nothing to probe."""

    def rows(self, name: str, seed: int, splits, probed=None):
        if self.rows_kind == "trajectory":
            return ScienceGoldRows(name, self)
        return ScienceStepRows(name, self)


@dataclass(frozen=True)
class ScienceGoldConfig(_GoldConfig):
    """One science task's gold trajectories under some simplification settings, as
    `rows` of one of ROW_KINDS (`history`: the step rows' past pairs)."""

    task: str
    simplifications: tuple[str, ...] = ("",)
    valid_actions: bool = False
    rows_kind: str = "trajectory"
    history: int = DEFAULT_HISTORY

    def validate(self) -> "ScienceGoldConfig":
        _check_rows(self.rows_kind, self.history)
        gold_items([self.task], self.simplifications)  # ValueError naming what is accepted
        return self

    @property
    def worlds_key(self) -> str:
        """Configs with the same key share worlds (built in one run, then let go)."""
        return f"science/{self.task}"

    def trajectories(self) -> "LabGold":
        return LabGold(self)


@dataclass(frozen=True)
class RuleGoldConfig(_GoldConfig):
    """The oracle's winning plays of a rule world's episodes (`rules: GAME` and its
    `rule_options`), as `rows` of one of ROW_KINDS."""

    rules: str
    rule_options: tuple = ()
    valid_actions: bool = False
    rows_kind: str = "trajectory"
    history: int = DEFAULT_HISTORY

    def validate(self) -> "RuleGoldConfig":
        from racbench.tasks.config import rule_world_options
        _check_rows(self.rows_kind, self.history)
        rule_world_options(self.rules, self.rule_options)
        return self

    @property
    def worlds_key(self) -> str:
        return f"rules/{self.rules}{sorted(self.rule_options)}"  # as its question configs'

    def warm(self, splits) -> None:
        """The split's episodes, made before forking so workers share them."""
        self.trajectories()

    def trajectories(self) -> "RuleGold":
        return RuleGold(self)


class LabGold:
    """The science lab's gold trajectories of one task: an item is (task, variation,
    simplifications), its play the oracle's in a fresh environment."""

    features = FEATURES

    def __init__(self, cfg: ScienceGoldConfig):
        self.label, self.world = cfg.task, f"science/{cfg.task}"
        spec = get_task(cfg.task)
        self.items: dict[str, list[tuple[str, int, str]]] = {}
        for item in gold_items([cfg.task], cfg.simplifications):
            self.items.setdefault(spec.split_of(item[1]), []).append(item)

    def play(self, item, with_valid_actions: bool) -> GoldPlay:
        return play_gold(*item, with_valid_actions)

    def lengths(self, split: str) -> list[int]:
        return [gold_lengths(t, s)[v] for t, v, s in self.items[split]]

    def trajectory_row(self, item, with_valid_actions: bool) -> dict:
        return gold_row(*item, with_valid_actions)

    def step_rows(self, kind: str, play: GoldPlay, item, history: int,
                  with_valid_actions: bool, t: int, seen) -> list[dict]:
        return step_rows(kind, play, *item, history, with_valid_actions, steps=(t,),
                         seen=seen)

    def stale(self, item, steps: int, expected: int) -> str:
        return _say("stale_science", row=row_id(*item), steps=steps, expected=expected)

    def world_summary(self) -> dict:
        return {}


class RuleGold:
    """A rule world's episodes per split (the ones its question configs ask about):
    an item is (split, episode number), its play the oracle's winning plan
    (worlds/rules/trajectory.py)."""

    features = RULE_FEATURES

    def __init__(self, cfg: RuleGoldConfig):
        from racbench.tasks.config import rule_episodes, rule_world_options
        from racbench.worlds.rules.splits import checked_worlds
        n = rule_episodes(cfg.rule_options)
        self.label = self.world = f"rules/{cfg.rules}"
        self.checked = checked_worlds(rule_world_options(cfg.rules, cfg.rule_options), n,
                                      SPLIT_ORDER)
        self.worlds = {s: ws[0] for s, ws in self.checked.items()}
        self.items = {s: [(s, i) for i in range(n)] for s in SPLIT_ORDER}

    def play(self, item, with_valid_actions: bool) -> GoldPlay:
        from racbench.worlds.rules.trajectory import oracle_play
        split, i = item
        world = self.worlds[split]
        ep = world.episodes[i]
        start, steps = oracle_play(world, i, ep.plan, with_valid_actions)
        return GoldPlay(world.task_description((i, ep.start), world.text()), split, start,
                        steps)

    def lengths(self, split: str) -> list[int]:
        return [len(ep.plan) for ep in self.worlds[split].episodes]

    def _where(self, item) -> tuple[dict, dict]:
        """(the columns naming the episode's trajectory, what replays it)."""
        split, i = item
        world = self.worlds[split]
        ep = world.episodes[i]
        sym = world.symbolic((i, ep.start))
        where = {k: sym[k] for k in ("world", "game", "episode", "rules", "layout")}
        return {"id": ep.label, "task": self.label, "variation": i, "simplifications": ""}, where

    def trajectory_row(self, item, with_valid_actions: bool) -> dict:
        columns, where = self._where(item)
        row = trajectory_row(self.play(item, with_valid_actions), columns,
                             RULE_GENERATOR_VERSION)
        where = {"kind": "trajectory", **where, "valid_actions": with_valid_actions}
        return {**{k: v for k, v in row.items() if k != "generator_version"},
                "symbolic": canonical_json(where), "generator_version": row["generator_version"]}

    def step_rows(self, kind: str, play: GoldPlay, item, history: int,
                  with_valid_actions: bool, t: int, seen) -> list[dict]:
        columns, where = self._where(item)
        return steps_of(kind, play, columns, where, reward, history, with_valid_actions,
                        (t,), seen, RULE_GENERATOR_VERSION)

    def stale(self, item, steps: int, expected: int) -> str:
        return _say("stale_rules", episode=item, steps=steps, expected=expected)

    def world_summary(self) -> dict:
        from racbench.worlds.rules.splits import rule_world_summary
        return rule_world_summary(self.checked)


def reward(score: float) -> int:
    """A rule world's score as returns count it: its reward, 1 once won."""
    return round(score)


class ScienceGoldRows:
    """Serves one config's gold rows to the build engine: row `index` of a split is the
    index-th item of that split (a science task's variations in order, under the given
    simplifications; a rule world's episodes in order)."""

    def __init__(self, name: str, cfg: ScienceGoldConfig | RuleGoldConfig):
        self.name = name
        self.source = cfg.trajectories()
        self.features = self.source.features
        self.with_valid_actions = cfg.valid_actions
        self.items = self.source.items

    @property
    def rows_per_shard(self) -> int | None:
        """A shard's rows are held in memory while it is written: a trajectory with valid
        actions at every step weighs up to some 2 MB there (Python and Arrow); None: the
        build's usual shards."""
        return TRAJECTORIES_PER_SHARD if self.with_valid_actions else None

    def split_sizes(self) -> dict[str, int]:
        return {s: self.capacity(s) for s in SPLIT_ORDER if s in self.items}

    def capacity(self, split: str) -> int:
        return len(self.items.get(split, ()))

    def summary(self) -> dict:
        """What the card's table shows of this config."""
        return {"task": self.source.label, "row_kind": "trajectory", "objects": "-",
                "lengths": [], "query_kinds": [], "world": self.source.world, "names": "-",
                "excluded_forms": [],
                **({"world_summary": s} if (s := self.source.world_summary()) else {})}

    @staticmethod
    def split_counts(rows: list[dict]) -> tuple[Counter, Counter, Counter]:
        """Final scores, kinds (simplification settings) and trajectory lengths, for the
        card."""
        return (Counter(_say("final_score", score=f"{r['final_score']:.2f}") for r in rows),
                Counter(r["simplifications"] or "none" for r in rows),
                Counter(r["n_steps"] for r in rows))

    def row(self, split: str, index: int, code: int = 0, attempt: int = 0):
        columns = self.source.trajectory_row(self.items[split][index], self.with_valid_actions)
        return Row(columns, columns["id"])


class ScienceStepRows(ScienceGoldRows):
    """Serves one config's gold steps as rows: row `index` of a split is a step of the
    split's trajectories laid end to end (items in order, each one's steps in order). A
    worker's rows come in runs of consecutive indices, so the last play is kept for the
    next row."""

    @property
    def rows_per_shard(self) -> int:
        return VALID_STEPS_PER_SHARD if self.with_valid_actions else STEPS_PER_SHARD

    def __init__(self, name: str, cfg: ScienceGoldConfig | RuleGoldConfig):
        super().__init__(name, cfg)
        self.kind, self.history = cfg.rows_kind, cfg.history
        self.features = STEP_FEATURES[self.kind]
        self.lengths = {split: self.source.lengths(split) for split in self.items}
        self.starts = {split: [0, *accumulate(n)] for split, n in self.lengths.items()}
        self._last: tuple | None = None

    def capacity(self, split: str) -> int:
        return self.starts[split][-1] if split in self.starts else 0

    def summary(self) -> dict:
        return {**super().summary(), "row_kind": self.kind, "lengths": [self.history]}

    @staticmethod
    def split_counts(rows: list[dict]) -> tuple[Counter, Counter, Counter]:
        """First words of the gold actions, kinds (simplification settings) and
        trajectory lengths, for the card."""
        return (Counter(r["action"].split(" ", 1)[0] for r in rows),
                Counter(r["simplifications"] or "none" for r in rows),
                Counter(r["n_steps"] for r in rows))

    def _play(self, split: str, k: int) -> tuple[GoldPlay, list[dict]]:
        item = self.items[split][k]
        if self._last is None or self._last[0] != item:
            play = self.source.play(item, self.with_valid_actions)
            if len(play.steps) != self.lengths[split][k]:
                raise GenerationError(_say("stale", config=self.name, why=self.source.stale(
                    item, len(play.steps), self.lengths[split][k])))
            self._last = (item, play, play.situations(self.with_valid_actions))
        return self._last[1:]

    def row(self, split: str, index: int, code: int = 0, attempt: int = 0):
        k = bisect_right(self.starts[split], index) - 1
        item = self.items[split][k]
        play, seen = self._play(split, k)
        t = index - self.starts[split][k]
        columns = self.source.step_rows(self.kind, play, item, self.history,
                                        self.with_valid_actions, t, seen)[0]
        return Row(columns, columns["id"])
