"""What one config asks of a task family: a family, a form, a world, and the surface knobs.

Every suite speaks this one config. An ACP config names a shipped domain (or a domain
file) and its problems per split; a TRAC config asks for TRAC's blocksworld over
`objects` blocks, named from a pool of colours and phrased in TRAC's style. Both run
the same families (racbench/tasks/<family>.py).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from pathlib import Path

from racbench.errors import InputError
from racbench.paths import check_utf8
from racbench.splits.names import POOLS, name_pool
from racbench.text import Phrase, sayer
from racbench.worlds.strips.shipped import shipped_domains, shipped_files, shipped_problem_names
from racbench.worlds.strips.world import enumerate_ahead, spaces_kept

from racbench.tasks import FAMILIES, OWN_CONFIG
from racbench.tasks.options import (DEFAULT_SPLIT_PROBLEMS, EARLIER_STATE_FAMILIES,  # noqa: F401
                                    FIRST_TARGET_MC_ENTITIES, LAB_MAX_DISTANCE,
                                    LAB_MC_FAMILIES, MAX_LENGTH, MAX_RULE_EPISODES,
                                    NAMES, OBFUSCATIONS, QUERY_KINDS, RULE_EPISODES,
                                    RULE_OPTIONS, RULES_MC_FAMILIES, RULES_OPEN_FAMILIES,
                                    SPLITS, STYLES,
                                    TRAC_DOMAIN, TRAC_FAMILIES)
from racbench.tasks import walk_ends
from racbench.tasks.rows import ConfigRows, load_worlds, release_worlds
from racbench.worlds.rules.grammar import GAMES, RuleOptions
from racbench.worlds.science.registry import get_task, parse_simplifications


_say = sayer("cli", ("config.j2",))


class ConfigError(InputError):
    """A config value outside what is accepted; the message (templates/cli/config.j2)
    names field and values."""


def rule_world_options(game: str, knobs: tuple[tuple[str, object], ...]) -> RuleOptions:
    """The rule world of `rules: GAME` with its `rule_options` (as pairs), for every
    config that asks about rule worlds (task families, next-observation and imitation
    rows); a knob outside what is accepted raises ConfigError naming it."""
    bad = sorted(k for k, _ in knobs if k not in RULE_OPTIONS)
    if bad:
        raise ConfigError(_say("unknown_rule_option", option=bad[0], accepted=RULE_OPTIONS))
    episodes = dict(knobs).get("episodes", RULE_EPISODES)
    if not isinstance(episodes, int) or isinstance(episodes, bool) or not \
            1 <= episodes <= MAX_RULE_EPISODES:
        raise ConfigError(_say("rule_episodes", most=MAX_RULE_EPISODES, got=repr(episodes)))
    opts = RuleOptions.for_game(game, **{k: v for k, v in knobs if k != "episodes"})
    wrong = opts.problems()
    if wrong:
        field_name, value, accepted = wrong[0]
        raise ConfigError(_say("rule_option_value", option=field_name, game=game,
                               accepted=accepted, got=repr(value))
                          if field_name != "rules" else
                          _say("unknown_rule_world", world=value, accepted=accepted))
    return opts


def rule_episodes(knobs: tuple[tuple[str, object], ...]) -> int:
    """A rule world's episodes per split."""
    return dict(knobs).get("episodes", RULE_EPISODES)


