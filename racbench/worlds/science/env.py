"""The simulator's episode loop over one task variation, free of gymnasium.

The world is fully determined by (task, variation, simplifications); `reset(seed=...)` accepts a
seed for interface compatibility, and it does not change the world. `racbench.envs.ScienceLabEnv`
wraps this as a `gymnasium.Env`; the names here (`task_spec`, `phrase`) stay clear of the
gymnasium attributes `spec` and `render`.
"""

from __future__ import annotations

import re

from racbench.text import sayer
from racbench.worlds.science import actions, bees, describe, electrical, life, mechanics, plumbing, thermo
from racbench.worlds.science.facts import facts
from racbench.worlds.science.house import Layout
from racbench.worlds.science.naming import command, commands, terminal
from racbench.worlds.science.parser import parse
from racbench.worlds.science.registry import check_variation, get_task, parse_simplifications
from racbench.worlds.science.scope import Scope, terminal_names, view_key
from racbench.worlds.science.tasks.base import LAST_ACTION, SW_STEPS
from racbench.worlds.science.text import say
from racbench.worlds.science.valid import valid_actions

_say_fault = sayer("cli", ("internal.j2",))  # faults of racbench's own code

MAX_MOVES = 1000
# an answer to a numbered clarification: ASCII digits only ('²' is a digit to str.isdigit)
_CHOICE = re.compile("[0-9]{1,5}")
# views (scope and valid actions) an episode keeps; more and they are all dropped
VIEWS_KEPT = 256
# commands after which no time passes (look around, inventory, task), as in ScienceWorld
TIMELESS = frozenset(verb for verb, entry in commands().items() if entry.get("ticks") is False)


