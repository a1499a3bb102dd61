"""The values a config's options take, below every module that reads them (config,
rows, queries), so none of them has to import the config module to know them."""

from __future__ import annotations

from racbench.splits.names import POOLS

SPLITS = ("train", "validation", "test")
MAX_LENGTH = 8
OBFUSCATIONS = (None, "random", "misleading")  # DomainText's renaming modes
QUERY_KINDS = ("literal", "conjunction")  # one literal, or two, in a query or goal
NAMES = ("problem",) + POOLS  # the problem's own object names, or a pool of colours
STYLES = ("acp", "trac")  # how context and question are assembled (templates/<style>/)
TRAC_DOMAIN = "blocksworld_trac"  # TRAC's three-action blocksworld over `objects` blocks
TRAC_FAMILIES = ("projection", "executability", "planning", "goal_recognition")
# families whose mc rows the science lab can balance: projection's options are facts
# (applicability's, executability's and planning's are drawn from every ground action,
# which the lab has no list of; goal recognition's are goals, and the lab has one, its
# task; progression's single commands change too few facts a context
# shows for four options each right in one situation and wrong in three others)
LAB_MC_FAMILIES = ("projection",)
# goal recognition in the lab: from states at most this many commands from completing the
# task, where an exhaustive search of one command proves the shortest solution; so
# observations of at most this many commands (planning's sequences and goal recognition's
# observations are in the simulator's full command set: focus, look and read count)
LAB_MAX_DISTANCE = 2
# families a lab config may ask with `earlier_state`: the context shows a state, the
# commands typed since, and asks about the command after them (goal recognition: whether
# that one observed command begins a shortest solution from where they lead)
EARLIER_STATE_FAMILIES = ("progression", "applicability", "goal_recognition")
# Shipped problems per split when a config names none: unseen problems in test.
DEFAULT_SPLIT_PROBLEMS = {"train": [f"p{i:02d}" for i in range(1, 10)],
                          "validation": ["p10", "p11", "p12"],
                          "test": ["p13", "p14", "p15"]}
# rule worlds (racbench/worlds/rules/): families whose mc rows they give (projection's
# options are facts; first_target's the things on the grid), their knobs, and episodes
RULES_MC_FAMILIES = ("projection", "first_target")
RULES_OPEN_FAMILIES = ("first_target",)  # open rows on rule worlds: a name to give
# first_target's mc options are four things on the grid (items in rtfm, one per monster;
# entities in messenger): a rule world gives them with at least this many entities
FIRST_TARGET_MC_ENTITIES = 4
RULE_OPTIONS = ("depth", "irrelevant", "grid", "entities", "overlap", "episodes")
RULE_EPISODES = 30  # episodes per split unless `episodes` says otherwise
MAX_RULE_EPISODES = 2000
