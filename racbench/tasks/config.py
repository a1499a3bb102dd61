"""What one ACP config asks for: a family, a form, a domain, problems per split."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from racbench.generators.base import ConfigError
from racbench.worlds.strips.shipped import shipped_domains, shipped_files, shipped_problem_names

FORMS = ("bool", "mc", "open")
SPLITS = ("train", "validation", "test")
MAX_LENGTH = 8
OBFUSCATIONS = (None, "random", "misleading")  # DomainText's renaming modes
# Shipped problems per split when a config names none: unseen problems in test.
DEFAULT_SPLIT_PROBLEMS = {"train": [f"p{i:02d}" for i in range(1, 10)],
                          "validation": ["p10", "p11", "p12"],
                          "test": ["p13", "p14", "p15"]}


@dataclass(frozen=True)
class AcpConfig:
    family: str
    domain: str = ""  # a shipped domain name, or empty with domain_file
    form: str = "bool"
    length: int = 2  # sequence length (plans, observations) where a family uses one
    problems: dict[str, tuple[str, ...]] = field(default_factory=dict)  # split -> names/paths
    domain_file: str = ""
    obfuscation: str | None = None  # passed to DomainText: rename objects/predicates
    paraphrase: int = 0  # which template variant of facts and actions to use

    def validate(self) -> "AcpConfig":
        from racbench.tasks import FAMILIES
        if self.family not in FAMILIES:
            raise ConfigError(f"unknown family '{self.family}'; accepted: {', '.join(FAMILIES)}")
        forms = FAMILIES[self.family].forms
        if self.form not in forms:
            raise ConfigError(f"family '{self.family}' has no form '{self.form}'; accepted: "
                              f"{', '.join(forms)}")
        if not self.domain_file:
            if self.domain not in shipped_domains():
                raise ConfigError(f"unknown domain '{self.domain}'; accepted: "
                                  f"{', '.join(shipped_domains())} (or a domain file)")
        elif not Path(self.domain_file).is_file():
            raise ConfigError(f"domain file {self.domain_file} not found")
        if not 1 <= self.length <= MAX_LENGTH:
            raise ConfigError(f"length must be between 1 and {MAX_LENGTH}, got {self.length}")
        if self.obfuscation not in OBFUSCATIONS:
            raise ConfigError(f"unknown obfuscation '{self.obfuscation}'; accepted: "
                              f"{', '.join(str(o) for o in OBFUSCATIONS[1:])} (or none)")
        if not isinstance(self.paraphrase, int) or self.paraphrase < 0:
            raise ConfigError(f"paraphrase must be a non-negative integer, got {self.paraphrase!r}")
        bad = sorted(set(self.problems) - set(SPLITS))
        if bad:
            raise ConfigError(f"unknown split '{bad[0]}' in problems; accepted: "
                              f"{', '.join(SPLITS)}")
        known = set(shipped_problem_names(self.domain)) if not self.domain_file else None
        for split, names in self.problems.items():
            if not names:
                raise ConfigError(f"split '{split}' lists no problems")
            for p in names:
                if known is not None and p not in known:
                    raise ConfigError(f"unknown problem '{p}' of domain {self.domain}; "
                                      f"accepted: {', '.join(sorted(known))}")
                if known is None and not Path(p).is_file():
                    raise ConfigError(f"problem file {p} not found")
        seen: dict[str, str] = {}
        for split, names in self.problems.items():
            for p in names:
                if p in seen and seen[p] != split:
                    raise ConfigError(f"problem '{p}' is in both '{seen[p]}' and '{split}'; "
                                      "splits must not share problems")
                seen[p] = split
        return self

    def split_problems(self, split: str) -> tuple[str, ...]:
        return tuple(self.problems.get(split) or DEFAULT_SPLIT_PROBLEMS[split])

    def files(self, split: str) -> tuple[str, list[str]]:
        """The domain file and the split's problem files."""
        names = list(self.split_problems(split))
        if self.domain_file:
            return self.domain_file, names
        return shipped_files(self.domain, names)

    @property
    def domain_label(self) -> str:
        return self.domain or Path(self.domain_file).parent.name or Path(self.domain_file).stem
