"""Calls per second of each oracle in `racbench.worlds.strips.oracles`.

For shipped problems of three domains (small, mid-size and near the enumeration limit,
all answered from the enumerated space) and one too big to enumerate (every query a
bounded search), draws query situations from random walks (a state, a goal of 1-2
atoms from another sampled state, an atom, an action, an action applicable in the
state, a random 6-step plan) and times each oracle over them. The one-off cost of
enumerating the reachable space is reported separately ("enumerate"). With the default
1000 situations, cycled, the per-state and per-goal caches (256 entries) always miss, so
the figures are cold-cache ones; --situations 50 gives warm-cache figures.

    python benchmarks/oracles.py [--seconds 1.0] [--situations 1000]
                                          [--cases blocksworld:p10 ...]
"""

from __future__ import annotations

import argparse
import random
import time
from importlib import resources

from racbench.worlds.strips import oracles as an
from racbench.worlds.strips.grounding import ground
from racbench.worlds.strips.pddl_reader import parse_domain, parse_problem
from racbench.worlds.strips.search import SearchBudgetExceeded
from racbench.worlds.strips.task import Condition, GroundTask

DEFAULT_CASES = ("gripper:p05", "blocksworld:p10", "rovers:p10", "satellite:p15")


def load(case: str) -> GroundTask:
    domain_name, problem = case.split(":")
    root = resources.files("racbench.data").joinpath("domains", domain_name)
    domain = parse_domain(root.joinpath("domain.pddl").read_text(), domain_name)
    problem_text = root.joinpath("problems", f"{problem}.pddl").read_text()
    return ground(domain, parse_problem(problem_text, domain, case))


def situations(task: GroundTask, rng: random.Random, n: int):
    states = an.sample_states(task, rng, 2 * n)
    out = []
    for i in range(n):
        state = states[i % len(states)]
        target = states[rng.randrange(len(states))]
        bits = [b for b in range(len(task.atoms)) if target >> b & 1]
        goal = Condition(sum(1 << b for b in rng.sample(bits, min(2, len(bits)))), 0)
        atom = rng.randrange(len(task.atoms))
        action = rng.randrange(len(task.actions))
        options = task.applicable(state)
        chosen = rng.choice(options) if options else action
        plan, s = [], state
        for _ in range(6):
            options = task.applicable(s)
            if not options:
                break
            k = rng.choice(options)
            plan.append(k)
            s = task.actions[k].apply(s)
        out.append((state, goal, atom, action, plan, Condition(s, 0), chosen))
    return out


ORACLES = {
    "applicable_actions": lambda t, c: an.applicable_actions(t, c[0]),
    "progression": lambda t, c: [an.progression(t, c[0], k) for k in t.applicable(c[0])[:1]],
    "relaxed_reachable": lambda t, c: an.relaxed_reachable(t, c[0]),
    "fact_reachable": lambda t, c: an.fact_reachable(t, c[0], c[2]),
    "action_reachable": lambda t, c: an.action_reachable(t, c[0], c[3]),
    "validate_plan": lambda t, c: an.validate_plan(t, c[0], c[4], c[5]),
    "unnecessary_steps/single": lambda t, c: an.unnecessary_steps(t, c[0], c[4], c[5]),
    "unnecessary_steps/subseq": lambda t, c: an.unnecessary_steps(t, c[0], c[4], c[5],
                                                                  "subsequence"),
    "optimal_cost": lambda t, c: an.optimal_cost(t, c[0], c[1]),
    "optimal_first_actions": lambda t, c: an.optimal_first_actions(t, c[0], c[1]),
    "on_some_optimal_plan": lambda t, c: an.on_some_optimal_plan(t, c[0], c[1], c[6]),
    "is_fact_landmark": lambda t, c: an.is_fact_landmark(t, c[0], c[1], c[2]),
    "sample_states(10)": lambda t, c: an.sample_states(t, random.Random(c[0]), 10),
    "states_near_goal(5,3)": lambda t, c: an.states_near_goal(t, random.Random(c[0]), c[1],
                                                              5, 3),
}


def bench(task: GroundTask, cases, seconds: float) -> dict[str, tuple[float, int]]:
    """oracle -> (calls/s, calls that hit the search budget)."""
    out = {}
    for name, fn in ORACLES.items():
        calls = over = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            try:
                fn(task, cases[calls % len(cases)])
            except SearchBudgetExceeded:
                over += 1
            calls += 1
        out[name] = (calls / (time.perf_counter() - start), over)
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="time per oracle and case")
    ap.add_argument("--cases", nargs="*", default=list(DEFAULT_CASES),
                    help="domain:problem, e.g. blocksworld:p10")
    ap.add_argument("--situations", type=int, default=1000,
                    help="query situations cycled per case; more than the per-state and "
                         "per-goal caches hold (256) means cold-cache figures, a few dozen "
                         "means warm ones")
    args = ap.parse_args(argv)
    results = {}
    for case in args.cases:
        task = load(case)
        an.clear_cache(task)
        t0 = time.perf_counter()
        space = an._space(task, task.init, True)
        enum = time.perf_counter() - t0
        cases = situations(task, random.Random(case), args.situations)
        if space is not None:
            t0 = time.perf_counter()
            for c in cases[:20]:
                space.distances(c[1].pos, c[1].neg, True)
            sweep = f", backward sweep {(time.perf_counter() - t0) / 20 * 1000:.1f} ms/goal"
            size = f"{len(space.states)} states, enumerate {enum:.2f}s{sweep}"
        else:
            size = (f"> {an.EXPLICIT_STATES} states (bounded search), "
                    f"failed enumeration {enum:.2f}s")
        print(f"{case}: {len(task.atoms)} atoms, {len(task.actions)} actions, {size}",
              flush=True)
        results[case] = bench(task, cases, args.seconds)
    width = max(map(len, ORACLES))
    print()
    print(f"{'calls/s':<{width}}  " + "  ".join(f"{c:>16}" for c in args.cases))
    for name in ORACLES:
        cells = []
        for case in args.cases:
            rate, over = results[case][name]
            cells.append(f"{rate:>10.0f}" + (f" ({over} b)" if over else "").rjust(6))
        print(f"{name:<{width}}  " + "  ".join(f"{c:>16}" for c in cells))
    print(f"\n{args.situations} situations per case, cycled. (n b) = n calls raised "
          f"SearchBudgetExceeded (budget {an.DEFAULT_BUDGET} states), counted as calls")


if __name__ == "__main__":
    main()
