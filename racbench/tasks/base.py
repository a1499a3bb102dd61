"""What the ACP families share: the sampled question, the family record, sampling
helpers (states, plans, plausible wrong options) and the parts of a row's text.

A family module supplies `sample(world, rng, cfg, target) -> Question | None` (None:
redraw), `render(question, world, text, rng) -> (context, question, choices)`,
`truth(st, item) -> bool` (re-derives the answer about one subject or option from
the row's symbolic form alone, `st` being its `symbolic.SymbolicTask`, with the search
oracles of `worlds/strips/oracles.py`, a different engine from the graph passes
that generated it), and, for open rows, `score_open(st, answer) -> float`. Families
whose bool and mc rows ask about subjects give `bool_pool` (and `mc_pool`) instead, and
`Family.draw` makes those rows from the pools; their `sample` makes the others.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from itertools import groupby
from typing import Callable, Sequence

from racbench.splits import draws
from racbench.tasks.balance import pick_bool, pick_mc
from racbench.worlds.strips.budget import note_dropped
from racbench.tasks.question import N_OPTIONS, Question, Target, json_key
from racbench.text.phrasing import Macros, template
from racbench.worlds.strips.search import SearchBudgetExceeded
from racbench.worlds.strips.model import AnyOf, goal_pairs
from racbench.worlds.strips.world import StripsWorld

PLAN_NODE_BUDGET = 5_000
WALK_PLAN_TRIES = 20  # implicit worlds: walk-then-plan tries for a plan of a given length


@dataclass(frozen=True)
class Family:
    """A question family: its forms, how rows are drawn (pools for bool rows and, where
    given, mc rows; `sample` for the rest), rendered, re-derived and scored.

    Every family runs on enumerated and implicit worlds alike (worlds/strips/world.py):
    it asks the world, which answers from its graph or by bounded search, and never
    guesses. Families whose bool subjects
    are queries or goals of one or two literals (`literal_queries`) give them kinds that
    are tuples of literal kinds: bool cells are grouped by length and number of
    literals, and groups weigh equally."""

    name: str
    forms: tuple[str, ...]
    sample: Callable
    render: Callable
    truth: Callable | None = None
    score_open: Callable | None = None
    negative_kinds: tuple[str, ...] = ()
    uses_actions: bool = False  # rows carry a sequence or plan (`actions`)
    # make_pool(world, rng, cfg[, target]) -> Pool | None for bool rows (every family
    # with a bool form) and for mc rows (families whose options are subjects)
    bool_pool: Callable | None = None
    mc_pool: Callable | None = None
    worlds: tuple[str, ...] = ("strips",)  # kinds of world it asks about: strips, science
    literal_queries: bool = False
    targeted: bool = False  # bool_pool(world, rng, cfg, target) draws straight for a cell

    def arity(self, kind) -> int:
        """How many literals a bool subject of this kind holds."""
        return len(kind) if self.literal_queries else 1

    def pool_for(self, form: str) -> Callable | None:
        return {"bool": self.bool_pool, "mc": self.mc_pool}.get(form)

    def draw(self, world: StripsWorld, rng: random.Random, cfg,
             target: "Target") -> "Question | None":
        """A question for `target`: from the family's pools for bool and mc rows where
        it has them (see balance.py), else from its own `sample`."""
        pool = self.pool_for(target.form)
        try:
            if pool is None:
                return self.sample(world, rng, cfg, target)
            pick = pick_bool if target.form == "bool" else pick_mc
            return pick(pool, world, rng, cfg, target)
        except SearchBudgetExceeded:  # an answer we cannot prove: drawn again, never guessed
            note_dropped()
            return None


# -- sampling helpers -------------------------------------------------------------------

def any_state(world: StripsWorld, rng: random.Random) -> int:
    return world.sample_state(rng)


def walk(world: StripsWorld, rng: random.Random, sid: int, length: int,
         kinds: tuple[str, ...] | None = None) -> list[int] | None:
    """A random executable sequence of `length` actions (of the given schemas, step by
    step, if any); None at a dead end."""
    walked = walk_through(world, rng, sid, length, kinds)
    return None if walked is None else walked[0]


def walk_through(world: StripsWorld, rng: random.Random, sid: int, length: int,
                 kinds: tuple[str, ...] | None = None) -> tuple[list[int], list[int]] | None:
    """`walk`, and the states it passes through, `sid` first and its end last (no
    need to execute it again)."""
    plan, states = [], [sid]
    succ, getrandbits = world.succ, rng.getrandbits
    # a step of a given schema: the positions of its actions among a state's, kept per
    # state and schema where the world keeps its successor lists (executability's walks
    # list them again and again in the same few hundred states)
    lists = getattr(world, "_succ_lists", None)  # ExplicitWorld.succ's, read inline
    of_schema = (world.__dict__.setdefault("_of_schema", {})
                 if kinds is not None and lists is not None else None)
    for step in range(length):
        acts, dsts = (lists[sid] if lists is not None else None) or succ(sid)
        if kinds is None:
            n = len(acts)
            if not n:
                return None
            k = n.bit_length()  # rng.randrange(n), inlined (racbench/splits/draws.py)
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
        else:
            schema = kinds[step]
            options = None if of_schema is None else of_schema.get((sid, schema))
            if options is None:
                kind_of = world.action_kind
                options = [i for i, k in enumerate(acts) if kind_of(k)[0] == schema]
                if of_schema is not None:
                    of_schema[(sid, schema)] = options
            if not options:
                return None
            j = draws.pick(rng, options)
        plan.append(acts[j])
        sid = dsts[j]
        states.append(sid)
    return plan, states


def typed_since(cfg) -> int:
    """How many commands a question's context shows as typed since the state it shows:
    with the config's `earlier_state` (the science lab's EARLIER_STATE_FAMILIES),
    `length - 1`, before the one command asked about (goal recognition: observed);
    else none."""
    return cfg.length - 1 if cfg is not None and cfg.earlier_state else 0


def since_shown(world: StripsWorld, rng: random.Random, cfg, sid
                ) -> tuple[list, object] | None:
    """The commands typed since the state a question's context shows (`sid`), before
    the one it asks about, and the state they lead to: `typed_since(cfg)` random ones
    (progression's and applicability's; goal recognition takes the last ones on the
    way to a state near the task's end instead), none without `earlier_state` (no draw
    made). None at a dead end."""
    n = typed_since(cfg)
    if n <= 0:
        return [], sid
    walked = walk_through(world, rng, sid, n)
    return None if walked is None else (walked[0], walked[1][-1])


def plan_of_length(world: StripsWorld, rng: random.Random, sid: int, length: int,
                   dist=None) -> list[int] | None:
    """A random plan of exactly `length` actions from `sid` to the goal (whose distance
    vector is `dist` in an enumerated world: the problem goal by default); None if
    none is found. An implicit world joins a short random walk to a shortest plan
    from where it ends, when the two add up to `length`."""
    if not world.explicit:
        return _walk_then_plan(world, rng, sid, length)
    dist = world.goal_distance if dist is None else dist
    budget = [PLAN_NODE_BUDGET]

    def extend(s: int, rem: int) -> list[int] | None:
        if rem == 0:
            return [] if dist[s] == 0 else None
        budget[0] -= 1
        if budget[0] < 0:
            return None
        acts, dsts = world.succ(s)
        order = list(range(len(acts)))
        rng.shuffle(order)
        for j in order:
            t = dsts[j]
            if 0 <= dist[t] <= rem - 1:
                rest = extend(t, rem - 1)
                if rest is not None:
                    return [acts[j]] + rest
        return None

    return extend(sid, length)


def _walk_then_plan(world: StripsWorld, rng: random.Random, sid: int, length: int
                    ) -> list[int] | None:
    """A plan of `length` actions in an implicit world: the first steps of a shortest
    plan (as many as drawn), a random detour, and a shortest plan from where the
    detour ends, kept when they add up to `length` (detours anywhere in the plan, so
    the step a question asks about does not give its answer away by its position)."""
    try:
        d = world.distance(sid)
        if d is None or d > length:
            return None
        if d == length:
            return world.optimal_plan(rng, sid)
        for _ in range(WALK_PLAN_TRIES):
            head = world.optimal_plan(rng, sid)[:rng.randint(0, d)]
            mid, _ = world.execute(sid, head)
            walked = walk_through(world, rng, mid, rng.randint(1, length - len(head)))
            if walked is None:
                continue
            detour, states = walked
            # the rest must be a shortest plan of exactly the length left: no deeper search
            rest = world.optimal_plan(rng, states[-1], None, length - len(head) - len(detour))
            if rest is not None and len(head) + len(detour) + len(rest) == length:
                return head + detour + rest
    except SearchBudgetExceeded:  # a distance we cannot prove: no plan, never a guess
        note_dropped()
        return None
    return None


def ask_first_failure(q: "Question", world: StripsWorld, plan: list[int]) -> "Question":
    """Open rows about a sequence: its first step that cannot be executed from the
    question's state (1-based), or none."""
    q.actions = plan
    _, failed = world.execute(q.sid, plan)
    q.answer = None if failed is None else failed + 1
    q.answer_text = "none" if failed is None else str(failed + 1)
    return q


