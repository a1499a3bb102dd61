"""Read PDDL domain and problem files into the lifted model.

Accepts files as planning-competition collections ship them: any case, comments,
`:requirements` lists that omit what the domain uses, typed and untyped objects,
type hierarchies and `either`, constants, equality, negative preconditions and
action costs. Anything beyond STRIPS (conditional effects, quantifiers, numeric
fluents, durations, derived predicates) stops with a PDDLError naming it.
"""

from __future__ import annotations

from pathlib import Path

from .model import ROOT_TYPE, ActionSchema, Atom, Domain, Literal, Problem
from .sexpr import PDDLError, SList, Symbol, read

SUPPORTED_REQUIREMENTS = frozenset({
    ":strips", ":typing", ":negative-preconditions", ":equality", ":action-costs",
})
UNSUPPORTED_CONSTRUCTS = {
    "when": ":conditional-effects", "forall": ":universal-preconditions",
    "exists": ":existential-preconditions", "or": ":disjunctive-preconditions",
    "imply": ":disjunctive-preconditions", "assign": ":numeric-fluents",
    "decrease": ":numeric-fluents", "scale-up": ":numeric-fluents",
    "scale-down": ":numeric-fluents", "at": ":durative-actions",
}


class _Reader:
    def __init__(self, filename: str):
        self.filename = filename

    def error(self, node, message: str) -> PDDLError:
        line = getattr(node, "line", None)
        col = getattr(node, "col", None)
        return PDDLError(message, self.filename, line, col)

    def expect_list(self, node, what: str) -> SList:
        if not isinstance(node, SList):
            raise self.error(node, f"expected {what} in parentheses, found '{node}'")
        return node

    def expect_symbol(self, node, what: str) -> Symbol:
        if not isinstance(node, Symbol):
            raise self.error(node, f"expected {what}, found a parenthesised list")
        return node

    def header(self, top: SList, kind: str) -> tuple[str, list]:
        """Check `(define (KIND name) ...)`; return the name and the sections."""
        if top.head() != "define":
            raise self.error(top, "expected '(define ...)' at the top of the file")
        if len(top) < 2 or not isinstance(top[1], SList) or top[1].head() != kind:
            raise self.error(top[1] if len(top) > 1 else top,
                             f"expected '({kind} NAME)' after 'define'")
        if len(top[1]) != 2:
            raise self.error(top[1], f"expected '({kind} NAME)' with exactly one name")
        name = self.expect_symbol(top[1][1], f"a {kind} name")
        sections = []
        for section in top.items[2:]:
            section = self.expect_list(section, "a section such as (:objects ...)")
            head = section.head()
            if head is None or not head.startswith(":"):
                raise self.error(section, "expected a section keyword starting with ':'")
            sections.append(section)
        return str(name), sections

    def typed_list(self, items: list, what: str) -> list[tuple[Symbol, tuple[str, ...]]]:
        """Parse `a b - t c - (either u v) d` into (name, types) pairs; untyped -> object."""
        result: list[tuple[Symbol, tuple[str, ...]]] = []
        pending: list[Symbol] = []
        i = 0
        while i < len(items):
            item = items[i]
            if isinstance(item, Symbol) and item == "-":
                if i + 1 >= len(items):
                    raise self.error(item, f"expected a type after '-' in {what}")
                types = self.type_spec(items[i + 1])
                if not pending:
                    raise self.error(item, f"'-' with no names before it in {what}")
                result.extend((name, types) for name in pending)
                pending = []
                i += 2
                continue
            pending.append(self.expect_symbol(item, f"a name in {what}"))
            i += 1
        result.extend((name, (ROOT_TYPE,)) for name in pending)
        return result

    def type_spec(self, node) -> tuple[str, ...]:
        if isinstance(node, Symbol):
            return (str(node),)
        if node.head() == "either" and len(node) > 1:
            return tuple(str(self.expect_symbol(t, "a type name")) for t in node.items[1:])
        raise self.error(node, "expected a type name or '(either TYPE ...)'")

    def requirements(self, section: SList) -> frozenset[str]:
        reqs = set()
        for item in section.items[1:]:
            req = self.expect_symbol(item, "a requirement such as :strips")
            if req not in SUPPORTED_REQUIREMENTS:
                raise self.error(
                    req, f"requirement {req} is not supported; racbench accepts STRIPS with "
                    f"{', '.join(sorted(SUPPORTED_REQUIREMENTS))}")
            reqs.add(str(req))
        return frozenset(reqs)