@dataclass(frozen=True)
class TaskConfig:
    family: str
    domain: str = ""  # a shipped domain, TRAC_DOMAIN, or empty with domain_file
    form: str = "bool"
    lengths: tuple[int, ...] = (2,)  # sequence lengths; several mix in equal shares
    problems: dict[str, tuple[str, ...]] = field(default_factory=dict)  # split -> names/paths
    domain_file: str = ""
    objects: int | None = None  # TRAC_DOMAIN: the number of blocks
    query_kinds: tuple[str, ...] = QUERY_KINDS  # bool rows: queries and goals of 1 or 2 literals
    names: str = "problem"  # object names: the problem's, or drawn per row from a pool
    style: str = "acp"
    obfuscation: str | None = None  # passed to DomainText: rename objects/predicates
    paraphrase: int = 0  # which template variant of facts and actions to use
    science: str = ""  # a science-lab task: its variations are the problems
    simplifications: str = ""  # the science lab's simplification setting
    rules: str = ""  # a rule world's game (rtfm, messenger): its episodes are the problems
    rule_options: tuple[tuple[str, object], ...] = ()  # its knobs (RULE_OPTIONS), as pairs
    phrasing: str = ""  # a user's phrasing file (racbench/text/user_phrasing.py)
    # the science lab's progression, applicability and goal recognition: the context
    # shows the state `length - 1` commands before the one asked about (goal recognition:
    # the one observed), and the commands typed since (EARLIER_STATE_FAMILIES; without
    # it, the state the command is asked in)
    earlier_state: bool = False

    @property
    def length(self) -> int:
        """The sequence length of a draw (a config of one length, or `at_length`'s view)."""
        return self.lengths[0]

    def at_length(self, length: int) -> "TaskConfig":
        """This config with one sequence length, for a draw of a mixed-length config."""
        views = self._length_views
        view = views.get(length)
        if view is None:
            view = views[length] = replace(self, lengths=(length,))
        return view

    @cached_property
    def _length_views(self) -> dict:
        return {}

    def validate(self) -> "TaskConfig":
        if self.family not in FAMILIES:
            raise ConfigError(_say("unknown_family", family=self.family,
                                   accepted=list(FAMILIES)))
        if self.family in OWN_CONFIG:
            raise ConfigError(_say("own_config_family", family=self.family))
        forms = FAMILIES[self.family].forms
        if self.form not in forms:
            raise ConfigError(_say("unknown_form", family=self.family, form=self.form,
                                   accepted=forms))
        self._validate_world()
        if self.earlier_state and (not self.science
                                   or self.family not in EARLIER_STATE_FAMILIES):
            raise ConfigError(_say("earlier_state_elsewhere", families=EARLIER_STATE_FAMILIES,
                                   family=self.family, world=self.domain_label))
        self.user_phrasing()  # a bad phrasing file is refused before anything is built
        if not self.lengths or any(not isinstance(n, int) or isinstance(n, bool)
                                   or not 1 <= n <= MAX_LENGTH for n in self.lengths):
            raise ConfigError(_say("bad_length", most=MAX_LENGTH, got=list(self.lengths)))
        if len(self.lengths) > 1 and self.form != "bool":
            raise ConfigError(_say("several_lengths", form=self.form, got=list(self.lengths)))
        bad = [k for k in self.query_kinds if k not in QUERY_KINDS]
        if bad or not self.query_kinds:
            raise ConfigError(_say("unknown_query_kind", bad=bad, accepted=QUERY_KINDS))
        if self.names not in NAMES:
            raise ConfigError(_say("unknown_name_pool", names=self.names, accepted=NAMES))
        if self.style not in STYLES:
            raise ConfigError(_say("unknown_style", style=self.style, accepted=STYLES))
        if self.style == "trac" and (self.family not in TRAC_FAMILIES or self.form != "bool"):
            raise ConfigError(_say("trac_style", families=TRAC_FAMILIES, family=self.family,
                                   form=self.form))
        if self.obfuscation not in OBFUSCATIONS:
            raise ConfigError(_say("unknown_obfuscation", obfuscation=self.obfuscation,
                                   accepted=[str(o) for o in OBFUSCATIONS[1:]]))
        if not isinstance(self.paraphrase, int) or self.paraphrase < 0:
            raise ConfigError(_say("bad_paraphrase", got=repr(self.paraphrase)))
        return self

    def _validate_world(self) -> None:
        if self.rules or self.rule_options:
            self._validate_rules()
            return
        if FAMILIES[self.family].worlds == ("rules",):
            raise ConfigError(_say("rules_only", family=self.family, games=GAMES))
        if self.science:
            self._validate_lab()
            return
        if self.simplifications:
            raise ConfigError(_say("simplifications_elsewhere"))
        if self.domain == TRAC_DOMAIN:
            pool = len(name_pool(self.names)) if self.names in POOLS else 99
            if not isinstance(self.objects, int) or not 2 <= self.objects <= pool:
                raise ConfigError(_say("trac_objects", most=pool, names=self.names,
                                       got=self.objects))
            if self.problems or self.domain_file:
                raise ConfigError(_say("trac_problems", domain=TRAC_DOMAIN))
            return
        if self.objects is not None:
            raise ConfigError(_say("objects_elsewhere", domain=TRAC_DOMAIN))
        if not self.domain_file:
            if self.domain not in shipped_domains():
                raise ConfigError(_say("unknown_domain", domain=self.domain,
                                       accepted=[*shipped_domains(), TRAC_DOMAIN]))
        elif not is_readable_file(self.domain_file, DOMAIN_FILE):
            raise ConfigError(_say("bad_domain_file", path=self.domain_file,
                                   why=not_a_file(self.domain_file)))
        bad = sorted(set(self.problems) - set(SPLITS))
        if bad:
            raise ConfigError(_say("unknown_split", split=bad[0], accepted=SPLITS))
        known = set(shipped_problem_names(self.domain)) if not self.domain_file else None
        seen: dict[str, str] = {}
        for split, names in self.problems.items():
            if not names:
                raise ConfigError(_say("empty_split", split=split))
            for p in names:
                if known is not None and p not in known:
                    raise ConfigError(_say("unknown_problem", problem=p, domain=self.domain,
                                           accepted=sorted(known)))
                if known is None and not is_readable_file(p, PROBLEM_FILE):
                    raise ConfigError(_say("bad_problem_file", path=p, why=not_a_file(p)))
                if p in seen and seen[p] != split:
                    raise ConfigError(_say("problem_in_two_splits", problem=p,
                                           first=seen[p], second=split))
                seen[p] = split

    def _validate_lab(self) -> None:
        if "science" not in FAMILIES[self.family].worlds or self.form == "open" or (
                self.form == "mc" and self.family not in LAB_MC_FAMILIES):
            lab_families = [f for f, fam in FAMILIES.items() if "science" in fam.worlds]
            raise ConfigError(_say("lab_families", families=lab_families,
                                   mc_families=LAB_MC_FAMILIES, family=self.family,
                                   form=self.form))
        if self.domain or self.domain_file or self.objects is not None:
            raise ConfigError(_say("lab_and_domain"))
        if self.style != "acp" or self.names != "problem":
            raise ConfigError(_say("lab_own_words"))
        # with `earlier_state` one command is observed, after `length - 1` typed since
        if self.family == "goal_recognition" and not self.earlier_state and any(
                not isinstance(n, int) or n > LAB_MAX_DISTANCE for n in self.lengths):
            raise ConfigError(_say("lab_goal_recognition_length", most=LAB_MAX_DISTANCE,
                                   got=list(self.lengths)))
        try:
            spec = get_task(self.science)
            parse_simplifications(self.simplifications, spec.electrical)
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        bad = sorted(set(self.problems) - set(SPLITS))
        if bad:
            raise ConfigError(_say("unknown_split", split=bad[0], accepted=SPLITS))
        for split, variations in self.problems.items():
            for v in variations:
                if not str(v).isdigit() or not int(v) < spec.n_variations:
                    raise ConfigError(_say("lab_variation_range", last=spec.n_variations - 1,
                                           got=repr(v), split=split))
                if spec.split_of(int(v)) != split:
                    raise ConfigError(_say("variation_other_split", variation=v,
                                           task=self.science, its=spec.split_of(int(v)),
                                           split=split))

    def _validate_rules(self) -> None:
        form_ok = self.form == "bool" or (self.form == "mc" and self.family in RULES_MC_FAMILIES
                                          ) or (self.form == "open" and
                                                self.family in RULES_OPEN_FAMILIES)
        if "rules" not in FAMILIES[self.family].worlds or not form_ok:
            rule_families = [f for f, fam in FAMILIES.items() if "rules" in fam.worlds
                             and "bool" in fam.forms and f not in OWN_CONFIG]
            raise ConfigError(_say("rule_families", families=rule_families,
                                   mc_families=RULES_MC_FAMILIES,
                                   open_families=RULES_OPEN_FAMILIES, family=self.family,
                                   form=self.form))
        if not self.rules:
            raise ConfigError(_say("rule_options_without_rules", games=GAMES))
        if self.science or self.domain or self.domain_file or self.objects is not None \
                or self.problems:
            raise ConfigError(_say("rules_and_domain"))
        if self.style != "acp" or self.names != "problem" or self.obfuscation:
            raise ConfigError(_say("rules_own_words"))
        opts = rule_world_options(self.rules, self.rule_options)
        if self.family == "first_target" and self.form == "mc" and \
                opts.entities < FIRST_TARGET_MC_ENTITIES:
            raise ConfigError(_say("first_target_entities", least=FIRST_TARGET_MC_ENTITIES))

    def rule_world_options(self) -> RuleOptions:
        return rule_world_options(self.rules, self.rule_options)

    @property
    def rule_episodes(self) -> int:
        """A rule world's episodes per split."""
        return rule_episodes(self.rule_options)

    @property
    def generated(self) -> bool:
        """A world made in code (TRAC's blocks), shared by every split: splits are kept
        apart by never repeating a problem, not by problem files."""
        return self.domain == TRAC_DOMAIN

    def split_problems(self, split: str) -> tuple[str, ...]:
        """The split's problems: named in the config, or by default the shipped p01-p09 /
        p10-p12 / p13-p15, or a science task's own variation split."""
        if self.problems.get(split):
            return tuple(self.problems[split])
        if self.science:
            spec = get_task(self.science)
            return tuple(str(v) for v in range(spec.n_variations) if spec.split_of(v) == split)
        return tuple(DEFAULT_SPLIT_PROBLEMS[split])

    def files(self, split: str) -> tuple[str, list[str]]:
        """The domain file and the split's problem files."""
        names = list(self.split_problems(split))
        if self.domain_file:
            return self.domain_file, names
        return shipped_files(self.domain, names)

    @property
    def phrasing_file(self) -> str:
        """The phrasing file: the one named, else `phrasing.yaml` beside a domain file."""
        if self.phrasing:
            return self.phrasing
        if self.domain_file:
            from racbench.text.user_phrasing import beside
            found = beside(self.domain_file)
            return str(found) if found else ""
        return ""

    def user_phrasing(self):
        """The phrasing file read and checked against the domain, or None."""
        path = self.phrasing_file
        if not path:
            return None
        if self.science or self.rules or self.domain == TRAC_DOMAIN:
            raise ConfigError(_say("phrasing_not_strips", world=self.domain_label))
        return _load_phrasing(path, self.domain_file or shipped_files(self.domain, [])[0])

    @property
    def domain_label(self) -> str:
        if self.rules:
            return f"rules/{self.rules}"
        if self.science:
            return f"science/{self.science}"
        return self.domain or domain_file_label(self.domain_file)

    # -- what the build engine asks of a config ------------------------------------------
    @property
    def worlds_key(self) -> str:
        """Configs with the same key share worlds (one domain's problems, one science
        task): the engine builds them in one run and then lets their worlds go."""
        if self.rules:
            return f"{self.domain_label}{sorted(self.rule_options)}"
        if self.domain_file:  # two files may name the same PDDL domain
            return os.path.realpath(self.domain_file)
        return self.domain_label

    def release(self) -> None:
        """Let go of the worlds loaded so far (the next run of configs loads its own)."""
        release_worlds()

    def warm_parts(self, splits) -> list[tuple[str, str]]:
        """What `warm` can have made ahead in worker processes (`warm_part`, a job
        each), inside `kept_spaces` only, for this process to read back: the
        (domain file, problem file) of each PDDL problem of its splits."""
        if self.generated or self.rules or self.science or not spaces_kept():
            return []
        return [(domain, problem) for split in splits
                for domain, problems in [self.files(split)] for problem in problems]

    @staticmethod
    def warm_part(part: tuple[str, str]) -> None:
        enumerate_ahead(*part)

    def warm(self, splits) -> None:
        """Load this config's worlds and their shared caches, so that worker processes
        forked afterwards share them."""
        worlds = load_worlds(self, splits, warm=True)
        if self.generated and self.family == "planning":  # TRAC's draws' walk tables
            for world in {id(w): w for ws in worlds.values() for w in ws}.values():
                walk_ends.warm(world, max(self.lengths))

    def probe(self, name: str, seed: int, splits, parts: dict | None = None):
        """What its problems can give (see ConfigRows.probe_result), joining the
        results of `probe_part` if given; picklable."""
        return ConfigRows.loaded(name, self, seed, splits).probe_result(parts)

    def probe_parts(self, name: str, seed: int, splits) -> list:
        """The probe's independent shares, one per distinct world: an engine runs each
        as a job (`probe_part`), then `probe(..., parts)` joins them."""
        return ConfigRows.loaded(name, self, seed, splits).probe_parts()

    def probe_part(self, name: str, seed: int, splits, part):
        return ConfigRows.loaded(name, self, seed, splits).probe_part(part)

    def probe_further(self, name: str, seed: int, splits, found: dict) -> list:
        """The probe's second round of shares, given the first's results `found`
        (part -> result): run as `probe_part` jobs too, their results joined with the
        first's (see ConfigRows.further_parts)."""
        return ConfigRows.loaded(name, self, seed, splits).further_parts(found)

    def rows(self, name: str, seed: int, splits, probed=None, lazy: bool = False):
        return ConfigRows(name, self, seed, splits, probed, lazy)


