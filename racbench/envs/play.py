"""`racbench play`: a person at a terminal plays any world through its gymnasium environment.

One loop serves every world: it prints what the environment observes, sends each typed
line as an action, and answers two words itself: `actions` lists info["valid_actions"],
`quit` (or `exit`, `q`, or the end of input) stops.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

import gymnasium

import racbench.envs  # noqa: F401  (registers the ids)
from racbench.envs.rules import ENV_ID as RULES_ID
from racbench.envs.science import env_id
from racbench.envs.strips import ENV_ID as STRIPS_ID
from racbench.envs.text import say
from racbench.worlds.science.registry import get_task

QUIT = ("quit", "exit", "q")
LIST = "actions"


def play_science(task: str, variation: int = 0, simplifications: str = "",
                 input_stream=None, output_stream=None) -> float:
    """Play a science-lab task; returns the final score. Bad arguments raise ValueError."""
    get_task(task)  # an unknown name is refused with the list of tasks, not gymnasium's error
    env = gymnasium.make(env_id(task), variation=variation, simplifications=simplifications)

    def intro(info: dict) -> str:
        sim = env.unwrapped.sim
        return say("science_intro", task=task, variation=sim.variation,
                   split=sim.task_spec.split_of(sim.variation), goal=info["goal"])
    return play(env, intro, input_stream, output_stream)


def play_strips(domain: str | None = None, problem: str | None = None, domain_file=None,
                problem_file=None, input_stream=None, output_stream=None) -> float:
    """Play a PDDL problem, shipped (`domain`, `problem`) or from files; returns the score.
    A file that is not a regular one (a pipe, which reading would wait on for ever, a
    device, a folder) is refused at once, as `racbench generate` refuses it."""
    from racbench.errors import InputError
    from racbench.tasks.config import is_readable_file, not_a_file

    for path, what in ((domain_file, "--domain-file"), (problem_file, "--problem-file")):
        if path is not None and not is_readable_file(path, what):
            raise InputError(f"{what} {path} {not_a_file(path)}")
    env = gymnasium.make(STRIPS_ID, domain=domain, problem=problem, domain_file=domain_file,
                         problem_file=problem_file)
    name = env.unwrapped.task.domain_name

    def intro(info: dict) -> str:
        return say("strips_intro", domain=name, problem=problem or Path(problem_file).name)
    return play(env, intro, input_stream, output_stream)


def play_rules(game: str = "rtfm", split: str = "train", episode: int = 0,
               input_stream=None, output_stream=None, **knobs) -> float:
    """Play a rule world's episode (the one a `rules:` config of these knobs builds)."""
    env = gymnasium.make(RULES_ID, game=game, split=split, episode=episode, **knobs)

    def intro(info: dict) -> str:
        return say("rules_intro", game=game, split=split, episode=episode)
    return play(env, intro, input_stream, output_stream)


def play(env: gymnasium.Env, intro: Callable[[dict], str], input_stream=None,
         output_stream=None) -> float:
    """Read commands until the episode ends, `quit` or the end of input; returns the score."""
    inp = input_stream if input_stream is not None else sys.stdin
    out = output_stream if output_stream is not None else sys.stdout
    obs, info = env.reset()
    out.write(intro(info) + "\n\n" + _text(obs) + "\n")
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
        if command.lower() == LIST:
            out.write(say("actions", valid=info["valid_actions"]) + "\n")
            continue
        obs, _, terminated, truncated, info = env.step(command)
        out.write(_text(obs) + "\n" + say("score_line", score=info["score"]) + "\n")
        if terminated or truncated:
            break
    out.write(say("bye") + "\n")
    out.flush()
    env.close()
    return info["score"]


def _text(obs) -> str:
    """What a person reads of an observation (a rule world's is a dict with a grid array)."""
    return obs["text"] if isinstance(obs, dict) else obs