def inapplicable_like(world: StripsWorld, rng: random.Random, sid: int,
                      action: int) -> int | None:
    """A ground action of the same schema as `action` that is not applicable in `sid`."""
    name = world.task.actions[action].name
    applicable = set(world.applicable(sid))
    pool = [k for k in world.actions_by_schema[name] if k not in applicable]
    return rng.choice(pool) if pool else None


def spoil(world: StripsWorld, rng: random.Random, sid: int,
          plan: list[int]) -> tuple[list[int], int] | None:
    """The plan with one step replaced by an action of the same schema that is not
    applicable at that point: (plan, failing step)."""
    i = rng.randrange(len(plan))
    state, failed = world.execute(sid, plan[:i])
    if failed is not None:
        return None
    bad = inapplicable_like(world, rng, state, plan[i])
    if bad is None:
        return None
    return plan[:i] + [bad] + plan[i + 1:], i


def choose_options(rng: random.Random, correct, wrong: Sequence, index: int) -> list | None:
    """Four distinct options with `correct` at `index` and three of `wrong` drawn
    uniformly; None if fewer than three exist."""
    wrong = [w for w in dict.fromkeys(map(json_key, wrong)) if w != json_key(correct)]
    if len(wrong) < N_OPTIONS - 1:
        return None
    rng.shuffle(wrong)
    picked = [_unkey(w) for w in wrong[:N_OPTIONS - 1]]
    rng.shuffle(picked)
    picked.insert(index, correct)
    return picked


