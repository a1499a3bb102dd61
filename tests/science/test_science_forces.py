"""Inclined planes (topic 9): blocks slide by the stated physics, a stopwatch times them, and every
variation's two planes differ by enough for the stopwatch to tell; played as an agent would."""

import pytest

from racbench.worlds.science import TASKS, ScienceEnv, gold_trajectory
from racbench.worlds.science import mechanics

PLANE_TASKS = ["inclined-plane-determine-angle", "inclined-plane-friction-named-surfaces",
               "inclined-plane-friction-unnamed-surfaces"]


@pytest.mark.parametrize("task", PLANE_TASKS)
def test_gold_paths_reach_full_score(task):
    n = TASKS[task].n_variations
    for v in range(0, n, 1 if n < 200 else 11):
        steps = gold_trajectory(task, v, "")
        assert steps[-1]["score"] == 1.0 and all(s["score"] < 1.0 for s in steps[:-1]), (task, v)


@pytest.mark.parametrize("task", PLANE_TASKS)
def test_every_variation_times_its_planes_apart_and_asks_about_the_right_one(task):
    for v in range(TASKS[task].n_variations):
        env = ScienceEnv(task, v)
        env.reset()
        h = env.episode.hints
        times = [mechanics.ticks_to_bottom(p.angle, p.friction) for p in h["planes"]]
        assert None not in times and abs(times[0] - times[1]) >= 1, (task, v)
        faster = h["planes"][times.index(min(times))]
        wants_faster = any(w in env.task_description for w in ("steepest", "least friction"))
        assert (h["answer"] is faster) == wants_faster, (task, v)


def test_variations_follow_scienceworlds_planes_blocks_and_questions():
    def setup(task, v):
        env = ScienceEnv(task, v)
        env.reset()
        return env.task_description, env.episode.hints["block"].name
    assert setup("inclined-plane-determine-angle", 0) == (
        "Your task is to determine which of the two inclined planes (C, B) has the shallowest angle. "
        "After completing your experiment, focus on the inclined plane with the shallowest angle.", "wood block")
    assert setup("inclined-plane-determine-angle", 1)[1] == "steel block"
    assert setup("inclined-plane-determine-angle", 2)[1] == "brick"
    assert "(C, B) has the steepest" in setup("inclined-plane-determine-angle", 1)[0]
    assert "(B, D)" in setup("inclined-plane-determine-angle", 3)[0]
    assert "(paper, cloth) has the most friction" in setup("inclined-plane-friction-named-surfaces", 0)[0]
    assert "(unknown material C, unknown material H) has the least friction" in \
        setup("inclined-plane-friction-unnamed-surfaces", 1)[0]


def test_a_block_slides_from_the_top_to_the_bottom_as_a_stopwatch_counts():
    env = ScienceEnv("inclined-plane-friction-named-surfaces", 0, "teleport")   # paper, cloth
    env.reset()
    env.step("teleport to workshop")
    h = env.episode.hints
    plane, watch = h["planes"][0], h["watch"]
    env.step(f"pick up {env.canon(watch)}")
    env.step(f"move wood block to {plane.name}")
    env.step(f"activate {env.canon(watch)}")
    shares = []
    for _ in range(80):
        shares.append(mechanics.share_down(h["block"]))
        obs, *_ = env.step(f"look at {plane.name}")
    assert shares == sorted(shares) and shares[0] < 0.01 and shares[-1] == 1.0
    assert obs.endswith("at the bottom of the plane.")
    reached = shares.index(1.0)
    assert reached + 2 == mechanics.ticks_to_bottom(plane.angle, plane.friction)
    obs, *_ = env.step(f"look at {env.canon(watch)}")
    assert "The time reads 81 ticks" in obs          # one tick came with turning it on
    env.step(f"deactivate {env.canon(watch)}")
    env.step("wait 5")
    assert watch.clock == 82                          # stopped, it keeps its reading


def test_focusing_on_the_wrong_plane_fails_and_the_right_one_completes():
    for pick, score in (("wrong", 0.0), ("right", 1.0)):
        env = ScienceEnv("inclined-plane-determine-angle", 5, "teleport")
        env.reset()
        env.step("teleport to workshop")
        h = env.episode.hints
        plane = h["answer"] if pick == "right" else next(p for p in h["planes"] if p is not h["answer"])
        _, _, terminated, _, info = env.step(f"focus on {plane.name}")
        assert terminated and info["score"] == score
