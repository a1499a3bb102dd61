"""The science lab behind the world protocol, so task families ask their questions here too.

A state is the tuple of commands typed since the episode began: the lab is determined by
(task, variation, simplifications), so replaying those commands rebuilds it exactly, and
a row that stores them can be re-derived by anyone with the simulator. The lab runs one
episode and remembers, for the states it has been in lately, the episode saved there
(ScienceEnv.save): a state is reached from its nearest remembered prefix by restoring it
and typing the rest, not by replaying from the start.

Actions are the valid commands that change the world (open, move, pour, activate, wait,
go...): looking, reading, the inventory and `focus` (which ends some tasks) are left out.
Facts are the simulator's symbolic facts (facts.py) of the kinds a question may ask
about: where things are, their state of matter, open or closed, on or off, broken,
burning, connected. Their kinds show the predicate and each thing's kind, not its name.

A question's context shows one state as the agent sees it: the room, the rooms its
doors lead to, the inventory, and the electrical connections of what is there (the
look omits them). So questions name only what a reader of that context knows: facts
about things shown there, still called the same at the end, not to be confused with a
namesake the commands come across, and ending inside things shown there
(`question_facts`); commands that name shown things, all typed in the shown room (only
the last may leave it), whose other rooms the reader never saw (`askable`).
"""

from __future__ import annotations

import random
import re
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache

from racbench.worlds.protocol import World
from racbench.worlds.science.describe import look_elsewhere
from racbench.worlds.science.env import ScienceEnv
from racbench.worlds.science.facts import iter_facts
from racbench.worlds.science.naming import command as _command
from racbench.worlds.science.parser import parse
from racbench.worlds.science.scope import in_view
from racbench.worlds.science.text import say
from racbench.worlds.science.trajectory import gold_trajectory
from racbench.worlds.science.world import THING

QUESTION_PREDICATES = frozenset({"in", "state", "open", "closed", "on", "off", "broken",
                                 "burning", "connected"})
LEFT_OUT_VERBS = ("look", "inventory", "task", "read", "focus")
MAX_START_WALK = 6  # states are drawn by walks of 0 to this many commands from the start
MAX_DEVIATION = 3  # states off the gold path: up to this many commands away from it
# states remembered per variation: more cost the garbage collector more than they save
REMEMBERED = 256
# a search for a command completing the task tries the gold path's last this many first
LIKELY_GOLD = 2
WAITS = (_command("wait"), _command("wait1"))


class _Node:
    """What the lab saw in one state: the episode saved there, the scope (to read
    commands as typed there), the agent's room and the things the context of a question
    about it shows (uid -> name); the commands valid there, its facts, its look and what
    commands mean there are filled in when first asked (walks pass many states whose
    facts nobody asks, and reach ends whose commands nobody asks). The episode is saved
    there only when it moves on by a command (`_leave`): a walk's end is left for another
    state and seldom returned to (a quarter of a survey's states are never saved), and
    is then reached again from the saved state before it."""

    __slots__ = ("state", "saved", "scope", "room", "shown", "commands", "facts", "view",
                 "meanings", "valid", "complete", "said", "answers")

    def __init__(self, env: ScienceEnv, state: tuple[str, ...]):
        world = env.world
        room = world.agent_room()
        doors = world.doors_of(room)
        # the scope only if already worked out here: a walk's end is often only looked at
        # (its facts, what is shown), never read a command in (`ScienceLab._scope`)
        self.state, self.saved, self.scope, self.room = state, None, env.known_scope(), room.uid
        self.shown = {t.uid: t.name for t in in_view(room)}
        self.shown.update((d.uid, d.name) for d, _ in doors)
        self.shown.update((r.uid, r.name) for r in [room] + [o for _, o in doors])
        self.commands = self.facts = self.view = None
        self.meanings: dict = {}
        self.valid = None  # every command the simulator takes there (focus, look... too)
        self.complete = env.episode.complete
        self.said: str | None = None  # what the lab answered the command that led here
        self.answers: dict = {}  # command -> what the lab answers it here (`observe`)