class _DomainReader(_Reader):
    def parse(self, text: str) -> Domain:
        name, sections = self.header(read(text, self.filename), "domain")
        requirements: frozenset[str] = frozenset({":strips"})
        supertypes: dict[str, str] = {}
        constants: dict[str, str] = {}
        predicates: dict[str, tuple[tuple[str, ...], ...]] = {}
        functions: dict[str, int] = {}
        action_nodes: list[SList] = []
        for section in sections:
            head = section.head()
            if head == ":requirements":
                requirements = self.requirements(section)
            elif head == ":types":
                for type_name, parents in self.typed_list(section.items[1:], ":types"):
                    if len(parents) != 1:
                        raise self.error(type_name, "a type's parent cannot be '(either ...)'")
                    if type_name != ROOT_TYPE:
                        supertypes[str(type_name)] = parents[0]
            elif head == ":constants":
                for const, types in self.typed_list(section.items[1:], ":constants"):
                    constants[str(const)] = types[0]
            elif head == ":predicates":
                for pred in section.items[1:]:
                    pred = self.expect_list(pred, "a predicate declaration")
                    pname = self.expect_symbol(pred[0] if len(pred) else pred,
                                               "a predicate name")
                    params = self.typed_list(pred.items[1:], f"predicate {pname}")
                    predicates[str(pname)] = tuple(types for _, types in params)
            elif head == ":functions":
                items = [i for i in section.items[1:]]
                for item in items:
                    if isinstance(item, SList):
                        fname = self.expect_symbol(item[0], "a function name")
                        functions[str(fname)] = len(self.typed_list(item.items[1:], "function"))
            elif head == ":action":
                action_nodes.append(section)
            elif head in (":durative-action", ":derived", ":process", ":event"):
                construct = {":durative-action": ":durative-actions",
                             ":derived": ":derived-predicates"}.get(head, ":time")
                raise self.error(section, f"{head} needs {construct}, which racbench does not "
                                 "support; accepted: :action with STRIPS preconditions and effects")
            else:
                raise self.error(section, f"unknown domain section {head}; expected one of "
                                 ":requirements :types :constants :predicates :functions :action")
        for parent in list(supertypes.values()):
            if parent != ROOT_TYPE and parent not in supertypes:
                supertypes[parent] = ROOT_TYPE
        self.predicates = predicates
        self.functions = functions
        self.constants = constants
        actions = tuple(self.action(node) for node in action_nodes)
        return Domain(name=name, requirements=requirements, supertypes=supertypes,
                      constants=constants, predicates=predicates, actions=actions,
                      functions=functions, source=self.filename)

    def action(self, node: SList) -> ActionSchema:
        if len(node) < 2:
            raise self.error(node, "expected an action name after :action")
        name = str(self.expect_symbol(node[1], "an action name"))
        fields: dict[str, object] = {}
        i = 2
        while i < len(node):
            key = self.expect_symbol(node[i], "a keyword (:parameters, :precondition, :effect)")
            if key not in (":parameters", ":precondition", ":effect"):
                raise self.error(key, f"unknown action keyword {key} in action {name}; "
                                 "expected :parameters, :precondition or :effect")
            if i + 1 >= len(node):
                raise self.error(key, f"{key} in action {name} has no value")
            fields[str(key)] = node[i + 1]
            i += 2
        params_node = fields.get(":parameters")
        params = []
        if params_node is not None:
            params_node = self.expect_list(params_node, "a parameter list")
            params = self.typed_list(params_node.items, f"parameters of {name}")
        variables = {str(v) for v, _ in params}
        for var, _ in params:
            if not var.startswith("?"):
                raise self.error(var, f"parameter '{var}' of {name} must start with '?'")
        precondition = ()
        if ":precondition" in fields:
            precondition = tuple(self.condition(fields[":precondition"], variables, name))
        add: list[Atom] = []
        delete: list[Atom] = []
        cost = None
        if ":effect" in fields:
            cost = self.effect(fields[":effect"], variables, name, add, delete)
        if cost is None:  # with action costs an action that does not say costs 0
            cost = 0 if "total-cost" in self.functions else 1
        return ActionSchema(name=name, parameters=tuple((str(v), t) for v, t in params),
                            precondition=precondition, add=tuple(add), delete=tuple(delete),
                            cost=cost)

    def atom(self, node, variables: set[str], where: str) -> Atom:
        node = self.expect_list(node, "an atom such as (on ?x ?y)")
        if not len(node):
            raise self.error(node, f"empty atom in {where}")
        pred = self.expect_symbol(node[0], "a predicate name")
        args = tuple(self.expect_symbol(a, "an argument (a ?variable or a constant)")
                     for a in node.items[1:])
        for arg in args:
            if arg.startswith("?") and arg not in variables:
                raise self.error(arg, f"variable {arg} in {where} is not a parameter")
            if not arg.startswith("?") and arg not in self.constants:
                raise self.error(arg, f"'{arg}' in {where} is neither a parameter nor a "
                                 "declared constant")
        if pred == "=":
            if len(args) != 2:
                raise self.error(node, "'=' takes exactly two arguments")
            return ("=",) + tuple(str(a) for a in args)
        if pred not in self.predicates:
            raise self.error(pred, f"unknown predicate '{pred}' in {where}; declared: "
                             f"{', '.join(sorted(self.predicates)) or 'none'}")
        if len(args) != len(self.predicates[pred]):
            raise self.error(node, f"predicate '{pred}' takes {len(self.predicates[pred])} "
                             f"arguments, found {len(args)} in {where}")
        return (str(pred),) + tuple(str(a) for a in args)

    def conjunction_items(self, node, where: str) -> list:
        node = self.expect_list(node, f"a condition in {where}")
        head = node.head()
        if head == "and":
            out = []
            for item in node.items[1:]:
                out.extend(self.conjunction_items(item, where))
            return out
        if head in UNSUPPORTED_CONSTRUCTS and head not in self.predicates:
            raise self.error(node, f"'{head}' in {where} needs "
                             f"{UNSUPPORTED_CONSTRUCTS[head]}, which racbench does not "
                             "support; accepted: conjunctions of literals")
        return [node] if len(node) else []

    def condition(self, node, variables: set[str], name: str) -> list[Literal]:
        where = f"the precondition of {name}"
        literals = []
        for item in self.conjunction_items(node, where):
            if item.head() == "not":
                if len(item) != 2:
                    raise self.error(item, "'not' takes exactly one atom")
                literals.append(Literal(self.atom(item[1], variables, where), False))
            else:
                literals.append(Literal(self.atom(item, variables, where), True))
        return literals

    def effect(self, node, variables: set[str], name: str, add: list, delete: list):
        where = f"the effect of {name}"
        cost: int | Atom | None = None
        for item in self.conjunction_items(node, where):
            head = item.head()
            if head == "not":
                if len(item) != 2:
                    raise self.error(item, "'not' takes exactly one atom")
                delete.append(self.atom(item[1], variables, where))
            elif head == "increase":
                cost = self.cost_term(item, variables, where)
            else:
                add.append(self.atom(item, variables, where))
        return cost

    def cost_term(self, item: SList, variables: set[str], where: str) -> int | Atom:
        if len(item) != 3 or not isinstance(item[1], SList) or item[1].head() != "total-cost":
            raise self.error(item, f"only '(increase (total-cost) N)' is supported in {where} "
                             "(:action-costs); other numeric effects need :numeric-fluents")
        amount = item[2]
        if isinstance(amount, Symbol):
            try:
                value = float(amount)
            except ValueError:
                raise self.error(amount, "expected a number or a function term as the cost")
            if value < 0 or value != int(value):
                raise self.error(amount, "action costs must be non-negative integers")
            return int(value)
        fname = self.expect_symbol(amount[0], "a function name")
        if fname not in self.functions:
            raise self.error(fname, f"unknown function '{fname}' in {where}")
        return (str(fname),) + tuple(str(self.expect_symbol(a, "an argument"))
                                     for a in amount.items[1:])


