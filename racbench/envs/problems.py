"""Which PDDL files a StripsEnv plays: a shipped domain and problem by name, or paths."""

from __future__ import annotations

from pathlib import Path

from racbench.envs.text import say
from racbench.errors import InputError
from racbench.worlds.strips.shipped import shipped_domains, shipped_files, shipped_problem_names


def problem_files(domain: str | None, problem: str | None, domain_file, problem_file
                  ) -> tuple[str, str]:
    """(domain path, problem path). `problem=` names a problem of the shipped `domain=`;
    `problem_file=` may go with either kind of domain."""
    names = list(shipped_domains())
    if (domain is None) == (domain_file is None):
        raise InputError(say("domain_source", accepted=names))
    if domain is not None and domain not in names:
        raise InputError(say("unknown_domain", name=repr(domain), accepted=names))
    if (problem is None) == (problem_file is None) or (problem is not None and domain is None):
        raise InputError(say("problem_source"))
    if problem is not None and problem not in shipped_problem_names(domain):
        raise InputError(say("unknown_problem", name=repr(problem), domain=domain,
                             accepted=shipped_problem_names(domain)))
    if domain is not None:
        domain_file = shipped_files(domain, [])[0]
    if problem is not None:
        problem_file = shipped_files(domain, [problem])[1][0]
    return str(Path(domain_file)), str(Path(problem_file))