class ScienceLab(World):
    """One task variation of the science lab as a world of the protocol
    (racbench/worlds/protocol.py)."""

    # bool surveys (tasks/balance.py): draws confirming rare kinds, at most this many
    # per length. A draw here plays the simulator (milliseconds, not a graph's
    # microseconds) and a sequence's kind is its verbs, a hundred or more at length 2:
    # with 60 draws for each answer of each, confirming made nine tenths of an
    # executability survey (15-40 s a variation). Families of one or two kinds a
    # length (planning, goal recognition) still get 60
    confirm_budget = 1600
    # bool surveys sized by the rows a config asks of a variation (balance.survey_size):
    # this many situations a row at each length, at least survey_draws_min (200 at most).
    # A config of trajectories-questions asks 8 rows of a variation (4 of goal
    # recognition) and surveyed 400 situations and up to 3,200 confirming draws for
    # them (an executability survey: 10 s a variation); one built at scale 0.02 asked
    # one row of each and surveyed as much
    # and confirmed with at most this many draws a situation (the full survey: up to 8;
    # confirming draws were five sixths of a sized executability survey)
    # (at least 30 made a config built at scale 0.02, a row or two a variation, survey
    # nearly as much as at scale 1: a survey finding no cell grows, its draws kept)
    survey_draws_per_row = 5
    survey_draws_min = 10
    survey_confirms_per_draw = 4
    # and sampling a length stops once settled (balance._Sample): this many draws in a
    # row offering no new cell, with one offered or none to come from confirming draws
    survey_settled = 10
    # mc surveys: a variation not decided by its first 200 draws is left out here, not
    # surveyed on to 2,000 as a planning problem is (up to 1,800 more draws of 10-30 ms
    # each, where a task has tens to thousands of variations to give rows instead)
    survey_draws_max = 200

    def __init__(self, task: str, variation: int, simplifications: str = ""):
        self.task = task
        self.variation = variation
        self.simplifications = simplifications
        self.label = f"{task}-{variation}"
        # what a survey of it is about, whatever config asks (rows.ConfigRows._cells_seed)
        self.survey_about = (task, variation, simplifications)
        self._env = ScienceEnv(task, variation, simplifications)
        self._env.reset()
        things = self._env.world.things
        self.objects = {f"{t.name}#{t.uid}": t.kind for t in things}
        self._kinds = [t.kind for t in things]
        # what a door is called in a sentence: the two rooms it joins
        self.doors = {f"{t.name}#{t.uid}": tuple(r.name for r in t.rooms)
                      for t in things if t.kind == "door"}
        self._door_uids = {t.uid for t in things if t.kind == "door"}
        # substances whose name (an unknown substance's letter) does not tell their state
        self._masked = {t.uid for t in things if t.label is not None}
        # the rooms by uid: a told room is read by its name though not in view (teleport)
        self._rooms = {r.uid: r.name for r in self._env.world.rooms.values()}
        self.goal = ()
        self.task_description = self._env.task_description
        self.initial: tuple[str, ...] = ()
        self._at: tuple[str, ...] = ()
        self._gold: tuple[str, ...] | None = None
        self._root = _Node(self._env, ())
        self._root.saved = self._env.save()
        self._nodes: OrderedDict[tuple, _Node] = OrderedDict()
        self._places: dict[tuple, tuple | None] = {}  # state -> `place_view`
        self._changing: dict[tuple, tuple] = {}  # valid commands -> those changing the world
        # what words name in a scope (parser.parse's `kept`), while `inapplicable` reads a
        # state's commands and the episode stands still: any move (`_go`) forgets them
        self._kept: dict | None = None

    # -- the running episode ---------------------------------------------------------------
    def _node(self, state: tuple[str, ...]) -> _Node:
        if not state:
            return self._root
        node = self._nodes.get(state)
        if node is None:
            self._go(state)
            return self._nodes[state]
        self._nodes.move_to_end(state)
        return node

    def _go(self, state: tuple[str, ...]) -> None:
        """Bring the episode to `state`: on from where it is if that is on the way, else
        from the longest remembered prefix saved; every state passed is remembered."""
        if self._kept:
            self._kept.clear()  # read where the episode stood: a lookup may read things
        at = self._at
        n = len(state)
        while n and getattr(self._nodes.get(state[:n]), "saved", None) is None:
            n -= 1
        if not (len(at) >= n and state[:len(at)] == at):
            at = state[:n]
            self._env.restore(self._node(at).saved)
        for command in state[len(at):]:
            self._leave(at)
            said = self._env.act(command)[0]
            at += (command,)
            if at not in self._nodes:
                self._remember(at).said = said
        self._at = state
        if state and state not in self._nodes:  # stood here, but forgotten since
            self._nodes[state] = _Node(self._env, state)

    def _leave(self, state: tuple[str, ...]) -> _Node:
        """The node of `state`, where the episode stands and is about to type a command,
        saved there (if remembered) to come back to."""
        node = self._nodes.get(state) if state else self._root
        if node is not None and node.saved is None:
            node.saved = self._env.save()
        return node

    def _remember(self, state: tuple[str, ...]) -> _Node:
        """A node for the episode standing in `state`, remembered (the oldest forgotten)."""
        node = self._nodes[state] = _Node(self._env, state)
        if len(self._nodes) > REMEMBERED:
            self._nodes.popitem(last=False)
        return node

    def _seen(self, state: tuple[str, ...], what: str, read):
        """A node's `what`, read from the episode standing in the state (`read()`) the
        first time it is asked."""
        node = self._node(state)
        value = getattr(node, what)
        if value is None:
            if self._at != state:
                self._go(state)
                node = self._node(state)
            value = read()
            setattr(node, what, value)
        return value

    def _commands(self, state: tuple[str, ...]) -> tuple[str, ...]:
        """The state's valid commands that change the world, filtered from `valid` (listing
        the valid actions costs a millisecond; a state's is listed once for both)."""
        node = self._node(state)
        if node.commands is None:
            valid = self.valid(state)
            node = self._node(state)
            # states alike in view list the same commands: filtered once for all of them
            commands = self._changing.get(valid)
            if commands is None:
                if len(self._changing) >= REMEMBERED:
                    self._changing.clear()
                commands = self._changing[valid] = tuple(
                    [a for a in valid if not a.startswith(LEFT_OUT_VERBS)])
            node.commands = commands
        return node.commands

    def _facts(self) -> frozenset[tuple]:
        return frozenset(f for f in iter_facts(self._env.world, measures=False)
                         if f[0] in QUESTION_PREDICATES)

    def _view(self) -> tuple[str, str]:
        return self._env.look(), self._env.inventory()

    # -- stepping -----------------------------------------------------------------------------
    def sample_state(self, rng: random.Random) -> tuple[str, ...]:
        """A state along what agents do: a third of the time a walk from the start, a
        third a step of the gold trajectory (before it ends), a third a few commands off
        the gold path (`off_gold`), so questions reach the middle of tasks (the stove
        on, the water a gas, the bulb lit)."""
        way = rng.randrange(3)
        if way == 0:
            return self.walk((), rng, rng.randint(0, MAX_START_WALK))
        gold = self.gold()
        step = rng.randrange(len(gold))
        return gold[:step] if way == 1 else self.off_gold(rng, step)

    def off_gold(self, rng: random.Random, step: int) -> tuple[str, ...]:
        """A state off the gold path near its `step`: a detour of 1 to MAX_DEVIATION
        random commands from an earlier step, then the gold path taken up again up to
        `step` where the simulator still takes its commands (else the detour's end)."""
        gold = self.gold()
        back = rng.randint(0, step)
        state = self.walk(gold[:back], rng, rng.randint(1, MAX_DEVIATION))
        rest = gold[back:step]
        return state + rest if self.carry_out(state, rest)[0] is None else state

    def walk(self, state: tuple[str, ...], rng: random.Random, n: int) -> tuple[str, ...]:
        """`state` and up to `n` random commands after it (fewer at a dead end)."""
        for _ in range(n):
            commands = self.applicable(state)
            if not commands:
                break
            state += (rng.choice(commands),)
        return state

    def gold(self) -> tuple[str, ...]:
        """The oracle's gold trajectory of this variation (its commands)."""
        if self._gold is None:
            state: tuple[str, ...] = ()
            for step in gold_trajectory(self.task, self.variation, self.simplifications):
                state += (self._canonical(state, step["action"]),)
            self._gold = state
        return self._gold

    def _canonical(self, state: tuple[str, ...], command: str) -> str:
        """`command` as the simulator lists it among the valid commands of `state` (the
        oracle types some in its own words: a wire's ends in the other order)."""
        valid = self.valid(state)
        if command in valid:
            return command
        node = self._node(state)
        meant = self._meaning(node, command)
        for other in valid:
            now = self._meaning(node, other)
            if meant is not None and now is not None and (now == meant or (
                    now[0][0] == meant[0][0] == "connect"
                    and sorted(now[0][1:]) == sorted(meant[0][1:]))):
                return other
        return command

    def valid(self, state: tuple[str, ...]) -> tuple[str, ...]:
        """Every command the simulator carries out in `state`, of any verb (none once the
        episode is over)."""
        return self._seen(state, "valid", lambda: () if self._env.finished
                          else tuple(self._env.valid_actions()))

    def carry_out(self, state: tuple[str, ...], commands) -> tuple[int | None, bool]:
        """(the first of `commands` the simulator cannot carry out in order from `state`,
        or None; whether the task is then complete): planning's and goal recognition's
        oracle, where `focus` and `look` count as the commands they are."""
        for i, command in enumerate(commands):
            if command not in self.valid(state):
                return i, False
            state = state + (command,)
        return None, self._node(state).complete

    def completes_in_one(self, state: tuple[str, ...]) -> bool:
        """Whether some command the simulator takes in `state` completes the task: every
        one is tried from the state saved there (none is remembered as a state), the
        likeliest first (`likeliest_first`: the gold path's last commands, the waits)."""
        commands = likeliest_first(self.valid(state), self.gold()[-LIKELY_GOLD:])
        self._go(state)
        saved = self._leave(state).saved
        found = False
        for command in commands:
            self._env.restore(saved)  # with the state's scope, to read every command in
            self._env.act(command)
            if self._env.episode.complete:
                found = True
                break
        self._env.restore(saved)
        self._at = state
        return found

    def focused(self, state: tuple[str, ...]) -> list[str]:
        """The names of the things focused on so far (a task's hidden progress a
        question about completing it must show)."""
        self._go(state)
        names = {t.uid: t.name for t in self._env.world.things}
        return [names[uid] for uid in sorted(self._env.episode.focus_mark) if uid in names]

    def applicable(self, state: tuple[str, ...]) -> list[str]:
        return list(self._commands(state))

    def succ(self, state: tuple[str, ...]) -> tuple[list[str], Sequence[tuple[str, ...]]]:
        commands = self.applicable(state)
        return commands, _After(state, commands)

    def step(self, state: tuple[str, ...], command: str) -> tuple[str, ...] | None:
        return state + (command,) if command in self._commands(state) else None

    def observe(self, state: tuple[str, ...], command: str, text=None
                ) -> tuple[tuple[str, ...], str]:
        """(the state after typing `command` in `state`, what the lab answers): any
        command, valid or not (a refused one changes nothing but is typed all the same,
        so the state, a replayable history, holds it). The answer is kept in the state's
        node (trying every command of a state costs one step each, once); the state
        after it is not remembered until asked. `text` is unused: the lab speaks its own
        words."""
        nxt = state + (command,)
        node = self._nodes.get(nxt)
        if node is not None and node.said is not None:
            return nxt, node.said
        here = self._node(state)
        said = here.answers.get(command)
        if said is None:
            self._go(state)
            self._leave(state)
            said = here.answers[command] = self._env.act(command)[0]
            self._at = nxt
        return nxt, said

    # -- facts and terms -------------------------------------------------------------------
    def facts(self, state: tuple[str, ...]) -> frozenset[tuple]:
        return self._seen(state, "facts", self._facts)

    def fact_kind(self, fact: tuple) -> tuple:
        """The predicate, and each argument's kind of thing (or the value itself)."""
        return (fact[0],) + tuple(self._kind(_uid(a)) if _is_thing(a) else a
                                  for a in fact[1:])

    def _kind(self, uid: int) -> str:
        """A thing's kind; things made during play (a mix's product, a tap's water) are things."""
        return self._kinds[uid] if uid < len(self._kinds) else THING

    def kind_of(self, fact) -> tuple:
        """An mc option's kind, by which option sets are chosen (balance.py): a fact's."""
        return self.fact_kind(tuple(fact))

    def question_facts(self, plan, states) -> list[tuple]:
        """Facts of the predicates that changed between the first and last of `states`
        (the first, then `plan`), true in either, that a reader of the first state's
        context can know (see the module's text): the facts a question about what the
        commands did may ask."""
        first, last = self.facts(states[0]), self.facts(states[-1])
        changed = {f[0] for f in first ^ last}
        knowable = self._knowable(states[0], plan, last)
        return sorted(f for f in first | last if f[0] in changed and knowable(f))

    def _knowable(self, start: tuple[str, ...], plan, last: frozenset):
        """Whether a fact after `plan` names only things shown at `start`, called the same
        at the end, with no namesake on the way, and ending inside things shown there
        (and, for a state of matter, a thing whose name shows it)."""
        shown = self._node(start).shown
        namesakes: dict[str, set] = {}
        for i in range(len(plan) + 1):
            for uid, name in self._node(start + tuple(plan[:i])).shown.items():
                if uid not in self._door_uids:
                    namesakes.setdefault(name, set()).add(uid)
        parent = {f[1]: f[2] for f in last if f[0] == "in"}  # rooms and doors have none
        known: dict[str, bool] = {}

        def knows(thing: str) -> bool:
            """The thing, and all it ends inside, is known (memoised: chains share rooms)."""
            if thing not in known:
                name, uid = thing.rsplit("#", 1)
                uid = int(uid)
                fixed = uid in self._door_uids or self._kind(uid) == "room"
                known[thing] = (shown.get(uid) == name and (fixed or thing in parent)
                                and (uid in self._door_uids or len(namesakes[name]) == 1)
                                and (thing not in parent or knows(parent[thing])))
            return known[thing]

        def knowable(fact: tuple) -> bool:
            if fact[0] == "state" and _uid(fact[1]) in self._masked:
                return False
            return all(knows(a) for a in fact[1:] if _is_thing(a))

        return knowable

    def action_term(self, command: str) -> tuple[str]:
        return (command,)

    def action_kind(self, command: str) -> tuple[str]:
        """The command's verb (its first word: open, move, pour...)."""
        return (command.split(" ", 1)[0],)

    def of_kind(self, commands, kind: tuple[str]) -> list[str]:
        """Those of `commands` whose kind (`action_kind`) is `kind`: planning's swaps sift
        the hundreds of commands of two states for one verb, thousands of times a survey."""
        verb = kind[0]
        return [c for c in commands if c.split(" ", 1)[0] == verb]

    def inapplicable(self, state: tuple[str, ...]) -> list[str]:
        """Commands valid earlier on the way to `state` but not there, of the verbs valid
        there, that its context may name (a door opened since, a thing picked up)."""
        here = set(self.applicable(state))
        verbs = {c.split(" ", 1)[0] for c in here}  # their kinds (`action_kind`)
        earlier = {c for n in range(len(state)) for c in self.applicable(state[:n])}

        def askable(command: str) -> bool:
            """`askable(state, [command])`, which for one command not valid there (nor
            told) asks only this: it reads there as one action, naming things shown."""
            start = self._node(state)
            meant = self._meaning(start, command)
            return (meant is not None and meant[1] <= start.shown.keys()
                    and bool(self.valid(state)))

        # hundreds of commands read in one scope name the same things: each name is looked
        # up once (`_kept`) while the episode stands still
        self._kept = {}
        try:
            return sorted(c for c in earlier - here
                          if c.split(" ", 1)[0] in verbs and askable(c))
        finally:
            self._kept = None

    def typed_before(self, state: tuple[str, ...]) -> tuple[str, ...]:
        """The whole history: a state's hidden variables (a plant's or fruit's timer,
        heat taken up, temperatures converging out of view) follow from it alone, so two
        contexts that read the same are the same state and ask the same question
        (issue 32: with the room alone, "wait1" two ticks apart read the same and had
        opposite labels)."""
        return state

    def askable(self, state: tuple[str, ...], commands, told: bool = False) -> bool:
        """Whether a question whose context shows `state` may name `commands`, typed in
        order from there: each names shown things only, meaning the same things where it
        is typed, and each is typed in that state's room (only the last may leave it: the
        context never shows another room's contents). Typing stops at the first command
        that cannot run: past it, the sequence is only read. None is typed once the
        episode is over (the task complete or failed on the way): the simulator then
        refuses every command, for a reason no world state shows.

        `told`: the context also shows the task description (planning's), so a command
        may name what it names as "the NAME" (`told_names`): a thing the commands make
        (a mix's salt water) or one in a room it names (the red box in the kitchen),
        and be typed in a room it names, entered by a command before it (a told room is
        read by its name out of view too: teleport to the kitchen). Such a command
        is read where it is typed (it may read as nothing at the start, where its thing
        is not made yet); where the simulator refuses it (nothing made, the room not
        reached), it and the rest are only read, by the told name each ends with."""
        start = self._node(state)
        meant = [self._meaning(start, c) for c in commands]
        names = self._told_here(state) if told else frozenset()
        late = [m is None or not m[1] <= start.shown.keys()
                or told and self._grown_later(start, c, m) for c, m in zip(commands, meant)]
        if any(late) and not names:
            return False
        here = state
        for i, command in enumerate(commands):
            if not self.valid(here):
                return False
            node = self._node(here)
            now = self._meaning(node, command)
            if late[i] and command not in self.valid(here):
                return all(self._read_told(c, names) for c, m in zip(commands[i:], late[i:])
                           if m)
            if late[i]:
                # read where it is typed: all it names shown at the start or told (a
                # told room even out of view: teleport to the kitchen; the grown fruit)
                told_here = self._told_for(command, names)
                if now is None or not all(
                        uid in start.shown
                        or node.shown.get(uid, self._rooms.get(uid)) in told_here
                        for uid in now[1]):
                    return False
            elif i and now != meant[i] and (now is not None or meant[i][1] <= node.shown.keys()):
                # read differently here, or not at all though all it names is in view: the
                # simulator's naming moved on (twins renumbered), not the world
                return False
            if i and node.room != start.room and not (
                    now is not None and node.shown.get(node.room) in names and all(
                        uid in start.shown or node.shown.get(uid) in names
                        for uid in now[1])):
                return False
            if command not in self.valid(here):  # the rest is only read: by what it names
                return all(self._read_told(c, names) for c, m in zip(commands[i:], late[i:])
                           if m)
            here = here + (command,)
        return True

    def _told_here(self, state: tuple[str, ...]) -> frozenset[str]:
        """The names a planning context showing `state` tells: the task's (`told_names`),
        and the location it names with the names its list shows where the agent is
        elsewhere (`place_view`)."""
        description = self.task_description
        names = told_names(description)
        place = self.place_view(state)
        return names | {told_place(description)} | set(place[1]) if place else names

    def _told_for(self, command: str, names: frozenset[str]) -> frozenset[str]:
        """`names`, and the fruit the task asks to grow where `command` names it where it
        grew (`grown_names`: apple in flower pot 1; a bare "apple" is any apple)."""
        grown = grown_names(self.task_description)
        return names | grown if _names_grown(command, grown) else names

    def _grown_later(self, node: _Node, command: str, meaning: tuple) -> bool:
        """Whether `command` names the fruit the task asks to grow (`grown_names`) and
        reads in the node as another thing (the plant in flower pot 1, no apple grown
        yet): it is read by the task's name where it is typed, as a told name is."""
        grown = grown_names(self.task_description)
        return _names_grown(command, grown) and not all(
            node.shown.get(uid) in grown for uid in meaning[1])

    def _read_told(self, command: str, names: frozenset[str]) -> bool:
        """Whether a command the simulator refuses is read by a told name it ends with,
        or names the grown fruit where it grew (focus on apple in flower pot 1)."""
        return _names_told(command, names) or _names_grown(
            command, grown_names(self.task_description))

    def place_view(self, state: tuple[str, ...]) -> tuple[str, tuple[str, ...]] | None:
        """What the location the task names (`told_place`) holds in `state`, as a look
        there lists it, and the names the list shows; None where the task names none or
        the agent is there (its look shows it). A planning context shows it: which
        animal to focus on is the task's question, asked of the animals shown."""
        name = told_place(self.task_description)
        if name is None:
            return None
        if state not in self._places:
            if len(self._places) > REMEMBERED:
                self._places.clear()
            if self._at != state:
                self._go(state)
            world = self._env.world
            room = next((r for r in world.rooms.values() if r.name == name), None)
            here = room is None or room is world.agent_room()
            self._places[state] = None if here else look_elsewhere(room)
        return self._places[state]

    def tells(self, command: str) -> str | None:
        """How `command` ends where it names a thing as the task description names it
        (`told_names`): "made" where it names the thing the task asks to create and
        names only so (`made_names`: focus on green-blue paint), "grown" where it names
        the fruit the task asks to grow (`grown_names`: focus on apple in flower pot 1),
        "told" otherwise (focus on the salt water, move it to the red box); None if it
        names none so."""
        if _names_told(command, made_names(self.task_description)):
            return "made"
        if _names_grown(command, grown_names(self.task_description)):
            return "grown"
        return "told" if _names_told(command, told_names(self.task_description)) else None

    # -- readings: what decides a task decided by reading (its spec's decided_by_reading) ------
    def decided(self, state: tuple[str, ...]) -> bool:
        """Whether a question about completing the task may show `state`: always, but on a
        task decided by reading, whose readings taken on the way (`readings`, which the
        context shows) must decide which answer completes it (ScienceEnv.decided)."""
        if not self._env.task_spec.decided_by_reading:
            return True
        known = self.__dict__.setdefault("_decided", {})
        if state not in known:
            if len(known) >= REMEMBERED:
                known.clear()
            self._go(state)
            known[state] = self._env.decided()
        return known[state]

    def readings(self, state: tuple[str, ...]) -> list[tuple[str, str, int]]:
        """(command, what the lab answered, like commands before it left unshown) for each
        reading taken on the way to `state`, on a task decided by reading (none elsewhere):
        a thermometer's readings, or the commands of the planes' timings (its episode's
        hint "readings": a long run of looks at a plane shown by its last); what a
        question's context shows of the past, besides the state, so a reader can tell
        which answer completes the task."""
        if not self._env.task_spec.decided_by_reading:
            return []
        hints = self._env.episode.hints
        if "readings" in hints:
            self._go(state)
            steps = hints["readings"](self._env)
            return [(state[i], self.observe(state[:i], state[i])[1], n) for i, n in steps]
        thermometer = hints["thermometer"]
        found = []
        for i, command in enumerate(state):
            before = state[:i]
            if command.startswith("use ") and command in self.valid(before):
                meant = self._meaning(self._node(before), command)
                if meant is not None and meant[0][:2] == ("use_on", thermometer.uid):
                    found.append((command, self.observe(before, command)[1], 0))
        return found

    def _meaning(self, node: _Node, command: str) -> tuple | None:
        """(the action `command` reads as in the node's scope, the uids it names), or None
        if it reads as nothing or as several actions there."""
        if command not in node.meanings:
            found = parse(command, self._scope(node), self._kept).candidates
            node.meanings[command] = None if len(found) != 1 else (
                found[0].key(), frozenset(_arg_uid(a) for a in found[0].args
                                          if not isinstance(a, int)))
        return node.meanings[command]

    def _scope(self, node: _Node):
        """The node's scope (scope.Scope), worked out the first time a command is read
        there: the episode is brought back to its state for it."""
        if node.scope is None:
            if self._at != node.state:
                self._go(node.state)
            node.scope = self._env.scope
        return node.scope

    def render_state(self, state: tuple[str, ...], text, rng) -> str:
        """The room and the inventory as the agent sees them, and the connections of what
        is shown (which the look leaves out)."""
        look, inventory = self._seen(state, "view", self._view)
        shown = self._node(state).shown
        links = [f for f in sorted(self.facts(state)) if f[0] == "connected"
                 and (_uid(f[1]) in shown or _uid(f[3]) in shown)]
        if links:
            look = say("room_and_links", look=look, links=text.state(links, rng))
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


