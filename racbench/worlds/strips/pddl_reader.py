"""Read PDDL domain and problem files into the lifted model.

Accepts files as planning-competition collections ship them: any case, comments,
`:requirements` lists that omit what the domain uses, typed and untyped objects,
type hierarchies (a type declared under two parents is of both, as in Fast Downward's
translator) and `either`, constants, equality, negative preconditions and
action costs, and the ADL that Fast Downward's translator reads (`or`, `imply`, `not`
over any condition, `exists` and `forall` in preconditions and goals, `forall` and
`when` in effects; adl_reader), and derived predicates (`:derived`, set by no effect
and listed in no :init). Numeric fluents and durations stop with a PDDLError naming
them, and so does every malformed input: a missing or
extra part, a name declared twice (both places are named), an undeclared type,
predicate, object or variable, a circular type hierarchy, a number that is not a plain
non-negative decimal. As in Fast Downward, an object may not repeat a domain constant
and each section appears at most once.

Positions are token indices (see sexpr) until an error turns one into line:column.
Messages are templates/cli/pddl.j2's macros; what a message says was expected or where
(`what`, `where`) travels as an unrendered racbench.text.Phrase, so reading a good file
renders no template.
"""

from __future__ import annotations

import math
import os
import re

from racbench.text import Phrase, sayer
from racbench.worlds.strips import adl, limits
from racbench.worlds.strips.adl_reader import FormulaReading
from racbench.worlds.strips.model import (ROOT_TYPE, ActionSchema, And, AnyOf, Atom, Axiom,
                                          Domain, Literal, Problem)
from racbench.worlds.strips.sexpr import PDDLError, SList, Source, read

SUPPORTED_REQUIREMENTS = frozenset({
    ":strips", ":typing", ":negative-preconditions", ":equality", ":action-costs",
    ":adl", ":disjunctive-preconditions", ":existential-preconditions",
    ":universal-preconditions", ":quantified-preconditions", ":conditional-effects",
    ":derived-predicates",
})
DOMAIN_SECTIONS = (":requirements", ":types", ":constants", ":predicates", ":functions",
                   ":action")
PROBLEM_SECTIONS = (":domain", ":requirements", ":objects", ":init", ":goal", ":metric")
REPEATABLE_SECTIONS = frozenset({":action", ":durative-action", ":derived", ":process",
                                 ":event"})
ACTION_KEYWORDS = (":parameters", ":precondition", ":effect")
NUMBER = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+")
_say = sayer("cli", ("pddl.j2",))
# what the reader expects where a message may say so: rendered only in a message
_A_SECTION = Phrase(_say, "a_section")
_A_REQUIREMENT = Phrase(_say, "a_requirement")
_A_TYPE_NAME = Phrase(_say, "a_name", kind="type")
_A_PREDICATE_DECLARATION = Phrase(_say, "a_predicate_declaration")
_A_PREDICATE_NAME = Phrase(_say, "a_name", kind="predicate")
_A_FUNCTION_NAME = Phrase(_say, "a_name", kind="function")
_AN_OBJECT_NAME = Phrase(_say, "a_name", kind="object")
_AN_ARGUMENT = Phrase(_say, "an_argument")
_AN_ATOM = Phrase(_say, "an_atom")
_AN_INITIAL_FACT = Phrase(_say, "an_initial_fact")
_AN_OBJECT_OR_VARIABLE = Phrase(_say, "an_object_or_variable")
_A_VALUE = Phrase(_say, "a_value")
_A_CONSTANTS_TYPE = Phrase(_say, "a_constants_type")
_A_TYPES_PARENT = Phrase(_say, "a_types_parent")

Name = tuple  # (text, index of its token)
Typed = tuple  # (name, token, ((type, token), ...)) from a typed list


