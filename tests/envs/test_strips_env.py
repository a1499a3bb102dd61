"""PDDL problems through gymnasium: check_env, a planned episode, typed actions, errors."""

from __future__ import annotations

import random

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env

from racbench.envs import StripsEnv
from racbench.envs.commands import pddl_form
from racbench.errors import InputError
from racbench.worlds.strips.sexpr import PDDLError
from racbench.worlds.strips.search import astar

SWITCHES = """(define (domain switches)
  (:requirements :strips :negative-preconditions)
  (:predicates (on ?s) (off ?s) (broken))
  (:action turn-on :parameters (?s)
    :precondition (and (off ?s) (not (broken))) :effect (and (on ?s) (not (off ?s))))
  (:action turn_on :parameters (?s)
    :precondition (and (off ?s) (not (broken))) :effect (and (on ?s) (not (off ?s))))
  (:action smash :parameters (?s) :precondition (off ?s) :effect (and (broken) (not (off ?s)))))
"""
TWO_SWITCHES = """(define (problem two) (:domain switches) (:objects a b)
  (:init (off a) (off b)) (:goal (and (on a) (on b))))
"""


@pytest.fixture
def switches(tmp_path):
    """A user's domain whose two actions read alike and whose smash can leave no action."""
    (tmp_path / "domain.pddl").write_text(SWITCHES)
    (tmp_path / "problem.pddl").write_text(TWO_SWITCHES)
    return {"domain_file": str(tmp_path / "domain.pddl"),
            "problem_file": str(tmp_path / "problem.pddl")}


def test_the_id_is_registered():
    assert "racbench/strips-v0" in gymnasium.registry


@pytest.mark.parametrize("domain, problem", [("gripper", "p01"), ("blocksworld", "p04"),
                                             ("grid", "p01"), ("household", "p02")])
def test_check_env_passes(strict_warnings, domain, problem):
    env = gymnasium.make("racbench/strips-v0", domain=domain, problem=problem)
    check_env(env.unwrapped)


def test_check_env_passes_on_your_own_files(strict_warnings, switches):
    check_env(gymnasium.make("racbench/strips-v0", **switches).unwrapped)


@pytest.mark.parametrize("domain, problem", [("gripper", "p02"), ("blocksworld", "p05"),
                                             ("ferry", "p03"), ("logistics", "p01")])
def test_a_plan_reaches_the_goal(strict_warnings, domain, problem):
    env = gymnasium.make("racbench/strips-v0", domain=domain, problem=problem)
    obs, info = env.reset(seed=0)
    task = env.unwrapped.task
    plan = astar(task, task.init, task.condition(task.goal), heuristic=lambda state: 0)
    assert plan and info["score"] == 0.0 and "Your goal is that" in obs
    rewards = []
    for n, k in enumerate(plan):
        listed = env.unwrapped.commands.names[k]
        assert listed in info["valid_actions"]
        # half the steps as listed, half in PDDL form: both name the same action
        action = listed if n % 2 else pddl_form(task.actions[k].term)
        assert action in env.action_space
        obs, reward, terminated, truncated, info = env.step(action)
        assert obs in env.observation_space and not truncated
        assert terminated == (n == len(plan) - 1)
        rewards.append(reward)
    assert rewards == [0.0] * (len(plan) - 1) + [1.0]
    assert info["score"] == 1.0 and info["moves"] == len(plan) and "The goal is reached." in obs
    obs, reward, terminated, _, _ = env.step(info["valid_actions"][0])
    assert "The episode is over" in obs and reward == 0.0 and terminated


def test_typed_actions_are_read_loosely_and_refused_clearly():
    env = gymnasium.make("racbench/strips-v0", domain="gripper", problem="p01")
    first, info = env.reset()
    listed = info["valid_actions"][0]
    state = env.unwrapped.state
    obs, reward, terminated, _, after = env.step("(pick ball1 room1 left)")  # ball1 is elsewhere
    assert obs.startswith("That cannot be done now, because ball ball1 is not in room room1.")
    assert env.unwrapped.state == state and after == info and reward == 0.0 and not terminated
    obs, *_ = env.step("(fly ball1)")
    assert obs.startswith("That is not an action of this problem.") and env.unwrapped.state == state
    assert obs.endswith(first) and env.unwrapped.steps == 2
    obs, *_ = env.step("  " + listed.upper() + ". ")
    assert env.unwrapped.state != state and obs.startswith(listed[0].upper() + listed[1:] + ".")
    obs, *_ = env.step("( MOVE  room2 room1 )")
    assert env.unwrapped.state == state and env.unwrapped.moves == 2