def likeliest_first(commands: Sequence[str], likely: Sequence[str]) -> list[str]:
    """`commands` with those of `likely` (in its order) and then the waits first: a search
    for one that completes the task stops at the first it finds, and its answer is the
    same in any order. Where one does, it is nearly always one of these (boil's 10-tick
    wait came 550th of 580 in the listed order; 146 of 160 searches found one)."""
    first = [c for c in dict.fromkeys((*likely, *WAITS)) if c in commands]
    tried = set(first)
    return first + [c for c in commands if c not in tried]


class _After(Sequence):
    """The states after each of `commands` in `state`, each made when asked for: a walk
    takes one of some hundreds (making them all made a survey's garbage collector busy)."""

    __slots__ = ("state", "commands")

    def __init__(self, state: tuple[str, ...], commands: list[str]):
        self.state, self.commands = state, commands

    def __len__(self) -> int:
        return len(self.commands)

    def __getitem__(self, i: int) -> tuple[str, ...]:
        return self.state + (self.commands[i],)


# words that end a name a task description gives after "the" (the red box in the kitchen)
_AFTER_NAME = r"in|on|to|of|and|or|when|then|near|is|are|that|with|by|at|from|into|for"


@lru_cache(maxsize=None)
def told_names(description: str) -> frozenset[str]:
    """The names a task description gives things and rooms as "the NAME", and the thing
    it asks to "create NAME" (`made_names`), each up to the punctuation or the
    preposition after it (the salt water, the red box, the kitchen, green-blue paint):
    `askable`'s `told`. Only things the commands meet are checked against it."""
    found = re.finditer(rf"\bthe ([a-z0-9 ]+?)(?=[^a-z0-9 ]|$| (?:{_AFTER_NAME})\b)",
                        description.lower())
    return frozenset(m[1].strip() for m in found) | made_names(description)