class _Reader(FormulaReading):
    def __init__(self, source: Source):
        self.source = source
        self.filename = source.filename

    def error(self, at, macro: str, /, **kw) -> PDDLError:
        """An error at a token index or at the '(' of a list: templates/cli/pddl.j2's
        `macro` said with `kw`."""
        return self.source.error(at.start if isinstance(at, SList) else at,
                                 _say(macro, **kw))

    def where(self, k: int) -> str:
        line, col = self.source.position(k)
        return _say("position", line=line, column=col)

    def expect_list(self, item, k: int, what) -> SList:
        if not isinstance(item, SList):
            raise self.error(k, "expected_list", what=what, found=item)
        return item

    def expect_symbol(self, item, k: int, what) -> str:
        if isinstance(item, SList):
            raise self.error(k, "expected_symbol", what=what)
        return item

    def head_symbol(self, node: SList, what) -> str:
        """The first item of a list, which must be a name."""
        if not node.items:
            raise self.error(node, "expected_head", what=what)
        return self.expect_symbol(node.items[0], node.start + 1, what)

    def declare(self, seen: dict[str, int], name: str, k: int, kind) -> None:
        """Record a declaration; a second one with the same name names both places."""
        first = seen.get(name)
        if first is not None:
            raise self.error(k, "declared_twice", kind=kind, name=name,
                             first=self.where(first))
        seen[name] = k

    def check_variable(self, var: str, k: int, where) -> None:
        if not var.startswith("?"):
            raise self.error(k, "variable_without_mark", variable=var, where=where)

    def number(self, item, k: int, what) -> float:
        """A plain non-negative decimal such as 3 or 2.5 (no sign, exponent, nan or inf)."""
        text = self.expect_symbol(item, k, what)
        if not NUMBER.fullmatch(text):
            raise self.error(k, "not_a_number", what=what, found=text)
        value = float(text)
        if not math.isfinite(value):
            raise self.error(k, "number_too_large", start=text[:12], length=len(text))
        return value

    def header(self, top: SList, kind: str, known: tuple[str, ...]) -> tuple[str, list]:
        """Check `(define (KIND name) ...)`; return the name and the sections."""
        if top.head() != "define":
            raise self.error(top, "no_define")
        if len(top) < 2 or not isinstance(top.items[1], SList) or top.items[1].head() != kind:
            raise self.error(top.token_of(1), "no_header", kind=kind)
        if len(top.items[1]) != 2:
            raise self.error(top.items[1], "header_names", kind=kind)
        name = self.expect_symbol(top.items[1].items[1], top.items[1].start + 2,
                                  Phrase(_say, "a_name", kind=kind))
        sections = []
        seen: dict[str, SList] = {}
        for section, k in top.located(2):
            section = self.expect_list(section, k, _A_SECTION)
            head = section.head()
            if head is None or not head.startswith(":"):
                raise self.error(section, "no_section_keyword", known=known)
            if head in seen and head not in REPEATABLE_SECTIONS:
                raise self.error(section, "second_section", section=head,
                                 first=self.where(seen[head].start))
            seen[head] = section
            sections.append(section)
        return name, sections

    def typed_list(self, node: SList, start: int, what) -> list[Typed]:
        """Parse `a b - t c - (either u v) d` into (name, token, types); untyped -> object."""
        result: list[Typed] = []
        pending: list[Name] = []
        items = list(node.located(start))
        i = 0
        while i < len(items):
            item, k = items[i]
            if item == "-":
                if i + 1 >= len(items):
                    raise self.error(k, "no_type_after_dash", what=what)
                if not pending:
                    raise self.error(k, "dash_without_names", what=what)
                types = self.type_spec(*items[i + 1])
                result.extend((name, nk, types) for name, nk in pending)
                pending = []
                i += 2
                continue
            if isinstance(item, SList):
                self.expect_symbol(item, k, Phrase(_say, "a_name_in", what=what))
            pending.append((item, k))
            i += 1
        result.extend((name, nk, ((ROOT_TYPE, nk),)) for name, nk in pending)
        return result

    def type_spec(self, item, k: int) -> tuple[Name, ...]:
        if not isinstance(item, SList):
            return ((item, k),)
        if item.head() == "either" and len(item) > 1:
            return tuple((self.expect_symbol(t, tk, _A_TYPE_NAME), tk)
                         for t, tk in item.located(1))
        raise self.error(k, "bad_type_spec")

    def requirements(self, section: SList) -> frozenset[str]:
        reqs = set()
        for item, k in section.located(1):
            req = self.expect_symbol(item, k, _A_REQUIREMENT)
            if req not in SUPPORTED_REQUIREMENTS:
                raise self.error(k, "unsupported_requirement", requirement=req,
                                 supported=sorted(SUPPORTED_REQUIREMENTS))
            reqs.add(req)
        return frozenset(reqs)

    def not_argument(self, item: SList, where):
        """The one item of `(not X)`, with its token."""
        if len(item) != 2:
            raise self.error(item, "not_arity", found=len(item) - 1, where=where)
        return item.items[1], item.token_of(1)


