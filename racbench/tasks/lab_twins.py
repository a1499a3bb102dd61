"""Lab rows a reader can decide: a drawn lab question is kept only if its answer holds in
every state the draw's pool holds that looks the same (issue 32).

A lab state is a history; what a row's context shows of it is the room, the inventory,
the connections shown, what was focused on and the place the task names. Two states
can show the same while the simulator's hidden variables differ: a plant's or fruit's
timer, pollination, heat taken up. On the gold path of a task that waits (grow-fruit,
grow-plant) a few `wait1`s change nothing shown, so "wait1, wait1, focus on the apple"
read the same two ticks apart and had opposite labels. The lab does not list its
hidden variables (each is a simulator object's counter), so the answer is checked
instead in every look-alike state of the pool the lab's draws come from: the gold
path's prefixes (planning's and goal recognition's states are on, behind or a detour
off it; the others' walks start there). The answer is re-derived there as racbench
verify re-derives it (its replay checker, one for every family), so one check serves
all lab families: a question whose answer differs in a look-alike is refused and
drawn again, keeping its target (label, kind, cell).
"""

from __future__ import annotations

from dataclasses import replace

from racbench.worlds.science.lab import _uid


def looks(world, state: tuple[str, ...]) -> tuple:
    """What a row's context can show of `state`: its look and inventory, the connections
    of what is shown, what was focused on and the place the task names."""
    view = world._seen(state, "view", world._view)
    shown = world._node(state).shown
    links = tuple(f for f in sorted(world.facts(state)) if f[0] == "connected"
                  and (_uid(f[1]) in shown or _uid(f[3]) in shown))
    return view, links, tuple(world.focused(state)), world.place_view(state)


def look_alikes(world, state: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The gold path's prefixes other than `state` that look as `state` does (each
    prefix's look worked out once per variation; a prefix alone in its look has none,
    and a state off the path is looked at once: draws come back to the same few)."""
    by_look = world.__dict__.get("_by_look")
    if by_look is None:
        gold, by_look, on_gold = world.gold(), {}, {}
        for step in range(len(gold) + 1):
            on_gold[gold[:step]] = look = looks(world, gold[:step])
            by_look.setdefault(look, []).append(gold[:step])
        world._by_look, world._gold_looks, world._off_gold_looks = by_look, on_gold, {}
    look = world._gold_looks.get(state)
    if look is None:
        look = world._off_gold_looks.get(state)
        if look is None:
            look = world._off_gold_looks[state] = looks(world, state)
    return [s for s in by_look.get(look, ()) if s != state]


def decided_by_text(world, q, symbolic) -> bool:
    """Whether `q`'s answer holds in every look-alike of its state; `symbolic(q)` is the
    row's symbolic form (rows.py), re-derived per look-alike by verify's replay (each
    (look-alike, question) once per variation: draws ask the same few again and again)."""
    checked = world.__dict__.setdefault("_twin_checks", {})
    for twin in look_alikes(world, q.sid):
        sym = symbolic(replace(q, sid=twin))
        key = (twin, repr(sorted((k, v) for k, v in sym.items() if k not in ("history", "state"))))
        holds = checked.get(key)
        if holds is None:
            holds = checked[key] = _holds(world, sym)
        if not holds:
            return False
    return True


def _holds(world, sym: dict) -> bool:
    """Whether the row's answer is the one verify re-derives from its symbolic form (a
    history the simulator cannot replay is no look-alike's row: it holds, as does a
    family verify has no checker for). Any other error is a fault and is raised: taken
    for "holds", it once let every look-alike through unseen."""
    from racbench.checks.verify.replay import Replay, check_science_row
    from racbench.checks.verify.report import Claims, Skip

    replays = world.__dict__.get("_replays")
    if replays is None:
        replays = world._replays = _Replays(sym)
    start = replays.start(tuple(sym["history"]))
    if start is None:
        return True
    claims = Claims()
    try:
        check_science_row({}, sym, claims,
                          Replay.resumed(sym, replays.env, start, replays.distances))
    except Skip:
        return True
    return not claims.problems


class _Replays:
    """Verify's replay of a variation (racbench/checks/verify/replay.py), stepped once:
    one fresh episode, saved after each command of the histories asked, so a look-alike
    asked again or a longer one is resumed there, not replayed from the start; and the
    distances to done its goal-recognition checks worked out (a look-alike's is the same
    for every question asked there, and tries every command)."""

    def __init__(self, sym: dict):
        from racbench.checks.verify.replay import Replay

        self.replay = Replay({**sym, "history": []})
        self.env = self.replay.env
        self.saved: dict[tuple[str, ...], tuple | None] = {(): self.replay.start}
        self.distances = self.replay.distances  # (commands carried out, witness) -> distance

    def start(self, history: tuple[str, ...]) -> tuple | None:
        """The episode saved in `history`'s state, None if the simulator does not take
        its commands (Replay refuses such a history)."""
        n = len(history)
        while history[:n] not in self.saved:
            n -= 1
        at = self.saved[history[:n]]
        if at is not None and n < len(history):
            self.env.restore(at)
            self.replay.at = history[:n]
        for i in range(n, len(history)):
            if at is not None:
                at = self.env.save() if self.replay.runs(history[i]) else None
            self.saved[history[:i + 1]] = at
        return at
