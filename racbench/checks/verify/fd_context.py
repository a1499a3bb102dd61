"""A row's claims answered by Fast Downward alone, for rows unified-planning refuses.

The row's domain text and its problem (objects, state, goal, written as PDDL by
engines.problem_pddl) go through Fast Downward's translator (fd_search.py, a separate
process). Stepping claims (applicability, progression, projection, executability,
validation, goal truth) are answered by the finite-domain stepper (fd_stepper.py);
optimal costs and plan existence by Fast Downward's search on the translator's output
for that state and goal. ``FdContext`` offers the methods the family checkers
(families.py) call on unified-planning's ``AcpContext``.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from typing import Any, Iterable, Sequence

from racbench.checks.verify.engines import alternatives_of, literal_of, problem_pddl
from racbench.checks.verify.families import RowView
from racbench.checks.verify.fd_search import optimal_length, translated
from racbench.checks.verify.fd_stepper import (FdStepper, State, atom_key,
                                               parse_atom)
from racbench.checks.verify.report import Skip, Unchecked
from racbench.checks.verify.sas import Effect, SasTask, Variable
from racbench.checks.verify.words import say

FD_STEPPER = "fd-stepper"
FD_SEARCH = "fd-search"

#: Translations and optimal lengths remembered per process.
# the values of the variable that a spoiling action sets, as Fast Downward names values
SPOILED_VALUES = ("Atom racbench-unspoiled()", "Atom racbench-spoiled()")
CACHE = 2_000
_TASKS: dict[tuple, SasTask] = {}
_LENGTHS: dict[tuple, int | None] = {}


def _remember(cache: dict, key, value):
    if len(cache) >= CACHE:
        cache.clear()
    cache[key] = value
    return value


def domain_name(text: str) -> str:
    found = re.search(r"\(\s*define\s*\(\s*domain\s+([^\s()]+)", text, re.IGNORECASE)
    if found is None:
        raise ValueError(say("no_domain_name"))
    return found.group(1)


def derived_predicates(text: str) -> set[str]:
    """Names the domain defines by ``(:derived (name ...) ...)`` rules (never in :init)."""
    return {m.lower() for m in re.findall(r"\(\s*:derived\s*\(\s*([^\s()]+)", text,
                                          re.IGNORECASE)}


def _constants(text: str) -> set[str]:
    """The names the domain's ``(:constants ...)`` declares (lower-case), read from the
    text itself: the objects a problem must not declare again."""
    text = re.sub(r";[^\n]*", "", text)
    found = re.search(r"\(\s*:constants\b", text, re.IGNORECASE)
    if found is None:
        return set()
    names: set[str] = set()
    depth, skip = 0, False
    for token in re.findall(r"\(|\)|[^\s()]+", text[found.end():]):
        if token == "(":
            depth += 1
        elif token == ")":
            if depth == 0:
                break
            depth -= 1
            if depth == 0:
                skip = False  # the end of an (either ...) type
        elif depth == 0:
            if token == "-":
                skip = True
            elif skip:
                skip = False  # a type name
            else:
                names.add(token.lower())
    return names


class FdContext(RowView):
    """The family checkers' view of a row (``AcpContext``'s methods), by Fast Downward."""

    def __init__(self, row: dict, sym: dict, fd_timeout: float, optimal: bool) -> None:
        self.row, self.sym = row, sym
        self.fd_timeout, self.optimal = fd_timeout, optimal
        self.domain_text = sym["domain_pddl"]
        self.name = domain_name(self.domain_text)
        constants = _constants(self.domain_text)
        self.objects = {o: t for o, t in sym["objects"].items() if o.lower() not in constants}
        self.init = sorted(tuple(a) for a in sym["state"])
        self.used: set[str] = {FD_STEPPER}
        self.stepper = FdStepper(self._task(self.init, (), keep_all=True), self.init)

    # -- translation and search -------------------------------------------------

    def _problem(self, atoms: Iterable[Sequence[str]], goal: Iterable[Any]) -> str:
        derived = derived_predicates(self.domain_text)
        return problem_pddl(self.objects, [a for a in atoms if a[0].lower() not in derived],
                            goal, domain=self.name)

    def _task(self, atoms: Sequence[Sequence[str]], goal: Sequence[Any], *,
              keep_all: bool) -> SasTask:
        """The translation of the problem (cached per domain, problem text and flags)."""
        key = self._key(atoms, goal, keep_all)
        task = _TASKS.get(key)
        if task is None:
            task = _remember(_TASKS, key, translated(self.domain_text, key[1],
                                                     keep_all=keep_all))
        return task

    def _key(self, atoms: Sequence[Sequence[str]], goal: Sequence[Any], *more) -> tuple:
        """(domain digest, the problem's PDDL text, *more): what a translation or a
        search result depends on."""
        return (hashlib.blake2b(self.domain_text.encode(), digest_size=16).digest(),
                self._problem(atoms, goal), *more)

    def _length(self, task: SasTask, key: tuple) -> int | None:
        if not self.optimal:
            raise Skip(say("no_fast_downward"))
        self.used.add(FD_SEARCH)
        if key in _LENGTHS:
            return _LENGTHS[key]
        return _remember(_LENGTHS, key, optimal_length(task, self.fd_timeout))

    # -- what the family checkers call --------------------------------------------

    @property
    def state(self) -> State:
        return self.stepper.initial()

    def holds(self, state: State, item: Any) -> bool:
        alternatives = alternatives_of(item)
        if alternatives is not None:
            return any(all(self.holds(state, g) for g in alt) for alt in alternatives)
        atom, positive = literal_of(item)
        return self.stepper.holds(state, atom) == positive

    def applicable(self, term: Sequence[str], state: State | None = None) -> bool:
        return self.stepper.step(self.state if state is None else state, term) is not None

    def after(self, terms: Sequence[Sequence[str]]):
        """(final state, or None if step `failed` (0-based) is inapplicable; failed)."""
        state = self.state
        for i, term in enumerate(terms):
            state = self.stepper.step(state, term)
            if state is None:
                return None, i
        return state, None

    def valid(self, plan: Sequence[Sequence[str]], goal: Iterable[Any] | None = None) -> bool:
        goal = self._goal(goal)
        end = self.after(plan)[0]
        return end is not None and all(self.holds(end, g) for g in goal)

    def _goal(self, goal: Iterable[Any] | None) -> list:
        if goal is None:
            if not self.goal:
                raise ValueError(say("no_goal", family=self.sym.get("family")))
            return list(self.goal)
        return list(goal)

    def atoms(self, state: State) -> set[tuple]:
        return self.stepper.true_atoms(state)

    def cost(self, state: State | None = None, goal: Iterable[Any] | None = None) -> int | None:
        """Optimal plan length from `state` (default: the row's) to `goal` (default: the
        row's), None if there is none: the problem translated afresh, then searched."""
        goal = self._goal(goal)
        atoms = self.init if state is None else sorted(self._base_atoms(state))
        task = self._task(atoms, goal, keep_all=False)
        return self._length(task, self._key(atoms, goal, "cost"))

    def _base_atoms(self, state: State) -> set[tuple]:
        """The state's true atoms that a problem's :init may list (no derived ones)."""
        names = {atom[0] for v in self.stepper.task.variables if v.axiom_layer >= 0
                 for atom in map(parse_atom, v.values) if atom is not None}
        names |= derived_predicates(self.domain_text)
        return {a for a in self.atoms(state) if a[0] not in names}

    def applicable_actions(self) -> list[list[str]]:
        names = self.stepper.applicable_names(self.state)
        return [n.split(" ") for n in names]

    def cost_until_applicable(self, terms: Sequence[Sequence[str]]) -> int | None:
        """Length of a shortest plan after which all `terms` are applicable in one state
        (None: never): a search on the translated task whose goal is the precondition
        of one operator per action (each way the translator split it, tried in turn)."""
        task = self.stepper.task
        choices = [self.stepper.operators_of(t) for t in terms]
        if not all(choices):
            return None
        best = None
        for ops in itertools.product(*choices):
            goal: dict[int, int] = {}
            if any(goal.setdefault(v, x) != x for op in ops for v, x in op.precondition):
                continue
            search = SasTask(task.metric, task.variables, task.mutexes, task.init,
                             sorted(goal.items()), task.operators, task.axioms)
            key = self._key(self.init, (), "applicable", tuple(sorted(goal.items())))
            found = self._length(search, key)
            if found is not None and (best is None or found < best):
                best = found
        return best

    def cost_without_adding(self, atom: Sequence[str]) -> int | None:
        """Optimal plan length to the row's goal when no step may make `atom` true: every
        effect that sets it also sets a new "spoiled" variable, and the goal asks that
        variable be unset (conditional effects stay exact)."""
        goal = self._goal(None)
        task = self._task(self.init, goal, keep_all=True)
        fact = FdStepper(task, self.init).facts.get(atom_key(atom))
        if fact is None:  # the translator found it never changes
            return self.cost()
        var, val = fact
        if task.variables[var].axiom_layer >= 0:
            return self._cost_avoiding_derived(task, var, val, goal, atom)
        spoiled = len(task.variables)
        operators = []
        for op in task.operators:
            effects = list(op.effects)
            effects += [Effect(e.conditions, spoiled, -1, 1) for e in op.effects
                        if e.var == var and e.post == val]
            operators.append(type(op)(op.name, op.prevail, effects, op.cost))
        search = SasTask(task.metric,
                         [*task.variables, Variable("var-racbench-spoiled", -1,
                                                    list(SPOILED_VALUES))],
                         task.mutexes, [*task.init, 0], [*task.goal, (spoiled, 0)],
                         operators, task.axioms)
        return self._length(search, self._key(self.init, goal, "without", atom_key(atom)))

    def _cost_avoiding_derived(self, task: SasTask, var: int, val: int, goal,
                               atom: Sequence[str]) -> int | None:
        """Optimal plan length to the row's goal through states where the derived
        `atom` (variable `var` at `val`) stays false: no action can set it, since the
        axioms derive it in each state, so every operator requires it false in the
        state it starts from, and the goal requires it false at the end (the starting
        state is one the question asks about only when the atom is false there)."""
        others = [x for x in range(len(task.variables[var].values)) if x != val]
        if len(others) != 1:
            raise Unchecked(say("derived_landmark_many_values"))
        other = others[0]
        if any(v == var and x == val for v, x in task.goal):
            return None
        operators = []
        for op in task.operators:
            if any(v == var and x == val for v, x in op.precondition):
                continue
            prevail = list(op.prevail)
            if (var, other) not in prevail:
                prevail.append((var, other))
            operators.append(type(op)(op.name, prevail, op.effects, op.cost))
        goal_facts = [*task.goal] + ([] if (var, other) in task.goal else [(var, other)])
        search = SasTask(task.metric, task.variables, task.mutexes, task.init,
                         sorted(goal_facts), operators, task.axioms)
        return self._length(search, self._key(self.init, goal, "avoiding", atom_key(atom)))
