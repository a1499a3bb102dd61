"""`racbench generate`: a recipe of one config from command-line knobs.

A TRAC task (a family on TRAC's blocksworld, in TRAC's style), or any family on a
shipped domain or on the user's PDDL files; the build engine then treats it like any
recipe.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Callable

from racbench.api import config_name
from racbench.tasks.config import TRAC_DOMAIN, TRAC_FAMILIES, ConfigError, TaskConfig
from racbench.text import environment
from racbench.suites.recipe import ConfigSpec, Recipe

SplitSizes = Callable[[int], dict[str, int]]


def trac_recipe(task: str, objects: int, lengths: tuple[int, ...], rows: int,
                query_kinds: str, names: str, seed: int, split_sizes: SplitSizes) -> Recipe:
    if task not in TRAC_FAMILIES:
        from racbench.tasks import FAMILIES
        raise ConfigError(f"unknown task '{task}'; accepted: {', '.join(TRAC_FAMILIES)}, or a "
                          f"family with --domain/--domain-file: {', '.join(FAMILIES)}")
    cfg = TaskConfig(family=task, domain=TRAC_DOMAIN, objects=objects, lengths=tuple(lengths),
                     query_kinds=tuple(k.strip() for k in query_kinds.split(",") if k.strip()),
                     names=names, style="trac").validate()
    sizes = split_sizes(rows)
    name = config_name(cfg)
    words = environment().get_template("cli/generate.j2").module
    spec = ConfigSpec(name, str(words.config(task, objects)), cfg, sizes)
    recipe_text = json.dumps({"task": task, "objects": objects, "lengths": list(lengths),
                              "rows": rows, "query_kinds": list(cfg.query_kinds),
                              "names": names})
    return Recipe(name, str(words.recipe(task)), seed, (spec,), recipe_text)


def acp_recipe(family: str, domain: str | None, domain_file: Path | None,
               problem_files: tuple[Path, ...], form: str, length: int, rows: int, seed: int,
               split_sizes: SplitSizes) -> Recipe:
    if domain and domain_file:
        raise ConfigError("give either --domain (a shipped domain) or --domain-file, not both")
    if domain_file and not problem_files:
        raise ConfigError("--domain-file needs at least one --problem-file")
    if problem_files and not domain_file and not domain:
        raise ConfigError("--problem-file needs --domain-file (or --domain for shipped names)")
    files = [str(p) for p in problem_files]
    problems: dict[str, tuple[str, ...]] = {}
    if len(files) >= 3:
        held = max(1, round(len(files) / 5))
        problems = {"train": tuple(files[:-2 * held]), "validation": tuple(files[-2 * held:-held]),
                    "test": tuple(files[-held:])}
        sizes = split_sizes(rows)
    elif files:
        problems = {"test": tuple(files)}
        if rows < 2 or rows % 2:
            raise ConfigError(f"-n must be an even number >= 2 (labels are 50/50), got {rows}")
        sizes = {"test": rows}
    else:
        sizes = split_sizes(rows)
    if domain and files:  # shipped domain, problems named p01... or given as paths
        problems = {k: tuple(Path(p).stem if not Path(p).is_file() else p for p in v)
                    for k, v in problems.items()}
        if any(Path(p).is_file() for v in problems.values() for p in v):
            domain_file = _shipped_domain_file(domain)
            domain = ""
    cfg = TaskConfig(family=family, domain=domain or "", form=form, lengths=(length,),
                     problems=problems, domain_file=str(domain_file or "")).validate()
    name = config_name(cfg)
    spec = ConfigSpec(name, f"{family} on {cfg.domain_label}, {form} questions", cfg, sizes)
    recipe_text = json.dumps({"family": family, "domain": domain, "domain_file": str(domain_file),
                              "problems": problems, "form": form, "length": length,
                              "rows": rows}, sort_keys=True, default=str)
    words = environment().get_template("cli/generate.j2").module
    return Recipe(name, str(words.recipe(family)), seed, (spec,), recipe_text)


def _shipped_domain_file(domain: str) -> Path:
    from racbench.worlds.strips.shipped import shipped_domains, shipped_files
    if domain not in shipped_domains():
        raise ConfigError(f"unknown domain '{domain}'; accepted: {', '.join(shipped_domains())}")
    return Path(shipped_files(domain, [])[0])
