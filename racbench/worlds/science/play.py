"""An interactive loop for a person at a terminal."""

from __future__ import annotations

import sys

from racbench.worlds.science.env import ScienceEnv
from racbench.worlds.science.text import say

QUIT = ("quit", "exit", "q")


def play(task: str, variation: int, simplifications: str = "", input_stream=None, output_stream=None) -> float:
    """Print the task and the room, read commands until the episode ends, `quit` or end of input.

    Returns the final score.
    """
    inp = input_stream if input_stream is not None else sys.stdin
    out = output_stream if output_stream is not None else sys.stdout
    env = ScienceEnv(task, variation, simplifications)
    obs, info = env.reset()
    out.write(say("play_intro", task=task, variation=variation, split=env.task_spec.split_of(variation)) + "\n")
    out.write(info["task_description"] + "\n\n" + obs + "\n")
    score = info["score"]
    while True:
        out.write("> ")
        out.flush()
        line = inp.readline()
        if not line:
            out.write("\n")
            break
        command = line.strip()
        if command.lower() in QUIT:
            break
        obs, _, terminated, truncated, info = env.step(command)
        score = info["score"]
        out.write(obs + "\n" + say("score_line", score=score) + "\n")
        if terminated or truncated:
            break
    out.write(say("play_bye") + "\n")
    out.flush()
    return score
