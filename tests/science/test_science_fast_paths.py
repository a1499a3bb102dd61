"""The simulator's fast paths give what the plain ones give, over many seeded steps.

An episode keeps one scope and one list of valid actions per view of the world
(scope.view_key), whatever state shows it; the tests compare them at every step of seeded
walks with the ones worked out afresh; so are the look and inventory texts, kept by what
they show (describe._said). Saving and loading look only at the things written since the last save or load
(world.Tracked); these tests walk every task at random, saving and going back to saved
states, and compare each restored world slot by slot with a plain copy of every thing
taken when the state was saved, so a write the tracking missed shows up.
"""

from __future__ import annotations

import random

import pytest

from racbench.worlds.science import describe
from racbench.worlds.science.env import ScienceEnv
from racbench.worlds.science.registry import TASKS
from racbench.worlds.science.scope import Scope
from racbench.worlds.science.trajectory import gold_trajectory
from racbench.worlds.science.valid import valid_actions
from racbench.worlds.science.world import Thing

SLOTS = tuple(s for s in Thing.__slots__ if s not in ("_marks", "contents"))   # contents apart, as a tuple


def pick(rng: random.Random, env) -> str:
    """A valid command that changes something (not a look or a read), its verb drawn first:
    moves and pours, hundreds a state, would leave opening, switching, wiring rare."""
    by_verb: dict[str, list] = {}
    for c in env.valid_actions():
        if not c.startswith(("look", "read")):
            by_verb.setdefault(c.split()[0], []).append(c)
    return rng.choice(by_verb[rng.choice(sorted(by_verb))])


def plain_copy(world) -> tuple:
    """Every slot of every thing (contents as the things they hold), the world's bookkeeping."""
    return (tuple((tuple(getattr(t, s) for s in SLOTS), tuple(t.contents)) for t in world.things),
            world.version, world.ticks, dict(world.thermal_active), dict(world.links),
            tuple(world.phase_log), tuple(world.growers))


def walk(task: str, seed: int, steps: int):
    """(env, [(saved, plain copy at saving)]) after a seeded walk of `steps` commands that
    goes back to a saved state a third of the time."""
    env = ScienceEnv(task, 1)
    env.reset()
    rng = random.Random(f"{task}-{seed}")
    saved = [(env.save(), plain_copy(env.world))]
    for _ in range(steps):
        if rng.random() < 1 / 3 or env.finished:
            state, copy = rng.choice(saved)
            env.restore(state)
            assert plain_copy(env.world) == copy
            continue
        env.act(pick(rng, env))
        if rng.random() < 1 / 2:
            saved.append((env.save(), plain_copy(env.world)))
    return env, saved


@pytest.mark.parametrize("task", sorted(TASKS))
def test_loading_a_saved_state_writes_back_every_slot_the_walk_changed(task):
    env, saved = walk(task, 0, 60)
    for state, copy in reversed(saved):   # every saved state, from wherever the walk ended
        env.restore(state)
        assert plain_copy(env.world) == copy


def texts(world) -> tuple:
    """The look, the inventory, and a look at (and in) every thing in view."""
    things = [t for t in Scope(world).things if t.kind != "door"]
    return (describe.look_around(world), describe.inventory(world),
            [describe.look_at(world, t) for t in things], [describe.look_in(world, t) for t in things])


def rendered_afresh(world) -> tuple:
    """`texts` rendered now, none of the texts kept (describe._said) used."""
    kept = dict(describe._SAID)
    describe._SAID.clear()
    try:
        return texts(world)
    finally:
        describe._SAID.clear()
        describe._SAID.update(kept)


def scope_fields(scope) -> tuple:
    return (scope.things, scope.canon, scope.refs, scope.contents, scope.holder_words, scope.room,
            scope._terminals)


