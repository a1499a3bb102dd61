"""A PDDL problem as a gymnasium environment: the state and goal in English, actions as text.

An action is accepted as listed in info["valid_actions"] or in PDDL form
`(pick ball1 rooma left)`; an unknown or inapplicable one leaves the state unchanged
and the observation says why. Reaching the goal gives reward 1 and ends the episode;
so does a state where no action applies (reward 0). The score is 1.0 once the goal
holds, so the reward is the score's increase, as in ScienceLabEnv.
"""

from __future__ import annotations

from gymnasium import spaces

from racbench.envs.base import MAX_STEPS, TextEnv
from racbench.envs.commands import Commands
from racbench.envs.problems import problem_files
from racbench.envs.text import say
from racbench.text.domain import DomainText
from racbench.worlds.strips.model import goal_pairs
from racbench.worlds.strips.task import iter_bits
from racbench.worlds.strips.world import stepping_world

ENV_ID = "racbench/strips-v0"
ARGUMENTS = ("domain", "problem", "domain_file", "problem_file", "max_steps", "render_mode")


class StripsEnv(TextEnv):
    """`domain=`/`problem=` name a shipped problem (`problem=` "p01", ...);
    `domain_file=`/`problem_file=` read your own PDDL."""

    def __init__(self, domain: str | None = None, problem: str | None = None,
                 domain_file=None, problem_file=None, max_steps: int = MAX_STEPS,
                 render_mode: str | None = None, **unknown):
        super().__init__(ENV_ID, max_steps, render_mode, unknown, ARGUMENTS)
        domain_path, problem_path = problem_files(domain, problem, domain_file, problem_file)
        world = stepping_world(domain_path, problem_path)
        self.task = world.task
        self.text = DomainText(world.domain)
        self.commands = Commands(self.task, self.text)
        self._goal = world.goal_condition  # None: statically unsatisfiable
        self._goal_clause = self.text.conjunction(goal_pairs(self.task.goal))
        self._goal_sentence = self.text.sentence(self._goal_clause) if self._goal_clause else ""
        self._static = sorted(self.task.static_atoms)
        self.observation_space, self.action_space = self._spaces()
        self.state = self.task.init
        self.moves = 0
        self._over = False

    # -- gymnasium
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self._options(options, ())
        self.state, self.steps, self.moves, self._over = self.task.init, 0, 0, False
        return self._observe(""), self._info()

    def step(self, action: str):
        self.steps += 1
        before = self._score()
        if self._over:
            return self._observe(say("episode_over")), 0.0, True, False, self._info()
        k = self.commands.read(action) if isinstance(action, str) else None
        if k is None:
            feedback = say("unknown_action")
        elif not self.task.actions[k].applicable(self.state):
            feedback = say("inapplicable", reasons=self._reasons(k))
        else:
            self.state = self.task.actions[k].apply(self.state)
            self.moves += 1
            feedback = self.text.sentence(self.text.action(self.task.actions[k].term))
        self._over = self._goal_holds() or not self.task.applicable(self.state)
        if self._over:
            feedback += " " + say("goal_reached" if self._goal_holds() else "dead_end")
        obs = self._observe(feedback)
        truncated = not self._over and self.steps >= self.max_steps
        return obs, self._score() - before, self._over, truncated, self._info()

    # -- text
    def _observe(self, feedback: str) -> str:
        atoms = self.task.atoms_of(self.state) + self._static
        return self._show(say("observation", feedback=feedback, state=self.text.state(atoms),
                              goal=self._goal_clause))

    def _reasons(self, k: int) -> str:
        """The facts of the current state that keep action k from applying (for an ADL
        action with alternative preconditions, those of the nearest alternative)."""
        state, atoms = self.state, self.task.atoms
        pre, pre_neg = min(self.task.actions[k].clauses,
                           key=lambda c: (c[0] & ~state).bit_count() + (c[1] & state).bit_count())
        return self.text.conjunction(
            [(atoms[i], False) for i in iter_bits(pre & ~state)]
            + [(atoms[i], True) for i in iter_bits(pre_neg & state)])

    def _info(self) -> dict:
        return {"valid_actions": [self.commands.names[k] for k in self.task.applicable(self.state)],
                "score": self._score(), "goal": self._goal_sentence, "moves": self.moves}

    # -- state
    def _goal_holds(self) -> bool:
        return self._goal is not None and self._goal.holds(self.state)

    def _score(self) -> float:
        return 1.0 if self._goal_holds() else 0.0

    def _spaces(self) -> tuple[spaces.Text, spaces.Text]:
        """Text spaces that hold every observation and every listed or PDDL action.

        The longest observation has every fluent atom true at once (a state's text is a
        join of its sentences, so any real state is shorter) under the longest feedback:
        an action's sentence or its every precondition unmet, then the end of episode.
        """
        task, text = self.task, self.text
        commands = self.commands.names + self.commands.pddl
        ending = max((say("goal_reached"), say("dead_end")), key=len)
        feedback = [say("unknown_action"), say("episode_over")]
        for a in task.actions:
            feedback.append(text.sentence(text.action(a.term)))
            feedback += [say("inapplicable", reasons=text.conjunction(
                [(task.atoms[i], False) for i in iter_bits(pre)]
                + [(task.atoms[i], True) for i in iter_bits(pre_neg)]))
                for pre, pre_neg in a.clauses]
        longest = max(feedback, key=len) + " " + ending
        full = say("observation", feedback=longest, goal=self._goal_clause,
                   state=text.state(list(task.atoms) + self._static))
        seen = set(full).union(*feedback, ending)
        return (spaces.Text(max_length=len(full), min_length=0, charset="".join(sorted(seen))),
                spaces.Text(max_length=max(map(len, commands), default=2),
                            charset="".join(sorted(set("() ").union(*commands)))))
