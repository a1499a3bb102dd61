"""Grounding by relaxed reachability, not by the cross product of all objects.

Starting from the initial atoms, actions are instantiated only with bindings whose
positive preconditions are all (relaxed-)reachable, their add effects join the
reachable set, and this repeats to a fixpoint. Each round joins only the bindings that
use at least one atom first reached in the round before (semi-naive evaluation), and
each join step looks its atoms up by the arguments already bound, so the work stays
close to the number of ground actions. A problem that needs more ground actions, fluent
atoms or candidate bindings than `limits` allows stops with a LimitExceeded naming the
action and the flag that raises the limit.

ADL schemas join on their literal preconditions the same way; a binding whose formulas
the static atoms already falsify is dropped at once, their quantified and conditional
effects add to the reachable atoms, and each surviving binding becomes one ground
action through adl_grounding.
"""

from __future__ import annotations

import math
from collections import defaultdict
from itertools import product

from racbench.worlds.strips import adl, adl_grounding, axioms, limits
from racbench.worlds.strips.model import (ActionSchema, And, AnyOf, Atom, Axiom, Domain, Literal,
                                          Problem, Quantified)
from racbench.worlds.strips.sexpr import PDDLError
from racbench.worlds.strips.task import GroundAction, GroundTask
from racbench.text import sayer

_say = sayer("cli", ("pddl.j2",))


def _objects_by_type(domain: Domain, objects: dict[str, str]) -> dict[str, list[str]]:
    by_type: dict[str, list[str]] = defaultdict(list)
    chains: dict[str, list[str]] = {}
    for name in sorted(objects):
        t = objects[name]
        if t not in chains:
            chains[t] = domain.ancestors(t)
        for ancestor in chains[t]:
            by_type[ancestor].append(name)
    return by_type


class _Budget:
    """Ground actions, fluent atoms and join work of one grounding, against the limits."""

    def __init__(self, problem: Problem):
        self.limits = limits.current()
        self.source = problem.source
        self.work = 0
        self.actions = 0

    def _exceeded(self, message: str) -> limits.LimitExceeded:
        return limits.LimitExceeded(
            _say("over_limit", what=message, flag=limits.FLAGS["max_ground_actions"],
                 limit=self.limits.max_ground_actions), self.source)

    def spend(self, n: int, schema: ActionSchema) -> None:
        """`n` more candidate bindings tried for `schema`."""
        self.work += n
        if self.work > self.limits.max_candidates:
            raise self._exceeded(_say(
                "too_many_candidates", action=schema.name, most=f"{self.limits.max_candidates:,}",
                step=f"{n:,}" if n > self.limits.max_candidates else None,
                per_action=limits.CANDIDATES_PER_GROUND_ACTION))

    def check_actions(self, new: int, schema: ActionSchema) -> None:
        """`new` ground actions of `schema` on top of the `actions` found before."""
        if self.actions + new > self.limits.max_ground_actions:
            raise self._exceeded(_say("too_many_ground_actions",
                                      most=f"{self.limits.max_ground_actions:,}",
                                      action=schema.name))

    def check_atoms(self, n: int) -> None:
        if n > self.limits.max_ground_actions:
            raise self._exceeded(_say("too_many_atoms",
                                      most=f"{self.limits.max_ground_actions:,}"))


class _Index:
    """Atoms of each predicate grouped by the values at the argument positions some
    join step knows before it looks the predicate up."""

    def __init__(self, keys: dict[tuple[str, int], set[tuple[int, ...]]]):
        self.keys = keys
        self.tables: dict[tuple, dict[tuple, list[Atom]]] = {
            (pred_arity, positions): {} for pred_arity, all_positions in keys.items()
            for positions in all_positions}

    def add(self, atom: Atom) -> None:
        pred_arity = (atom[0], len(atom))
        for positions in self.keys.get(pred_arity, ()):
            key = tuple(atom[i] for i in positions)
            self.tables[(pred_arity, positions)].setdefault(key, []).append(atom)

    def lookup(self, step: "_Step", key: tuple) -> list[Atom]:
        return self.tables[step.table].get(key, [])


NEW, OLD, BOTH = "new", "old", "both"  # which atoms a join step reads
# Planning one join order per positive precondition costs their number cubed; a schema
# with more than this many gets one fixed order that rejoins everything each round.
PLANNED_PRECONDITIONS = 16


