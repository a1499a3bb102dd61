"""Gymnasium environments for racbench's worlds; importing this module registers them.

    import gymnasium
    import racbench.envs  # registers the ids below

    env = gymnasium.make("racbench/science-boil-v0", variation=3)
    env = gymnasium.make("racbench/strips-v0", domain="gripper", problem="p01")
    env = gymnasium.make("racbench/rules-v0", game="messenger", split="test", episode=2)

Gymnasium (>= 1.0) has no plugin discovery: an id is known once the module that
registers it is imported, or named in the id itself
(`gymnasium.make("racbench.envs:racbench/strips-v0", ...)`). `import racbench` alone does
not import gymnasium, so the command line starts fast.
"""

from gymnasium import register

from racbench.envs.rules import ENV_ID as RULES_ID, RulesEnv
from racbench.envs.science import ScienceLabEnv, env_id
from racbench.envs.strips import ENV_ID as STRIPS_ID, StripsEnv
from racbench.worlds.science.registry import task_names

SCIENCE_IDS = tuple(env_id(task) for task in task_names())

for _task, _id in zip(task_names(), SCIENCE_IDS):
    register(id=_id, entry_point="racbench.envs.science:ScienceLabEnv", kwargs={"task": _task})
register(id=STRIPS_ID, entry_point="racbench.envs.strips:StripsEnv")
register(id=RULES_ID, entry_point="racbench.envs.rules:RulesEnv")

__all__ = ["RulesEnv", "ScienceLabEnv", "StripsEnv", "SCIENCE_IDS", "STRIPS_ID", "RULES_ID"]
