"""Training on racbench: difficulty levels per family and world (levels.py), an endless
seeded stream of rows (stream.py) and a curriculum that moves levels as scores come
back (curriculum.py). `racbench.stream` and `racbench.Curriculum` are the public
entry points."""

from racbench.training.curriculum import Curriculum
from racbench.training.levels import LEVELS
from racbench.training.stream import Stream

__all__ = ["Curriculum", "LEVELS", "Stream"]
