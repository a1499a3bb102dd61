"""Checks of the shipped STRIPS domains and their problem files.

* every domain and problem parses with two independent parsers
  (the ``pddl`` package and ``unified_planning``'s PDDL reader);
* every problem is solvable and its goal is false in the initial state; the
  plan is found by the small grounded search below (which reads the files via
  the ``pddl`` package, not via racbench code) and is then validated by
  unified_planning's sequential plan validator;
* Fast Downward (``up-fast-downward``) solves three problems per domain;
* ``problem_generators`` reproduces the committed files byte-identically.
"""

from __future__ import annotations

import heapq
import itertools
from functools import lru_cache
from pathlib import Path
from typing import Dict, FrozenSet, List, Optional, Tuple

import pytest

import problem_generators as pg  # tools/, an authoring script outside the package

DOMAINS_DIR = Path(__file__).resolve().parents[1] / "racbench" / "data" / "domains"

CASES = [
    (domain, index, size)
    for domain in pg.DOMAINS
    for index, size in pg.problem_schedule(domain)
]
CASE_IDS = [f"{d}-p{i:02d}" for d, i, _ in CASES]


def _domain_file(domain: str) -> Path:
    return DOMAINS_DIR / domain / "domain.pddl"


def _problem_file(domain: str, index: int) -> Path:
    return DOMAINS_DIR / domain / "problems" / pg.problem_filename(index)


# --------------------------------------------------------------------------
# parsing
# --------------------------------------------------------------------------


@lru_cache(maxsize=None)
def _parsers():
    # one parser instance each: building the grammar dominates parse time
    from pddl.parser.domain import DomainParser
    from pddl.parser.problem import ProblemParser
    from unified_planning.io import PDDLReader

    return DomainParser(), ProblemParser(), PDDLReader()


@lru_cache(maxsize=None)
def _pddl_domain(domain: str):
    return _parsers()[0](_domain_file(domain).read_text())


@lru_cache(maxsize=None)
def _pddl_problem(domain: str, index: int):
    return _parsers()[1](_problem_file(domain, index).read_text())


@lru_cache(maxsize=None)
def _up_domain_parse(domain: str):
    """UP's pyparsing result for a domain, parsed once (None: use the public API)."""
    reader = _parsers()[2]
    try:
        from unified_planning.io.utils import parse_string

        text = _domain_file(domain).read_text().replace("\t", " ").lower()
        return text, parse_string(reader._pp_domain, text, parse_all=True)
    except (ImportError, AttributeError):  # pragma: no cover - other UP versions
        return None


@lru_cache(maxsize=None)
def _up_problem(domain: str, index: int):
    """Parse with unified_planning's PDDL reader.

    Re-parsing the domain text for each of its problems dominates the run time,
    so the domain's parse result is reused and only the problem text is parsed
    (this is what ``PDDLReader.parse_problem_string`` does internally); with a
    UP version lacking those internals the public ``parse_problem`` is used.
    """
    reader = _parsers()[2]
    cached = _up_domain_parse(domain)
    if cached is not None and hasattr(reader, "_parse_problem"):
        from unified_planning.io.utils import parse_string

        domain_text, domain_res = cached
        text = _problem_file(domain, index).read_text().replace("\t", " ").lower()
        problem_res = parse_string(reader._pp_problem, text, parse_all=True)
        return reader._parse_problem(domain_res, domain_text, problem_res, text)
    return reader.parse_problem(str(_domain_file(domain)), str(_problem_file(domain, index)))


# --------------------------------------------------------------------------
# a small grounder and search over the `pddl` package's structures
# --------------------------------------------------------------------------

Atom = Tuple[str, ...]


