"""One difficulty scale for every family and world: named levels and their index.

A level is a name of `LEVELS` ("easy" ... "expert") or its index (0 ... 3), the
numeric knob. Each maps to the knobs that make questions harder in a world:

* TRAC's blocksworld (a family of TRAC's, no domain): blocks and sequence length
  (true/false rows in TRAC's style, mc and open ones in ACP's);
* a shipped STRIPS domain: its problems, chosen per domain by measured size (the most
  true facts of a reachable state and the reachable states, `problem_size`; only train
  problems, p01-p09 and the generated g01..., so a stream never draws validation or
  test problems) and the sequence length;
* a rule world (`rules="rtfm"`, "messenger"): irrelevant rules first, then manual
  sentences chained (depth), entities on the grid (one more at each level) and the
  sequence length, on a grid of 4 cells a side (entities meet you more often than on
  Messenger's own 5; RTFM's hard and expert 5, for their monsters and items) and with
  `RULE_STREAM_EPISODES` episodes (a stream draws its states from them); first_target's
  mc rows, whose options are four things on the grid, at least four entities
  (`rule_knobs`);
* the science lab (`science=TASK`): its simplifications (all of "easy" first, then
  electrical actions and dry flower pots, then closed doors and no teleport) and the
  sequence length (1, 1 and 2, 3, 4; progression, applicability and goal recognition
  show the state that many commands before the one they ask about (or observe), less
  one, and the commands typed since).

next_observation (its own config, `NextObservationConfig`) takes the same world knobs
(a domain's train problems, a rule world's options) and its own: `horizon`, the
commands between the state shown and the observation asked
(`NEXT_OBSERVATION_HORIZONS`), and the options mc rows offer
(`NEXT_OBSERVATION_DISTRACTORS`; a true/false row's candidate is one of two); on the lab, simplifications and horizon of its own
table (`LAB_NEXT_OBSERVATION`: each level adds one source of error to the last's). It
asks no question of TRAC's blocksworld.

`benchmarks/difficulty_levels.py` measures the scale: a bounded reasoner's accuracy
per level. The mapping is data (the tables below); `level_config` turns a family,
world and level into the validated `TaskConfig` (or `NextObservationConfig`) that
`racbench.generate` and builds also run.
"""

from __future__ import annotations

from racbench.errors import InputError
from racbench.tasks.config import ConfigError, TaskConfig
from racbench.tasks.next_observation import NAME as NEXT_OBSERVATION
from racbench.tasks.next_observation import NextObservationConfig
from racbench.text import sayer
from racbench.tasks.options import (EARLIER_STATE_FAMILIES, FIRST_TARGET_MC_ENTITIES,
                                    TRAC_DOMAIN, TRAC_FAMILIES)
from racbench.worlds.rules.grammar import BASE_DEPTH, GAMES, RuleOptions

_say = sayer("cli", ("training.j2",))
LEVELS = ("easy", "medium", "hard", "expert")

