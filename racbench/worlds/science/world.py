"""The containment tree: rooms hold furniture and things, things hold things, the agent holds its inventory.

World logic only; nothing here produces English. Every mutation goes through a World method so the
`version` counter (which keys the caches of look text, visibility and valid actions) stays honest.
"""

from __future__ import annotations

from operator import attrgetter

from racbench.worlds.science.materials import GAS, LIQUID, SOLID, Material, material

ROOM, AGENT, DOOR, THING = "room", "agent", "door", "thing"
# devices the agent turns on and off (a tap runs water into the containers standing in it)
SWITCHED = ("heater", "cooler", "switchable", "tap")
SPRING = "spring"  # a device that fills itself with water (the fountain)
BEE = "adult bee"   # ScienceWorld's bees are adults (and answer to "bee"); they fly (bees.py)


def moves_with_its_vessel(t) -> bool:
    """A fluid is carried by moving what holds it; only a liquid lying loose on a room's floor, or
    already held, is picked up and moved itself, as ScienceWorld's floor substances are."""
    if not t.is_substance or t.state == SOLID:
        return False
    return not (t.state == LIQUID and t.parent is not None and t.parent.kind in (ROOM, AGENT))


class Thing:
    """One object. A flat record with flags rather than a class hierarchy: cheap to tick and to copy."""

    __slots__ = (
        "uid", "kind", "base", "mat", "is_substance", "label", "temp", "state", "parent", "contents",
        "container", "surface", "openable", "is_open", "portable", "device", "heat", "rate", "is_on",
        "broken", "living", "alive", "elec", "polarized", "source", "renewable", "powered", "edible",
        "readable", "tool", "referents", "burning", "color", "rooms", "stages", "stage", "age",
        "clock", "angle", "friction", "genes", "style", "see_through", "movable", "traits",
        "_marks",
    )

    def __init__(self, uid: int, kind: str, base: str, mat: Material, temp: float):
        self.uid = uid
        self.kind = kind
        self.base = base            # name when not a substance
        self.mat = mat
        self.is_substance = False   # substances are named by material and state of matter
        self.label = None           # masked name ("unknown substance B") overrides state names
        self.temp = temp
        self.state = mat.state_at(temp)
        self.parent: Thing | None = None
        self.contents: list[Thing] = []
        self.container = False
        self.surface = False
        self.openable = False
        self.is_open = True
        self.portable = False       # a loose thing or vessel (carried, poured, a conductor)
        self.movable = False        # furniture the agent may still carry, as in ScienceWorld
        self.device = None
        self.heat = None
        self.rate = 0.0
        self.is_on = False
        self.broken = False
        self.living = None
        self.alive = False
        self.elec = None
        self.polarized = False
        self.source = None
        self.renewable = False
        self.powered = False
        self.edible = False
        self.readable = None
        self.tool = None
        self.referents: tuple[str, ...] = ()
        self.burning = 0
        self.color = None
        self.rooms: tuple = ()      # doors: the two rooms they join
        self.stages: tuple[str, ...] = ()   # living things: the name of each life stage, in order
        self.stage = 0              # index into `stages`
        self.age = 0                # ticks spent in the current stage
        self.clock = 0              # ticks a running stopwatch counted, a block spent on its plane, a bee off the floor
        self.angle = None           # inclined planes: degrees from the floor
        self.friction = 0.0         # inclined planes: the surface's friction coefficient
        self.genes = None           # plants: (allele, allele, dominant value, trait) of the trait studied
        self.traits = None          # plants of the genetics tasks: the traits a grown one shows ('tall height')
        self.style = None           # how a look names it (things.json 'style')
        self.see_through = False    # a closed one still shows its contents in a look (glass jars)
        self._marks = None          # once its world saves states: its marks, uid -> slots written (Tracked)

    @property
    def name(self) -> str:
        if self.label is not None:
            return self.label
        if self.stages:
            return self.stages[self.stage]
        if self.is_substance:
            return self.mat.names[self.state]
        return self.base

    def __repr__(self) -> str:
        return f"<{self.uid}:{self.name}>"


_write = object.__setattr__


class _Every:
    """The marks of a thing made since the last save or load: every slot is looked at."""

    __slots__ = ()

    def add(self, slot: str) -> None:
        pass


EVERY = _Every()


class Tracked(Thing):
    """A thing of a world that saves states (World.save): every write notes its uid and the
    slot in the world's marks, so that saving and loading look only at the things written
    since (a few a step) instead of every slot of every thing (hundreds), and loading back
    the state last saved or loaded writes back only the slots written (mostly `temp`).
    Things become Tracked at the first save (construction writes untracked) and the
    world's things made after it are made Tracked; the class is swapped in place, the
    slots are the same."""

    __slots__ = ()

    def __setattr__(self, name, value):
        _write(self, name, value)
        written = self._marks.get(self.uid)
        if written is None:
            self._marks[self.uid] = {name}
        else:
            written.add(name)

    def __setstate__(self, state):   # unpickled or copied: slots written as they were, unmarked
        for name, value in state[1].items():
            _write(self, name, value)