class GroundTask:
    """Grounded STRIPS task (with negative preconditions and equality)."""

    def __init__(self, domain, problem):
        from pddl.logic.base import And, Not
        from pddl.logic.predicates import EqualTo, Predicate

        self._And, self._Not, self._Eq, self._Pred = And, Not, EqualTo, Predicate
        parents: Dict[str, Optional[str]] = dict(domain.types)
        self.objects_of: Dict[str, List[str]] = {}
        all_objects = list(domain.constants) + list(problem.objects)
        for obj in sorted(all_objects, key=lambda o: o.name):
            tags = set(obj.type_tags) or {"object"}
            ancestors = {"object"}
            for tag in tags:
                t: Optional[str] = tag
                while t is not None:
                    ancestors.add(t)
                    t = parents.get(t)
            for t in ancestors:
                self.objects_of.setdefault(t, []).append(obj.name)

        self.init: FrozenSet[Atom] = frozenset(self._atom(a, {}) for a in problem.init)
        self.goal_pos, self.goal_neg = self._literals(problem.goal)
        fluent_preds = set()
        self.schemas = []
        for action in sorted(domain.actions, key=lambda a: a.name):
            params = [(v.name, sorted(v.type_tags) or ["object"]) for v in action.parameters]
            pre = self._flatten(action.precondition)
            eff = self._flatten(action.effect)
            adds = [a for sign, a in eff if sign]
            dels = [a for sign, a in eff if not sign]
            for a in adds + dels:
                fluent_preds.add(a.name)
            self.schemas.append((action.name, params, pre, adds, dels))
        self.fluent_preds = fluent_preds
        self.actions = self._ground()

    # -- formula helpers ---------------------------------------------------
    def _flatten(self, formula) -> List[Tuple[bool, object]]:
        if formula is None:
            return []
        if isinstance(formula, self._And):
            out = []
            for op in formula.operands:
                out.extend(self._flatten(op))
            return out
        if isinstance(formula, self._Not):
            inner = formula.argument
            if not isinstance(inner, (self._Pred, self._Eq)):
                raise NotImplementedError(f"unsupported negation {formula}")
            return [(False, inner)]
        if isinstance(formula, (self._Pred, self._Eq)):
            return [(True, formula)]
        raise NotImplementedError(f"unsupported formula {formula!r}")

    def _literals(self, formula):
        pos, neg = set(), set()
        for sign, atom in self._flatten(formula):
            (pos if sign else neg).add(self._atom(atom, {}))
        return frozenset(pos), frozenset(neg)

    @staticmethod
    def _term(term, binding) -> str:
        name = getattr(term, "name", str(term))
        return binding[name] if type(term).__name__ == "Variable" else name

    def _atom(self, atom, binding) -> Atom:
        return (atom.name,) + tuple(self._term(t, binding) for t in atom.terms)

    # -- grounding by relaxed reachability ---------------------------------
    def _bindings(self, params, pre, facts_by_pred):
        typed = {name: set(itertools.chain.from_iterable(self.objects_of.get(t, []) for t in types))
                 for name, types in params}
        positives = [a for sign, a in pre if sign and isinstance(a, self._Pred)]
        positives.sort(key=lambda a: len(facts_by_pred.get(a.name, ())))

        def extend(i, binding):
            if i == len(positives):
                free = [n for n, _ in params if n not in binding]
                for values in itertools.product(*(sorted(typed[n]) for n in free)):
                    b = dict(binding)
                    b.update(zip(free, values))
                    yield b
                return
            atom = positives[i]
            for fact in facts_by_pred.get(atom.name, ()):
                b = dict(binding)
                ok = True
                for term, value in zip(atom.terms, fact[1:]):
                    if type(term).__name__ == "Variable":
                        if term.name in b:
                            if b[term.name] != value:
                                ok = False
                                break
                        elif value in typed[term.name]:
                            b[term.name] = value
                        else:
                            ok = False
                            break
                    elif term.name != value:
                        ok = False
                        break
                if ok:
                    yield from extend(i + 1, b)

        yield from extend(0, {})

    def _ground(self):
        facts = set(self.init)
        while True:
            by_pred: Dict[str, List[Atom]] = {}
            for f in facts:
                by_pred.setdefault(f[0], []).append(f)
            for v in by_pred.values():
                v.sort()
            ground = {}
            for name, params, pre, adds, dels in self.schemas:
                for b in self._bindings(params, pre, by_pred):
                    pos, neg, ok = [], [], True
                    for sign, a in pre:
                        if isinstance(a, self._Eq):
                            same = self._term(a.left, b) == self._term(a.right, b)
                            if same != sign:
                                ok = False
                                break
                            continue
                        atom = self._atom(a, b)
                        static = a.name not in self.fluent_preds
                        if sign:
                            pos.append(atom)
                        elif static:
                            if atom in self.init:
                                ok = False
                                break
                        else:
                            neg.append(atom)
                    if not ok:
                        continue
                    label = "(" + " ".join([name] + [b[n] for n, _ in params]) + ")"
                    ground[label] = (
                        frozenset(a for a in pos if a[0] in self.fluent_preds),
                        frozenset(neg),
                        frozenset(self._atom(a, b) for a in adds),
                        frozenset(self._atom(a, b) for a in dels),
                    )
            new = set(facts)
            for _, _, add, _ in ground.values():
                new |= add
            if new == facts:
                return sorted(ground.items())
            facts = new

    # -- search ------------------------------------------------------------
    def holds(self, state, pos, neg) -> bool:
        return pos <= state and not (neg & state)

    def is_goal(self, state) -> bool:
        return self.holds(state, self.goal_pos, self.goal_neg)

    def plan(self, max_states: int = 1_000_000) -> Optional[List[str]]:
        """Greedy best-first search on the goal-count heuristic over bitset states.

        Every reachable state is eventually expanded, so the search is complete
        on these finite state spaces and returns None only if no plan exists.
        """
        if any(a[0] not in self.fluent_preds and a not in self.init for a in self.goal_pos):
            return None
        fluents = sorted(
            {a for a in self.init if a[0] in self.fluent_preds}
            | {a for _, (pos, neg, add, dele) in self.actions for a in pos | neg | add | dele}
            | {a for a in self.goal_pos | self.goal_neg if a[0] in self.fluent_preds}
        )
        bit = {a: 1 << i for i, a in enumerate(fluents)}

        def mask(atoms) -> int:
            m = 0
            for a in atoms:
                m |= bit[a]
            return m

        start = mask(a for a in self.init if a[0] in self.fluent_preds)
        goal_pos = mask(a for a in self.goal_pos if a[0] in self.fluent_preds)
        goal_neg = mask(self.goal_neg)
        buckets: Dict[int, list] = {}
        for label, (pos, neg, add, dele) in self.actions:
            key = bit[min(pos)].bit_length() - 1 if pos else -1
            buckets.setdefault(key, []).append((label, mask(pos), mask(neg), mask(add), mask(dele)))
        unconditional = buckets.pop(-1, [])

        def h(state: int) -> int:
            return (goal_pos & ~state).bit_count() + (goal_neg & state).bit_count()

        parent: Dict[int, Optional[Tuple[int, str]]] = {start: None}
        counter = itertools.count()
        frontier = [(h(start), next(counter), start)]
        while frontier:
            _, _, state = heapq.heappop(frontier)
            if state & goal_pos == goal_pos and not state & goal_neg:
                steps = []
                while parent[state] is not None:
                    prev, label = parent[state]
                    steps.append(label)
                    state = prev
                return steps[::-1]
            candidates = list(unconditional)
            rest = state
            while rest:
                low = rest & -rest
                candidates.extend(buckets.get(low.bit_length() - 1, ()))
                rest ^= low
            for label, pos, neg, add, dele in candidates:
                if state & pos == pos and not state & neg:
                    succ = (state & ~dele) | add
                    if succ not in parent:
                        parent[succ] = (state, label)
                        if len(parent) > max_states:
                            raise RuntimeError("state limit exceeded")
                        heapq.heappush(frontier, (h(succ), next(counter), succ))
        return None