# TRAC's blocksworld: (blocks, sequence length) per level
TRAC_LEVELS = ((3, 1), (4, 2), (5, 3), (6, 5))
# a shipped domain: the sequence length per level, and its train problems per level
DOMAIN_LENGTHS = (1, 2, 3, 4)
# ... chosen by measured size (`problem_size`: the most true facts of a reachable state,
# the reachable states), not by number: each level's largest state and largest space are
# at least the last level's, and up to hard its states larger on average over its
# problems (tests/test_levels_strips.py measures them); expert is hard's length and more.
# Where the shipped train problems do not grow, a level draws generated train problems
# g01... (racbench/worlds/strips/generators.py LEVEL_PROBLEMS, files in the domain's
# levels/ folder; no default split holds them).
# Where the shipped sizes jump (a fact more than the easy states hold already defeats a
# bounded reasoner), medium mixes easy's problems with larger ones: a share of its rows
# is out of easy's reach, not all.
DOMAIN_PROBLEMS = {
    "blocksworld": (("p01", "p02", "p03"), ("p04", "p05", "p06"), ("p07", "p08", "p09"),
                    ("p07", "p08", "p09")),
    "depots": (("p01", "p02", "p03"), ("p04", "p05", "p06"),
               ("p07", "p08", "p09"), ("p07", "p08", "p09")),
    "ferry": (("p01", "p03"), ("p01", "p02", "p03"), ("p07", "p08", "p09"),
              ("g01", "g02", "g03")),
    "floortile": (("p01", "p03"), ("p01", "p02", "p03"), ("p02", "p06"), ("p05", "p08", "p09")),
    "goldminer": (("p01", "p03"), ("p01", "p02", "p03"), ("p04", "p05"), ("p04", "p05")),
    "grid": (("p01", "p02", "p03"), ("p01", "p02", "p03", "p04"), ("p07", "p08", "p09"),
             ("p07", "p08", "p09")),
    "gripper": (("p01", "p02", "p03"), ("p04", "p05", "p06"), ("p07", "p08", "p09"),
                ("p07", "p08", "p09")),
    "household": (("p03", "p05"), ("p03", "p04", "p05", "p06", "p09"),
                  ("p07", "p08", "g01", "g02"), ("g03", "g04", "g05")),
    "logistics": (("p01", "p02", "p03"), ("p01", "p02", "p03", "p04"), ("p04", "p05", "p06"),
                  ("p07", "p08", "p09")),
    "rovers": (("g05", "g06", "g07", "g08"), ("p01", "p04", "p07", "p08"),
               ("g01", "g02", "g03"), ("g02", "g03", "g04")),
    "satellite": (("p01", "p02", "p03"), ("p07", "p08", "p09", "g01"),
                  ("p09", "g02", "g03", "g04", "g05", "g07", "g08"), ("g04", "g05", "g06", "g09")),
    "swap": (("p01", "p02", "p05"), ("p01", "p02", "p03", "p04", "p05", "g02", "g03", "g04"),
             ("p03", "p04", "p06", "g01", "g05", "g06"),
             ("p07", "p08", "p09", "g01", "g07", "g08", "g09")),
    "visitall": (("p01", "p02", "p03"), ("p01", "p02", "p03", "p04", "p06"),
                 ("g01", "g02", "g03"), ("g04", "g05", "g06")),
}
# a rule world, per game: (depth above the game's base, irrelevant rules, entities, grid,
# sequence length) per level. A manual grows by the irrelevant rules first (medium), then
# by chains and entities (hard, expert), so a reader of as many sentences as the easy
# manual holds knows less at each level; more entities and longer sequences make what
# it does not know matter more often. Entities (and in rtfm their items) grow at every
# level, so the grid lists more things at each: a reasoner that holds as many things as
# the easy grid lists loses track of more of them, yourself included, and with you
# which moves run into the wall (benchmarks/difficulty_levels.py). RTFM's four and five
# monsters with their items need a grid of 5 (room for twice the things on it).
RULE_LEVELS = {"rtfm": ((0, 0, 2, 4, 1), (0, 2, 3, 4, 2), (1, 4, 4, 5, 3), (2, 6, 5, 5, 8)),
               "messenger": ((0, 0, 3, 4, 1), (0, 2, 4, 4, 2), (1, 4, 5, 4, 4),
                             (2, 6, 6, 4, 8))}