class _Step:
    """One positive precondition in join order."""

    def __init__(self, pattern: Atom, bound: set[str]):
        self.table = ((pattern[0], len(pattern)),
                      tuple(i for i, t in enumerate(pattern) if i and
                            (not t.startswith("?") or t in bound)))
        self.key_terms = tuple(pattern[i] for i in self.table[1])
        self.binds: list[tuple[int, str]] = []  # first occurrences of new variables
        self.repeats: list[tuple[int, str]] = []  # their later occurrences in this atom
        seen: set[str] = set()
        for i, t in enumerate(pattern[1:], start=1):
            if t.startswith("?") and t not in bound:
                (self.repeats if t in seen else self.binds).append((i, t))
                seen.add(t)
        bound.update(seen)

    def key(self, binding: dict[str, str]) -> tuple:
        return tuple(binding.get(t, t) for t in self.key_terms)

    def extend(self, atom: Atom, binding: dict[str, str], domains) -> dict[str, str] | None:
        new = dict(binding)
        for i, var in self.binds:
            if atom[i] not in domains[var]:
                return None
            new[var] = atom[i]
        for i, var in self.repeats:
            if atom[i] != new[var]:
                return None
        return new


class _SchemaGrounder:
    """Enumerates the bindings of one schema against a growing set of reachable atoms."""

    adl = False

    def __init__(self, schema: ActionSchema, by_type, static_preds: frozenset[str]):
        self.schema = schema
        self.params = [v for v, _ in schema.parameters]
        self.domains = {v: set().union(*(by_type.get(t, ()) for t in types))
                        for v, types in schema.parameters}
        self.positive = list(dict.fromkeys(lit.atom for lit in schema.precondition
                                           if lit.positive and lit.atom[0] != "="))
        self.static_preds = static_preds
        self.naive = len(self.positive) > PLANNED_PRECONDITIONS
        if self.naive:
            bound: set[str] = set()
            order = sorted(self.positive, key=lambda a: (a[0] not in static_preds, -len(a)))
            self.plans = [[(_Step(atom, bound), BOTH) for atom in order]]
        else:
            self.plans = [self._plan(j) for j in range(len(self.positive))]
        bound = {t for atom in self.positive for t in atom[1:] if t.startswith("?")}
        self.free = [v for v in self.params if v not in bound]
        self.free_values = [sorted(self.domains[v]) for v in self.free]
        self.equalities = [lit for lit in schema.precondition if lit.atom[0] == "="]
        self.static_negative = [lit.atom for lit in schema.precondition
                                if not lit.positive and lit.atom[0] in static_preds]

    def _plan(self, j: int) -> list[tuple["_Step", str]]:
        """The join order when precondition j reads the new atoms: j first, then always
        the precondition with the most arguments already known. Those listed before j
        read the old atoms, those after it old and new (each binding is found once)."""
        bound: set[str] = set()
        plan = [(_Step(self.positive[j], bound), NEW)]
        rest = [i for i in range(len(self.positive)) if i != j]
        while rest:
            best = min(rest, key=lambda i: self._rank(i, bound))
            rest.remove(best)
            plan.append((_Step(self.positive[best], bound), OLD if best < j else BOTH))
        return plan

    def _rank(self, i: int, bound: set[str]) -> tuple:
        """Smaller first: checks before searches, then more known arguments, fewer new
        variables, static predicates."""
        terms = self.positive[i][1:]
        new_vars = {t for t in terms if t.startswith("?") and t not in bound}
        known = sum(1 for t in terms if not t.startswith("?") or t in bound)
        return (bool(new_vars), -known, len(new_vars),
                self.positive[i][0] not in self.static_preds, i)

    def new_bindings(self, old: _Index, new: _Index, first_round: bool, seen: set,
                     static: frozenset[Atom], budget: _Budget) -> list[tuple[str, ...]]:
        """Bindings not `seen` before whose positive preconditions hold in the old and new
        atoms together and that use a new atom at least once."""
        found: list[tuple[str, ...]] = []
        if not self.plans:
            if first_round:
                self._leaves({}, found, seen, static, budget)
            return found
        for plan in self.plans:
            if self.naive:
                if not (first_round or any(new.tables[step.table] for step, _ in plan)):
                    continue
            elif not new.tables[plan[0][0].table]:
                continue
            stack: list[tuple[int, dict[str, str]]] = [(0, {})]
            while stack:
                i, binding = stack.pop()
                if i == len(plan):
                    self._leaves(binding, found, seen, static, budget)
                    continue
                step, source = plan[i]
                key = step.key(binding)
                if source is NEW:
                    atoms = new.lookup(step, key)
                elif source is OLD:
                    atoms = old.lookup(step, key)
                else:
                    atoms = old.lookup(step, key) + new.lookup(step, key)
                budget.spend(len(atoms), self.schema)
                for atom in atoms:
                    extended = step.extend(atom, binding, self.domains)
                    if extended is not None:
                        stack.append((i + 1, extended))
        return found

    def _leaves(self, binding: dict[str, str], found: list, seen: set,
                static: frozenset[Atom], budget: _Budget) -> None:
        """Complete a join result with every value of the free parameters."""
        budget.spend(math.prod(len(v) for v in self.free_values), self.schema)
        for values in product(*self.free_values):
            full = dict(binding, **dict(zip(self.free, values)))
            if self._constraints_ok(full, static):
                args = tuple(full[v] for v in self.params)
                if args not in seen:  # the fixed order of a naive plan finds it again
                    found.append(args)
                    budget.check_actions(len(found), self.schema)

    def _constraints_ok(self, binding: dict[str, str], static: frozenset[Atom]) -> bool:
        def sub(term: str) -> str:
            return binding.get(term, term)

        for lit in self.equalities:
            if (sub(lit.atom[1]) == sub(lit.atom[2])) != lit.positive:
                return False
        for atom in self.static_negative:
            if (atom[0],) + tuple(sub(t) for t in atom[1:]) in static:
                return False
        return True


