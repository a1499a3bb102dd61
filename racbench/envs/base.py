"""What every racbench environment shares: argument checks, a step limit and text rendering."""

from __future__ import annotations

import operator

import gymnasium

from racbench.envs.text import say
from racbench.errors import InputError

MAX_STEPS = 1000  # step() calls per episode, understood or not, before truncation
RENDER_MODES = ("ansi", "human")


class TextEnv(gymnasium.Env):
    """A gymnasium.Env whose observations and actions are text.

    `render()` shows the last observation: returned as a string in "ansi" mode, printed
    after every reset and step in "human" mode.
    """

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(self, env_id: str, max_steps, render_mode, unknown: dict, accepted: tuple):
        if unknown:
            raise InputError(say("unknown_keywords", env=env_id,
                                 bad=[repr(k) for k in sorted(unknown)], accepted=accepted))
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise InputError(say("bad_render_mode", mode=repr(render_mode), accepted=RENDER_MODES))
        self.max_steps = _positive(max_steps)
        self.render_mode = render_mode
        self.steps = 0
        self._shown = ""

    @staticmethod
    def _options(options, accepted: tuple) -> dict:
        """`options` of reset() as a dict, refusing keys other than `accepted`."""
        options = dict(options or {})
        bad = sorted(set(options) - set(accepted), key=str)
        if bad:
            raise InputError(say("bad_options", bad=[repr(b) for b in bad], accepted=accepted))
        return options

    def _show(self, obs: str) -> str:
        """Remember `obs` for render(), and print it in "human" mode."""
        self._shown = obs
        if self.render_mode == "human":
            self.render()
        return obs

    def render(self):
        if self.render_mode == "ansi":
            return self._shown
        if self.render_mode == "human":
            print(self._shown)
        return None


def _positive(value) -> int:
    try:
        n = None if isinstance(value, bool) else operator.index(value)
    except TypeError:
        n = None
    if n is None or n < 1:
        raise InputError(say("bad_max_steps", value=repr(value)))
    return n