class _DomainReader(_Reader):
    def parse(self) -> Domain:
        name, sections = self.header(read(self.source), "domain", DOMAIN_SECTIONS)
        requirements: frozenset[str] = frozenset({":strips"})
        self.supertypes: dict[str, str] = {}
        self.more_parents: dict[str, tuple[str, ...]] = {}
        self.more_parent_tokens: dict[tuple[str, str], int] = {}
        self.type_tokens: dict[str, int] = {}
        self.constants: dict[str, str] = {}
        self.predicates: dict[str, tuple[tuple[str, ...], ...]] = {}
        self.declared_predicates = self.predicates
        self.functions: dict[str, int] = {}
        constant_tokens: dict[str, int] = {}
        predicate_tokens: dict[str, int] = {}
        action_nodes: list[SList] = []
        axiom_nodes: list[SList] = []
        typed: list[tuple[Name, ...]] = []  # type uses, checked once all types are known
        for section in sections:
            head = section.head()
            if head == ":requirements":
                requirements = self.requirements(section)
            elif head == ":types":
                self.types(section)
            elif head == ":constants":
                for const, k, types in self.typed_list(section, 1, ":constants"):
                    self.declare(constant_tokens, const, k, "constant")
                    self.constants[const] = self.single_type(types, k, _A_CONSTANTS_TYPE)
                    typed.append(types)
            elif head == ":predicates":
                for pred, k in section.located(1):
                    pred = self.expect_list(pred, k, _A_PREDICATE_DECLARATION)
                    pname = self.head_symbol(pred, _A_PREDICATE_NAME)
                    self.declare(predicate_tokens, pname, pred.start + 1, "predicate")
                    where = Phrase(_say, "predicate_named", name=pname)
                    params = self.typed_list(pred, 1, where)
                    for var, vk, types in params:
                        self.check_variable(var, vk, where)
                        typed.append(types)
                    self.predicates[pname] = tuple(tuple(t for t, _ in types)
                                                   for _, _, types in params)
            elif head == ":functions":
                self.function_section(section)
            elif head == ":action":
                action_nodes.append(section)
            elif head == ":derived":
                axiom_nodes.append(section)
            elif head in (":durative-action", ":process", ":event"):
                construct = {":durative-action": ":durative-actions"}.get(head, ":time")
                raise self.error(section, "unsupported_section", section=head,
                                 needs=construct)
            else:
                raise self.error(section, "unknown_section", kind="domain", section=head,
                                 known=DOMAIN_SECTIONS)
        self.check_hierarchy()
        for types in typed:
            self.check_types(types)
        self.derived = {}  # derived predicate -> its first :derived
        for node in axiom_nodes:
            if len(node) > 1 and isinstance(node.items[1], SList) and node.items[1].items \
                    and isinstance(node.items[1].items[0], str):
                self.derived.setdefault(node.items[1].items[0], node)
        axioms = tuple(self.axiom(node) for node in axiom_nodes)
        action_tokens: dict[str, int] = {}
        actions = tuple(self.action(node, action_tokens) for node in action_nodes)
        return Domain(name=name, requirements=requirements, supertypes=self.supertypes,
                      more_parents=self.more_parents, axioms=axioms,
                      constants=self.constants, predicates=self.predicates, actions=actions,
                      functions=self.functions, source=self.filename)

    # -- types -------------------------------------------------------------------------
    def types(self, section: SList) -> None:
        parents: list[Name] = []
        for type_name, k, parent_types in self.typed_list(section, 1, ":types"):
            parent = self.single_type(parent_types, k, _A_TYPES_PARENT)
            if type_name == ROOT_TYPE:
                continue
            first = self.supertypes.setdefault(type_name, parent)
            if first != parent and parent != ROOT_TYPE:
                # declared again under another parent: of both types, as in Fast
                # Downward's translator (`object` is everyone's parent anyway)
                if first == ROOT_TYPE:
                    self.supertypes[type_name] = parent
                elif parent not in self.more_parents.get(type_name, ()):
                    self.more_parents[type_name] = self.more_parents.get(type_name, ()) \
                        + (parent,)
                    self.more_parent_tokens[(type_name, parent)] = k
            self.type_tokens.setdefault(type_name, k)
            parents.append(parent_types[0])
        for parent, k in parents:  # a parent used but not declared is a child of object
            if parent != ROOT_TYPE and parent not in self.supertypes:
                self.supertypes[parent] = ROOT_TYPE
                self.type_tokens[parent] = k

    def single_type(self, types: tuple[Name, ...], k: int, what) -> str:
        if len(types) != 1:
            raise self.error(k, "either_not_allowed", what=what)
        return types[0][0]

    def check_hierarchy(self) -> None:
        done: set[str] = {ROOT_TYPE}
        for start in self.supertypes:
            path: dict[str, None] = {}  # the walk up from `start`, in order
            t = start
            while t not in done:
                if t in path:
                    walk = list(path)
                    raise self.error(self.type_tokens[t], "circular_types",
                                     cycle=walk[walk.index(t):] + [t])
                path[t] = None
                t = self.supertypes.get(t, ROOT_TYPE)
            done.update(path)
        for t, parents in self.more_parents.items():  # a second parent below the type
            probe = Domain(name="", requirements=frozenset(), supertypes=self.supertypes,
                           constants={}, predicates={}, actions=(),
                           more_parents=self.more_parents)
            for parent in parents:
                if t in probe.ancestors(parent):
                    raise self.error(self.more_parent_tokens[(t, parent)],
                                     "circular_parent", type=t, parent=parent)

    def check_types(self, types: tuple[Name, ...]) -> None:
        for t, k in types:
            if t != ROOT_TYPE and t not in self.supertypes:
                raise self.error(k, "unknown_type", type=t,
                                 declared=[ROOT_TYPE] + sorted(self.supertypes))

    # -- functions ---------------------------------------------------------------------
    def function_section(self, section: SList) -> None:
        tokens: dict[str, int] = {}
        items = list(section.located(1))
        i = 0
        while i < len(items):
            item, k = items[i]
            if isinstance(item, SList):
                fname = self.head_symbol(item, _A_FUNCTION_NAME)
                self.declare(tokens, fname, item.start + 1, "function")
                self.functions[fname] = len(self.typed_list(
                    item, 1, Phrase(_say, "function_named", name=fname)))
                i += 1
            elif item == "-" and i + 1 < len(items) and items[i + 1][0] == "number":
                i += 2
            else:
                raise self.error(k, "bad_function")

    # -- derived predicates ------------------------------------------------------------
    def axiom(self, node: SList) -> Axiom:
        """`(:derived (PRED ?x - t ...) CONDITION)` of a declared predicate."""
        if len(node) != 3 or not isinstance(node.items[1], SList):
            raise self.error(node, "bad_derived", found=len(node) - 1)
        head_node = node.items[1]
        pred = self.head_symbol(head_node, Phrase(_say, "a_derived_name"))
        if pred not in self.predicates:
            raise self.error(head_node.start + 1, "derived_undeclared", predicate=pred,
                             declared=sorted(self.predicates))
        named = Phrase(_say, "derived_named", name=pred)
        params = self.typed_list(head_node, 1, named)
        if len(params) != len(self.predicates[pred]):
            raise self.error(head_node, "arity", kind="predicate", name=pred,
                             takes=len(self.predicates[pred]), found=len(params))
        variables: dict[str, int] = {}
        for var, k, types in params:
            self.check_variable(var, k, named)
            self.declare(variables, var, k, Phrase(_say, "variable_of", owner=named))
            self.check_types(types)
        where = Phrase(_say, "condition_of_derived", predicate=pred)

        def leaf(atom_node, scope):
            return self.atom(atom_node, atom_node.start, scope, where)

        condition = self.formula(node.items[2], node.token_of(2), variables, where, leaf)
        return Axiom(head=(pred, *(v for v, _, _ in params)),
                     parameters=tuple((v, tuple(t for t, _ in types))
                                      for v, _, types in params),
                     condition=condition)

    def check_effect_atom(self, atom, node: SList, where) -> None:
        first = self.derived.get(atom[0])
        if first is not None:
            raise self.error(node, "derived_as_effect", predicate=atom[0], where=where,
                             first=self.where(first.start))

    # -- actions -----------------------------------------------------------------------
    def action(self, node: SList, action_tokens: dict[str, int]) -> ActionSchema:
        if len(node) < 2:
            raise self.error(node, "no_action_name")
        name = self.expect_symbol(node.items[1], node.start + 2,
                                  Phrase(_say, "a_name", kind="action"))
        self.declare(action_tokens, name, node.start + 2, "action")
        fields: dict[str, tuple] = {}
        items = list(node.located(2))
        for i in range(0, len(items), 2):
            key, k = items[i]
            key = self.expect_symbol(key, k, Phrase(_say, "an_action_keyword"))
            if key not in ACTION_KEYWORDS:
                raise self.error(k, "unknown_action_keyword", keyword=key, action=name)
            if key in fields:
                raise self.error(k, "action_keyword_twice", keyword=key, action=name,
                                 first=self.where(fields[key][2]))
            if i + 1 >= len(items):
                raise self.error(k, "action_keyword_no_value", keyword=key, action=name)
            fields[key] = items[i + 1] + (k,)
        params: list[Typed] = []
        if ":parameters" in fields:
            params_node = self.expect_list(*fields[":parameters"][:2],
                                           Phrase(_say, "a_parameter_list"))
            params = self.typed_list(params_node, 0,
                                     Phrase(_say, "parameters_of", action=name))
        variables: dict[str, int] = {}
        parameter = Phrase(_say, "parameter_of", action=name)
        for var, k, types in params:
            self.check_variable(var, k, name)
            self.declare(variables, var, k, parameter)
            self.check_types(types)
        precondition: list[Literal] = []
        formulas: list = []
        if ":precondition" in fields:
            self.condition(fields[":precondition"], variables, name, precondition, formulas)
        add: list[Atom] = []
        delete: list[Atom] = []
        effects: tuple = ()
        cost = None
        if ":effect" in fields:
            cost, effects = self.effect(fields[":effect"], variables, name, add, delete)
        if cost is None:  # with action costs an action that does not say costs 0
            cost = 0 if "total-cost" in self.functions else 1
        return ActionSchema(name=name,
                            parameters=tuple((v, tuple(t for t, _ in types))
                                             for v, _, types in params),
                            precondition=tuple(precondition), add=tuple(add),
                            delete=tuple(delete), cost=cost, formulas=tuple(formulas),
                            effects=effects)

    def term(self, item, k: int, variables: dict[str, int], where) -> str:
        arg = self.expect_symbol(item, k, _AN_ARGUMENT)
        if arg.startswith("?"):
            if arg not in variables:
                raise self.error(k, "variable_not_parameter", variable=arg, where=where)
        elif arg not in self.constants:
            raise self.error(k, "not_parameter_or_constant", name=arg, where=where)
        return arg

    def atom(self, item, k: int, variables: dict[str, int], where) -> Atom:
        node = self.expect_list(item, k, _AN_ATOM)
        if not node.items or isinstance(node.items[0], SList):
            self.head_symbol(node, Phrase(_say, "a_predicate_name_in", where=where))
        pred = node.items[0]
        args = tuple(self.term(a, ak, variables, where) for a, ak in node.located(1))
        if pred == "=":
            if len(args) != 2:
                raise self.error(node, "equality_arity", found=len(args))
            return ("=",) + args
        if pred not in self.predicates:
            raise self.error(node.start + 1, "unknown_symbol", kind="predicate", name=pred,
                             where=where, declared=sorted(self.predicates))
        if len(args) != len(self.predicates[pred]):
            raise self.error(node, "arity", kind="predicate", name=pred,
                             takes=len(self.predicates[pred]), found=len(args), where=where)
        return (pred,) + args

    def condition(self, field: tuple, variables: dict[str, int], name: str,
                  literals: list, formulas: list) -> None:
        """The conjuncts of a precondition: literals to `literals` (STRIPS), the rest
        (ADL) to `formulas`, each in the order written."""
        where = Phrase(_say, "precondition_of", action=name)

        def leaf(node, scope):
            return self.atom(node, node.start, scope, where)

        whole = self.formula(field[0], field[1], variables, where, leaf)
        for part in (whole.parts if isinstance(whole, And) else (whole,)):
            (literals if isinstance(part, Literal) else formulas).append(part)

    def effect(self, field: tuple, variables: dict[str, int], name: str, add: list,
               delete: list) -> tuple[int | Atom | None, tuple]:
        """The cost and the quantified or conditional effects; plain literals go to
        `add` and `delete`."""
        where = Phrase(_say, "effect_of", action=name)

        def leaf(node, scope):
            return self.atom(node, node.start, scope, where)

        adds, deletes, effects, costs = self.effect_parts(field, variables, where, leaf)
        add.extend(adds)
        delete.extend(deletes)
        if len(costs) > 1:
            raise self.error(costs[1], "second_cost", where=where,
                             first=self.where(costs[0].start))
        cost = self.cost_term(costs[0], variables, where) if costs else None
        return cost, effects

    def cost_term(self, item: SList, variables: dict[str, int], where) -> int | Atom:
        counter = item.items[1] if len(item) > 1 else None
        if (len(item) != 3 or not isinstance(counter, SList) or len(counter) != 1
                or counter.head() != "total-cost"):
            raise self.error(item, "unsupported_numeric_effect", where=where)
        amount, k = item.items[2], item.token_of(2)
        if not isinstance(amount, SList):
            value = self.number(amount, k, Phrase(_say, "a_cost"))
            if value != int(value):
                raise self.error(k, "cost_not_whole_number", found=amount)
            return int(value)
        fname = self.head_symbol(amount, _A_FUNCTION_NAME)
        if fname not in self.functions:
            raise self.error(amount.start + 1, "unknown_symbol", kind="function", name=fname,
                             where=where, declared=sorted(self.functions))
        args = tuple(self.term(a, ak, variables, where) for a, ak in amount.located(1))
        if len(args) != self.functions[fname]:
            raise self.error(amount, "arity", kind="function", name=fname,
                             takes=self.functions[fname], found=len(args))
        return (fname,) + args


