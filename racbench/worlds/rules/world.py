"""A split's rule-world episodes behind the world protocol (racbench/worlds/protocol.py),
so the task families ask their questions here too.

One world holds a split's episodes (as TRAC's generated blocks are one world): a state
is (episode index, the episode's state tuple, see worlds/rules/episode.py), so a row
draws its episode with its state and the families survey one world per split, not one
per episode. A row stores the episode's rule set, layout and state, from which anyone
with the episode's dynamics re-derives the label. States are drawn near the oracle's play
(a prefix of its winning plan, then a few random moves that do not end the game), where
items are held and entities met, so questions about consequences ("after these moves,
is the goblin defeated?") have both answers. A question's context shows the whole state
of its episode: the manual, the grid's size and walls (which decide whether a move can
be made), where everything is, what you hold and the goal.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache

from racbench.splits.seeding import derive_seed
from racbench.text import sayer
from racbench.worlds.protocol import World
from racbench.worlds.rules.episode import ACTIONS, RUNNING, Episode, Layout, draw_layout
from racbench.worlds.rules.grammar import RuleOptions, RuleSet, draw_rules, vocab
from racbench.worlds.rules.oracle import shortest_plan, solve
from racbench.worlds.rules.text import RulesText, manual_sentences

_say = sayer("cli", ("rules.j2",))
MAX_DETOUR = 3  # random moves after the oracle's prefix when drawing a state
MAX_REDRAWS = 200  # rule sets and layouts drawn for one episode before giving up
# states whose moves and facts an episode remembers: rows ask about states near the
# oracle's play, met again and again (a survey draws hundreds of situations in one
# episode); past this many the memory starts afresh (the answers are the same)
REMEMBERED = 4096
CELL = re.compile(r"r\d+c\d+")
MISSING = object()


class RuleEpisode:
    """One episode: its dynamics, the oracle's winning plan and the manual. It remembers
    the states along the plan, and the moves and facts of the states asked about
    (`successors`, `facts`): pure functions of the state, so remembering them changes
    no answer."""

    def __init__(self, episode: Episode, plan: list[str], label: str, redraws: int = 0):
        self.episode = episode
        self.rules = episode.rules
        self.plan = plan
        self.label = label
        self.redraws = redraws  # episodes drawn before this one that the oracle cannot win
        self.manual = " ".join(manual_sentences(self.rules))
        rules = self.rules
        self.objects = {e.label: "entity" for e in rules.entities}
        self.objects.update({i.name: "item" for i in rules.items})
        # facts a question may always ask: the consequences of the rules
        self.status = sorted({("defeated", e.label) for e in rules.entities
                              if rules.game == "rtfm"}
                             | {("holds", i.name) for i in rules.items}
                             | ({("has_message",)} if rules.game == "messenger" else set())
                             | {("won",), ("lost",)})
        self._plan_states: list | None = None
        self._succ: dict = {}
        self._facts: dict = {}
        self._lengths: dict = {}  # state -> plan_length

    @property
    def start(self) -> tuple:
        return self.episode.start

    @property
    def plan_states(self) -> list[tuple]:
        """The states along the plan: the start, then after each move."""
        if self._plan_states is None:
            states = [self.episode.start]
            for move in self.plan:
                states.append(self.episode.step(states[-1], move))
            self._plan_states = states
        return self._plan_states

    def plan_length(self, state: tuple) -> int | None:
        """The length of a shortest winning plan from `state` (None: the game cannot be
        won from there), as `solve` finds it. Remembered for the states along each plan
        found (a shortest plan's suffix is shortest from where it starts: a shorter one
        would shorten the whole), the oracle's own plan first: rows ask states near it."""
        lengths = self._lengths
        if not lengths:
            lengths.update((s, len(self.plan) - k) for k, s in enumerate(self.plan_states))
        got = lengths.get(state, MISSING)
        if got is MISSING:
            if len(lengths) >= REMEMBERED:
                lengths.clear()
            plan = shortest_plan(self.episode, state)
            if plan is None:
                got = lengths[state] = None
            else:
                got = len(plan)
                for k, move in enumerate(plan):
                    lengths[state] = got - k
                    state = self.episode.step(state, move)
        return got

    def successors(self, state: tuple) -> tuple[tuple[str, ...], tuple[tuple, ...]]:
        """(the moves that can be made in `state`, the state after each)."""
        got = self._succ.get(state)
        if got is None:
            if len(self._succ) >= REMEMBERED:
                self._succ.clear()
            moves = tuple(self.episode.applicable(state))
            got = self._succ[state] = (moves, tuple(self.episode.step(state, a) for a in moves))
        return got

    def step(self, state: tuple, action: str) -> tuple | None:
        moves, nexts = self.successors(state)
        for move, nxt in zip(moves, nexts):
            if move == action:
                return nxt
        return None  # the game is over, a wall is in the way, or it is not a move

    def applicable(self, state: tuple) -> list[str]:
        return list(self.successors(state)[0])

    def facts(self, state: tuple) -> frozenset[tuple]:
        got = self._facts.get(state)
        if got is None:
            if len(self._facts) >= REMEMBERED:
                self._facts.clear()
            got = self._facts[state] = self.episode.facts(state)
        return got

    def text(self) -> RulesText:
        return shared_text()