@lru_cache(maxsize=None)
def _plan(domain: str, index: int):
    task = GroundTask(_pddl_domain(domain), _pddl_problem(domain, index))
    return task, task.plan()


# --------------------------------------------------------------------------
# tests
# --------------------------------------------------------------------------


def test_domain_directories_match_generators():
    present = {p.name for p in DOMAINS_DIR.iterdir() if p.is_dir()}
    assert set(pg.DOMAINS) <= present
    for domain in pg.DOMAINS:
        files = sorted(p.name for p in (DOMAINS_DIR / domain / "problems").glob("*.pddl"))
        assert files == [pg.problem_filename(i) for i, _ in pg.problem_schedule(domain)]
        assert len(files) >= 12


@pytest.mark.parametrize("domain", pg.DOMAINS)
def test_domain_parses_with_both_parsers(domain):
    d = _pddl_domain(domain)
    assert d.name == domain
    assert len(d.actions) >= 1
    # UP's public entry point on the domain and its first problem (the
    # per-problem test reuses the domain's parse result for speed)
    first = pg.problem_schedule(domain)[0][0]
    up_first = _parsers()[2].parse_problem(str(_domain_file(domain)), str(_problem_file(domain, first)))
    assert str(up_first) == str(_up_problem(domain, first))
    assert {a.name for a in up_first.actions} == {a.name for a in d.actions}
    assert {f.name for f in up_first.fluents} == {p.name for p in d.predicates}


@pytest.mark.parametrize("domain,index,size", CASES, ids=CASE_IDS)
def test_problem_parses_with_both_parsers(domain, index, size):
    prob = _pddl_problem(domain, index)
    assert prob.domain_name == domain
    assert 2 <= len(prob.objects) <= 15
    up = _up_problem(domain, index)
    assert len(list(up.all_objects)) == len(prob.objects)
    assert len(up.goals) >= 1


@pytest.mark.parametrize("domain,index,size", CASES, ids=CASE_IDS)
def test_problem_solvable_and_goal_false_initially(domain, index, size):
    task, plan = _plan(domain, index)
    assert not task.is_goal(task.init), "goal already holds in the initial state"
    assert plan is not None, "no plan exists"
    assert len(plan) >= 1