class _AdlSchemaGrounder(_SchemaGrounder):
    """An ADL schema: bindings also pass its formulas under the static atoms, and the
    atoms it may add include those of its quantified and conditional effects."""

    adl = True

    def __init__(self, schema: ActionSchema, by_type, static_preds: frozenset[str],
                 domain: Domain, objects: dict[str, str], value, budget: "_Budget"):
        super().__init__(schema, by_type, static_preds)
        # quantifiers expanded are candidate bindings too, charged to the same budget
        self.objects = adl.Objects(domain, objects,
                                   spend=lambda n: budget.spend(n, schema))
        self.value = value
        self.formula = And(schema.formulas)
        # pruning early is only a saving (ground_action decides exactly): worth it where
        # static atoms or equalities can rule a binding out
        mentioned = adl.predicates(self.formula)
        self.prunes = "=" in mentioned or bool(mentioned & static_preds)

    def _constraints_ok(self, binding: dict[str, str], static: frozenset[Atom]) -> bool:
        if not super()._constraints_ok(binding, static):
            return False
        return not self.prunes or \
            adl.ground(self.formula, binding, self.objects, self.value) != adl.FALSE

    def adds(self, binding: dict[str, str]) -> list[Atom]:
        return adl_grounding.possible_adds(self.schema, binding, self.objects, self.value)


def _instantiate(atom: Atom, binding: dict[str, str]) -> Atom:
    get = binding.get
    return (atom[0], *map(get, atom[1:], atom[1:]))


def _reachable_bindings(grounders: list[_SchemaGrounder], init: frozenset[Atom],
                        static: frozenset[Atom], fluent_preds: frozenset[str],
                        budget: _Budget) -> tuple[list[set[tuple[str, ...]]], set[Atom]]:
    """Every binding of every schema reachable from `init` (relaxed), and the atoms."""
    keys: dict[tuple[str, int], set[tuple[int, ...]]] = defaultdict(set)
    for g in grounders:
        for plan in g.plans:
            for step, _ in plan:
                keys[step.table[0]].add(step.table[1])
    old = _Index(keys)
    reachable: set[Atom] = set(init)
    fluent = sum(1 for a in init if a[0] in fluent_preds)
    budget.check_atoms(fluent)
    bindings: list[set[tuple[str, ...]]] = [set() for _ in grounders]
    new_atoms = sorted(init)
    first_round = True
    while first_round or new_atoms:  # actions without preconditions apply to an empty init
        new = _Index(keys)
        for atom in new_atoms:
            new.add(atom)
        reached: list[Atom] = []
        for g, seen in zip(grounders, bindings):
            for args in g.new_bindings(old, new, first_round, seen, static, budget):
                seen.add(args)
                budget.actions += 1
                binding = dict(zip(g.params, args))
                adds = g.adds(binding) if g.adl else g.schema.add
                for atom in adds:
                    atom = _instantiate(atom, binding)
                    if atom not in reachable:
                        reachable.add(atom)
                        reached.append(atom)
        for atom in new_atoms:
            old.add(atom)
        fluent += len(reached)
        budget.check_atoms(fluent)
        new_atoms = reached
        first_round = False
    return bindings, reachable


