"""Task generators: one module per task family, registered by name."""

from racbench.generators import executability, goal_recognition, planning, projection
from racbench.generators.base import TASKS, ConfigError, TaskConfig

TASK_MODULES = {m.MODULE.name: m.MODULE
                for m in (projection, executability, planning, goal_recognition)}

__all__ = ["TASKS", "TASK_MODULES", "ConfigError", "TaskConfig"]