class _ProblemReader(_Reader):
    def __init__(self, source: Source, domain: Domain):
        super().__init__(source)
        self.domain = domain
        self.declared_predicates = domain.predicates

    def parse(self) -> Problem:
        name, sections = self.header(read(self.source), "problem", PROBLEM_SECTIONS)
        objects: dict[str, str] = dict(self.domain.constants)
        init: set[Atom] = set()
        numeric: dict[Atom, float] = {}
        goal: list[Literal] = []
        goal_formula = None
        domain_name = None
        for section in sections:
            head = section.head()
            if head == ":domain":
                if len(section) != 2:
                    raise self.error(section, "domain_names")
                k = section.start + 2
                domain_name = self.expect_symbol(section.items[1], k,
                                                 Phrase(_say, "a_name", kind="domain"))
                if domain_name != self.domain.name:
                    raise self.error(k, "other_domain", named=domain_name,
                                     defined=self.domain.name)
            elif head == ":requirements":
                self.requirements(section)
            elif head == ":objects":
                self.objects(section, objects)
            elif head == ":init":
                for item, k in section.located(1):
                    item = self.expect_list(item, k, _AN_INITIAL_FACT)
                    if item.head() == "=":
                        self.assignment(item, objects, numeric)
                    elif item.head() == "not":
                        raise self.error(item, "negative_init")
                    else:
                        atom = self.ground_atom(item, objects, ":init")
                        if atom[0] in self.domain.derived_predicates:
                            raise self.error(item, "derived_in_init", predicate=atom[0])
                        init.add(atom)
            elif head == ":goal":
                if len(section) != 2:
                    raise self.error(section, "goal_count", found=len(section) - 1)
                goal_node = section.items[1]
                goal_formula = self.goal(goal_node, section.start + 2, objects)
            elif head == ":metric":
                continue
            else:
                raise self.error(section, "unknown_section", kind="problem", section=head,
                                 known=PROBLEM_SECTIONS)
        if goal_formula is not None:
            goal = self.ground_goal(goal_formula, goal_node, objects, init)
        return Problem(name=name, domain_name=domain_name or self.domain.name, objects=objects,
                       init=frozenset(init), goal=tuple(goal), numeric_init=numeric,
                       source=self.filename)

    def objects(self, section: SList, objects: dict[str, str]) -> None:
        declared: dict[str, int] = {}
        types = self.domain.supertypes
        for obj, k, obj_types in self.typed_list(section, 1, ":objects"):
            if obj in self.domain.constants:
                raise self.error(k, "object_is_constant", object=obj,
                                 domain=self.domain.name)
            self.declare(declared, obj, k, "object")
            if len(obj_types) != 1:
                raise self.error(k, "either_not_allowed",
                                 what=Phrase(_say, "an_objects_type"))
            t, tk = obj_types[0]
            if t != ROOT_TYPE and t not in types:
                raise self.error(tk, "undeclared_object_type", object=obj, type=t,
                                 declared=[ROOT_TYPE] + sorted(types))
            objects[obj] = t

    def assignment(self, item: SList, objects: dict[str, str],
                   numeric: dict[Atom, float]) -> None:
        if len(item) != 3 or not isinstance(item.items[1], SList):
            raise self.error(item, "bad_assignment")
        if (len(item.items[1]) == 1 and item.items[1].head() == "total-cost"
                and "total-cost" not in self.domain.functions):
            # the cost counter of a domain that declares no costs (copies of competition
            # files whose :functions were stripped): Fast Downward's translator reads
            # it and so do we; no action can increase it, so every action costs 1
            self.number(item.items[2], item.token_of(2), _A_VALUE)
            return
        term = self.ground_atom(item.items[1], objects, ":init", function=True)
        value = self.number(item.items[2], item.token_of(2), _A_VALUE)
        if numeric.get(term, value) != value:
            raise self.error(item, "two_values", atom=term, first=f"{numeric[term]:g}",
                             second=f"{value:g}")
        numeric[term] = value

    def ground_atom(self, node: SList, objects: dict[str, str], where: str,
                    function: bool = False) -> Atom:
        kind = "function" if function else "predicate"
        pred = self.head_symbol(node, _A_FUNCTION_NAME if function else _A_PREDICATE_NAME)
        declared = self.domain.functions if function else self.domain.predicates
        if pred not in declared:
            raise self.error(node.start + 1, "unknown_symbol", kind=kind, name=pred,
                             where=where, declared=sorted(declared))
        args = node.items[1:]
        for i, arg in enumerate(args, start=1):  # lists and unknown names: the slow path
            if not isinstance(arg, str) or arg not in objects:
                k = node.token_of(i)
                self.expect_symbol(arg, k, _AN_OBJECT_NAME)
                raise self.error(k, "not_an_object", name=arg, where=where)
        arity = self.domain.functions[pred] if function else len(self.domain.predicates[pred])
        if len(args) != arity:
            raise self.error(node, "arity", kind=kind, name=pred, takes=arity,
                             found=len(args))
        return (pred, *args)

    def goal(self, item, k: int, objects: dict[str, str]):
        """The goal condition as written (a formula over objects and quantified
        variables)."""
        def leaf(node, scope):
            return self.goal_atom(node, objects, scope)

        return self.formula(item, k, {}, ":goal", leaf)

    def goal_atom(self, node: SList, objects: dict[str, str], scope: dict[str, int]) -> Atom:
        if not any(isinstance(a, str) and a in scope for a in node.items[1:]):
            if node.head() != "=":
                return self.ground_atom(node, objects, ":goal")
        pred = self.head_symbol(node, _A_PREDICATE_NAME)
        args = []
        for arg, k in node.located(1):
            arg = self.expect_symbol(arg, k, _AN_OBJECT_OR_VARIABLE)
            if arg not in objects and arg not in scope:
                raise self.error(k, "not_object_or_variable", name=arg)
            args.append(arg)
        if pred == "=":
            if len(args) != 2:
                raise self.error(node, "equality_arity", found=len(args))
        elif pred not in self.domain.predicates:
            raise self.error(node.start + 1, "unknown_symbol", kind="predicate", name=pred,
                             where=":goal", declared=sorted(self.domain.predicates))
        elif len(args) != len(self.domain.predicates[pred]):
            raise self.error(node, "arity", kind="predicate", name=pred,
                             takes=len(self.domain.predicates[pred]), found=len(args))
        return (pred, *args)

    def check_types(self, types) -> None:
        for t, k in types:
            if t != ROOT_TYPE and t not in self.domain.supertypes:
                raise self.error(k, "unknown_type", type=t,
                                 declared=[ROOT_TYPE] + sorted(self.domain.supertypes))

    def ground_goal(self, formula, node: SList, objects: dict[str, str],
                    init: set[Atom]) -> list[Literal]:
        """The goal as literals: a conjunction of literals stays as written; an ADL goal
        is grounded (quantifiers over the objects, static atoms by their truth in :init)
        into alternatives (disjunctive normal form), see `goal_parts`."""
        parts = formula.parts if isinstance(formula, And) else (formula,)
        if all(isinstance(p, Literal) for p in parts):
            return list(parts)
        fluent = self.domain.fluent_predicates

        def value(atom):
            return None if atom[0] in fluent else atom in init

        where = node if isinstance(node, SList) else None
        try:
            clauses = adl.dnf(adl.ground(formula, {}, adl.Objects(self.domain, objects), value))
        except adl.TooLarge as exc:
            raise self.error(where, "goal_too_large", size=exc,
                             most=adl.MAX_CLAUSES) from None
        if not clauses:
            raise self.error(where, "goal_never_holds")
        return goal_parts(clauses)