def test_actions_that_read_alike_are_listed_in_pddl_form(switches):
    env = StripsEnv(**switches)
    _, info = env.reset()
    assert info["valid_actions"] == ["smash a", "smash b", "(turn-on a)", "(turn-on b)",
                                     "(turn_on a)", "(turn_on b)"]
    assert env.step("(turn_on a)")[0].startswith("Turn on a.") and env.moves == 1
    assert env.step("turn on b")[0].startswith("That is not an action")


def test_a_state_where_nothing_applies_ends_the_episode(switches):
    env = StripsEnv(**switches)
    env.reset()
    obs, *_, info = env.step("smash a")
    assert obs.startswith("Smash a.") and info["valid_actions"] == ["smash b"]
    obs, *_ = env.step("(turn-on b)")
    assert obs.startswith("That cannot be done now, because the condition broken holds.")
    obs, reward, terminated, truncated, info = env.step("smash b")
    assert "the goal cannot be reached" in obs and terminated and not truncated
    assert reward == 0.0 and info["valid_actions"] == [] and obs in env.observation_space


def test_every_step_counts_toward_max_steps():
    env = gymnasium.make("racbench/strips-v0", domain="gripper", problem="p01", max_steps=3)
    env.reset()
    results = [env.step(a) for a in ("nonsense", "(pick ball1 room1 left)", "(move room1 room2)")]
    assert [r[3] for r in results] == [False, False, True]
    env.reset()
    assert env.unwrapped.steps == 0 and not env.step("nonsense")[3]


@pytest.mark.parametrize("domain, problem", [("visitall", "p03"), ("depots", "p02"),
                                             ("satellite", "p01")])
def test_random_walks_stay_inside_the_spaces(domain, problem):
    """The observation bound is derived, not measured: walk and check it holds."""
    env = StripsEnv(domain=domain, problem=problem)
    rng = random.Random(3)
    obs, info = env.reset()
    for _ in range(60):
        if rng.random() < 0.3:  # any action, most of them inapplicable
            action = rng.choice(env.commands.pddl)
        else:
            action = rng.choice(info["valid_actions"])
        assert action in env.action_space
        obs, _, terminated, _, info = env.step(action)
        assert obs in env.observation_space, obs
        if terminated:
            obs, info = env.reset()


def test_render_shows_the_last_observation():
    env = gymnasium.make("racbench/strips-v0", domain="ferry", problem="p01", render_mode="ansi")
    obs, _ = env.reset()
    assert env.render() == obs
    obs, *_ = env.step("nonsense")
    assert env.render() == obs


@pytest.mark.parametrize("kwargs, error, words", [
    ({}, InputError, ("name the domain", "gripper", "domain_file")),
    ({"domain": "gripper", "domain_file": "d.pddl", "problem": "p01"}, InputError,
     ("name the domain",)),
    ({"domain": "juggling", "problem": "p01"}, InputError, ("'juggling'", "blocksworld")),
    ({"domain": "gripper"}, InputError, ("name the problem", "problem_file")),
    ({"domain": "gripper", "problem": "p99"}, InputError, ("'p99'", "p01", "p15")),
    ({"domain": "gripper", "problem": "p01", "problem_file": "p.pddl"}, InputError,
     ("name the problem",)),
    ({"domain_file": "d.pddl", "problem": "p01"}, InputError, ("name the problem",)),
    ({"domain": "gripper", "problem": "p01", "problme": "p02"}, InputError,
     ("'problme'", "accepted: domain, problem, domain_file, problem_file, max_steps")),
    ({"domain": "gripper", "problem": "p01", "max_steps": -1}, InputError, ("max_steps",)),
    ({"domain": "gripper", "problem_file": "/nonexistent/p.pddl"}, PDDLError,
     ("/nonexistent/p.pddl", "file not found")),
])
def test_bad_arguments_are_refused_by_name(kwargs, error, words):
    with pytest.raises(error) as caught:
        gymnasium.make("racbench/strips-v0", **kwargs)
    for word in words:
        assert word in str(caught.value)


def test_unreadable_pddl_names_the_file_and_place(tmp_path, switches):
    broken = tmp_path / "broken.pddl"
    broken.write_text(TWO_SWITCHES.replace("(:objects a b)", "(:objects a b"))
    with pytest.raises(PDDLError, match="broken.pddl:"):
        StripsEnv(domain_file=switches["domain_file"], problem_file=str(broken))


def test_reset_accepts_no_options():
    env = StripsEnv(domain="gripper", problem="p01")
    assert env.reset(options={})[0] == env.reset()[0]
    with pytest.raises(InputError, match="'variation'.*accepted: none"):
        env.reset(options={"variation": 1})
