"""The oracle's play of a rule-world episode as a text agent sees it, for imitation rows
(tasks/gold_trajectories.py), as worlds/science/trajectory.py plays the lab's oracle.

What the agent sees after the reset and after each move: the observation (at the reset
where everything is; after a move what it changed, the world's `observe`: where you
and the entities went, what you picked up, who was defeated, the outcome), the score
(the environment's reward: 1 once won, as racbench/rules-v0 gives it), and on request
where everything is (`look`), what you hold (`inventory`) and the valid moves. The moves
are the oracle's shortest winning plan (worlds/rules/oracle.py), found again by its
search when a row is checked."""

from __future__ import annotations

from racbench.worlds.rules.episode import WON


def oracle_play(world, index: int, plan, with_valid_actions: bool = False
                ) -> tuple[dict, list[dict]]:
    """(what the reset shows, the steps {action, observation, score} (+ look, inventory,
    valid_actions on request)) of `plan` in episode `index` of `world` (a RuleWorld)."""
    text = world.text()
    state = (index, world.episodes[index].start)
    start = _seen(world, state, world.look(state, text), text, with_valid_actions)
    steps = []
    for move in plan:
        state, said = world.observe(state, move, text)
        steps.append({"action": move, **_seen(world, state, said, text, with_valid_actions)})
    return start, steps


def _seen(world, state, said: str, text, full: bool) -> dict:
    seen = {"observation": said, "score": 1.0 if state[1][6] == WON else 0.0}
    if full:
        seen.update(look=world.look(state, text), inventory=world.inventory(state, text),
                    valid_actions=list(world.applicable(state)))
    return seen
