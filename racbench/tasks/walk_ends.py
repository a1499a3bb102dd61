"""Where walks of exactly `length` actions from a state can end, and which goals of a
kind they can achieve or miss: tests a TRAC draw makes on a walk before it draws goals,
so that the goals it then draws exist (a planning pool used to be built two or three
times a row, most of them thrown away for want of a goal of the wanted kind).

Only enumerated worlds small enough to keep their successor lists (TRAC's five blocks)
are tested; elsewhere `ends` is None and draws go on as before."""

from __future__ import annotations

from bisect import bisect

from racbench.tasks.queries import bit_list
from racbench.worlds.strips.world import SMALL_SPACE

ENDS_KEPT = 16_384  # (state, length) entries kept per world
OFFERS_KEPT = 262_144  # (state, length, kind) entries kept per world
BALLS_KEPT = 4096  # (state, radius) entries kept per world


def small(world) -> bool:
    """Whether `world` is enumerated and small enough for these tables."""
    return world.explicit and world.n_states <= SMALL_SPACE


def ends(world, sid: int, length: int) -> tuple[tuple[int, ...], int, int] | None:
    """The bits of the states that walks of exactly `length` actions from `sid` end in,
    with their bitwise or and and; kept per world. None in worlds not small and
    enumerated."""
    if not small(world):
        return None
    kept = world.__dict__.setdefault("_walk_ends", {})
    found = kept.get((sid, length))
    if found is None:
        frontier, succ = {sid}, world.succ
        for _ in range(length):
            frontier = {t for s in frontier for t in succ(s)[1]}
        bits = tuple(sorted(world.bits(t) for t in frontier))
        every, some = -1, 0
        for b in bits:
            every &= b
            some |= b
        if len(kept) >= ENDS_KEPT:
            kept.clear()
        found = kept[(sid, length)] = (bits, every, some)
    return found


def pair(first: int, second: int, changed: int, differs: int) -> bool:
    """Whether an atom a of `first` and another b of `second` exist with a or b in
    `changed` and a or b in `differs` (bit masks): a goal of two literals that holds
    at an end, not at the start (one changed) nor in an avoided state (one differs)."""
    for a in bit_list(first):
        bit = 1 << a
        rest = second if changed & bit else second & changed
        if not differs & bit:
            rest &= differs
        if rest & ~bit:
            return True
    return False


def holding(masks: dict, literal_kind: tuple, bits: int) -> int:
    """The atoms of a literal kind ((polarity,) + atom kind) whose literal of that
    polarity holds in `bits`."""
    mask = masks.get(literal_kind[1:], 0)
    return mask & bits if literal_kind[0] else mask & ~bits


def achieves(masks: dict, kind: tuple, start: int, end: int, avoided: int | None = None
             ) -> bool:
    """Whether a goal of `kind` (one or two literal kinds) holds at `end`, not at
    `start` and (given) not at `avoided`: what `goals_between`'s exact draw finds."""
    changed = start ^ end
    differs = -1 if avoided is None else end ^ avoided
    if len(kind) == 1:
        return bool(holding(masks, kind[0], end) & changed & differs)
    return pair(holding(masks, kind[0], end), holding(masks, kind[1], end), changed, differs)


def missable(masks: dict, kind: tuple, start: int, end: int, walk_ends) -> bool:
    """Whether some walk of the same length from `start` (its `ends`) achieves a goal
    of `kind` that does not hold at `end`: a planning negative's missed goal. For one
    literal, read off the ends' or and and; for two, end by end."""
    bits, every, some = walk_ends
    if len(kind) == 1:
        polarity = kind[0][0]
        # a literal made true somewhere (false at the start and at `end`) or false
        # somewhere (true at the start and at `end`)
        reach = ~start & ~end & some if polarity else start & end & ~every
        mask = masks.get(kind[0][1:], 0)
        return bool(mask & reach)
    return any(achieves(masks, kind, start, other, end) for other in bits)