class RuleWorld(World):
    """A split's episodes as one world of the protocol."""

    def __init__(self, episodes: tuple[RuleEpisode, ...], label: str):
        self.episodes = episodes
        self.label = label
        self.goal = ()
        self.objects = episodes[0].objects  # every episode of a config has as many things

    @property
    def initial(self) -> tuple:
        """The first episode's first state (the protocol's `initial`)."""
        return (0, self.episodes[0].start)

    def episode_of(self, state: tuple) -> RuleEpisode:
        return self.episodes[state[0]]

    def rules_of(self, state: tuple) -> RuleSet:
        return self.episodes[state[0]].rules

    # -- stepping -------------------------------------------------------------------------
    def sample_state(self, rng: random.Random) -> tuple:
        i = rng.randrange(len(self.episodes))
        ep = self.episodes[i]
        state = ep.plan_states[rng.randrange(len(ep.plan))]
        for _ in range(rng.randint(0, MAX_DETOUR)):
            going = [s for s in ep.successors(state)[1] if s[6] == RUNNING]
            if not going:
                break
            state = rng.choice(going)
        return (i, state)

    def applicable(self, state: tuple) -> list[str]:
        return self.episodes[state[0]].applicable(state[1])

    def succ(self, state: tuple) -> tuple[tuple[str, ...], list[tuple]]:
        i = state[0]
        moves, nexts = self.episodes[i].successors(state[1])
        return moves, [(i, n) for n in nexts]

    def step(self, state: tuple, action: str) -> tuple | None:
        nxt = self.episodes[state[0]].step(state[1], action)
        return None if nxt is None else (state[0], nxt)

    def observe(self, state: tuple, action: str, text) -> tuple[tuple, str]:
        """(the state after `action`, what you see change): the facts it made true, then
        those it made false, as sentences in `text`'s phrasing (entities' moves, what you
        picked up, who is defeated, the outcome); a move that cannot be made changes
        nothing and says why."""
        nxt = self.step(state, action)
        if nxt is None:
            why = ("over" if state[1][6] != RUNNING else
                   "blocked" if action in ACTIONS else "not_a_move")
            return state, text.blocked(why)
        before, after = self.facts(state), self.facts(nxt)
        return nxt, text.changes(sorted(after - before), sorted(before - after))

    def inapplicable(self, state: tuple) -> list[str]:
        """Moves into the wall (none once the game is over: then nothing is a move)."""
        if state[1][6] != RUNNING:
            return []
        here = set(self.applicable(state))
        return [a for a in ACTIONS if a not in here]

    # -- facts and terms ------------------------------------------------------------------
    def facts(self, state: tuple) -> frozenset[tuple]:
        return self.episodes[state[0]].facts(state[1])

    def fact_kind(self, fact: tuple) -> tuple:
        """The predicate and each argument's kind (you, entity, item, cell)."""
        return (fact[0],) + tuple(_kind(a) for a in fact[1:])

    def kind_of(self, fact) -> tuple:
        return self.fact_kind(tuple(fact))

    def question_facts(self, plan, states) -> list[tuple]:
        """Facts of the predicates that changed between the first and the last of
        `states`, true in either, and the consequences of the rules (who is defeated,
        what you hold, the message, the outcome) whether they changed or not."""
        first, last = self.facts(states[0]), self.facts(states[-1])
        changed = {f[0] for f in first ^ last}
        status = self.episodes[states[0][0]].status
        return sorted({f for f in first | last if f[0] in changed} | set(status))

    def action_term(self, action: str) -> tuple[str]:
        return (action,)

    def action_kind(self, action: str) -> tuple[str]:
        """`stay` (always possible while the game runs) apart from the moves (possible
        unless a wall is in the way), so true/false cells never mix them: a question
        about staying would tell its own answer."""
        return ("stay",) if action == "stay" else ("move",)

    # -- text and records -------------------------------------------------------------------
    def render_state(self, state: tuple, text, rng) -> str:
        """The manual, the grid's size and walls (what decides whether a move can be
        made), where everything is, what you hold and the goal."""
        ep = self.episodes[state[0]]
        facts = self.facts(state)
        held = next((f[1] for f in facts if f[0] == "holds"), "")
        grid = text.state(sorted(f for f in facts if f[0] != "holds"), rng)
        return text.observation(ep.manual, ep.episode.size, grid, held,
                                text.goal(ep.rules.game, ep.rules.target))

    def look(self, state: tuple, text) -> str:
        """Where everything is (the facts but what you hold), in a fixed order: what
        imitation rows show as `look`."""
        return " ".join(text.sentence(text.fact(f)) for f in sorted(self.facts(state))
                        if f[0] != "holds")

    def inventory(self, state: tuple, text) -> str:
        held = state[1][3]
        return text.inventory(self.rules_of(state).items[held].name if held >= 0 else "")

    def task_description(self, state: tuple, text) -> str:
        """The manual, the grid's size and walls, and the goal of the state's episode:
        what imitation rows show as the task."""
        ep = self.episodes[state[0]]
        return text.task(ep.manual, ep.episode.size, text.goal(ep.rules.game, ep.rules.target))

    def symbolic(self, state: tuple) -> dict:
        """What a row stores to rebuild the episode and the state."""
        ep = self.episodes[state[0]]
        return {"world": "rules", "game": ep.rules.game, "episode": ep.label,
                "rules": ep.rules.to_json(), "layout": ep.episode.layout.to_json(),
                "state": state_json(state[1]),
                "facts": sorted(list(f) for f in self.facts(state))}

    def sizes(self) -> tuple[int, int]:
        return len(self.objects), len(ACTIONS)

    def text(self, *options, **named) -> RulesText:
        return shared_text()