def ground(domain: Domain, problem: Problem) -> GroundTask:
    """Ground `problem` over `domain` into a GroundTask (sorted atoms and actions)."""
    objects = dict(problem.objects)
    by_type = _objects_by_type(domain, objects)
    fluent_preds = domain.fluent_predicates
    static_preds = frozenset(domain.predicates) - fluent_preds
    static = frozenset(a for a in problem.init if a[0] in static_preds)
    budget = _Budget(problem)
    known = adl_grounding.static_value(static_preds, static)
    schemas = list(domain.actions) + [_axiom_schema(a) for a in domain.axioms]
    grounders = [_SchemaGrounder(s, by_type, static_preds) if s.strips else
                 _AdlSchemaGrounder(s, by_type, static_preds, domain, objects, known, budget)
                 for s in schemas]
    bindings, reachable = _reachable_bindings(grounders, problem.init, static, fluent_preds,
                                              budget)

    goal_atoms = {a for part in problem.goal for a in goal_part_atoms(part)}
    fluent_atoms = sorted(a for a in reachable | goal_atoms if a[0] in fluent_preds)
    budget.check_atoms(len(fluent_atoms))
    index = {a: i for i, a in enumerate(fluent_atoms)}

    def mask(atoms) -> int:
        m = 0
        for a in atoms:
            i = index.get(a)
            if i is not None:
                m |= 1 << i
        return m

    def value(atom):  # truth of atoms no action can change, None for the others
        if atom[0] in fluent_preds:
            return None if atom in index else False
        return atom in static

    actions: list[GroundAction] = []
    rules: list[tuple[int, int, int]] = []
    for i, (g, seen) in enumerate(zip(grounders, bindings)):
        schema = g.schema
        if i >= len(domain.actions):
            axiom = domain.axioms[i - len(domain.actions)]
            rules.extend(_rules(g, seen, axiom, value, mask, index, domain))
            continue
        if g.adl:
            for args in sorted(seen):
                cost = _cost(schema, dict(zip(g.params, args)), problem)
                try:
                    action = adl_grounding.ground_action(schema, args, g.objects, value,
                                                         mask, cost)
                except adl.TooLarge as exc:
                    raise PDDLError(_say("action_condition_too_large",
                                         action=f"{schema.name}{tuple(args)}", size=exc),
                                    domain.source) from None
                if action is not None:
                    actions.append(action)
            continue
        pos = [lit.atom for lit in schema.precondition
               if lit.positive and lit.atom[0] != "=" and lit.atom[0] in fluent_preds]
        neg = [lit.atom for lit in schema.precondition
               if not lit.positive and lit.atom[0] != "=" and lit.atom[0] in fluent_preds]
        for args in sorted(seen):
            binding = dict(zip(g.params, args))
            actions.append(GroundAction(
                name=schema.name, args=args,
                pre=mask(_instantiate(a, binding) for a in pos),
                pre_neg=mask(_instantiate(a, binding) for a in neg),
                add=mask(_instantiate(a, binding) for a in schema.add),
                delete=mask(_instantiate(a, binding) for a in schema.delete),
                cost=_cost(schema, binding, problem)))
    actions.sort(key=lambda a: a.term)
    rules_of = None
    goal_bit = None
    disjunction = next((p for p in problem.goal if isinstance(p, AnyOf)), None)
    if disjunction is not None:  # the goal atom, derived by one rule per alternative
        goal_bit = len(fluent_atoms)
        rules.extend(_goal_rules(disjunction, goal_bit, value, index))
    if domain.axioms or goal_bit is not None:
        derived = mask(a for a in fluent_atoms if a[0] in domain.derived_predicates)
        if goal_bit is not None:
            derived |= 1 << goal_bit
        try:
            rules_of = axioms.Axioms(rules, derived)
        except axioms.NotStratified as exc:
            head, negated = (fluent_atoms[i] for i in exc.args)
            raise PDDLError(_say("not_stratified", atom=f"({' '.join(head)})",
                                 negated=f"({' '.join(negated)})"), domain.source) from None
    return GroundTask(domain.name, objects, fluent_atoms, actions, static, problem.init,
                      problem.goal, axioms=rules_of, goal_bit=goal_bit)


