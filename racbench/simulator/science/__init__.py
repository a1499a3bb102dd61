"""ScienceWorld-style science-lab simulator: containment world, thermo and electrical engines,
a parser with valid-action listing, fifteen tasks with oracle solvers, and a gym-style env."""

from .env import ScienceEnv
from .house import Layout
from .registry import SIMPLIFICATIONS, TASKS, task_names, variation_split
from .tasks.base import TaskError
from .trajectory import OracleError, gold_trajectory
from .play import play

__all__ = ["TASKS", "task_names", "ScienceEnv", "variation_split", "gold_trajectory", "Layout",
           "SIMPLIFICATIONS", "TaskError", "OracleError", "play"]
