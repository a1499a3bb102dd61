"""ScienceWorld-style science-lab simulator: containment world, thermo and electrical engines,
a parser with valid-action listing, fifteen tasks with oracle solvers, and the episode loop
(`racbench.envs.ScienceLabEnv` makes it a gymnasium environment)."""

from racbench.worlds.science.env import ScienceEnv
from racbench.worlds.science.house import Layout
from racbench.worlds.science.registry import SIMPLIFICATIONS, TASKS, task_names, variation_split
from racbench.worlds.science.tasks.base import TaskError
from racbench.worlds.science.trajectory import OracleError, gold_trajectory

__all__ = ["TASKS", "task_names", "ScienceEnv", "variation_split", "gold_trajectory", "Layout",
           "SIMPLIFICATIONS", "TaskError", "OracleError"]