@pytest.mark.parametrize("task", sorted(TASKS))
def test_a_scope_and_valid_actions_kept_for_a_view_are_those_worked_out_afresh(task):
    """The scope and valid actions an episode keeps for what is in view (scope.view_key)
    are, at every step of a seeded walk through saves and loads, the ones Scope and
    valid_actions work out from the world as it is; the kept texts (look, inventory, look
    at and in every thing in view) are the ones rendered afresh."""
    env = ScienceEnv(task, 1)
    env.reset()
    rng = random.Random(f"{task}-view")
    saved = [env.save()]
    for _ in range(80):
        if rng.random() < 1 / 4 or env.finished:
            env.restore(rng.choice(saved))
        else:
            env.act(pick(rng, env))
            saved.append(env.save())
        fresh = Scope(env.world)
        assert scope_fields(env.scope) == scope_fields(fresh)
        assert env.valid_actions() == valid_actions(env.world, fresh, env.teleport_ok, env.electric_ok)
        assert env.look() == describe.look_around(env.world)
        assert texts(env.world) == rendered_afresh(env.world)
    assert len(env._views) < 80   # views were shared between states


@pytest.mark.parametrize("task", sorted(TASKS))
def test_the_view_kept_along_a_gold_path_is_worked_out_afresh(task):
    """Along a gold path (water boils, seeds grow, bulbs light: what random walks seldom
    reach) every step's kept scope and valid actions are the fresh ones."""
    env = ScienceEnv(task, 0)
    env.reset()
    for action in [s["action"] for s in gold_trajectory(task, 0)]:
        env.act(action)
        fresh = Scope(env.world)
        assert scope_fields(env.scope) == scope_fields(fresh), action
        assert env.valid_actions() == valid_actions(env.world, fresh, env.teleport_ok, env.electric_ok), action
        assert env.look() == describe.look_around(env.world), action
        assert texts(env.world) == rendered_afresh(env.world), action


def test_a_views_key_holds_every_slot_the_templates_may_read():
    """A text is kept by its view's key: a slot left out of the key would let two views
    that differ in it share one text (a thermometer's reading, seldom changing on walks)."""
    env = ScienceEnv("boil", 0)
    env.reset()
    v = describe.View(env.world.agent_room())
    assert len(v.key) == len(describe.View.__slots__) - 1
    assert v.key[describe.View.__slots__.index("contents")] == tuple(c.key for c in v.contents)


@pytest.mark.parametrize("task", ["boil", "power-component", "grow-plant", "chemistry-mix"])
def test_a_labs_states_show_and_read_as_worked_out_afresh(task):
    """A lab keeps, for each state a seeded walk passes, what is shown there, its facts
    and what commands mean there, the scope worked out only once a command is read there
    (often after the walk moved on): each is what a fresh episode replaying the state
    shows, holds and reads."""
    from racbench.worlds.science.facts import iter_facts
    from racbench.worlds.science.lab import QUESTION_PREDICATES, ScienceLab
    from racbench.worlds.science.parser import parse

    lab = ScienceLab(task, 1)
    rng = random.Random(f"{task}-lab")
    states = [lab.walk((), rng, rng.randint(1, 5)) for _ in range(6)]
    unread = [state for state in states if lab._node(state).scope is None]
    assert unread   # walk ends: nothing read there yet
    for state in states:   # read after every state was reached: scopes made by going back
        env = ScienceEnv(task, 1)
        env.reset()
        for command in state:
            env.act(command)
        fresh = Scope(env.world)
        room = env.world.agent_room()
        shown = {t.uid: t.name for t in fresh.things}
        shown.update((r.uid, r.name) for r in [room] + [o for _, o in env.world.doors_of(room)])
        assert lab._node(state).shown == shown
        assert lab.facts(state) == frozenset(f for f in iter_facts(env.world)
                                             if f[0] in QUESTION_PREDICATES)
        for command in env.valid_actions()[::7]:
            found = parse(command, fresh).candidates
            meant = lab._meaning(lab._node(state), command)
            assert (meant is None) == (len(found) != 1), command
            if meant is not None:
                assert meant[0] == found[0].key(), command