class _ProblemReader(_Reader):
    def __init__(self, filename: str, domain: Domain):
        super().__init__(filename)
        self.domain = domain

    def parse(self, text: str) -> Problem:
        name, sections = self.header(read(text, self.filename), "problem")
        objects: dict[str, str] = dict(self.domain.constants)
        init: set[Atom] = set()
        numeric: dict[Atom, float] = {}
        goal: list[Literal] = []
        domain_name = None
        for section in sections:
            head = section.head()
            if head == ":domain":
                domain_name = str(self.expect_symbol(section[1], "a domain name"))
                if domain_name != self.domain.name:
                    raise self.error(section[1], f"problem is for domain '{domain_name}' but "
                                     f"the domain file defines '{self.domain.name}'")
            elif head == ":requirements":
                self.requirements(section)
            elif head == ":objects":
                for obj, types in self.typed_list(section.items[1:], ":objects"):
                    if types[0] != ROOT_TYPE and types[0] not in self.domain.supertypes:
                        raise self.error(obj, f"object {obj} has undeclared type '{types[0]}'")
                    objects[str(obj)] = types[0]
            elif head == ":init":
                for item in section.items[1:]:
                    item = self.expect_list(item, "an initial fact")
                    if item.head() == "=":
                        numeric[self.ground_atom(item[1], objects, ":init", function=True)] = \
                            self.number(item[2])
                    else:
                        init.add(self.ground_atom(item, objects, ":init"))
            elif head == ":goal":
                goal = self.goal(section[1] if len(section) > 1 else section, objects)
            elif head == ":metric":
                continue
            else:
                raise self.error(section, f"unknown problem section {head}; expected one of "
                                 ":domain :requirements :objects :init :goal :metric")
        return Problem(name=name, domain_name=domain_name or self.domain.name, objects=objects,
                       init=frozenset(init), goal=tuple(goal), numeric_init=numeric,
                       source=self.filename)

    def number(self, node) -> float:
        try:
            return float(self.expect_symbol(node, "a number"))
        except ValueError:
            raise self.error(node, f"expected a number, found '{node}'")

    def ground_atom(self, node, objects: dict[str, str], where: str,
                    function: bool = False) -> Atom:
        node = self.expect_list(node, "a fact such as (on a b)")
        pred = self.expect_symbol(node[0] if len(node) else node, "a predicate name")
        args = tuple(self.expect_symbol(a, "an object name") for a in node.items[1:])
        declared = self.domain.functions if function else self.domain.predicates
        if pred not in declared:
            kind = "function" if function else "predicate"
            raise self.error(pred, f"unknown {kind} '{pred}' in {where}")
        for arg in args:
            if arg not in objects:
                raise self.error(arg, f"'{arg}' in {where} is not a declared object")
        if not function and len(args) != len(self.domain.predicates[pred]):
            raise self.error(node, f"predicate '{pred}' takes "
                             f"{len(self.domain.predicates[pred])} arguments, found {len(args)}")
        return (str(pred),) + tuple(str(a) for a in args)

    def goal(self, node, objects: dict[str, str]) -> list[Literal]:
        node = self.expect_list(node, "a goal")
        head = node.head()
        if head == "and":
            out = []
            for item in node.items[1:]:
                out.extend(self.goal(item, objects))
            return out
        if head in UNSUPPORTED_CONSTRUCTS and head not in self.domain.predicates:
            raise self.error(node, f"'{head}' in :goal needs {UNSUPPORTED_CONSTRUCTS[head]}, "
                             "which racbench does not support; accepted: conjunctions of literals")
        if head == "not":
            return [Literal(self.ground_atom(node[1], objects, ":goal"), False)]
        return [Literal(self.ground_atom(node, objects, ":goal"), True)]


def parse_domain(text: str, filename: str = "<string>") -> Domain:
    return _DomainReader(filename).parse(text)


def parse_problem(text: str, domain: Domain, filename: str = "<string>") -> Problem:
    return _ProblemReader(filename, domain).parse(text)


def _read_text(path: Path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PDDLError("file not found", str(path)) from None
    except UnicodeDecodeError as exc:
        raise PDDLError(f"not UTF-8 text ({exc.reason})", str(path)) from None


def load_domain(path) -> Domain:
    return parse_domain(_read_text(path), str(path))


def load_problem(path, domain: Domain) -> Problem:
    return parse_problem(_read_text(path), domain, str(path))