@lru_cache(maxsize=16)
def _load_phrasing(path: str, domain_file: str):
    from racbench.text.user_phrasing import load_phrasing
    from racbench.worlds.strips.world import domain_text
    text, domain = domain_text(domain_file)
    return load_phrasing(path, domain, text)


def domain_file_label(domain_file: str) -> str:
    """What rows (the `domain` column) and the card call the domain of a user's domain
    file: the name its PDDL gives it, `(domain keys-doors)`, whatever folder holds the
    file or however its path is typed."""
    return _pddl_domain_name(str(Path(os.path.realpath(domain_file))))


@lru_cache(maxsize=64)
def _pddl_domain_name(path: str) -> str:
    from racbench.worlds.strips.world import domain_text

    return domain_text(path)[1].name


DOMAIN_FILE = Phrase(_say, "domain_file")  # what check_utf8 calls the path
PROBLEM_FILE = Phrase(_say, "problem_file")


def is_readable_file(path: str, what) -> bool:
    """Is `path` a file (after refusing a path racbench cannot write into rows)?"""
    check_utf8(path, what)
    return Path(path).is_file()


def not_a_file(path: str) -> str:
    """Why `path` cannot be read as a PDDL file, for a message."""
    if Path(path).is_dir():
        return _say("is_a_folder")
    if Path(path).exists():
        return _say("not_regular")
    return _say("not_found")
