"""A row's problem rebuilt from its `symbolic` JSON alone, and free-text answers parsed
against it.

The task is grounded afresh from `domain_pddl`, `objects` and `state` (as the initial
state), so nothing of the generating world is reused: verification and the tests
re-derive answers through `worlds/strips/oracles.py` on this task.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache

from racbench.worlds.strips.grounding import ground
from racbench.worlds.strips.model import AnyOf, Literal, Problem
from racbench.worlds.strips.pddl_reader import parse_domain
from racbench.worlds.strips.task import Condition, GroundTask
from racbench.text.phrasing import TaskText

DOMAIN_FILENAME = "<symbolic domain_pddl>"  # what a reader's messages call the row's domain
_PAREN = re.compile(r"\(([^()]*)\)")
_NOT = re.compile(r"\(\s*not\s*\(([^()]*)\)\s*\)")
_NUMBERING = re.compile(r"^\s*(?:step\s*)?(?:\(?\d+[.):]?\)?)\s+")


def goal_from_json(items) -> tuple:
    """The goal parts (Literal, AnyOf) of a row's goal JSON (base.goal_json)."""
    return tuple(AnyOf(tuple(tuple(Literal(tuple(g["atom"]), g["positive"]) for g in clause)
                             for clause in item["any"])) if "any" in item
                 else Literal(tuple(item["atom"]), item["positive"]) for item in items or ())


class SymbolicTask:
    def __init__(self, sym: dict, render: dict | None = None):
        self.sym = sym
        self.render = render or {}
        self.domain = _domain(sym["domain_pddl"])
        objects = {name: typ for name, typ in sym["objects"].items()}
        goal = goal_from_json(sym.get("goal"))
        init = frozenset(tuple(a) for a in sym["state"])
        problem = Problem(name=sym["problem"], domain_name=self.domain.name, objects=objects,
                          init=init, goal=goal)
        self.task: GroundTask = ground(self.domain, problem)
        self.state = self.task.init
        self.goal: Condition | None = self.task.condition(goal) if goal else None

    def action(self, t) -> int | None:
        return self.task.action_index.get(tuple(t))

    def atom(self, a) -> int | None:
        return self.task.atom_index.get(tuple(a))

    def holds(self, state: int, atom, positive: bool = True) -> bool:
        return self.task.holds(state, tuple(atom)) == positive

    def condition(self, literals) -> Condition | None:
        return self.task.condition(Literal(tuple(a), p) for a, p in literals)

    # -- parsing free text ------------------------------------------------------------------
    @property
    def text(self) -> TaskText:
        meta = self.render
        return _text(self.sym["domain_pddl"], meta.get("obfuscation"), meta.get("paraphrase", 0),
                     meta.get("seed", 0), meta.get("templates"), meta.get("phrasing"))

    def _action_phrases(self) -> dict[str, tuple]:
        text = self.text
        return {_norm(text.action(a.term)): a.term for a in self.task.actions}

    def parse_actions(self, answer: str) -> list[tuple] | None:
        """Action terms, one per line (PDDL or phrased); None if a line is not an action."""
        out, phrases = [], None
        for line in _lines(answer):
            found = _PAREN.findall(line)
            if found:
                out.extend(self._pddl(f) for f in found)
                continue
            phrases = phrases if phrases is not None else self._action_phrases()
            term = phrases.get(_norm(line))
            if term is None:
                return None
            out.append(term)
        return out

    def parse_literals(self, answer: str, candidates) -> list[tuple[tuple, bool]] | None:
        """Literals, one per line: (p a b), (not (p a b)) or phrased like the question's
        facts; `candidates` are the atoms whose phrasings are recognised."""
        out, phrases = [], None
        for line in _lines(answer):
            negs = _NOT.findall(line)
            rest = _NOT.sub(" ", line)
            pos = _PAREN.findall(rest)
            if negs or pos:
                out.extend((self._pddl(f), False) for f in negs)
                out.extend((self._pddl(f), True) for f in pos)
                continue
            if phrases is None:
                text = self.text
                phrases = {}
                for a in candidates:
                    phrases[_norm(text.fact(tuple(a), True))] = (tuple(a), True)
                    phrases[_norm(text.fact(tuple(a), False))] = (tuple(a), False)
            lit = phrases.get(_norm(line))
            if lit is None:
                return None
            out.append(lit)
        return out


    def _pddl(self, inside: str) -> tuple:
        """A parenthesised term's tokens, with obfuscated names mapped back."""
        tokens = inside.lower().split()
        if self.render.get("obfuscation"):
            names = self.__dict__.get("_names")
            if names is None:
                names = self.__dict__["_names"] = {
                    k.lower(): v for k, v in self.text.original_names(self.sym["objects"]).items()}
            tokens = [names.get(t, t) for t in tokens]
        return tuple(tokens)


def _lines(answer: str) -> list[str]:
    lines = [l.strip() for l in str(answer).replace(";", "\n").splitlines()]
    lines = [l for l in lines if l]
    if len(lines) == 1 and _norm(lines[0]) in ("none", "nothing", "no action", "no actions"):
        return []
    return lines


def _norm(text: str) -> str:
    text = _NUMBERING.sub("", text.strip().lower())
    return " ".join(re.sub(r"[^\w\s\-(),]", " ", text).split()).strip(" .,")


def normalized(text: str) -> str:
    return _norm(str(text))


@lru_cache(maxsize=32)
def _domain(text: str):
    return parse_domain(text, DOMAIN_FILENAME)


@lru_cache(maxsize=32)
def _text(domain_pddl: str, obfuscation, paraphrase: int, seed: int,
          templates: str | None, phrasing: str | None = None) -> TaskText:
    from racbench.text.user_phrasing import Phrasing
    return TaskText(_domain(domain_pddl), obfuscation, paraphrase, seed, templates=templates,
                    phrasing=Phrasing.from_json(phrasing) if phrasing else None)


_TASKS: dict[str, SymbolicTask] = {}


def symbolic_task(sym: dict | str, render: dict | None = None) -> SymbolicTask:
    """The (cached) task of a row's symbolic form, keyed on everything but the question;
    `render` (the row's metadata["render"]) says how facts and actions were phrased."""
    if isinstance(sym, str):
        sym = json.loads(sym)
    key = json.dumps([sym["domain_pddl"], sym["objects"], sym["state"], sym.get("goal")],
                     sort_keys=True)
    task = _TASKS.get(key)
    if task is None:
        if len(_TASKS) > 256:
            _TASKS.clear()
        task = _TASKS[key] = SymbolicTask(sym, render)
    task.sym = sym
    task.render = render or {}
    return task
