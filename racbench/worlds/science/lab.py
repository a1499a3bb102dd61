"""The science lab behind the world protocol, so task families ask their questions here too.

A state is the tuple of commands typed since the episode began: the lab is determined by
(task, variation, simplifications), so replaying those commands rebuilds it exactly, and
a row that stores them can be re-derived by anyone with the simulator. The lab keeps one
running environment and extends it when asked about a longer history of the same walk
(the usual case); otherwise it replays from the start.

Actions are the valid commands that change the world (open, move, pour, activate, wait,
go...): looking, reading, the inventory and `focus` (which ends some tasks) are left out.
Facts are the simulator's symbolic facts (facts.py) of the kinds a question may ask
about: where things are, their state of matter, open or closed, on or off, broken,
burning, connected. Their kinds show the predicate and each thing's kind, not its name.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from functools import lru_cache

from racbench.worlds.protocol import World
from racbench.worlds.science.env import ScienceEnv

QUESTION_PREDICATES = frozenset({"in", "state", "open", "closed", "on", "off", "broken",
                                 "burning", "connected"})
LEFT_OUT_VERBS = ("look", "inventory", "task", "read", "focus")
MAX_START_WALK = 6  # states are drawn by walks of 0 to this many commands from the start
SNAPSHOTS = 512  # states whose facts and commands are remembered


class ScienceLab(World):
    """One task variation of the science lab as a world of the protocol
    (racbench/worlds/protocol.py)."""

    def __init__(self, task: str, variation: int, simplifications: str = ""):
        self.task = task
        self.variation = variation
        self.simplifications = simplifications
        self.label = f"{task}-{variation}"
        self._env = ScienceEnv(task, variation, simplifications)
        self._history: tuple[str, ...] | None = None
        self._info: dict = {}
        self._seen: OrderedDict[tuple, tuple] = OrderedDict()
        self._snapshot(())
        things = self._env.world.things
        self.objects = {f"{t.name}#{t.uid}": t.kind for t in things}
        # what a door is called in a sentence: the two rooms it joins
        self.doors = {f"{t.name}#{t.uid}": tuple(r.name for r in t.rooms)
                      for t in things if t.kind == "door"}
        self.goal = ()

    # -- the running environment ---------------------------------------------------------
    def _snapshot(self, state: tuple[str, ...]) -> tuple:
        """(facts, commands, look, inventory) of a state, remembered."""
        hit = self._seen.get(state)
        if hit is not None:
            self._seen.move_to_end(state)
            return hit
        env = self._env
        done = self._history
        if done is None or state[:len(done)] != done:
            self._info = env.reset()[1]
            done = ()
        for command in state[len(done):]:
            self._info = env.step(command)[4]
        self._history = state
        info = self._info
        facts = frozenset(f for f in env.facts() if f[0] in QUESTION_PREDICATES)
        commands = () if env.finished else tuple(sorted(
            a for a in info["valid_actions"] if not a.startswith(LEFT_OUT_VERBS)))
        hit = self._seen[state] = (facts, commands, info["look"], info["inventory"])
        if len(self._seen) > SNAPSHOTS:
            self._seen.popitem(last=False)
        return hit

    # -- stepping -----------------------------------------------------------------------------
    def sample_state(self, rng: random.Random) -> tuple[str, ...]:
        state: tuple[str, ...] = ()
        for _ in range(rng.randint(0, MAX_START_WALK)):
            commands = self.applicable(state)
            if not commands:
                break
            state += (rng.choice(commands),)
        return state

    def applicable(self, state: tuple[str, ...]) -> list[str]:
        return list(self._snapshot(state)[1])

    def succ(self, state: tuple[str, ...]) -> tuple[list[str], list[tuple[str, ...]]]:
        commands = self.applicable(state)
        return commands, [state + (c,) for c in commands]

    def step(self, state: tuple[str, ...], command: str) -> tuple[str, ...] | None:
        return state + (command,) if command in self._snapshot(state)[1] else None

    # -- facts and terms -------------------------------------------------------------------
    def facts(self, state: tuple[str, ...]) -> frozenset[tuple]:
        return self._snapshot(state)[0]

    def fact_kind(self, fact: tuple) -> tuple:
        """The predicate, and each argument's kind of thing (or the value itself)."""
        return (fact[0],) + tuple(self.objects.get(a, a) if isinstance(a, str) else a
                                  for a in fact[1:])

    def question_facts(self, plan, states) -> list[tuple]:
        """Facts of the predicates that changed between the first and last of `states`,
        true in either: the facts a question about what the commands did may ask."""
        first, last = self.facts(states[0]), self.facts(states[-1])
        changed = {f[0] for f in first ^ last}
        return sorted(f for f in first | last if f[0] in changed)

    def action_term(self, command: str) -> tuple[str]:
        return (command,)

    def action_kind(self, command: str) -> tuple[str]:
        """The command's verb (its first word: open, move, pour...)."""
        return (command.split(" ", 1)[0],)

    def inapplicable(self, state: tuple[str, ...]) -> list[str]:
        """Commands valid one step away but not here, of the verbs valid here."""
        here = set(self.applicable(state))
        verbs = {self.action_kind(c) for c in here}
        near = {c for nxt in self.succ(state)[1] for c in self.applicable(nxt)}
        return sorted(c for c in near - here if self.action_kind(c) in verbs)

    def render_state(self, state: tuple[str, ...], text, rng) -> str:
        _, _, look, inventory = self._snapshot(state)
        return text.lab_state(look, inventory)

    def symbolic(self, state: tuple[str, ...]) -> dict:
        """What a row stores to rebuild the lab and the state: replay `history`."""
        return {"world": "science", "task": self.task, "variation": self.variation,
                "simplifications": self.simplifications, "history": list(state),
                "state": sorted(list(f) for f in self.facts(state))}

    def sizes(self) -> tuple[int, int]:
        """(things, commands at the start), for a row's difficulty columns."""
        return len(self.objects), len(self.applicable(()))

    def text(self, *options, **named):
        """The lab's phrasing of facts and commands (racbench.text.phrasing)."""
        from racbench.text.phrasing import LabText
        return LabText(self.doors)


@lru_cache(maxsize=None)
def lab(task: str, variation: int, simplifications: str = "") -> ScienceLab:
    """The lab of one task variation (cached per process, so forked workers share it)."""
    return ScienceLab(task, variation, simplifications)
