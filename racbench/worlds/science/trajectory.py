"""Gold trajectories: the task's oracle plays the environment through the parser."""

from __future__ import annotations

from racbench.worlds.science.env import ScienceEnv
from racbench.worlds.science.text import say


class OracleError(RuntimeError):
    """An oracle failed to finish its task (a bug, never expected)."""


def gold_trajectory(task: str, variation: int, simplifications: str = "", with_valid_actions: bool = False,
                    layout=None) -> list[dict]:
    """Steps {"action", "observation", "score"} (+ "look", "inventory", "valid_actions" on request)."""
    env = ScienceEnv(task, variation, simplifications, layout=layout)
    env.reset()
    return run_oracle(env, with_valid_actions)


def run_oracle(env: ScienceEnv, with_valid_actions: bool = False) -> list[dict]:
    """Play the task's oracle on a freshly reset `env`; raises OracleError unless it scores 1.0."""
    task, variation, simplifications = env.task_spec.name, env.variation, env.simplifications
    steps = []
    for action in env.task_spec.oracle(env):
        if with_valid_actions:
            obs, _, terminated, truncated, info = env.step(action)
            step = {"action": action, "observation": obs, "score": info["score"],
                    "look": info["look"], "inventory": info["inventory"],
                    "valid_actions": info["valid_actions"]}
        else:  # listing them costs more than playing the step: only when kept
            obs, _, terminated, truncated = env.step_without_info(action)
            step = {"action": action, "observation": obs, "score": env.episode.score}
        steps.append(step)
        if terminated or truncated:
            break
    if not steps or steps[-1]["score"] != 1.0:
        last = steps[-1] if steps else None
        raise OracleError(say("oracle_failed", task=task, variation=variation, simplifications=simplifications,
                              score=last["score"] if last else 0.0, last=last))
    return steps