@lru_cache(maxsize=None)
def shared_text() -> RulesText:
    """The rule worlds' one phrasing (it takes no options), shared by every world and
    play of the process so the facts and sentences it has said are said once: a fresh
    one per play or world rendered each again through the templates (a third of the
    imitation rows' CPU)."""
    return RulesText()


@lru_cache(maxsize=None)
def _kind(name: str) -> str:
    if name == "you":
        return "you"
    if CELL.fullmatch(name):
        return "cell"
    return "item" if name.rsplit(" ", 1)[-1] in vocab()["rtfm"]["items"] else "entity"


def state_json(state: tuple) -> list:
    agent, ents, items, held, message, turn, outcome = state
    return [agent, list(ents), list(items), held, message, turn, outcome]


def state_from_json(data: list) -> tuple:
    agent, ents, items, held, message, turn, outcome = data
    return (agent, tuple(ents), tuple(items), held, bool(message), turn, outcome)


def episode_from_symbolic(sym: dict) -> tuple[Episode, tuple]:
    """The episode and the state a row's `symbolic` record names."""
    episode = Episode(RuleSet.from_json(sym["rules"]), Layout.from_json(sym["layout"]))
    return episode, state_from_json(sym["state"])


def fresh_world(sym: dict) -> tuple[RuleWorld, tuple]:
    """A world of the one episode a row's `symbolic` record names, rebuilt from its rule
    set and layout alone (no cache of the build's worlds), and the row's state in it
    (the episode's start if the record holds none)."""
    episode = Episode(RuleSet.from_json(sym["rules"]), Layout.from_json(sym["layout"]))
    state = state_from_json(sym["state"]) if "state" in sym else episode.start
    return RuleWorld((RuleEpisode(episode, [], sym["episode"]),), sym["episode"]), (0, state)


def make_episode(opts: RuleOptions, split: str, seed: int, index: int) -> RuleEpisode:
    """Episode `index` of a split: rule sets and layouts drawn from hashed seeds until the
    oracle wins one (those it cannot win are counted in `redraws`)."""
    for attempt in range(MAX_REDRAWS):
        rng = random.Random(derive_seed("rule-world", seed, _key(opts), split, index, attempt))
        rules = draw_rules(opts, split, rng)
        episode = Episode(rules, draw_layout(rules, opts.grid, rng))
        plan = solve(episode)
        if plan:
            return RuleEpisode(episode, plan, f"{opts.game}-{split}-{index:04d}", attempt)
    raise RuntimeError(_say("no_winnable_episode", game=opts.game, draws=MAX_REDRAWS))


def _key(opts: RuleOptions) -> str:
    return f"{opts.game}/{opts.depth}/{opts.irrelevant}/{opts.grid}/{opts.entities}/{opts.overlap}"


@lru_cache(maxsize=None)
def split_world(opts: RuleOptions, split: str, seed: int, count: int) -> RuleWorld:
    """The world of a split's `count` episodes (cached per process, so forked workers
    share it)."""
    return RuleWorld(tuple(make_episode(opts, split, seed, i) for i in range(count)),
                     f"{opts.game}-{split}")


@lru_cache(maxsize=None)
def episode_worlds(opts: RuleOptions, split: str, seed: int, count: int) -> tuple[RuleWorld, ...]:
    """The split's episodes (those of `split_world`), each a world of its own: for
    questions whose options are surveyed per world and must recur across situations
    (projection's multiple choice: facts of one episode recur in its situations,
    those of a split's many episodes seldom do)."""
    return tuple(RuleWorld((ep,), ep.label) for ep in split_world(opts, split, seed, count).episodes)
