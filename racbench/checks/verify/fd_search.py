"""Fast Downward's translator and search, each run as a separate process (both are GPL:
they stay out of ours).

``translate`` runs ``python -m fast_downward.translate`` (PyPI
``fast-downward-translate``) on a domain and problem text and returns the
finite-domain task (SAS text), every derived predicate's axioms kept in a task to step
through (``with_derived_probes``); ``optimal_length`` runs the ``downward`` search binary
that ``up-fast-downward`` ships, A* with an admissible heuristic, on a SAS task and
returns the length of a shortest plan (None: unsolvable).
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from racbench.checks.verify.report import Skip, Unchecked
from racbench.checks.verify.sas import SasTask, parse_sas, write_sas
from racbench.checks.verify.words import say

#: Seconds the translator may take on one problem.
TRANSLATE_TIMEOUT = 120.0
TRANSLATOR_MODULE = "fast_downward.translate"
#: Exit codes of the search (Fast Downward's driver/returncodes.py).
SEARCH_SOLVED = 0
SEARCH_UNSOLVABLE = (11, 12)
SEARCH_TIMEOUT = 23
#: Names of the actions ``with_derived_probes`` adds (followed by a number).
PROBE = "racbench-derived-probe-"


def translator_available() -> bool:
    return importlib.util.find_spec(TRANSLATOR_MODULE) is not None


def downward_binary() -> Path | None:
    spec = importlib.util.find_spec("up_fast_downward")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        path = Path(folder) / "downward" / "builds" / "release" / "bin" / "downward"
        if path.is_file():
            return path
    return None


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1][:160] if lines else say("no_output")


def _balanced(text: str, start: int) -> str:
    """The parenthesised group that opens at ``text[start]``."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return text[start:i + 1]
    raise Unchecked(say("unbalanced_domain"))


def with_derived_probes(domain: str) -> tuple[str, set[str]]:
    """The domain with one action per derived predicate that requires it and does
    nothing, and those actions' names.

    The translator keeps the axioms of a derived atom only if the goal, an operator's
    precondition or an effect condition needs it (axiom_rules.compute_necessary_atoms);
    any other derived atom stays a variable without axioms, frozen at false: a
    ``(blocked ?p)`` that only some goal asks about never becomes true while stepping
    from a state written without that goal. An action requiring the atom makes it
    needed. Its operators are no part of the domain: ``translated`` drops them."""
    text = re.sub(r";[^\n]*", "", domain)
    heads: dict[str, str] = {}
    for found in re.finditer(r"\(\s*:derived\s*(?=\()", text, re.IGNORECASE):
        head = _balanced(text, found.end())
        name, *params = head[1:-1].split(None, 1) or [""]
        heads.setdefault(name.lower(), params[0] if params else "")
    if not heads:
        return domain, set()
    probes, names = [], set()
    for i, (name, params) in enumerate(sorted(heads.items())):
        variables = " ".join(re.findall(r"\?[^\s()]+", params))
        names.add(f"{PROBE}{i}")
        probes.append(f"(:action {PROBE}{i} :parameters ({params}) "
                      f":precondition ({name} {variables}) :effect (and))")
    end = text.rstrip().rfind(")")
    if end < 0:
        raise Unchecked(say("no_closing_parenthesis"))
    return text[:end] + "\n" + "\n".join(probes) + "\n" + text[end:], names


def translate(domain: str, problem: str, *, keep_all: bool = False,
              timeout: float = TRANSLATE_TIMEOUT) -> str:
    """The translator's SAS text for this domain and problem. ``keep_all``: keep the
    variables that do not touch the goal, the facts it finds unreachable and the
    operators that change nothing (a task to step through, where an action that changes
    nothing is still applicable, not to search); the caller adds the derived predicates'
    probes (``with_derived_probes``). Unchecked if the translator refuses or fails."""
    if not translator_available():
        raise Unchecked(say("translator_missing"))
    with tempfile.TemporaryDirectory(prefix="racbench-fd-") as tmp:
        folder = Path(tmp)
        (folder / "domain.pddl").write_text(domain)
        (folder / "problem.pddl").write_text(problem)
        sas = folder / "output.sas"
        flags = (["--keep-unimportant-variables", "--keep-unreachable-facts", "--keep-no-ops"]
                 if keep_all else [])
        try:
            done = subprocess.run(
                [sys.executable, "-m", TRANSLATOR_MODULE, "domain.pddl", "problem.pddl",
                 "--sas-file", str(sas), *flags],
                cwd=folder, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise Unchecked(say("translator_timeout", seconds=f"{timeout:g}")) from None
        if done.returncode != 0 or not sas.is_file():
            raise Unchecked(say("translator_failed", code=done.returncode,
                                last=_last_line(done.stdout + done.stderr)))
        return sas.read_text()


def search_config(task: SasTask) -> str:
    """A* with an admissible heuristic that supports the task: LM-cut for plain tasks,
    h^max with conditional effects, blind search with axioms."""
    if task.axioms:
        return "astar(blind())"
    if task.conditional:
        return "astar(hmax())"
    return "astar(lmcut())"


def optimal_length(task: SasTask, timeout: float) -> int | None:
    """Length of a shortest plan of ``task`` (every operator costs 1), None if there is
    none; Skip on a timeout, Unchecked if the search fails otherwise."""
    binary = downward_binary()
    if binary is None:
        raise Skip(say("no_fast_downward"))
    unit = SasTask(False, task.variables, task.mutexes, task.init, task.goal,
                   task.operators, task.axioms)
    with tempfile.TemporaryDirectory(prefix="racbench-fd-") as tmp:
        plan = Path(tmp) / "plan"
        try:
            done = subprocess.run(
                [str(binary), "--search", search_config(task), "--internal-plan-file",
                 str(plan)], input=write_sas(unit), cwd=tmp, capture_output=True,
                text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise Skip(say("fd_timeout")) from None
    if done.returncode == SEARCH_SOLVED:
        found = re.search(r"Plan length: (\d+) step", done.stdout)
        if found is None:
            raise Unchecked(say("search_no_length"))
        return int(found.group(1))
    if done.returncode in SEARCH_UNSOLVABLE:
        return None
    if done.returncode == SEARCH_TIMEOUT:
        raise Skip(say("fd_timeout"))
    raise Unchecked(say("search_failed", code=done.returncode,
                        last=_last_line(done.stdout + done.stderr)))


def translated(domain: str, problem: str, *, keep_all: bool = False) -> SasTask:
    """The translator's task. ``keep_all``: a task to step through (see ``translate``),
    with the axioms of every derived predicate, not only of those the goal or an
    action needs."""
    if not keep_all:
        return parse_sas(translate(domain, problem))
    domain, probes = with_derived_probes(domain)
    task = parse_sas(translate(domain, problem, keep_all=True))
    task.operators = [op for op in task.operators if op.name.split(" ", 1)[0] not in probes]
    return task