def _track(thing: Thing, marks: dict) -> None:
    _write(thing, "_marks", marks)
    thing.__class__ = Tracked
    marks[thing.uid] = EVERY


def _moved(marks: dict, holder: Thing) -> None:
    """Mark `holder`'s contents written (its list is changed in place, not set)."""
    written = marks.get(holder.uid)
    if written is None:
        marks[holder.uid] = {"contents"}
    else:
        written.add("contents")


# what a step may change in a thing: every slot but its uid, its contents (saved apart) and its marks
_STATE_SLOTS = tuple(s for s in Thing.__slots__ if s not in ("uid", "contents", "_marks"))
_SLOT_INDEX = {s: i for i, s in enumerate(_STATE_SLOTS)}
_thing_state = attrgetter(*_STATE_SLOTS)


class World:
    """Rooms, doors, the agent and every thing, plus the bookkeeping the engines need."""

    def __init__(self):
        self.things: list[Thing] = []
        self.rooms: dict[str, Thing] = {}
        self.doors: list[Thing] = []
        self.agent: Thing | None = None
        self.version = 0
        self.ticks = 0
        self.thermal_active: dict[int, Thing] = {}   # uid -> thing whose temperature may still change
        self.links: dict[tuple[int, int], tuple[int, int]] = {}  # terminal -> terminal (symmetric)
        self.elec_dirty = False
        self.phase_log: list[tuple[int, int, str, str]] = []     # (tick, uid, old state, new state)
        # (tick, target uid, reading, its state of matter then: what a reader of the reading saw)
        self.measurements: list[tuple[int, int, int, str]] = []
        self.electric_actions = True
        self.power_source: dict = {}                                 # load uid -> source feeding it
        self.growers: list[Thing] = []   # living things that move through their stages as ticks pass
        self.stage_ticks = 0             # ticks a grower spends in each stage
        self.self_watering = False       # flower pots keep their plants watered
        self.plant_stage_ticks: tuple = ()   # ticks a plant spends in each stage (empty: life.json's)
        self.taps: list[Thing] = []      # sinks and the like, which run water when turned on
        self.springs: list[Thing] = []   # fountains, which fill themselves
        self.planes: list[Thing] = []    # inclined planes, down which blocks slide
        self.timers: list[Thing] = []    # stopwatches, which count ticks while on
        self.bees: list[Thing] = []      # bees, which fly out of what holds them (bees.py)
        self._first_saved: tuple | None = None   # every thing at the first `save`
        # from the first save on: the things written (slots or contents) since the last
        # save or load (uid -> the slots written, or EVERY), and the things that differed
        # from the first save then (index -> (state, contents)); any other thing is as it
        # was at the first save
        self._marks: dict[int, set | _Every] = {}
        self._differ: dict[int, tuple] = {}

    # ---- construction -------------------------------------------------------------------
    def new(self, kind: str, base: str, mat_name: str, temp: float) -> Thing:
        t = Thing(len(self.things), kind, base, material(mat_name), temp)
        self.things.append(t)
        if self._first_saved is not None:   # made during play: saved with every state from now on
            _track(t, self._marks)
        return t

    def add_room(self, name: str, ambient: float) -> Thing:
        room = self.new(ROOM, name, "air", ambient)
        room.container = True
        self.rooms[name] = room
        return room

    def add_door(self, a: Thing, b: Thing, is_open: bool) -> Thing:
        door = self.new(DOOR, "door", "wood", a.temp)
        door.openable = True
        door.is_open = is_open
        door.rooms = (a, b)
        self.doors.append(door)
        return door

    def place(self, thing: Thing, parent: Thing) -> None:
        """Put a new thing into `parent` during construction (no tick bookkeeping needed yet)."""
        thing.parent = parent
        parent.contents.append(thing)
        _moved(self._marks, parent)

    # ---- queries ------------------------------------------------------------------------
    def room_of(self, thing: Thing) -> Thing:
        while thing.kind != ROOM:
            thing = thing.parent
        return thing

    def agent_room(self) -> Thing:
        return self.agent.parent

    def doors_of(self, room: Thing) -> list[tuple[Thing, Thing]]:
        """(door, room on the other side) pairs, in data order."""
        out = []
        for door in self.doors:
            a, b = door.rooms
            if a is room:
                out.append((door, b))
            elif b is room:
                out.append((door, a))
        return out

    def inside(self, thing: Thing, container: Thing) -> bool:
        """True when `thing` is (transitively) inside `container`."""
        p = thing.parent
        while p is not None:
            if p is container:
                return True
            p = p.parent
        return False

    def subtree(self, thing: Thing) -> list[Thing]:
        out = [thing]
        i = 0
        while i < len(out):
            out.extend(out[i].contents)
            i += 1
        return out

    # ---- mutations ----------------------------------------------------------------------
    def changed(self) -> None:
        self.version += 1

    def move(self, thing: Thing, dest: Thing) -> None:
        """Move `thing` into `dest`; loosens its electrical links and wakes its temperature."""
        old = thing.parent
        marks = self._marks
        if old is not None:
            old.contents.remove(thing)
            _moved(marks, old)
        thing.parent = dest
        dest.contents.append(thing)
        _moved(marks, dest)
        self.disconnect_all(thing)
        self.touch(thing)
        if thing.kind == THING:
            for other in dest.contents:   # new neighbours share heat with it (a floor's and the inventory's too)
                self.thermal_active[other.uid] = other
            if dest.kind == THING:        # and so does its new container
                self.thermal_active[dest.uid] = dest
        if self.links:
            self.elec_dirty = True
        self.changed()

    def remove(self, thing: Thing) -> None:
        if thing.parent is not None:
            thing.parent.contents.remove(thing)
            _moved(self._marks, thing.parent)
        thing.parent = None
        self.disconnect_all(thing)
        self.thermal_active.pop(thing.uid, None)
        self.changed()

    def touch(self, thing: Thing) -> None:
        """Mark a subtree as thermally live so the next ticks update it."""
        for t in self.subtree(thing):
            if t.kind != AGENT:
                self.thermal_active[t.uid] = t

    def set_state(self, thing: Thing, new: str) -> None:
        self.phase_log.append((self.ticks, thing.uid, thing.state, new))
        thing.state = new
        self.changed()

    # ---- saving and loading a state --------------------------------------------------------
    def save(self) -> tuple:
        """Every thing's state and the engines' bookkeeping, for `load`. Things are kept only
        where they differ from the first save: a few per state, so that thousands of saved
        states stay small and cheap for the garbage collector. Things made since the first
        save (a reaction's product, water from a tap) are always kept. Only the things
        written since the last save or load are looked at (Tracked)."""
        things, marks, differ = self.things, self._marks, self._differ
        first = self._first_saved
        if first is None:
            first = self._first_saved = tuple((_thing_state(t), tuple(t.contents)) for t in things)
            for t in things:
                _track(t, marks)
        else:
            n_first, n = len(first), len(things)
            for i in marks:
                if i >= n:        # made in a state since left by a load
                    continue
                t = things[i]
                now = (_thing_state(t), tuple(t.contents))
                if i >= n_first or now != first[i]:
                    differ[i] = now
                else:
                    differ.pop(i, None)
        marks.clear()
        return (dict(differ), tuple(things[len(first):]), tuple(self.growers), self.version, self.ticks,
                dict(self.thermal_active), dict(self.links), self.elec_dirty, tuple(self.phase_log),
                tuple(self.measurements), self.electric_actions, dict(self.power_source))

    def load(self, saved: tuple) -> None:
        """Back to a state `save` took of this world; only things that differ are written, and
        the things made during play are the ones that state had. `version` goes back too, so
        whoever caches by it drops the cache (ScienceEnv.restore). Only the things that
        differ from the first save, now or in that state, or were written since the last
        save or load, are looked at: an unwritten one whose entry there is the very entry
        this state keeps (`is`: both states saved it unchanged, or neither kept it) is
        as this state has it, one written since gets back only the slots written, and of
        the others only the slots that differ are written."""
        changed, made, growers, self.version, self.ticks, active, links, self.elec_dirty, phases, \
            measured, self.electric_actions, power = saved
        self.growers = list(growers)
        first = self._first_saved
        things = self.things
        things[len(first):] = made   # the very things the saved contents hold
        n = len(things)
        marks, differ = self._marks, self._differ
        for i in sorted({*differ, *marks, *changed}):
            if i >= n:
                continue
            kept, written = changed.get(i), marks.get(i)
            same = kept is differ.get(i)
            if same and written is None:
                continue
            t = things[i]
            state, contents = kept or first[i]
            if same and written is not EVERY:   # as that state had it but the slots written
                for slot in written:
                    if slot != "contents":
                        _write(t, slot, state[_SLOT_INDEX[slot]])
                    elif tuple(t.contents) != contents:
                        _write(t, "contents", list(contents))
                continue
            now = _thing_state(t)
            if now != state:
                for slot, was, value in zip(_STATE_SLOTS, now, state):
                    if was is not value:
                        _write(t, slot, value)   # unmarked: as it is now is as that state had it
            if tuple(t.contents) != contents:  # things compare by identity
                _write(t, "contents", list(contents))
        marks.clear()
        self._differ = dict(changed)
        self.thermal_active, self.links, self.power_source = dict(active), dict(links), dict(power)
        self.phase_log, self.measurements = list(phases), list(measured)

    # ---- electrical links ---------------------------------------------------------------
    def connect(self, a: tuple[int, int], b: tuple[int, int]) -> None:
        self.links[a] = b
        self.links[b] = a
        self.elec_dirty = True
        self.changed()

    def disconnect_all(self, thing: Thing) -> bool:
        hit = False
        for term in ((thing.uid, 0), (thing.uid, 1)):
            other = self.links.pop(term, None)
            if other is not None:
                self.links.pop(other, None)
                hit = True
        if hit:
            self.elec_dirty = True
            self.changed()
        return hit


__all__ = ["World", "Thing", "moves_with_its_vessel", "ROOM", "AGENT", "DOOR", "THING", "SWITCHED", "SOLID", "LIQUID", "GAS"]
