"""A rule world's episode as a gymnasium environment (worlds/rules/).

The observation is a dict: `text`, the manual, the grid row by row, what you hold and the
goal (as a person reads it); `grid`, the grid as a symbolic array (0 empty, 1 you, an
entity's or item's vocabulary symbol otherwise: see `symbol`). Actions are the moves
up, down, left, right and stay (also "move up", ...). Winning gives reward 1 and ends
the episode; losing ends it with 0. The episodes are those a `rules:` recipe config of
the same options builds (episode k of the split), so a row's world can be played.
"""

from __future__ import annotations

import string

import numpy as np
from gymnasium import spaces

from racbench.envs.base import TextEnv
from racbench.envs.text import say
from racbench.errors import InputError
from racbench.tasks.options import SPLITS
from racbench.worlds.rules.episode import ACTIONS, LOST, WON
from racbench.worlds.rules.grammar import RuleOptions, vocab
from racbench.worlds.rules.oracle import horizon
from racbench.worlds.rules.world import make_episode

ENV_ID = "racbench/rules-v0"
ARGUMENTS = ("game", "split", "episode", "depth", "irrelevant", "grid", "entities",
             "overlap", "max_steps", "render_mode")
OBSERVATION_CHARSET = string.ascii_letters + string.digits + string.punctuation + " \n"
OBSERVATION_MAX_LENGTH = 8192
ITEM_SYMBOLS = 100  # items' symbols start here (entities' at 2)
MAX_SYMBOL = 255


def symbol(rules, what: str, index: int) -> int:
    """The grid array's number for entity or item `index` of the rule set: the position
    of its name (entity) or modifier (item) in the vocabulary, so a symbol means the same
    thing in every episode and never its role."""
    v = vocab()
    if what == "entity":
        names = v["rtfm"]["monsters"] if rules.game == "rtfm" else v["messenger"]["entities"]
        return 2 + names.index(rules.entities[index].name)
    return ITEM_SYMBOLS + v["rtfm"]["modifiers"].index(rules.items[index].modifier)


class RulesEnv(TextEnv):
    """`game` (rtfm, messenger), `split` and `episode` choose the episode; `depth`,
    `irrelevant`, `grid`, `entities`, `overlap` are the rule world's knobs (as a recipe's
    `rule_options`)."""

    def __init__(self, game: str = "rtfm", split: str = "train", episode: int = 0,
                 max_steps: int | None = None, render_mode: str | None = None,
                 **knobs):
        unknown = {k: v for k, v in knobs.items() if k not in ARGUMENTS}
        opts = {k: v for k, v in knobs.items() if k in ARGUMENTS}
        self.options = RuleOptions.for_game(game, **opts) if not unknown else None
        wrong = self.options.problems() if self.options else []
        steps = max_steps if max_steps is not None else (
            horizon(self.options.grid) if not wrong and not unknown else 1)
        super().__init__(ENV_ID, steps, render_mode, unknown, ARGUMENTS)
        if wrong:
            raise InputError(say("bad_rule_env", field=wrong[0][0], value=repr(wrong[0][1]),
                                 accepted=wrong[0][2]))
        if split not in SPLITS:
            raise InputError(say("bad_rule_env", field="split", value=repr(split),
                                 accepted=", ".join(SPLITS)))
        self.split = split
        self._load(episode)
        size = self.options.grid
        self.observation_space = spaces.Dict({
            "text": spaces.Text(max_length=OBSERVATION_MAX_LENGTH, min_length=0,
                                charset=OBSERVATION_CHARSET),
            "grid": spaces.Box(0, MAX_SYMBOL, (size, size), dtype=np.int64)})
        self.action_space = spaces.Text(max_length=10, charset=string.ascii_lowercase + " ")

    def _load(self, episode) -> None:
        if not isinstance(episode, int) or isinstance(episode, bool) or episode < 0:
            raise InputError(say("bad_rule_env", field="episode", value=repr(episode),
                                 accepted=say("non_negative_integer")))
        self.episode_index = episode
        self.world = make_episode(self.options, self.split, 0, episode)
        self.text = self.world.text()

    # -- gymnasium
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        options = self._options(options, ("episode",))
        if "episode" in options:
            self._load(options["episode"])
        self.state, self.steps, self.moves = self.world.start, 0, 0
        return self._observe(""), self._info()

    def step(self, action: str):
        self.steps += 1
        before = self._score()
        move = action.strip().lower().removeprefix("move ").strip() \
            if isinstance(action, str) else ""
        if self.state[6] != 0:
            feedback = say("episode_over")
        elif move not in ACTIONS:
            feedback = say("unknown_move", accepted=ACTIONS)
        else:
            nxt = self.world.step(self.state, move)
            if nxt is None:
                feedback = say("cannot_move")
            else:
                self.state, self.moves = nxt, self.moves + 1
                feedback = say("moved", move=self.text.action((move,)))
                if nxt[6] == WON:
                    feedback += " " + say("rules_won")
                elif nxt[6] == LOST:
                    feedback += " " + say("rules_lost")
        over = self.state[6] != 0
        truncated = not over and self.steps >= self.max_steps
        return self._observe(feedback), self._score() - before, over, truncated, self._info()

    # -- observation
    def _observe(self, feedback: str) -> dict:
        world, state = self.world, self.state
        size, rules = world.episode.size, world.rules
        labels = [[say("empty_cell")] * size for _ in range(size)]
        grid = np.zeros((size, size), dtype=np.int64)
        for i, cell in enumerate(state[2]):
            if cell >= 0:
                labels[cell // size][cell % size] = rules.items[i].name
                grid[cell // size, cell % size] = symbol(rules, "item", i)
        for i, cell in enumerate(state[1]):
            if cell >= 0:
                labels[cell // size][cell % size] = rules.entities[i].label
                grid[cell // size, cell % size] = symbol(rules, "entity", i)
        labels[state[0] // size][state[0] % size] = "you"
        grid[state[0] // size, state[0] % size] = 1
        rows = "\n".join(say("grid_row", number=r + 1, cells=cells)
                         for r, cells in enumerate(labels))
        held = rules.items[state[3]].name if state[3] >= 0 else ""
        text = say("rules_observation", feedback=feedback, manual=world.manual, grid=rows,
                   inventory=self.text.inventory(held),
                   goal=self.text.goal(rules.game, rules.target))
        self._show(text)
        return {"text": text, "grid": grid}

    def _info(self) -> dict:
        held = self.world.rules.items[self.state[3]].name if self.state[3] >= 0 else ""
        return {"valid_actions": list(self.world.applicable(self.state)),
                "score": self._score(), "goal": self.text.goal(self.world.rules.game,
                                                               self.world.rules.target),
                "moves": self.moves, "inventory": held, "manual": self.world.manual,
                "oracle_plan": list(self.world.plan)}

    def _score(self) -> float:
        return 1.0 if self.state[6] == WON else 0.0