@lru_cache(maxsize=None)
def made_names(description: str) -> frozenset[str]:
    """The thing a task description asks to "create NAME" without an article (create
    green-blue paint), where it does not also call it "the NAME": a tertiary paint's
    task names the paint it makes only so, and the secondary one as "the green paint"."""
    text = description.lower()
    found = re.finditer(rf"\bcreate (?!(?:the|an?) )([a-z0-9 -]+?)"
                        rf"(?=[^a-z0-9 -]|$| (?:{_AFTER_NAME})\b)", text)
    return frozenset(n for n in (m[1].strip() for m in found) if f"the {n}" not in text)


@lru_cache(maxsize=None)
def grown_names(description: str) -> frozenset[str]:
    """The fruit a task asks to grow, told as "the grown NAME" (grow-fruit: focus on the
    grown apple): the simulator calls it by its name and where it grew (apple in flower
    pot 1), so a command naming a NAME there names it, grown or yet to grow."""
    return frozenset(n.removeprefix("grown ") for n in told_names(description)
                     if n.startswith("grown "))


@lru_cache(maxsize=None)
def told_place(description: str) -> str | None:
    """The location a task says its things are in (the animals are in the 'outside'
    location), or None: a planning context shows what it holds (`place_view`)."""
    found = re.search(r"\bin the '([a-z0-9 ]+)' location\b", description.lower())
    return found[1] if found else None