class ScienceEnv:
    """One task variation under a set of simplifications; `layout` optionally generates the map."""

    def __init__(self, task: str, variation: int, simplifications: str = "", layout: Layout | None = None):
        self.task_spec = get_task(task)
        self.variation = check_variation(self.task_spec, variation)
        self.simplifications = simplifications
        self.flags = parse_simplifications(simplifications, self.task_spec.electrical)
        self.layout = layout or Layout()
        self.layout.validate()
        self.teleport_ok = self.flags.teleport
        self.electric_ok = not self.flags.no_electrical
        self.world = None
        self.episode = None

    # ---- episode interface -----------------------------------------------------------------
    def reset(self, seed: int | None = None):
        self.episode = self.task_spec.setup(self.task_spec, self.variation, self.flags, self.layout)
        self.world = self.episode.world
        electrical.update(self.world)
        self._cache: dict = {}
        self._views: dict = {}   # view_key -> [Scope, valid actions or None], of this episode
        self.moves = 0
        self.pending = None
        self.finished = False
        self.extra_ticks = 0
        self.task_description = self.episode.description
        self.episode.update()
        return self.look(), self._info()

    def step(self, action: str):
        return (*self.step_without_info(action), self._info())

    def step_without_info(self, action: str) -> tuple[str, float, bool, bool]:
        """`step`'s (observation, reward, terminated, truncated), without its info dict:
        the look, inventory and valid actions it lists cost more than the step."""
        obs, reward, ran = self.act(action)
        truncated = ran and not self.finished and self.moves >= MAX_MOVES
        return obs, reward, self.finished, truncated

    def act(self, action: str) -> tuple[str, float, bool]:
        """`step` without its info dict, for callers that step often and look seldom (the
        lab's walks): (observation, reward, whether an action ran; the clock ticked unless it was a timeless one)."""
        if self.world is None:
            self.reset()
        before = self.episode.score
        if self.finished:
            return say("episode_over"), 0.0, False
        text = action if isinstance(action, str) else str(action)
        chosen = self._choose(text)
        if isinstance(chosen, str):
            return chosen, 0.0, False
        self.episode.memory[LAST_ACTION] = chosen.key()   # for goals on what was done ('read the stopwatch')
        obs = actions.run(self, chosen)
        if self.episode.on_action is not None:
            self.episode.on_action(self, chosen)
        memory = self.episode.memory
        memory[SW_STEPS] = memory.get(SW_STEPS, 0) + 1 + self.extra_ticks   # a wait counts its ticks too
        if chosen.verb not in TIMELESS:
            self._advance(1 + self.extra_ticks)
        self.extra_ticks = 0
        self.moves += 1
        score = self.episode.update()
        if self.episode.failed:
            obs += "\n" + say("task_failed")
            self.finished = True
        elif self.episode.complete:
            obs += "\n" + say("task_complete")
            self.finished = True
        return obs, score - before, True

    def save(self) -> tuple:
        """Everything a step may change (world, episode, clock), for `restore`, and what was
        worked out from the world so far (its scope, look, valid actions: keyed by version)."""
        return (self.world, self.world.save(), self.episode.save(), self.moves, self.pending,
                self.finished, self.extra_ticks, dict(self._cache))

    def restore(self, saved: tuple) -> None:
        """Back to a state `save` took in this episode, without replaying the commands that
        led there (the task's goals hold on to this episode's things, so a saved state is
        only ever loaded back into them: never across `reset`)."""
        world, things, episode, self.moves, self.pending, self.finished, self.extra_ticks, \
            cache = saved
        if world is not self.world:
            raise ValueError(_say_fault("saved_state_elsewhere"))
        world.load(things)
        self.episode.load(episode)
        # the cache as it was when saved: what it holds of the saved version is this state's
        # (the scope a command is read in, most often), and it holds nothing of the later
        # versions the restored world repeats (every restore swaps the whole cache)
        self._cache = dict(cache)

    # ---- internals ----------------------------------------------------------------------------
    def _choose(self, text: str):
        """The single action `text` means, or the answer to give instead (clarification, error)."""
        pending, self.pending = self.pending, None
        stripped = text.strip()
        if pending is not None and _CHOICE.fullmatch(stripped):
            k = int(stripped)
            if k < len(pending):      # numbered from 0, as ScienceWorld numbers them
                return pending[k]
            self.pending = pending
            return say("bad_choice", n=len(pending))
        if not stripped:
            return say("empty_input")
        result = parse(stripped, self.scope)
        if not result.candidates:
            if result.unresolved:
                return say("no_referent", words=result.unresolved)
            return say("not_understood")
        if len(result.candidates) > 1:
            self.pending = result.candidates
            return say("clarify", options=[self.phrase(a) for a in result.candidates])
        return result.candidates[0]

    def _advance(self, ticks: int) -> None:
        w = self.world
        for _ in range(ticks):
            thermo.tick(w)
            if w.growers:
                life.tick(w)
            if w.taps or w.springs:
                plumbing.tick(w)
            if w.planes or w.timers:
                mechanics.tick(w)
            if w.bees:
                bees.tick(w)
            electrical.tick(w)
            w.ticks += 1
            if self.episode.update() and self.episode.complete:
                break

    def focus(self, thing) -> str:
        self.episode.focus(thing)
        return say("focused", name=self.canon(thing))

    @property
    def scope(self):
        """What the agent sees and how it may name it (scope.Scope), worked out once per
        world version, and once per view: a state that shows what an earlier one of the
        episode showed (view_key) has its scope."""
        return self._view()[0]

    def known_scope(self):
        """The scope if already worked out for the world as it is now, else None (a caller
        that may never read a command here need not pay for one)."""
        hit = self._cache.get("view")
        return hit[1][0] if hit is not None and hit[0] == self.world.version else None

    def _view(self) -> list:
        return self._cached("view", self._find_view)

    def _find_view(self) -> list:
        key = view_key(self.world)
        view = self._views.get(key)
        if view is None:
            if len(self._views) >= VIEWS_KEPT:
                self._views.clear()
            view = self._views[key] = [Scope(self.world), None]
        return view

    def canon(self, thing) -> str:
        return self.scope.canon[thing.uid]

    def phrase(self, action) -> str:
        """Canonical text of a parsed action (used in clarification lists)."""
        names = []
        for a in action.args:
            if isinstance(a, tuple):
                thing, i = a
                names.append(self.canon(thing) if i is None else terminal(self.canon(thing), terminal_names(thing)[i]))
            elif isinstance(a, int):
                names.append(str(a))
            elif a.kind == "room":
                names.append(a.name)
            else:
                names.append(self.canon(a))
        return command(action.verb, *names)

    def _cached(self, key, make):
        v = self.world.version
        hit = self._cache.get(key)
        if hit is None or hit[0] != v:
            hit = (v, make())
            self._cache[key] = hit
        return hit[1]

    def decided(self) -> bool:
        """Whether the readings taken so far decide which answer completes a task decided
        by reading (TaskSpec.decided_by_reading: its episode's hint
        "decided"); any other task: yes. Planning and goal recognition ask only there."""
        decide = self.episode.hints.get("decided")
        return not self.task_spec.decided_by_reading or decide is None or bool(decide(self))

    def facts(self) -> list[tuple]:
        """The current state as sorted symbolic facts (see facts.py)."""
        return facts(self.world)

    def look(self) -> str:
        """The room description, rendered once per world version."""
        return self._cached("look", lambda: describe.look_around(self.world))

    def inventory(self) -> str:
        return self._cached("inventory", lambda: describe.inventory(self.world))

    def valid_actions(self) -> list[str]:
        """The valid actions in canonical wording, listed once per view (see `scope`)."""
        view = self._view()
        if view[1] is None:
            view[1] = valid_actions(self.world, view[0], self.teleport_ok, self.electric_ok)
        return list(view[1])

    def _info(self) -> dict:
        return {
            "look": self.look(),
            "inventory": self.inventory(),
            "score": self.episode.score,
            "scienceworld_score": self.episode.scienceworld_score,
            "valid_actions": self.valid_actions(),
            "task_description": self.task_description,
            "moves": self.moves,
        }
