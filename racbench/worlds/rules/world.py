"""A rule-world episode behind the world protocol (racbench/worlds/protocol.py), so the
task families ask their questions here too, and the episodes of a config's splits.

A state is the episode's state tuple (worlds/rules/episode.py); a row stores the rule
set, the layout and the state, from which anyone with the episode's dynamics re-derives
the label. States are drawn near the oracle's play (a prefix of its winning plan, then a
few random moves that do not end the game), where items are held and entities met, so
questions about consequences ("after these moves, is the goblin defeated?") have both
answers. A question's context shows the whole state: the manual, where everything is,
what you hold and the goal.
"""

from __future__ import annotations

import random
from functools import lru_cache

from racbench.splits.seeding import derive_seed
from racbench.worlds.protocol import World
from racbench.worlds.rules.episode import ACTIONS, RUNNING, Episode, Layout, draw_layout
from racbench.worlds.rules.grammar import RuleOptions, RuleSet, draw_rules
from racbench.worlds.rules.oracle import solve
from racbench.worlds.rules.text import RulesText, manual_sentences

MAX_DETOUR = 3  # random moves after the oracle's prefix when drawing a state
MAX_REDRAWS = 200  # rule sets and layouts drawn for one episode before giving up
# facts a question may always ask (the consequences of the rules), besides those of the
# predicates a sequence changed
STATUS = ("defeated", "holds", "has_message", "won", "lost")


class RuleWorld(World):
    """One episode: its dynamics, the oracle's plan and the manual."""

    def __init__(self, episode: Episode, plan: list[str], label: str, redraws: int = 0):
        self.episode = episode
        self.rules = episode.rules
        self.plan = plan
        self.label = label
        self.redraws = redraws  # episodes drawn before this one that the oracle cannot win
        self.goal = ()
        rules = self.rules
        self.objects = {e.label: "entity" for e in rules.entities}
        self.objects.update({i.name: "item" for i in rules.items})
        self.manual = " ".join(manual_sentences(rules))
        self._status = sorted({("defeated", e.label) for e in rules.entities
                               if rules.game == "rtfm"}
                              | {("holds", i.name) for i in rules.items}
                              | ({("has_message",)} if rules.game == "messenger" else set())
                              | {("won",), ("lost",)})

    @property
    def start(self) -> tuple:
        return self.episode.start

    # -- stepping -------------------------------------------------------------------------
    def sample_state(self, rng: random.Random) -> tuple:
        state, _ = self.episode.execute(self.start, self.plan[:rng.randrange(len(self.plan))])
        for _ in range(rng.randint(0, MAX_DETOUR)):
            going = [s for s in (self.step(state, a) for a in self.applicable(state))
                     if s[6] == RUNNING]
            if not going:
                break
            state = rng.choice(going)
        return state

    def applicable(self, state: tuple) -> list[str]:
        return self.episode.applicable(state)

    def succ(self, state: tuple) -> tuple[list[str], list[tuple]]:
        actions = self.applicable(state)
        return actions, [self.step(state, a) for a in actions]

    def step(self, state: tuple, action: str) -> tuple | None:
        return self.episode.step(state, action)

    def inapplicable(self, state: tuple) -> list[str]:
        """Moves into the wall (none once the game is over: then nothing is a move)."""
        if state[6] != RUNNING:
            return []
        here = set(self.applicable(state))
        return [a for a in ACTIONS if a not in here]

    # -- facts and terms ------------------------------------------------------------------
    def facts(self, state: tuple) -> frozenset[tuple]:
        return self.episode.facts(state)

    def fact_kind(self, fact: tuple) -> tuple:
        """The predicate and each argument's kind (you, entity, item, cell)."""
        return (fact[0],) + tuple(self.episode.kind(a) for a in fact[1:])

    def kind_of(self, fact) -> tuple:
        return self.fact_kind(tuple(fact))

    def question_facts(self, plan, states) -> list[tuple]:
        """Facts of the predicates that changed between the first and the last of
        `states`, true in either, and the consequences of the rules (who is defeated,
        what you hold, the message, the outcome) whether they changed or not."""
        first, last = self.facts(states[0]), self.facts(states[-1])
        changed = {f[0] for f in first ^ last}
        return sorted({f for f in first | last if f[0] in changed} | set(self._status))

    def action_term(self, action: str) -> tuple[str]:
        return (action,)

    def action_kind(self, action: str) -> tuple[str]:
        return ("move",)

    # -- text and records -------------------------------------------------------------------
    def render_state(self, state: tuple, text, rng) -> str:
        """The manual, where everything is, what you hold and the goal."""
        facts = self.facts(state)
        held = next((f[1] for f in facts if f[0] == "holds"), "")
        grid = text.state(sorted(f for f in facts if f[0] != "holds"), rng)
        return text.observation(self.manual, grid, held, text.goal(self.rules.game,
                                                                   self.rules.target))

    def symbolic(self, state: tuple) -> dict:
        """What a row stores to rebuild the episode and the state."""
        return {"world": "rules", "game": self.rules.game, "rules": self.rules.to_json(),
                "layout": self.episode.layout.to_json(), "state": state_json(state),
                "facts": sorted(list(f) for f in self.facts(state))}

    def sizes(self) -> tuple[int, int]:
        return len(self.objects), len(ACTIONS)

    def text(self, *options, **named) -> RulesText:
        return RulesText()


def state_json(state: tuple) -> list:
    agent, ents, items, held, message, turn, outcome = state
    return [agent, list(ents), list(items), held, message, turn, outcome]


def state_from_json(data: list) -> tuple:
    agent, ents, items, held, message, turn, outcome = data
    return (agent, tuple(ents), tuple(items), held, bool(message), turn, outcome)


def world_from_symbolic(sym: dict) -> tuple[Episode, tuple]:
    """The episode and the state a row's `symbolic` record names."""
    episode = Episode(RuleSet.from_json(sym["rules"]), Layout.from_json(sym["layout"]))
    return episode, state_from_json(sym["state"])


def make_world(opts: RuleOptions, split: str, seed: int, index: int) -> RuleWorld:
    """Episode `index` of a split: rule sets and layouts drawn from hashed seeds until the
    oracle wins one (those it cannot win are counted in `redraws`)."""
    for attempt in range(MAX_REDRAWS):
        rng = random.Random(derive_seed("rule-world", seed, _key(opts), split, index, attempt))
        rules = draw_rules(opts, split, rng)
        episode = Episode(rules, draw_layout(rules, opts.grid, rng))
        plan = solve(episode)
        if plan:
            return RuleWorld(episode, plan, f"{opts.game}-{split}-{index:04d}", attempt)
    raise RuntimeError(f"no winnable {opts.game} episode in {MAX_REDRAWS} draws")


def _key(opts: RuleOptions) -> str:
    return f"{opts.game}/{opts.depth}/{opts.irrelevant}/{opts.grid}/{opts.entities}/{opts.overlap}"


@lru_cache(maxsize=None)
def split_worlds(opts: RuleOptions, split: str, seed: int, count: int) -> tuple[RuleWorld, ...]:
    """The episodes of a split (cached per process, so forked workers share them)."""
    return tuple(make_world(opts, split, seed, i) for i in range(count))
