"""Task specs, episode scoring and the variation bookkeeping shared by every task family."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from racbench.worlds.science.data import load


class TaskError(ValueError):
    """Bad task name, variation or simplification; the message names what is accepted."""


@dataclass(frozen=True)
class Flags:
    teleport: bool = False
    open_doors: bool = False
    open_containers: bool = False
    no_electrical: bool = False
    self_watering: bool = False   # flower pots keep their soil watered


@dataclass(frozen=True)
class TaskSpec:
    name: str
    topic: str
    n_variations: int
    setup: Callable            # (spec, variation, flags, layout) -> Episode
    oracle: Callable           # (env) -> Iterator[str]
    electrical: bool = False   # electrical tasks need connect/disconnect: noElectricalAction is refused
    # which answer completes the task is told only by past readings (a thermometer's, the
    # stopwatch's timings of the two planes), never by the state shown afterwards nor by
    # common knowledge: its lab questions about completing it show the readings taken
    # (its episode's hint "readings", else the thermometer's answers) and are asked only
    # where they decide the answer (its episode's hint "decided")
    decided_by_reading: bool = False

    def split_counts(self) -> tuple[int, int, int]:
        return split_counts(self.name)

    def split_of(self, variation: int) -> str:
        train, dev, _ = self.split_counts()
        if variation < train:
            return "train"
        if variation < train + dev:
            return "validation"
        return "test"


def split_counts(task: str) -> tuple[int, int, int]:
    """ScienceWorld's (train, dev, test) sizes for `task`: its variation lists are contiguous
    ranges in that order, and users compare results split by split."""
    return tuple(load("splits")[task])


def scienceworld_facts(task: str, variation: int):
    """What ScienceWorld's variation `variation` of `task` holds (its critical objects and hidden
    answers; data/science/variations.json, read from ScienceWorld by tools/scienceworld_facts.py)."""
    return load("variations")[task][variation]


def scienceworld_draw(table: str, task: str, variation: int):
    """A draw ScienceWorld's variation makes beyond what its description names (variations.json's
    `table`: vessels, genetics_pots, genetics_seeds, stage_pots), read off its rooms at the start."""
    return load("variations")[table][task][variation]


def start_room(task: str, variation: int) -> str:
    """The room where ScienceWorld's variation starts the agent."""
    return load("variations")["start_rooms"][task][variation]


LAST_ACTION = "last action"   # Episode.memory key: the key of the action the current step runs
# Episode.memory key: ScienceWorld's count of steps, where every step counts one and a wait of N
# ticks N more (its "stay in a location for N steps" goals count these, observed by playing it)
SW_STEPS = "scienceworld steps"


@dataclass
class Episode:
    """One episode's task state: the world, ordered required goals, optional goals, focus rule."""
    world: object
    description: str
    required: list
    optional: list
    on_focus: Callable = None          # (episode, thing) -> bool (False means failure)
    failure: Callable = None           # (episode) -> bool
    hints: dict = field(default_factory=dict)   # what the oracle needs to know
    req_done: int = 0
    opt_done: list = field(default_factory=list)
    failed: bool = False
    focus_mark: dict = field(default_factory=dict)  # thing uid -> phase-log length at focus time
    memory: dict = field(default_factory=dict)  # what a task's goals note down as steps go by
    # (env, action) once an action ran, before time passes: what a task notes of its
    # experiment in `memory` (the planes' timings), which its hint "decided" reads
    on_action: Callable = None

    def __post_init__(self):
        self.opt_done = [False] * len(self.optional)

    @property
    def complete(self) -> bool:
        return self.req_done == len(self.required)

    def focus(self, thing) -> bool:
        self.focus_mark.setdefault(thing.uid, len(self.world.phase_log))
        ok = self.on_focus(self, thing)
        if not ok:
            self.failed = True
        return ok

    def update(self) -> float:
        if not self.failed and self.failure is not None and self.failure(self):
            self.failed = True
        if self.failed:
            return 0.0
        while self.req_done < len(self.required) and self.required[self.req_done](self):
            self.req_done += 1
        for i, g in enumerate(self.optional):
            if not self.opt_done[i] and g(self):
                self.opt_done[i] = True
        return self.score

    def save(self) -> tuple:
        """The progress a step may change, for `load` (goals and hints stay as built)."""
        return (self.req_done, tuple(self.opt_done), self.failed, dict(self.focus_mark),
                dict(self.memory))

    def load(self, saved: tuple) -> None:
        self.req_done, opt_done, self.failed, focus_mark, memory = saved
        self.opt_done, self.focus_mark, self.memory = list(opt_done), dict(focus_mark), dict(memory)

    @property
    def score(self) -> float:
        """Progress as ScienceWorld scores it: each required goal met in order is worth
        1 / required, and the optional goals together 1 / (required + 1), split evenly among
        them; 1.0 once every required goal is met."""
        if self.failed:
            return 0.0
        if self.complete:
            return 1.0
        n_req = len(self.required)
        score = self.req_done / n_req
        if self.optional:
            score += sum(self.opt_done) / (len(self.optional) * (n_req + 1))
        return round(min(score, 1.0), 4)

    @property
    def scienceworld_score(self) -> int:
        """The score on ScienceWorld's scale: 0 to 100, 100 when done, -100 once a failure
        condition ended the episode."""
        if self.failed:
            return -100
        if self.complete:
            return 100
        # summed goal by goal in floating point and rounded half to even, as ScienceWorld shows
        # them: 21 of 28 optional goals worth 1/56 each make 37.4999..., which it shows as 37;
        # 4 of 8 worth 1/32 each make 12.5, which it shows as 12 (use-thermometer 360)
        n_req = len(self.required)
        total = self.req_done / n_req
        if self.optional:
            each = 1.0 / (len(self.optional) * (n_req + 1))
            for done in self.opt_done:
                if done:
                    total += each
        return min(100, round(100 * total))

    # ---- helpers for goal predicates -----------------------------------------------------
    def did(self, verb: str, thing) -> bool:
        """The action of this step was `verb` on `thing` (ScienceWorld's 'past action' goals)."""
        return self.memory.get(LAST_ACTION) == (verb, thing.uid)

    def focused(self, thing) -> bool:
        return thing.uid in self.focus_mark

    def transitions_since_focus(self, thing) -> list[tuple[str, str]]:
        start = self.focus_mark.get(thing.uid)
        if start is None:
            return []
        return [(old, new) for _, uid, old, new in self.world.phase_log[start:] if uid == thing.uid]
