"""First target: what must be picked up (rtfm) or reached (messenger) first to win?

A question about the rules' consequences that no other family asks: projection,
progression and the others ask what holds after given moves, whereas this one asks which
course of action the manual prescribes, before any move is given (in rtfm: the item whose
modifier beats the element of the monster of the team to defeat; in messenger: the
entity that carries the message). Rule worlds only (racbench/worlds/rules/).

mc: the options are four things on the grid (items in rtfm, entities in messenger), the
right one at the row's index; which thing is right changes with the episode's rules, so
the options alone tell nothing (`racbench audit` measures it). open: the answer is the
thing's name as the grid shows it; `racbench.score` reads the one thing on the grid a
reply names (`score_open`). The state is one drawn near the oracle's play where the
first target is still to get (nothing held in rtfm, no message yet in messenger) and
the game can still be won; the row's optimal plan length is the oracle's shortest win
from there.
"""

from __future__ import annotations

from racbench.tasks.base import Family, Question, Target, assemble, base_context, family_template
from racbench.tasks.question import N_OPTIONS

STATE_TRIES = 8


def first_target(rules) -> str:
    """The name of what must be got first, as the grid shows it."""
    if rules.game == "rtfm":
        target = next(e for e in rules.entities if e.team == rules.target)
        return next(i.name for i in rules.items if i.modifier == rules.beater(target.element))
    return next(e.label for e in rules.entities if e.role == "message")


def candidates(rules) -> list[str]:
    return ([i.name for i in rules.items] if rules.game == "rtfm"
            else [e.label for e in rules.entities])


def on_grid(rules) -> list[str]:
    """Every thing on the grid by the name it shows: what an open answer may name."""
    return sorted({i.name for i in rules.items} | {e.label for e in rules.entities})


def sample(world, rng, cfg, target: Target) -> Question | None:
    for _ in range(STATE_TRIES):
        sid = world.sample_state(rng)
        if sid[1][3] < 0 and not sid[1][4]:
            break
    else:
        return None
    rules = world.rules_of(sid)
    right = first_target(rules)
    if target.form == "mc":
        wrong = sorted(c for c in candidates(rules) if c != right)
        if len(wrong) < N_OPTIONS - 1:
            return None
        options = rng.sample(wrong, N_OPTIONS - 1)
        options.insert(target.index, right)
    length = world.episode_of(sid).plan_length(sid[1])
    if length is None:  # a detour the game cannot be won from
        return None
    q = Question(sid, optimal_plan_length=length)
    if target.form == "mc":
        q.options, q.answer = options, target.index
    else:
        q.answer = q.answer_text = right
    q.meta["game"] = rules.game
    return q


def render(q, world, text, rng, form):
    t = family_template("first_target", "rules")
    context = base_context(world, text, q, rng)
    game = world.rules_of(q.sid).game
    if form == "mc":
        return context, assemble(text, form, str(t.mc(game)), list(q.options)), list(q.options)
    return context, assemble(text, form, str(t.open(game)), [], str(t.open_instruction())), []


def truth(st, item) -> bool:
    """Rows of rule worlds are re-derived from their rule set: see tests/test_rule_worlds.py."""
    from racbench.worlds.rules.grammar import RuleSet
    return item == first_target(RuleSet.from_json(st.sym["rules"]))


def score_open(rules, name: str) -> float:
    """An open reply's score: 1.0 if the thing it names (read by racbench.score among
    `on_grid(rules)`) is the first target of the row's rule set."""
    return float(name == first_target(rules))


FAMILY = Family("first_target", ("mc", "open"), sample, render, truth, score_open,
                worlds=("rules",))