def _unkey(x):
    if isinstance(x, tuple):
        return [_unkey(i) for i in x]
    return x


# -- symbolic pieces --------------------------------------------------------------------

def term(world: StripsWorld, action) -> list[str]:
    return list(world.action_term(action))


def goal_json(literals) -> list[dict]:
    """(atom, positive) pairs as JSON; a disjunctive goal's part (an AnyOf in the atom's
    place) as {"any": [[literal, ...], ...]}, one list per alternative."""
    return [{"any": [[{"atom": list(lit.atom), "positive": lit.positive} for lit in clause]
                     for clause in a.clauses]} if isinstance(a, AnyOf)
            else {"atom": list(a), "positive": bool(p)} for a, p in literals]


def problem_goal(world: StripsWorld) -> list[tuple[tuple, bool]]:
    """The world's goal as (atom, positive) pairs; its disjunction, if any, as (AnyOf,
    True)."""
    return goal_pairs(world.goal)


def pddl_term(items: Sequence[str]) -> str:
    return "(" + " ".join(items) + ")"


def pddl_literal(atom: Sequence[str], positive: bool = True) -> str:
    return pddl_term(atom) if positive else f"(not {pddl_term(atom)})"


# -- text pieces ------------------------------------------------------------------------

@cache
def family_template(name: str, style: str = "acp"):
    """The template module `templates/<style>/<name>.j2`, loaded once per process
    (`template` asks jinja, which looks at the file on disk, for every row), its
    macros called straight (`Macros`)."""
    return Macros(template(name, style))