def offers(world, masks: dict, kind: tuple, sid: int, length: int, walk_ends) -> bool:
    """Whether some walk of `length` from `sid` achieves a goal of `kind` and misses
    one (`achieves`, `missable`; for two literals, achieves one only: missing one is
    tested end by end, and every end against every end was dearer than the walks it
    saves); kept per world, as rows draw the same few hundred states again and
    again."""
    kept = world.__dict__.setdefault("_walk_offers", {})
    key = (sid, length, kind)
    found = kept.get(key)
    if found is None:
        start = world.bits(sid)
        found = any(achieves(masks, kind, start, end) and
                    (len(kind) > 1 or missable(masks, kind, start, end, walk_ends))
                    for end in walk_ends[0])
        if len(kept) >= OFFERS_KEPT:
            kept.clear()
        kept[key] = found
    return found


def end_law(world, sid: int, length: int) -> tuple[list[int], list[float]]:
    """The bits of the states a random walk of `length` actions from `sid` ends in
    (each step uniform among the applicable actions) and their cumulative
    probabilities; kept per world (small enumerated worlds only)."""
    kept = world.__dict__.setdefault("_end_laws", {})
    found = kept.get((sid, length))
    if found is None:
        law = {sid: 1.0}
        for _ in range(length):
            nxt: dict = {}
            for s, p in law.items():
                dsts = world.succ(s)[1]
                share = p / len(dsts)
                for t in dsts:
                    nxt[t] = nxt.get(t, 0.0) + share
            law = nxt
        states = sorted(law)
        cum, total = [], 0.0
        for t in states:
            total += law[t]
            cum.append(total)
        if len(kept) >= ENDS_KEPT:
            kept.clear()
        found = kept[(sid, length)] = ([world.bits(t) for t in states], cum)
    return found


def warm(world, length: int) -> None:
    """`ends` at `length` and `end_law` at 1.. `length` from every state, made once
    before worker processes fork and share them (a TRAC planning draw asks for them
    from the states its walks visit, nearly all of them soon: each process filled them
    anew). Nothing in a world not small and enumerated, or whose tables would not fit
    their bounds."""
    if not small(world) or world.n_states * length > ENDS_KEPT:
        return
    for sid in range(world.n_states):
        ends(world, sid, length)
        for steps in range(1, length + 1):
            end_law(world, sid, steps)


def walk_end(world, rng, sid: int, length: int) -> int:
    """The bits of where a random walk of `length` actions from `sid` ends, drawn in
    one go from `end_law` (the same law as walking it, other random numbers)."""
    bits, cum = end_law(world, sid, length)
    return bits[min(bisect(cum, rng.random() * cum[-1]), len(bits) - 1)]


def layers(world, sid: int, radius: int) -> list[list[int]]:
    """The states at 0, 1, ... `radius` actions from `sid` (a breadth-first search;
    layer 0 is `sid`), in the order the search meets them."""
    seen, frontier, found, succ = {sid}, [sid], [[sid]], world.succ
    for _ in range(radius):
        nxt = []
        for s in frontier:
            for t in succ(s)[1]:
                if t not in seen:
                    seen.add(t)
                    nxt.append(t)
        found.append(nxt)
        frontier = nxt
    return found


def ball(world, sid: int, radius: int) -> list[list[int]]:
    """`layers`, kept per world (small enumerated worlds: rows ask about the same few
    hundred states again and again)."""
    kept = world.__dict__.setdefault("_balls", {})
    found = kept.get((sid, radius))
    if found is None:
        if len(kept) >= BALLS_KEPT:
            kept.clear()
        found = kept[(sid, radius)] = layers(world, sid, radius)
    return found


def distance_within(world, sid: int, cond, radius: int) -> int | None:
    """The fewest actions from `sid` to a state where `cond` holds, if at most
    `radius` (else None): read off `ball`, as `drawn_plan`'s distance is off a
    table of the whole space swept per goal (a planning row asks about goals a walk
    of its length reaches, thousands of them, most met once)."""
    pos, neg, bits = cond.pos, cond.neg, world.bits
    for d, layer in enumerate(ball(world, sid, radius)):
        for t in layer:
            b = bits(t)
            if b & pos == pos and not b & neg:
                return d
    return None


def far(masks: dict, kind: tuple, start: int, end: int, near) -> bool:
    """Whether `end` may hold a goal of `kind` far from `start` (true at `end`, not at
    the start nor in any state of `near`, an `Avoided`): exact for one literal, for
    two a test of what each needs (goals_between draws the pair)."""
    changed = start ^ end
    first = holding(masks, kind[0], end)
    if len(kind) == 1:
        return bool(first & changed & near.differing(end))
    second = holding(masks, kind[1], end)
    return bool(first and second and (first | second) & changed)
