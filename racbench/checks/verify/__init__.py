"""``racbench verify DIR``: re-derive every label of a built dataset with engines that are not ours.

racbench computes its labels with its own STRIPS engine (``racbench.worlds.strips``).
This module checks them against independent implementations:

* `unified-planning <https://github.com/aiplan4eu/unified-planning>`_ (UP) reads the
  domain PDDL, and each row's ``symbolic`` JSON becomes a UP problem (objects, initial
  state, goal).  UP's ``SequentialSimulator`` answers executability, projection,
  applicability and progression claims; UP's ``PlanValidator`` answers plan validation.
* Fast Downward, through ``up-fast-downward`` (``fast-downward-opt``: A* with LM-cut,
  optimal for unit costs), answers optimal-cost and solvability claims: the
  ``optimal_plan_length`` column, goal recognition (an observation of N actions is a
  prefix of an optimal plan iff it executes and N + cost(after it) == cost(initial)),
  reachability, landmarks and next-action claims.  Fast Downward is GPL: it is only an
  optional extra (``pip install 'racbench[verify]'``) and UP runs it as a separate
  process (``python fast-downward.py`` on PDDL files it writes), never inside ours.
  Without it the optimal checks are skipped, said once, unless ``--require-optimal``.

Where unified-planning refuses a row (no engine for its features, an error inside it or
inside Fast Downward run through it), Fast Downward alone checks it: its translator
(PyPI ``fast-downward-translate``, a separate process) turns the row's PDDL into a
finite-domain task, our stepper over that task (``fd_stepper``) answers the stepping
claims and Fast Downward's ``downward`` search the optimal-cost ones (``fd_context``).
Each row's ``RowCheck.engines`` names the engines that answered it
(``unified-planning``, ``fd-search``, ``fd-stepper``, ``replay``).

Every STRIPS row (TRAC's included) has the families' ``symbolic`` JSON (``family``,
``domain_pddl``, ``state``...), with one checker per family in :data:`ACP_CHECKERS`
(register more with :func:`acp_checker`). Science-lab rows (``"world": "science"``)
are replayed in a fresh simulator (``replay``: its history, then the row's commands),
one checker per family in :data:`racbench.checks.verify.replay.REPLAY_CHECKS`.

Exit codes of the command: 0 every checked claim agrees, 1 some row disagrees (each
mismatch printed as ``config/split id: what differs``) or no row could be checked, 2 the
folder is not a racbench dataset or the engines are missing, 3 some row was left
unchecked under ``--require-checked`` (docs/verify.md).

The package by job: ``engines`` (a row as a unified-planning problem; Fast Downward's
costs), ``families`` (one re-derivation per question family), ``dataset`` (a built
folder's rows over worker processes), ``report`` (what was found), ``words`` (every
sentence it says, from templates/cli/verify.j2), and for Fast Downward alone ``sas``
(its task format), ``fd_stepper``, ``fd_search`` (translator and search processes) and
``fd_context`` (the families' questions answered with them).
"""

from racbench.checks.verify.dataset import find_configs, verify_dataset, verify_row
from racbench.checks.verify.engines import Engine, fd_available, problem_pddl, up_available
from racbench.checks.verify.families import ACP_CHECKERS, acp_checker, acp_open_checker
from racbench.checks.verify.report import (EngineMissing, Mismatch, NotADataset, RowCheck,
                                          VerifyReport)

__all__ = [
    "ACP_CHECKERS",
    "Engine",
    "EngineMissing",
    "Mismatch",
    "NotADataset",
    "RowCheck",
    "VerifyReport",
    "acp_checker",
    "acp_open_checker",
    "fd_available",
    "find_configs",
    "problem_pddl",
    "up_available",
    "verify_dataset",
    "verify_row",
]
