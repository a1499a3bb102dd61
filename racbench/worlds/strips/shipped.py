"""The domains racbench ships (racbench/data/domains/) and TRAC's generated blocksworlds.

`domains.yaml` lists each shipped domain with its problem files p01, p02... (and how
many generated level problems g01, g02... its levels/ folder holds); TRAC's
blocksworld (blocksworld_trac/domain.pddl) has no problem files: its worlds are the
domain over n blocks, with every arrangement of them reachable.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path

import yaml

from racbench.worlds.strips.model import Problem

TRAC_DOMAIN = "blocksworld_trac/domain.pddl"


def domains_root():
    return resources.files("racbench.data").joinpath("domains")


@lru_cache(maxsize=None)
def shipped_domains() -> dict[str, dict]:
    data = yaml.safe_load(domains_root().joinpath("domains.yaml").read_text())
    return {d["name"]: d for d in data["domains"]}


def shipped_files(domain: str, problems: list[str]) -> tuple[str, list[str]]:
    """Paths of a shipped domain's domain file and named problem files (p01, ...; the
    generated level problems g01, ... are in its levels/ folder)."""
    domain_file, files = _shipped_files(domain, tuple(problems))
    return domain_file, list(files)


@lru_cache(maxsize=1024)
def _shipped_files(domain: str, problems: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """shipped_files, kept: a build asks each config's for every load of its worlds
    (a fifth of a second of an acp build's driver, most of it in importlib and pathlib)."""
    entry = shipped_domains()[domain]
    root = Path(str(domains_root()))
    return (str(root / entry["domain_file"]),
            tuple(str(root / domain / ("levels" if p.startswith("g") else "problems") /
                      f"{p}.pddl") for p in problems))


def shipped_problem_names(domain: str) -> list[str]:
    """A shipped domain's problems: p01, ... and its generated level problems g01, ...
    (train problems the difficulty levels draw; no default split holds them)."""
    entry = shipped_domains()[domain]
    return ([f"p{i:02d}" for i in range(1, entry["problems"] + 1)]
            + [f"g{i:02d}" for i in range(1, entry.get("level_problems", 0) + 1)])


def trac_domain_file() -> str:
    return str(Path(str(domains_root())) / TRAC_DOMAIN)


def blocks_problem(domain_name: str, n_blocks: int) -> Problem:
    """TRAC's world of `n_blocks` blocks b01, b02...: all on the table (any arrangement
    is reachable from there), no goal. Rows name the blocks from a pool of colours."""
    blocks = tuple(f"b{i:02d}" for i in range(1, n_blocks + 1))
    init = frozenset([("ontable", b) for b in blocks] + [("clear", b) for b in blocks])
    return Problem(name=f"blocks{n_blocks}", domain_name=domain_name,
                   objects={b: "block" for b in blocks}, init=init, goal=())
