"""A curriculum: each task's level moved to keep its recent accuracy in a target band.

`update(task, score)` takes a score back (a number in [0, 1] or a `racbench.Score`; the
task as a stream names it, a bare family when the curriculum has one task of it, or the
scored row itself). Once a task has `window` scores at its level, their mean decides:
above the band the task moves one level up, below it one level down, and the window
starts afresh at the new level; inside the band nothing moves. Every move is kept in
`moves` (and logged to the "racbench.training" logger). `save(path)` writes the whole
state as JSON and `Curriculum.load(path)` restores it: a restored curriculum moves
exactly as the saved one would have. A stream given the curriculum asks it each task's
level at each row.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from pathlib import Path
from typing import Any, Iterable, Mapping

from racbench.tasks.config import ConfigError
from racbench.text import sayer
from racbench.training.levels import LEVELS, level_index

log = logging.getLogger("racbench.training")
STATE_VERSION = 1
_say = sayer("cli", ("curriculum.j2",))


class Curriculum:
    def __init__(self, *, start: str | int = "easy", band: tuple[float, float] = (0.5, 0.8),
                 window: int = 32, tasks: Iterable[str] = ()):
        low, high = _band(band)
        if not isinstance(window, int) or isinstance(window, bool) or window < 1:
            raise ConfigError(_say("bad_window", window=repr(window)))
        self.start, self.band, self.window = LEVELS[level_index(start)], (low, high), window
        self.levels: dict[str, str] = {}
        self.recent: dict[str, list[float]] = {}
        self.moves: list[dict[str, Any]] = []
        self.updates = 0
        self.track(tasks)

    def track(self, tasks: Iterable[str]) -> None:
        """Start following `tasks` (a stream registers its tasks), at the start level."""
        for task in tasks:
            self.levels.setdefault(task, self.start)
            self.recent.setdefault(task, [])

    def level(self, task: str) -> str:
        key = self._key(task)
        return self.levels.get(key, self.start)

    def accuracy(self, task: str) -> float | None:
        """The mean of the task's scores at its current level so far (None: none yet)."""
        scores = self.recent.get(self._key(task)) or []
        return sum(scores) / len(scores) if scores else None

    def update(self, task: str | Mapping[str, Any], score: Any) -> dict | None:
        """Take one score of `task`; returns the move it caused, or None."""
        value = float(getattr(score, "value", score))
        if not 0.0 <= value <= 1.0:
            raise ConfigError(_say("bad_score", score=repr(score)))
        key = self._key(task)
        self.track([key])
        self.updates += 1
        scores = self.recent[key]
        scores.append(value)
        if len(scores) < self.window:
            return None
        accuracy = sum(scores) / len(scores)
        index = LEVELS.index(self.levels[key])
        step = 1 if accuracy > self.band[1] else -1 if accuracy < self.band[0] else 0
        if step == 0:
            del scores[0]  # slide: the last `window` scores decide the next time
            return None
        if not 0 <= index + step < len(LEVELS):
            del scores[0]  # at the end of the scale: stay, keep watching
            return None
        move = {"task": key, "from": LEVELS[index], "to": LEVELS[index + step],
                "accuracy": round(accuracy, 6), "update": self.updates}
        self.levels[key] = LEVELS[index + step]
        self.recent[key] = []
        self.moves.append(move)
        if log.isEnabledFor(logging.INFO):
            log.info(_say("moved", task=key, start=move["from"], to=move["to"],
                          accuracy=f"{accuracy:.3f}", window=self.window))
        return move

    def _key(self, task: str | Mapping[str, Any]) -> str:
        if isinstance(task, Mapping):
            from racbench.training.stream import row_task

            return row_task(task)
        if not isinstance(task, str) or not task:
            raise ConfigError(_say("bad_task", task=repr(task)))
        if "@" in task:
            return task
        known = [k for k in self.levels if k.split("@")[0] == task]
        if len(known) > 1:
            raise ConfigError(_say("ambiguous_family", family=task, tasks=sorted(known)))
        return known[0] if known else task

    # -- state ------------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        return {"version": STATE_VERSION, "start": self.start, "band": list(self.band),
                "window": self.window, "levels": dict(sorted(self.levels.items())),
                "recent": dict(sorted(self.recent.items())), "moves": self.moves,
                "updates": self.updates}

    def save(self, path: str | Path) -> Path:
        """The state as JSON at `path`, written whole or not at all."""
        path = Path(path)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "w") as out:
            json.dump(self.state(), out, indent=1, sort_keys=True)
        os.replace(tmp, path)
        return path

    @classmethod
    def from_state(cls, state: Mapping[str, Any], where: str | None = None) -> "Curriculum":
        """A curriculum from its saved state; `where` (a file) names it in errors."""
        where = where or _say("state")
        try:
            if state.get("version") != STATE_VERSION:
                raise ConfigError(_say("at", where=where, message=_say(
                    "bad_version", version=STATE_VERSION, got=repr(state.get("version")))))
            made = cls(start=state["start"], band=tuple(state["band"]),
                       window=state["window"])
            for key, level in state["levels"].items():
                made.levels[key] = LEVELS[level_index(level)]
                made.recent[key] = [float(v) for v in state["recent"].get(key, [])]
            made.moves = [dict(m) for m in state["moves"]]
            made.updates = int(state["updates"])
        except ConfigError as exc:
            raise ConfigError(_say("at", where=where, message=exc)
                              if not str(exc).startswith(where) else str(exc)) from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ConfigError(_say("not_a_state", where=where, reason=repr(exc))) from None
        return made

    @classmethod
    def load(cls, path: str | Path) -> "Curriculum":
        try:
            state = json.loads(Path(path).read_text())
        except (OSError, ValueError) as exc:
            raise ConfigError(_say("unreadable_state", path=path, reason=exc)) from None
        return cls.from_state(state, str(path))


def _band(band: Any) -> tuple[float, float]:
    try:
        low, high = (float(b) for b in band)
    except (TypeError, ValueError):
        low = high = -1.0
    if not 0.0 <= low < high <= 1.0:
        raise ConfigError(_say("bad_band", band=repr(band)))
    return low, high