def _names_grown(command: str, names: frozenset[str]) -> bool:
    """Whether a command ends on a grown fruit the task names (`grown_names`) by where it
    grew, as the simulator names one of several (focus on apple in flower pot 1). A bare
    "apple" is read as any thing is: the kitchen's bowl holds one, grown by nobody."""
    return any(re.search(rf"\b{re.escape(n)} in [a-z0-9 ]+$", command) for n in names)


def _names_told(command: str, names: frozenset[str]) -> bool:
    """Whether a command the simulator refuses (a thing not made, a room not reached)
    names a thing by a name the task description tells: a reader knows what it means."""
    return any(re.search(rf"\b{re.escape(n)}$", command) for n in names)


def _is_thing(arg) -> bool:
    """A fact's argument naming a thing (`name#uid`), not a value."""
    return isinstance(arg, str) and "#" in arg


def _uid(thing: str) -> int:
    return int(thing.rsplit("#", 1)[1])


def _arg_uid(arg) -> int:
    """The thing a parsed action's argument names: a thing, a room or a (thing, terminal)."""
    return arg[0].uid if isinstance(arg, tuple) else arg.uid


@lru_cache(maxsize=None)
def lab(task: str, variation: int, simplifications: str = "") -> ScienceLab:
    """The lab of one task variation (cached per process, so forked workers share it)."""
    return ScienceLab(task, variation, simplifications)
