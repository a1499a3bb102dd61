"""`racbench play`: one terminal loop over the gymnasium environments, for every world."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from racbench.envs.play import play_science, play_strips
from racbench.worlds.science import gold_trajectory
from racbench.worlds.strips.pddl_reader import load_domain, load_problem
from racbench.worlds.strips.grounding import ground
from racbench.worlds.strips.search import astar
from racbench.worlds.strips.shipped import shipped_files


def racbench_play(args: list[str], typed: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "racbench.cli", "play", *args], input=typed,
                          capture_output=True, text=True, timeout=120)


def gripper_plan(problem: str) -> list[str]:
    domain_file, (problem_file,) = shipped_files("gripper", [problem])
    domain = load_domain(domain_file)
    task = ground(domain, load_problem(problem_file, domain))
    plan = astar(task, task.init, task.condition(task.goal), heuristic=lambda state: 0)
    return ["(" + " ".join(task.actions[k].term) + ")" for k in plan]


def test_play_science_in_a_terminal():
    actions = [s["action"] for s in gold_trajectory("freeze", 1, "easy")]
    done = racbench_play(["science", "freeze", "--variation", "1", "--simplifications", "easy"],
                         "actions\n" + "\n".join(actions) + "\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("Task 'freeze', variation 1 (train split).")
    assert "Your task is to freeze" in out and "> You can:\n" in out and "\n  look around\n" in out
    assert "Task completed." in out and out.rstrip().endswith("Score: 1.0\nGoodbye.")


def test_play_strips_in_a_terminal():
    plan = gripper_plan("p01")
    done = racbench_play(["strips", "--domain", "gripper", "--problem", "p01"],
                         "actions\n" + "\n".join(plan) + "\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("Domain 'gripper', problem 'p01'.")
    assert "Your goal is that ball ball1 is in room room1" in out
    assert "You can:\n  the robot moves from room room1 to room room2\n" in out
    assert out.count("Score: 0.0") == len(plan) - 1
    assert "The goal is reached." in out and out.rstrip().endswith("Score: 1.0\nGoodbye.")


def test_play_refuses_bad_arguments_in_one_line():
    done = racbench_play(["strips", "--domain", "gripper", "--problem", "p42"], "")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "'p42'" in done.stderr and "p01" in done.stderr


def test_play_stops_at_quit_and_at_the_end_of_input():
    out = io.StringIO()
    score = play_science("find-non-living-thing", 0, "easy",
                         io.StringIO("task\nlook around\nquit\nlook\n"), out)
    text = out.getvalue()
    assert "Your task is to find a(n) non-living thing" in text
    # two commands before quit, none after; the score returned is the last one shown (the
    # start beside an open door already earns ScienceWorld's partial credit on find tasks)
    assert text.count("Score:") == 2 and 0 <= score < 1
    assert text.endswith(f"Score: {score}\n> Goodbye.\n")
    out = io.StringIO()
    assert play_strips("gripper", "p01", input_stream=io.StringIO(""), output_stream=out) == 0.0
    assert out.getvalue().endswith("> \nGoodbye.\n")


def test_play_takes_your_own_pddl_files(tmp_path):
    domain_file, (problem_file,) = shipped_files("gripper", ["p02"])
    mine = tmp_path / "my-problem.pddl"
    mine.write_text(Path(problem_file).read_text())
    out = io.StringIO()
    plan = gripper_plan("p02")
    assert play_strips(domain_file=domain_file, problem_file=str(mine),
                       input_stream=io.StringIO("\n".join(plan) + "\n"), output_stream=out) == 1.0
    assert out.getvalue().startswith("Domain 'gripper', problem 'my-problem.pddl'.")
