"""ScienceWorld-style science-lab simulator: containment world, thermo and electrical engines,
a parser with valid-action listing, ScienceWorld's thirty tasks with oracle solvers, and the episode loop
(`racbench.envs.ScienceLabEnv` makes it a gymnasium environment).

The names below are loaded on first use, so importing one module of the package (its
naming rules, say) does not load the whole simulator, and no module imports back through
this one."""

from importlib import import_module

_EXPORTS = {
    "ScienceEnv": "racbench.worlds.science.env",
    "Layout": "racbench.worlds.science.house",
    "SIMPLIFICATIONS": "racbench.worlds.science.registry",
    "TASKS": "racbench.worlds.science.registry",
    "task_names": "racbench.worlds.science.registry",
    "variation_split": "racbench.worlds.science.registry",
    "TaskError": "racbench.worlds.science.tasks.base",
    "OracleError": "racbench.worlds.science.trajectory",
    "gold_trajectory": "racbench.worlds.science.trajectory",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(module), name)