def goal_parts(clauses: list) -> list:
    """A grounded goal's alternatives (adl.dnf) as goal parts: one alternative is its
    literals; several are the literals every one of them has, then one AnyOf of what
    is left of each (an alternative left empty would make the rest always true)."""
    if len(clauses) == 1:
        return adl.clause_literals(clauses[0])
    common = frozenset.intersection(*clauses)
    rest = [c - common for c in clauses]
    if not all(rest):
        return adl.clause_literals(common)
    return adl.clause_literals(common) + [
        AnyOf(tuple(tuple(adl.clause_literals(c)) for c in rest))]


def _check_size(text: str, filename: str) -> None:
    limit = limits.current()
    if len(text) > limit.max_pddl_bytes:
        raise _too_large(filename, len(text), limit)


def _too_large(filename: str, size: int, limit: limits.Limits) -> limits.LimitExceeded:
    return limits.LimitExceeded(
        _say("file_too_large", size=f"{size / limits.MB:.1f}", most=f"{limit.max_pddl_mb:g}",
             flag=limits.FLAGS["max_pddl_mb"]), filename)


def parse_domain(text: str, filename: str = "<string>") -> Domain:
    _check_size(text, filename)
    return _DomainReader(Source(text, filename)).parse()


def parse_problem(text: str, domain: Domain, filename: str = "<string>") -> Problem:
    _check_size(text, filename)
    return _ProblemReader(Source(text, filename), domain).parse()


def read_pddl_text(path) -> str:
    """The text of a PDDL file, refused unread if it is over the size limit.

    Bytes that are not UTF-8 are read as Latin-1, so that a comment may hold anything;
    outside comments the reader refuses any non-ASCII character with its position.
    """
    name = str(path)
    limit = limits.current()
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > limit.max_pddl_bytes:
                raise _too_large(name, size, limit)
            data = f.read(limit.max_pddl_bytes + 1)  # a pipe or device has no size
    except FileNotFoundError:
        raise PDDLError(_say("file_not_found"), name) from None
    except IsADirectoryError:
        raise PDDLError(_say("is_a_directory"), name) from None
    except OSError as exc:
        raise PDDLError(_say("unreadable", reason=exc.strerror or exc), name) from None
    if len(data) > limit.max_pddl_bytes:
        raise _too_large(name, len(data), limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def load_domain(path) -> Domain:
    return parse_domain(read_pddl_text(path), str(path))


def load_problem(path, domain: Domain) -> Problem:
    return parse_problem(read_pddl_text(path), domain, str(path))
