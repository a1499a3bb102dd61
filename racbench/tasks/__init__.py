"""The task families, one module each, registered by name (config and CLI names).

Every suite asks its questions through these families: TRAC's four tasks are
projection, executability, planning and goal_recognition on TRAC's blocksworld, in
TRAC's style; ACP asks all thirteen on any PDDL domain.
"""

from __future__ import annotations

from importlib import import_module

NAMES = ("projection", "executability", "planning", "goal_recognition", "applicability",
         "progression", "reachability", "action_reachability", "validation",
         "justification", "landmarks", "next_action", "plan_generation", "next_observation",
         "first_target")
# families whose rows come from a config of their own (recipe keys of their own), not
# from TaskConfig's row maker: next_observation (tasks/next_observation.py)
OWN_CONFIG = ("next_observation",)

FAMILIES = {name: import_module(f"{__name__}.{name}").FAMILY for name in NAMES}

__all__ = ["FAMILIES", "NAMES", "OWN_CONFIG"]
