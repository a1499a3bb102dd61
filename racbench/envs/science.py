"""The science lab as a gymnasium environment: one task, its variations, text in and out.

Observations are the simulator's answers; info carries valid_actions, score, goal (the
task description), moves (actions the simulator carried out), look and inventory. The
reward is the score's increase. reset(options={"variation": k}) switches variation
without a new environment.
"""

from __future__ import annotations

import string

from gymnasium import spaces

from racbench.envs.base import MAX_STEPS, TextEnv
from racbench.worlds.science.env import ScienceEnv
from racbench.worlds.science.parser import MAX_LENGTH

ARGUMENTS = ("variation", "simplifications", "max_steps", "render_mode")
# Templates and data files are printable ASCII (a test checks); tabs and newlines lay out lists.
OBSERVATION_CHARSET = string.ascii_letters + string.digits + string.punctuation + " \t\n"
# Measured (topics 1-4 only, before topics 5-10 came; the spaces test plays every task's
# first and last variation): the longest observation of the 4136 gold trajectories has 788 characters (the
# longest room description 817), of long random walks over every task 797; rooms are
# bounded by the house. Echoed words and clarification lists grow with the command, which
# the parser caps at MAX_LENGTH; 2048 covers both with room to spare.
OBSERVATION_MAX_LENGTH = 2048
# Commands are lower-cased and stripped to letters, digits and spaces before parsing; names
# such as 'yellow-green paint' keep their hyphen in the commands the lab lists.
COMMAND_CHARSET = string.ascii_letters + string.digits + " -()"  # "book (Sherlock Holmes)"


def env_id(task: str) -> str:
    return f"racbench/science-{task}-v0"


class ScienceLabEnv(TextEnv):
    """`task` is fixed by the registered id (racbench/science-<task>-v0)."""

    def __init__(self, task: str, variation: int = 0, simplifications: str = "",
                 max_steps: int = MAX_STEPS, render_mode: str | None = None, **unknown):
        super().__init__(env_id(task), max_steps, render_mode, unknown, ARGUMENTS)
        self.sim = ScienceEnv(task, variation, simplifications)
        self.observation_space = spaces.Text(max_length=OBSERVATION_MAX_LENGTH, min_length=0,
                                             charset=OBSERVATION_CHARSET)
        self.action_space = spaces.Text(max_length=MAX_LENGTH, charset=COMMAND_CHARSET)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        options = self._options(options, ("variation",))
        if "variation" in options:
            self.sim = ScienceEnv(self.sim.task_spec.name, options["variation"],
                                  self.sim.simplifications)
        self.steps = 0
        obs, info = self.sim.reset()
        return self._show(obs), _info(info)

    def step(self, action: str):
        self.steps += 1
        obs, reward, terminated, truncated, info = self.sim.step(action)
        truncated = truncated or (not terminated and self.steps >= self.max_steps)
        return self._show(obs), float(reward), terminated, truncated, _info(info)


def _info(info: dict) -> dict:
    return {"valid_actions": info["valid_actions"], "score": info["score"],
            "scienceworld_score": info["scienceworld_score"],
            "goal": info["task_description"], "moves": info["moves"],
            "look": info["look"], "inventory": info["inventory"]}
