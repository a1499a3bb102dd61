"""The ACP task families, one module each, registered by name (config/CLI names)."""

from __future__ import annotations

from importlib import import_module

NAMES = ("projection", "executability", "planning", "goal_recognition", "applicability",
         "progression", "reachability", "action_reachability", "validation",
         "justification", "landmarks", "next_action", "plan_generation")

FAMILIES = {}
for _name in NAMES:
    try:
        FAMILIES[_name] = import_module(f"{__name__}.{_name}").FAMILY
    except ModuleNotFoundError as _exc:  # a family still being written
        if _exc.name != f"{__name__}.{_name}":
            raise

__all__ = ["FAMILIES", "NAMES"]
