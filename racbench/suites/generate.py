"""`racbench generate` and `racbench.generate`: one config from generate's arguments.

A TRAC task (a family on TRAC's blocksworld, in TRAC's style) when no domain is named,
or any family on a shipped domain or on the user's PDDL files. Both the command and the
Python function make their config here, with the recipes' defaults (a TRAC task asks
about sequences of 1 action, a family of 2); the command then adds split sizes and
builds it like any recipe.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Callable, NamedTuple, Sequence

from racbench.suites.recipe import FAMILY_DEFAULTS, TRAC_DEFAULTS, ConfigSpec, Recipe
from racbench.tasks.config import QUERY_KINDS, SPLITS, TRAC_FAMILIES, ConfigError, TaskConfig
from racbench.text import environment, sayer

_say = sayer("cli", ("generate_args.j2",))

SplitSizes = Callable[[int], dict[str, int]]


class Arguments(NamedTuple):
    """How a caller names generate's arguments, for messages the user can act on."""

    family: str
    domain: str
    domain_file: str
    problem: str


CLI = Arguments("task", "--domain", "--domain-file", "--problem-file")
API = Arguments("family", "domain=", "domain_file=", "problem=")


def generate_config(family: str, *, domain: str | None = None,
                    domain_file: str | Path | None = None,
                    problems: str | Path | Sequence[str | Path] | None = None,
                    split: str | None = None, form: str | None = None,
                    length: int | Sequence[int] | None = None, objects: int | None = None,
                    names: str | None = None, style: str | None = None,
                    query_kinds: str | Sequence[str] | None = None,
                    phrasing: str | Path | None = None,
                    arguments: Arguments) -> TaskConfig:
    """The validated config of generate's arguments. `problems` (names or files) go to
    `split`, or with `split` None (a build of every split) are spread over the splits;
    `query_kinds` may be comma-separated; unset knobs take the recipes' defaults (the
    form: bool, or the family's first form where it has no bool)."""
    problems = [problems] if isinstance(problems, (str, Path)) else list(problems or ())
    _check_world(family, domain, domain_file, problems, arguments)
    if split is not None and split not in SPLITS:
        raise ConfigError(_say("unknown_split", split=split, splits=SPLITS))
    defaults = FAMILY_DEFAULTS if domain or domain_file else TRAC_DEFAULTS
    domain, domain_file, problems = _world(domain, domain_file, problems)
    if length is None:
        length = defaults["length"]
    if isinstance(query_kinds, str):
        query_kinds = [k.strip() for k in query_kinds.split(",") if k.strip()]
    if form is None:
        form = default_form(family)
    cfg = TaskConfig(
        family=family, domain=domain or defaults["domain"], domain_file=domain_file,
        form=form, lengths=(length,) if isinstance(length, int) else tuple(length),
        problems=_spread(problems, split),
        objects=defaults["objects"] if objects is None else objects,
        names=names or defaults["names"], style=style or defaults["style"],
        query_kinds=QUERY_KINDS if query_kinds is None else tuple(query_kinds),
        phrasing=str(phrasing or ""))
    return cfg.validate()


def default_form(family: str) -> str:
    """The form a family's rows take when none is asked for: bool where it has it (every
    family but the open-only ones, such as plan_generation), else its first form."""
    from racbench.tasks import FAMILIES

    forms = FAMILIES[family].forms if family in FAMILIES else ("bool",)
    return "bool" if "bool" in forms else forms[0]


def _check_world(family: str, domain, domain_file, problems: list, arguments: Arguments
                 ) -> None:
    """Refuse a family without the world it needs, and world arguments that clash. (With
    a domain, an unknown family is the config's to name.)"""
    a = arguments
    if not (domain or domain_file) and family not in TRAC_FAMILIES:
        from racbench.tasks import FAMILIES
        if family not in FAMILIES:
            more = [f for f in FAMILIES if f not in TRAC_FAMILIES]
            raise ConfigError(_say("unknown_family", family=a.family, name=family,
                                   trac=TRAC_FAMILIES, domain=a.domain,
                                   domain_file=a.domain_file, more=more))
        raise ConfigError(_say("needs_domain", family=a.family, name=family, domain=a.domain,
                               domain_file=a.domain_file, problem=a.problem,
                               trac=TRAC_FAMILIES))
    if domain and domain_file:
        raise ConfigError(_say("domain_and_file", domain=a.domain, domain_file=a.domain_file))
    if domain_file and not problems:
        raise ConfigError(_say("file_without_problem", domain_file=a.domain_file,
                               problem=a.problem))
    if problems and not domain_file and not domain:
        raise ConfigError(_say("problem_without_domain", problem=a.problem,
                               domain_file=a.domain_file, domain=a.domain))


def _world(domain: str | None, domain_file, problems: list) -> tuple[str, str, list[str]]:
    """Domain, domain file and problems as a config names them: a shipped domain with
    your problem files is read from its file; shipped problems go by name (p04.pddl is
    p04)."""
    if domain and any(Path(p).is_file() for p in problems):
        return "", str(_shipped_domain_file(domain)), [str(p) for p in problems]
    if domain:
        return domain, "", [Path(p).stem for p in problems]
    return "", str(domain_file or ""), [str(p) for p in problems]


def _spread(problems: list[str], split: str | None) -> dict[str, tuple[str, ...]]:
    """Problems per split: all in `split`; for a build of every split, the last fifth (at
    least one) is test and the fifth before it validation, or with fewer than three
    problems all are test."""
    if not problems:
        return {}
    if split is not None or len(problems) < 3:
        return {split or "test": tuple(problems)}
    held = max(1, round(len(problems) / 5))
    return {"train": tuple(problems[:-2 * held]),
            "validation": tuple(problems[-2 * held:-held]), "test": tuple(problems[-held:])}


def config_name(cfg: TaskConfig) -> str:
    """The name generate gives a config (row ids and seeds derive from it)."""
    if cfg.style == "trac":
        return f"{cfg.family}_{'_'.join(f'L{n}' for n in cfg.lengths)}"
    return f"{cfg.family}_{cfg.form}"


def generate_recipe(cfg: TaskConfig, rows: int, seed: int, split_sizes: SplitSizes) -> Recipe:
    """`racbench generate`'s recipe of the one config: `rows` over every split by
    `split_sizes`, or all in test when only test has problems."""
    if set(cfg.problems) == {"test"}:
        if rows < 2 or rows % 2:
            raise ConfigError(_say("odd_rows", rows=rows))
        sizes = {"test": rows}
    else:
        sizes = split_sizes(rows)
    name = config_name(cfg)
    words = environment().get_template("cli/generate.j2").module
    description = str(words.config(cfg.family, cfg.objects) if cfg.generated else
                      words.config_on(cfg.family, cfg.domain_label, cfg.form))
    spec = ConfigSpec(name, description, cfg, sizes)
    source = json.dumps({"config": dataclasses.asdict(cfg), "rows": rows}, sort_keys=True)
    return Recipe(name, str(words.recipe(cfg.family)), seed, (spec,), source)


def _shipped_domain_file(domain: str) -> Path:
    from racbench.worlds.strips.shipped import shipped_domains, shipped_files
    if domain not in shipped_domains():
        raise ConfigError(_say("unknown_domain", domain=domain, shipped=shipped_domains()))
    return Path(shipped_files(domain, [])[0])