# first_target's mc options are things on the grid, FIRST_TARGET_MC_ENTITIES of them: its
# mc rows take at least that many entities at every level (RTFM's easy and medium 4, not
# 2 and 3; Messenger's easy 4, not 3), on the smallest grid at least the level's with room
# for them (RTFM's 5, as its hard level's four monsters; `rule_knobs`). Its open rows, and
# every other family's, keep the table's.
RULE_STREAM_EPISODES = 200  # episodes per split a stream's states are drawn from
# the science lab: (simplifications, sequence lengths) per level. Each level takes away
# rules the last one's reasoner could lean on (teleport, no electrical actions, self-watering
# pots, open doors) or asks sequences longer than easy's (benchmarks/difficulty_levels.py):
# medium mixes easy's length with a longer one, so that a share of its rows, not all, asks
# more commands than easy's.
LAB_LEVELS = (("easy", (1,)), ("teleport,openDoors", (1, 2)), ("", (3,)), ("", (4,)))
# progression, applicability and goal recognition ask one command: in the lab their
# context shows a state `length - 1` commands before it and the commands typed since
# (`earlier_state`, EARLIER_STATE_FAMILIES), so the commands from the state shown to
# the one asked about grow like projection's sequences: commands typed since the state
# shown, per level. Goal recognition observes one command (not two: the oracle proves
# distances up to LAB_MAX_DISTANCE, and on tasks that end in waits, boil's, two-command
# questions are one-sided by verbs, "wait1, wait1" never begins a shortest solution, and
# no verb pair is seen both true and false) from a state at most LAB_MAX_DISTANCE from
# done, and the history leads there from the state shown.
LAB_HISTORIES = tuple(tuple(n - 1 for n in lengths) for _, lengths in LAB_LEVELS)
# next_observation: the commands from the state shown (and the shown history after it,
# whose observations the context gives) to the one whose observation is asked, per
# level (at most its MAX_HORIZON, 5), on a shipped domain and a rule world (the lab's are
# LAB_NEXT_OBSERVATION's). The world's knobs above make a bounded reasoner err (a larger
# state than it holds, rules it did not read, things it forgot); a longer horizon gives
# each error more commands to matter in. Hard is 4, not the domains' 3: with 3, RTFM's
# true/false rows fell from medium to hard on one seed only (.697 / .666 pooled, 256
# rows a level, seeds 0 and 1), with 4 on both (.697 / .604).
NEXT_OBSERVATION_HORIZONS = (1, 2, 4, 5)
# ... and the other observations offered beside the answer, per level: two, three, four
# and four options (four as every family's mc rows and the dynamics and STRIPS recipes'
# next_observation configs; more options, more to tell apart). Easy offers two: on
# blocksworld's easy problems (p01-p03) no situation of four distinct observations was
# found in the row maker's 60 draws. mc rows only: a true/false row shows one candidate,
# the answer or one other observation, so its situations need two observations at every
# level (`next_observation_config`). Asking three of them at medium left ferry's easy
# problems (one car: no situation of three) out of medium's true/false rows, which all came
# from p02, beyond the reasoner's memory as hard's are: medium and hard read alike (.708 /
# .695, 1,024 rows a level, seeds 0 and 1); with two, medium mixes easy's problems in.
NEXT_OBSERVATION_DISTRACTORS = (1, 2, 3, 3)
# next_observation on the lab: (simplifications, horizon) per level, its own table, not
# LAB_LEVELS'. Each level keeps the last one's sources of error for the reasoner that
# learned the easy rows (benchmarks/difficulty_levels.py `lab_observed`) and adds one:
# medium a longer horizon (1, 2, 4, 5: commands it takes to change nothing), hard also
# electrical actions and dry pots, expert also closed doors and no teleport. With
# LAB_LEVELS' rules (medium "teleport,openDoors", hard "") hard was not harder: the
# reasoner errs on every connect and disconnect asked, and medium asked more of them
# than hard, whose doors and moves dilute them (6 of 12 lines fell on boil,
# power-component, melt, chemistry-mix, use-thermometer and find-living-thing, mc and
# bool, 256 rows a level, seeds 0 and 1); with this table 12 of 12, and with the easy
# rules at every level (the horizon alone growing) 11 (melt's bool rows .945 / .936).
# docs/training.md: all 30 tasks.
LAB_NEXT_OBSERVATION = (("easy", 1), ("easy", 2), ("teleport,openDoors", 4), ("", 5))