def goal_part_atoms(part) -> list:
    """The atoms a goal part (a Literal or an AnyOf) names."""
    return part.atoms if isinstance(part, AnyOf) else [tuple(part.atom)]


def _goal_rules(disjunction: AnyOf, goal_bit: int, value, index) -> list:
    """Rules (goal bit, pos, neg) for the alternatives of a disjunctive goal (Fast
    Downward's translator makes such a goal a new axiom's head): literals known true
    drop out, an alternative with a literal known false is left out."""
    out = []
    for clause in disjunction.clauses:
        pos = neg = 0
        possible = True
        for lit in clause:
            atom = tuple(lit.atom)
            i = index.get(atom)
            if i is None:
                known = atom[1] == atom[2] if atom[0] == "=" else bool(value(atom))
                if known != lit.positive:
                    possible = False
                    break
            elif lit.positive:
                pos |= 1 << i
            else:
                neg |= 1 << i
        if possible and not pos & neg:
            out.append((goal_bit, pos, neg))
    return out


AXIOM = ":derived"  # the name of an axiom's schema in grounding (no action has it)


def _axiom_schema(axiom: Axiom) -> ActionSchema:
    """An axiom as an action schema that adds its head, for relaxed reachability: the
    existential variables at the top of its condition become parameters (so that its
    atoms join like an action's preconditions), literal conjuncts its precondition."""
    params = list(axiom.parameters)
    names = {v for v, _ in params}
    literals, formulas = [], []
    todo = [axiom.condition]
    while todo:
        f = todo.pop()
        if isinstance(f, And):
            todo.extend(reversed(f.parts))
        elif isinstance(f, Quantified) and not f.universal and \
                not names & {v for v, _ in f.variables}:
            params.extend(f.variables)
            names.update(v for v, _ in f.variables)
            todo.append(f.body)
        elif isinstance(f, Literal):
            literals.append(f)
        else:
            formulas.append(f)
    return ActionSchema(name=AXIOM, parameters=tuple(params), precondition=tuple(literals),
                        add=(axiom.head,), delete=(), cost=0, formulas=tuple(formulas))


def _rules(g: "_SchemaGrounder", seen, axiom: Axiom, value, mask, index, domain: Domain):
    """The rules (head, pos, neg) of an axiom's reachable bindings: one per clause."""
    objects = g.objects if g.adl else adl.Objects(domain, {})
    n = len(axiom.parameters)
    for args in sorted(seen):
        head = _instantiate(axiom.head, dict(zip(g.params[:n], args[:n])))
        if head not in index:
            continue
        try:
            ground = adl_grounding.ground_action(g.schema, args, objects, value, mask, 0)
        except adl.TooLarge as exc:
            raise PDDLError(_say("derived_condition_too_large", atom=f"({' '.join(head)})",
                                 size=exc), domain.source) from None
        if ground is not None:
            for pos, neg in ground.clauses:
                yield (index[head], pos, neg)


def _cost(schema: ActionSchema, binding: dict[str, str], problem: Problem) -> int:
    if isinstance(schema.cost, int):
        return schema.cost
    term = _instantiate(schema.cost, binding)
    shown = f"({' '.join(term)})"
    if term not in problem.numeric_init:
        raise PDDLError(_say("cost_missing", cost=shown, action=schema.name), problem.source)
    value = problem.numeric_init[term]
    if not (math.isfinite(value) and value >= 0 and value == int(value)):
        raise PDDLError(_say("cost_not_whole", cost=shown, action=schema.name,
                             value=f"{value:g}"), problem.source)
    return int(value)