def state_clauses(world: StripsWorld, sid: int) -> list[tuple]:
    terms = getattr(world, "state_terms", None)  # STRIPS worlds: kept per state
    return list(terms(sid)) if terms is not None else [tuple(a) for a in world.state_atoms(sid)]


def base_context(world: StripsWorld, text, q: Question, rng: random.Random,
                 since: Sequence = ()) -> str:
    """The context: the state `q.sid` (and the goal, if any), after the commands typed
    before it where the world lists them (the lab's history, runs of one command told
    once); with `since`, the actions executed since that state, which the context then
    shows as an earlier one."""
    goal = text.conjunction(q.goal) if q.goal else ""
    state = world.render_state(q.sid, text, rng)
    typed = world.typed_before(q.sid)
    if typed:
        state = str(text.common.typed_before([(c, len(list(run))) for c, run in groupby(typed)],
                                             state))
    if since:
        return str(text.common.earlier_context(
            text.describe(), state, text.steps([tuple(term(world, k)) for k in since])))
    return str(text.common.context(text.describe(), state, goal))


def assemble(text, form: str, question: str, choices: list[str] = (), instruction: str = "") -> str:
    """The question column: the question, the lettered options (mc), an instruction."""
    parts = [question]
    if form == "mc":
        parts.append(str(text.common.options(choices)))
        parts.append(str(text.common.mc_instruction()))
    elif form == "bool":
        parts.append(str(text.common.bool_instruction()))
    elif instruction:
        parts.append(instruction)
    return "\n".join(parts)


def render_sequence_question(q: Question, world: StripsWorld, text, rng: random.Random,
                             form: str, family: str, frame) -> tuple[str, str, list[str]]:
    """Questions about a sequence of actions (executability, validation): mc options are
    sequences; otherwise the sequence joins the context through `frame`."""
    t = family_template(family)
    context = base_context(world, text, q, rng)
    if form == "mc":
        choices = [text.steps([tuple(a) for a in o]) for o in q.options]
        return context, assemble(text, form, str(t.mc()), choices), choices
    steps = text.steps([tuple(term(world, k)) for k in q.actions])
    context = str(frame(context, steps))
    if form == "bool":
        return context, assemble(text, form, str(t.bool())), []
    return context, assemble(text, form, str(t.open()), [],
                             str(text.common.step_instruction())), []


def render_action_question(q: Question, world: StripsWorld, text, rng: random.Random,
                           form: str, family: str, instruction) -> tuple[str, str, list[str]]:
    """Questions about one action of the state (applicability, next action): bool asks
    about `q.subject`, mc offers actions, open ends with `instruction`."""
    t = family_template(family)
    context = base_context(world, text, q, rng)
    if form == "bool":
        return context, assemble(text, form, str(t.bool(text.action(tuple(q.subject))))), []
    if form == "mc":
        choices = [text.action(tuple(o)) for o in q.options]
        return context, assemble(text, form, str(t.mc()), choices), choices
    return context, assemble(text, form, str(t.open()), [], str(instruction())), []


def render_subject_question(q: Question, world: StripsWorld, text, rng: random.Random,
                            form: str, family: str, phrase) -> tuple[str, str, list[str]]:
    """Questions about a subject phrased by `phrase(text, subject)` (reachability of facts
    or of actions): bool and open ask about `q.subject`, mc offers phrased options."""
    t = family_template(family)
    context = base_context(world, text, q, rng)
    if form == "bool":
        return context, assemble(text, form, str(t.bool(phrase(text, q.subject)))), []
    if form == "mc":
        choices = [phrase(text, o) for o in q.options]
        return context, assemble(text, form, str(t.mc()), choices), choices
    return context, assemble(text, form, str(t.open(phrase(text, q.subject))), [],
                             str(text.common.plan_instruction())), []