def level_index(level: str | int) -> int:
    """The index of a level given by name or index; anything else raises ConfigError
    naming what is accepted."""
    if isinstance(level, str) and level in LEVELS:
        return LEVELS.index(level)
    if isinstance(level, int) and not isinstance(level, bool) and 0 <= level < len(LEVELS):
        return level
    raise ConfigError(_say("unknown_level", got=repr(level), accepted=LEVELS,
                           last=len(LEVELS) - 1))


def level_name(level: str | int) -> str:
    return LEVELS[level_index(level)]


def world_of(family: str, domain: str | None = None, rules: str | None = None,
             science: str | None = None) -> str:
    """The world a family is asked about, as a stream and a curriculum key name it:
    a shipped domain, TRAC's blocksworld, "rules/GAME" or "science/TASK"."""
    given = [w for w in (domain, rules, science) if w]
    if len(given) > 1:
        raise ConfigError(_say("several_worlds"))
    if rules:
        return f"rules/{rules}"
    if science:
        return f"science/{science}"
    if domain:
        return domain
    if family not in TRAC_FAMILIES:
        raise ConfigError(_say("needs_world", family=family, trac_families=TRAC_FAMILIES))
    return TRAC_DOMAIN


def check_world(world: str) -> None:
    """Raise ConfigError naming what a stream accepts when `world` (as `world_of` names
    it) is none of them; checked before any level, so the message is about the world."""
    if world.startswith("rules/"):
        rule_game(world)
    elif world.startswith("science/"):
        from racbench.worlds.science.registry import get_task

        try:
            get_task(world.split("/", 1)[1])
        except ValueError as exc:  # TaskError: names the 30 tasks
            raise ConfigError(str(exc)) from None
    elif world != TRAC_DOMAIN:
        domain_problems(world)


def domain_problems(domain: str) -> tuple[tuple[str, ...], ...]:
    """A shipped domain's train problems per level (`DOMAIN_PROBLEMS`: every shipped
    domain); any other name raises ConfigError naming the worlds a stream accepts."""
    if domain not in DOMAIN_PROBLEMS:
        raise ConfigError(_say("unknown_stream_domain", domain=domain,
                               domains=sorted(DOMAIN_PROBLEMS), trac=TRAC_DOMAIN,
                               trac_families=TRAC_FAMILIES, games=GAMES))
    return DOMAIN_PROBLEMS[domain]


def problem_size(domain: str, problem: str) -> tuple[int, int]:
    """(the most true facts of any reachable state, the reachable states) of a shipped
    problem: what a reasoner must hold and what its searches may have to store."""
    from racbench.worlds.strips.shipped import shipped_files
    from racbench.worlds.strips.world import world_for

    domain_file, (problem_file,) = shipped_files(domain, [problem])
    world = world_for(domain_file, problem_file)
    return max(s.bit_count() for s in world.states), world.n_states


def rule_knobs(game: str, k: int, family: str, form: str) -> tuple[int, ...]:
    """A rule world's (hops, irrelevant, entities, grid, length) at level `k` for a family
    in a form: `RULE_LEVELS`', but first_target's mc rows, whose options are things on
    the grid, get at least FIRST_TARGET_MC_ENTITIES entities on a grid with room for them."""
    hops, irrelevant, entities, grid, length = RULE_LEVELS[game][k]
    if family == "first_target" and form == "mc" and entities < FIRST_TARGET_MC_ENTITIES:
        entities = FIRST_TARGET_MC_ENTITIES
        grid = next((g for g in range(grid, grid + 8) if not any(  # else validate says why
            field == "grid" for field, *_ in
            RuleOptions.for_game(game, entities=entities, grid=g).problems())), grid)
    return hops, irrelevant, entities, grid, length