@pytest.mark.parametrize("domain,index,size", CASES, ids=CASE_IDS)
def test_plan_validates_with_unified_planning(domain, index, size):
    from unified_planning.plans import ActionInstance, SequentialPlan
    from unified_planning.shortcuts import PlanValidator

    _, plan = _plan(domain, index)
    assert plan is not None
    up = _up_problem(domain, index)
    steps = []
    for label in plan:
        name, *args = label.strip("()").split()
        steps.append(ActionInstance(up.action(name), [up.object(n) for n in args]))
    with PlanValidator(name="sequential_plan_validator") as validator:
        result = validator.validate(up, SequentialPlan(steps))
    assert result.status.name == "VALID", result


def test_generator_reproduces_committed_files():
    for domain, index, size in CASES:
        expected = _problem_file(domain, index).read_bytes()
        assert pg.generate_problem(domain, index, size).encode("utf-8") == expected, (domain, index)
    assert pg.render_domains_yaml().encode("utf-8") == (DOMAINS_DIR / "domains.yaml").read_bytes()


def test_write_all_rewrites_the_tree_byte_identically(tmp_path):
    """What ``python tools/problem_generators.py`` writes."""
    written = pg.write_all(tmp_path)
    levels = sum(len(specs) for specs in pg.LEVEL_PROBLEMS.values())  # levels/gNN.pddl
    assert len(written) == len(CASES) + levels + 1
    for path in written:
        rel = path.relative_to(tmp_path)
        assert path.read_bytes() == (DOMAINS_DIR / rel).read_bytes(), rel


def test_domains_yaml_holds_the_one_copy_of_each_description():
    """A domain's description (English) and types are written by hand in domains.yaml;
    the generator reads them there (no copy in Python) and names the file where one is
    missing."""
    import inspect

    import yaml

    source = inspect.getsource(pg)
    entries = yaml.safe_load((DOMAINS_DIR / "domains.yaml").read_text())["domains"]
    assert [e["name"] for e in entries] == list(pg.DOMAINS)
    for entry in entries:
        assert pg.domain_info(entry["name"]) == {k: entry[k] for k in pg.HAND_WRITTEN}
        assert entry["description"] not in source, entry["name"]
        assert f"\"{entry['description']}\"" in pg.render_domains_yaml()
    with pytest.raises(ValueError, match=r"domains\.yaml: domain 'nowhere' has no "
                                         r"description or types; write"):
        pg.domain_info("nowhere")


def test_problems_of_a_domain_are_distinct():
    for domain in pg.DOMAINS:
        bodies = {}
        for index, _ in pg.problem_schedule(domain):
            text = _problem_file(domain, index).read_text()
            body = text.replace(f"{domain}-p{index:02d}", "NAME").split("\n", 1)[1]
            assert body not in bodies, (domain, index, bodies.get(body))
            bodies[body] = index


def test_generator_is_deterministic_and_seeded_by_arguments():
    import random

    a = pg.generate_problem("blocksworld", 3, 2)
    random.seed(12345)
    assert a == pg.generate_problem("blocksworld", 3, 2)
    random.seed(54321)
    assert a == pg.generate_problem("blocksworld", 3, 2)
    assert a != pg.generate_problem("blocksworld", 4, 2)
    with pytest.raises(ValueError):
        pg.generate_problem("no-such-domain", 1, 1)


@lru_cache(maxsize=None)
def _fast_downward_available() -> Tuple[bool, str]:
    try:
        import up_fast_downward  # noqa: F401
        from unified_planning.shortcuts import OneshotPlanner

        with OneshotPlanner(name="fast-downward"):
            pass
    except Exception as exc:  # pragma: no cover - depends on the environment
        return False, f"Fast Downward (up-fast-downward) not usable: {exc}"
    return True, ""


def _fd_cases():
    """Per domain: the first, a middle and the last (largest) problem."""
    cases = []
    for domain in pg.DOMAINS:
        schedule = pg.problem_schedule(domain)
        for index, size in (schedule[0], schedule[len(schedule) // 2], schedule[-1]):
            cases.append((domain, index, size))
    return cases


@pytest.mark.parametrize("domain,index,size", _fd_cases(), ids=[f"{d}-p{i:02d}" for d, i, _ in _fd_cases()])
def test_fast_downward_solves_problem(domain, index, size):
    ok, reason = _fast_downward_available()
    if not ok:
        pytest.skip(reason)
    from unified_planning.engines import PlanGenerationResultStatus
    from unified_planning.shortcuts import OneshotPlanner, get_environment

    get_environment().credits_stream = None
    up = _up_problem(domain, index)
    with OneshotPlanner(name="fast-downward") as planner:
        result = planner.solve(up, timeout=120)  # generous: CI machines may be loaded
    assert result.status in (
        PlanGenerationResultStatus.SOLVED_SATISFICING,
        PlanGenerationResultStatus.SOLVED_OPTIMALLY,
    ), result.status