def rule_game(world: str) -> str:
    """The game of "rules/GAME"; a game not of GAMES raises ConfigError naming those."""
    game = world.split("/", 1)[1]
    if game not in GAMES:
        raise ConfigError(_say("unknown_rule_world", world=game, accepted=GAMES))
    return game


def rule_level(world: str, k: int, family: str, form: str) -> tuple[str, tuple, int]:
    """A rule world's (game, rule options, sequence length) at level `k` (`rule_knobs`)."""
    game = rule_game(world)
    hops, irrelevant, entities, grid, length = rule_knobs(game, k, family, form)
    return game, (("depth", BASE_DEPTH[game] + hops), ("irrelevant", irrelevant),
                  ("entities", entities), ("grid", grid),
                  ("episodes", RULE_STREAM_EPISODES)), length


def level_config(family: str, level: str | int, world: str, form: str = "bool"
                 ) -> "TaskConfig | NextObservationConfig":
    """The validated config of `family` on `world` (as `world_of` names it) at `level`."""
    k = level_index(level)
    if family == NEXT_OBSERVATION:
        return next_observation_config(k, world, form)
    if world == TRAC_DOMAIN:
        blocks, length = TRAC_LEVELS[k]
        cfg = TaskConfig(family=family, domain=TRAC_DOMAIN, form=form, lengths=(length,),
                         objects=blocks, names="seen",
                         style="trac" if form == "bool" else "acp")  # TRAC asks bool only
    elif world.startswith("rules/"):
        game, options, length = rule_level(world, k, family, form)
        cfg = TaskConfig(family=family, form=form, lengths=(length,), rules=game,
                         rule_options=options)
    elif world.startswith("science/"):
        simplifications, lengths = LAB_LEVELS[k]
        cfg = TaskConfig(family=family, form=form, lengths=lengths,
                         science=world.split("/", 1)[1], simplifications=simplifications,
                         earlier_state=family in EARLIER_STATE_FAMILIES)
    else:
        problems = domain_problems(world)[k]
        cfg = TaskConfig(family=family, domain=world, form=form,
                         lengths=(DOMAIN_LENGTHS[k],), problems={"train": problems})
    return cfg.validate()


def next_observation_config(k: int, world: str, form: str) -> NextObservationConfig:
    """next_observation's validated config on `world` at level index `k`: the world's
    knobs of the tables above and the family's own (`NEXT_OBSERVATION_HORIZONS`; on the
    lab, `LAB_NEXT_OBSERVATION`'s simplifications and horizon); its
    refusals raise ConfigError, as every family's (a stream names the task and level)."""
    horizon = (LAB_NEXT_OBSERVATION[k][1] if world.startswith("science/")
               else NEXT_OBSERVATION_HORIZONS[k])
    own = {"form": form, "horizon": horizon,  # a true/false row shows one candidate
           "distractors": NEXT_OBSERVATION_DISTRACTORS[k] if form == "mc" else 1}
    if world == TRAC_DOMAIN:
        raise ConfigError(_say("next_observation_on_trac", family=NEXT_OBSERVATION,
                               world=TRAC_DOMAIN, domains=sorted(DOMAIN_PROBLEMS),
                               games=GAMES))
    if world.startswith("rules/"):  # its own horizon, not the level's length
        game, options, _ = rule_level(world, k, NEXT_OBSERVATION, form)
        cfg = NextObservationConfig(rules=game, rule_options=tuple(sorted(options)), **own)
    elif world.startswith("science/"):
        cfg = NextObservationConfig(science=world.split("/", 1)[1],
                                    simplifications=LAB_NEXT_OBSERVATION[k][0], **own)
    else:
        cfg = NextObservationConfig(domain=world,
                                    problems={"train": domain_problems(world)[k]}, **own)
    try:
        return cfg.validate()
    except ConfigError:
        raise
    except InputError as exc:  # NextObservationError: a stream's refusal says the level
        raise ConfigError(str(exc)) from None
