"""Recipes: YAML files that name every config of a suite, its task knobs and splits.

A config entry may carry `for_each: {field: [values...]}`, expanded into one config per
combination with `{field}` placeholders filled in its name. A list under `length`
mixes lengths inside one config (GE1 mixes N = 1, 2, 3 equally).

A task config names a `family` (racbench/tasks/<family>.py) and its world: a shipped
`domain` (or a `domain_file`) with `problems` per split ({split: [p01, ...]}), or
`domain: blocksworld_trac` with `objects` blocks; then form, length, query_kinds,
names (problem, seen, unseen), style (acp, trac), obfuscation, paraphrase, splits.
`task: projection` is TRAC's shorthand for that family on TRAC's blocksworld in TRAC's
style, named from the seen colours. A `for_each` combination pairing a family with a
form it does not have (e.g. plan_generation with bool) is skipped, so one entry can
cover every form; so is any combination matching every field of a mapping listed
under `exclude`. `science: TASK` entries are gold trajectories of the science lab
(`rows`: trajectory, behaviour_cloning or return_conditioned; `history` for step rows);
`rules: GAME` entries without a family are those of a rule world's oracle, over the
episodes its `rule_options` make.

Top-level `license` (a licence identifier the Hugging Face Hub knows, `unknown` when
absent) and `citation` (BibTeX) go into the dataset card. Top-level `include` lists
other recipes (built-in names, or .yaml paths relative to the including file) whose
configs come first, in that order, before the recipe's own `configs` (which may then be
left out): `trajectories` is its `trajectories-...` parts in one build.
"""

from __future__ import annotations

import difflib
import dataclasses
import fnmatch
import itertools
import math
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from racbench.errors import InputError
from racbench.data import recipe_names, recipe_text
from racbench.tasks.config import RULE_OPTIONS, TRAC_DOMAIN, TaskConfig
from racbench.tasks import next_observation
from racbench.tasks.gold_trajectories import DEFAULT_HISTORY, RuleGoldConfig, ScienceGoldConfig
from racbench.export.licenses import DEFAULT_LICENSE, HUB_LICENSES
from racbench.text import sayer

SPLITS = ("train", "validation", "test")
RECIPE_KEYS = ("name", "description", "seed", "license", "citation", "include", "configs")
SCIENCE_KEYS = ("name", "description", "for_each", "science", "simplifications",
                "valid_actions", "rows", "history")
RULE_GOLD_KEYS = ("name", "description", "for_each", "rules", "rule_options",
                  "valid_actions", "rows", "history")
TASK_KEYS = ("name", "description", "for_each", "exclude", "family", "task", "domain",
             "domain_file", "problems", "objects", "form", "length", "query_kinds", "names",
             "style", "obfuscation", "paraphrase", "science", "simplifications", "rules",
             "rule_options", "splits", "phrasing")
NEXT_OBSERVATION_KEYS = ("name", "description", "for_each", "splits") + next_observation.KEYS
CONFIG_KEYS = tuple(dict.fromkeys(TASK_KEYS + SCIENCE_KEYS[3:] + NEXT_OBSERVATION_KEYS))
MAX_RECIPE_BYTES = 1_000_000
# a config's name is a folder of the dataset: no separators, dots or room for '..'
CONFIG_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,99}")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
MAX_CONFIGS = 10_000
MAX_SPLIT_ROWS = 10_000_000  # rows are streamed to shards; their keys and order stay in memory
# `task: X` (TRAC): family X on TRAC's blocksworld, as the paper asks and phrases it
TRAC_DEFAULTS = {"domain": TRAC_DOMAIN, "objects": 5, "style": "trac", "names": "seen",
                 "length": 1, "form": "bool"}
FAMILY_DEFAULTS = {"domain": "", "objects": None, "style": "acp", "names": "problem",
                   "length": 2, "form": "bool"}


class RecipeError(InputError):
    """A recipe we cannot accept; the message names the file and the field."""


_say = sayer("cli", ("recipe.j2",))


@dataclass(frozen=True)
class ConfigSpec:
    name: str
    description: str
    # its `rows` make the rows
    task: TaskConfig | ScienceGoldConfig | RuleGoldConfig | next_observation.NextObservationConfig
    splits: dict[str, int]  # split -> rows, in SPLITS order


@dataclass(frozen=True)
class Recipe:
    name: str
    description: str
    seed: int
    configs: tuple[ConfigSpec, ...]
    source_text: str
    license: str = DEFAULT_LICENSE  # a Hub licence identifier, for the dataset card
    citation: str = ""  # BibTeX of the work the data follows, for the dataset card

    def select(self, patterns: str) -> "Recipe":
        """The configs whose names match any of the comma-separated shell patterns
        (`blocksworld_*,gripper_planning_bool`), in the recipe's order."""
        wanted = [p.strip() for p in patterns.split(",") if p.strip()]
        configs = tuple(c for c in self.configs
                        if any(fnmatch.fnmatchcase(c.name, p) for p in wanted))
        if not configs:
            raise RecipeError(_say("no_config_matches", patterns=repr(patterns),
                                   count=len(self.configs), example=self.configs[0].name))
        return dataclasses.replace(self, configs=configs)

    def scaled(self, scale: float) -> "Recipe":
        """Every split at `scale` times its rows, kept even so labels stay 50/50."""
        for c in self.configs:
            for split, n in c.splits.items():
                if not n * scale <= MAX_SPLIT_ROWS:
                    raise RecipeError(_say("scale_too_big", scale=f"{scale:g}",
                                           rows=f"{n * scale:.3g}", split=split, config=c.name,
                                           most=f"{MAX_SPLIT_ROWS:,}"))
        configs = tuple(ConfigSpec(c.name, c.description, c.task,
                                   {s: max(2, 2 * round(n * scale / 2)) for s, n in c.splits.items()})
                        for c in self.configs)
        return Recipe(self.name, self.description, self.seed, configs, self.source_text,
                      self.license, self.citation)


def load_recipe(name_or_path: str, _including: tuple[str, ...] = ()) -> Recipe:
    """A built-in recipe by name (e.g. 'trac') or a YAML file by path.

    A built-in name always means the built-in recipe, even if a file or folder of that
    name sits in the working directory; write ./NAME to read such a file instead."""
    if name_or_path in recipe_names():
        return parse_recipe(recipe_text(name_or_path), f"{name_or_path}.yaml", _including)
    path = Path(name_or_path)
    if path.suffix not in (".yaml", ".yml") and not path.exists():
        raise RecipeError(_say("unknown_recipe", name=name_or_path, names=recipe_names()))
    if path.is_dir():
        raise RecipeError(_say("recipe_is_folder", name=name_or_path, names=recipe_names()))
    try:
        if path.exists() and not path.is_file():  # a device or a pipe: never read it whole
            raise RecipeError(_say("not_regular_file", name=name_or_path))
        with open(path, "rb") as handle:
            data = handle.read(MAX_RECIPE_BYTES + 1)
    except OSError as exc:
        raise RecipeError(_say("cannot_read", name=name_or_path, reason=exc.strerror)) from None
    if len(data) > MAX_RECIPE_BYTES:
        raise RecipeError(_say("too_big", name=name_or_path, most=f"{MAX_RECIPE_BYTES:,}"))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecipeError(_say("not_utf8", name=name_or_path, byte=exc.start)) from None
    return parse_recipe(text, str(path), _including)


class _RecipeLoader(yaml.SafeLoader):
    """YAML's safe loader that refuses a key given twice in one mapping (plain YAML keeps
    the last silently, so `objects: 3` then `objects: 4` would build 4 unannounced)."""

    def construct_mapping(self, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if isinstance(key, (str, int, float, bool)) and key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, _say("key_twice", key=key), key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep)


def parse_recipe(text: str, source: str, _including: tuple[str, ...] = ()) -> Recipe:
    try:
        data = yaml.load(text, Loader=_RecipeLoader)  # noqa: S506 (a safe loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{source}:{mark.line + 1}" if mark else source
        raise RecipeError(_say("not_yaml", where=where,
                               problem=getattr(exc, "problem", exc))) from None
    except RecursionError:
        raise RecipeError(_say("nested_too_deeply", source=source)) from None
    if not isinstance(data, dict):
        raise RecipeError(_say("not_a_mapping_with_keys", source=source, keys=RECIPE_KEYS))
    _check_keys(data, RECIPE_KEYS, source, _say("recipe_level"))
    included = _included(data, source, _including)
    entries = data.get("configs", [] if included else None)
    if not isinstance(entries, list) or not (entries or included):
        raise RecipeError(_say("no_configs", source=source))
    configs: list[ConfigSpec] = [c for r in included for c in r.configs]
    for i, entry in enumerate(entries):
        where = f"{source}: configs[{i}]"
        if not isinstance(entry, dict):
            raise RecipeError(_say("not_a_mapping", where=where))
        _check_keys(entry, CONFIG_KEYS, source, f"configs[{i}]")
        configs.extend(_expand(_rebased(entry, Path(source).parent), where))
    names = [c.name for c in configs]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise RecipeError(_say("names_repeated", source=source, names=dupes))
    seed = data.get("seed", 0)
    if not isinstance(seed, int):
        raise RecipeError(_say("bad_seed", source=source, seed=repr(seed)))
    # the recipe's text, the included recipes' texts after it
    source_text = "\n".join([text] + [r.source_text for r in included])
    return Recipe(str(data.get("name", source)), str(data.get("description", "")), seed,
                  tuple(configs), source_text, _license(data, source), _citation(data, source))


def _rebased(entry: dict, folder: Path) -> dict:
    """The entry with a relative `domain_file` and its problem files read from the
    recipe's folder, as `include` paths are: a recipe and its PDDL move together, and the
    build does not depend on where it is run from."""
    if folder != Path(".") and isinstance(entry.get("phrasing"), str):
        entry = dict(entry, phrasing=str(folder / entry["phrasing"]))
    if folder == Path(".") or not isinstance(entry.get("domain_file"), str):
        return entry
    entry = dict(entry, domain_file=str(folder / entry["domain_file"]))
    problems = entry.get("problems")
    if isinstance(problems, dict):
        entry["problems"] = {split: [str(folder / p) if isinstance(p, str) else p for p in files]
                             if isinstance(files, list) else files
                             for split, files in problems.items()}
    return entry


def _included(data: dict, source: str, including: tuple[str, ...]) -> list[Recipe]:
    """The recipes named under `include`: built-in names, or paths relative to the
    including file; a recipe that includes itself, directly or not, is refused."""
    names = data.get("include", [])
    if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
        raise RecipeError(_say("bad_include", source=source, names=recipe_names()))
    chain = including + (source,)
    out = []
    for name in names:
        target = name
        if name not in recipe_names():
            if Path(name).suffix not in (".yaml", ".yml") or source in _builtin_sources():
                raise RecipeError(_say("unknown_include", source=source, name=repr(name),
                                       names=recipe_names()))
            target = str(Path(source).parent / name)
        key = f"{target}.yaml" if target in recipe_names() else target
        if key in chain:
            raise RecipeError(_say("include_cycle", source=source, name=repr(name),
                                   chain=chain + (key,)))
        out.append(load_recipe(target, chain))
    return out


def _builtin_sources() -> set[str]:
    return {f"{n}.yaml" for n in recipe_names()}


def _license(data: dict, source: str) -> str:
    value = data.get("license", DEFAULT_LICENSE)
    if value in HUB_LICENSES:
        return value
    close = difflib.get_close_matches(str(value).lower(), HUB_LICENSES, n=1)
    raise RecipeError(_say("bad_license", source=source, default=DEFAULT_LICENSE,
                           value=repr(value), close=close[0] if close else None,
                           licenses=HUB_LICENSES))


def _citation(data: dict, source: str) -> str:
    value = data.get("citation", "")
    if not isinstance(value, str) or (value.strip() and not value.lstrip().startswith("@")):
        raise RecipeError(_say("bad_citation", source=source, value=f"{value!r:.60}"))
    return value.strip()


def _check_keys(data: dict, accepted: tuple[str, ...], source: str, where: str) -> None:
    unknown = sorted(set(map(str, data)) - set(accepted))
    if unknown:
        raise RecipeError(_say("unknown_key", source=source, key=unknown[0], where=where,
                               accepted=accepted))


def _expand(entry: dict, where: str) -> list[ConfigSpec]:
    for_each = entry.get("for_each") or {}
    if not isinstance(for_each, dict) or any(not isinstance(v, list) for v in for_each.values()):
        raise RecipeError(_say("bad_for_each", where=where))
    bad = sorted(set(for_each) - set(CONFIG_KEYS))
    if bad:
        raise RecipeError(_say("unknown_for_each_key", where=where, key=bad[0],
                               accepted=CONFIG_KEYS))
    fields = list(for_each)  # the recipe's order: first field varies slowest
    combinations = math.prod(len(v) for v in for_each.values())
    if combinations > MAX_CONFIGS:
        raise RecipeError(_say("too_many_configs", where=where, configs=f"{combinations:,}",
                               most=f"{MAX_CONFIGS:,}"))
    exclude = entry.get("exclude") or []
    if not isinstance(exclude, list) or any(not isinstance(x, dict) for x in exclude):
        raise RecipeError(_say("bad_exclude", where=where))
    out = []
    for values in itertools.product(*(for_each[f] for f in fields)):
        merged = {k: v for k, v in entry.items() if k not in ("for_each", "exclude")}
        merged.update(zip(fields, values))
        if any(all(merged.get(k) == v for k, v in x.items()) for x in exclude):
            continue
        name = _fill(str(entry.get("name", "")), merged)
        unfilled = PLACEHOLDER.search(name)
        if unfilled:
            raise RecipeError(_say("unknown_placeholder", where=where,
                                   placeholder=unfilled.group(0), fields=list(merged)))
        merged["description"] = _fill(str(entry.get("description", "")), merged)
        if "family" in merged and "form" in for_each and _lacks_form(merged):
            continue
        out.append(_config(name, merged, where))
    return out


def _fill(template: str, fields: dict) -> str:
    """`template` with each `{field}` of `fields` replaced by its value; other braces
    (a description's own, an unknown field) are left as written."""
    return PLACEHOLDER.sub(lambda m: str(fields[m.group(1)]) if m.group(1) in fields
                           else m.group(0), template)


def _lacks_form(entry: dict) -> bool:
    from racbench.tasks import FAMILIES
    family = FAMILIES.get(str(entry.get("family")))
    return family is not None and str(entry.get("form")) not in family.forms


def _config(name: str, entry: dict, where: str) -> ConfigSpec:
    if not name:
        raise RecipeError(_say("no_name", where=where))
    if not CONFIG_NAME.fullmatch(name):
        raise RecipeError(_say("bad_name", where=where, name=f"{name!r:.80}"))
    where = f"{where} ({name})"
    if "science" in entry and "family" not in entry and "task" not in entry:
        return _science_config(name, entry, where)
    if "rules" in entry and "family" not in entry and "task" not in entry:
        return _rule_gold_config(name, entry, where)
    if entry.get("family") == next_observation.NAME:
        return _next_observation_config(name, entry, where)
    return _task_config(name, entry, where)


def _next_observation_config(name: str, entry: dict, where: str) -> ConfigSpec:
    """Next-observation rows (racbench/tasks/next_observation.py): keys of their own."""
    bad = sorted(set(map(str, entry)) - set(NEXT_OBSERVATION_KEYS))
    if bad:
        raise RecipeError(_say("unknown_config_key", where=where, key=bad[0],
                               kind=next_observation.NAME, accepted=NEXT_OBSERVATION_KEYS))
    splits = _splits(entry, where)
    try:
        cfg = next_observation.NextObservationConfig.from_entry(entry).validate()
        cfg.check_splits(splits)
    except ValueError as exc:
        raise RecipeError(_say("refused", where=where, reason=exc)) from None
    return ConfigSpec(name, str(entry.get("description", "")), cfg, splits)


def _science_config(name: str, entry: dict, where: str) -> ConfigSpec:
    """Gold trajectories of one science task: one row per (variation, simplifications),
    or with `rows` one per gold step; splits come from the task's variation split, so
    no sizes are given."""
    bad = sorted(set(map(str, entry)) - set(SCIENCE_KEYS))
    if bad:
        raise RecipeError(_say("unknown_config_key", where=where, key=bad[0], kind="science",
                               accepted=SCIENCE_KEYS))
    settings = entry.get("simplifications", [""])
    if isinstance(settings, str) or not isinstance(settings, list):
        raise RecipeError(_say("science_simplifications", where=where))
    kind = _gold_rows_kind(entry, where)
    cfg = ScienceGoldConfig(str(entry["science"]), tuple(str(s or "") for s in settings),
                            bool(entry.get("valid_actions", False)), kind,
                            entry.get("history", DEFAULT_HISTORY))
    return _gold_spec(name, entry, where, cfg)


def _rule_gold_config(name: str, entry: dict, where: str) -> ConfigSpec:
    """The oracle's plays of a rule world's episodes (racbench/tasks/gold_trajectories.py),
    as science configs' rows; splits are the world's (its episodes per split), so no
    sizes are given."""
    bad = sorted(set(map(str, entry)) - set(RULE_GOLD_KEYS))
    if bad:
        raise RecipeError(_say("unknown_config_key", where=where, key=bad[0], kind="rules",
                               accepted=RULE_GOLD_KEYS))
    knobs = entry.get("rule_options") or {}
    if not isinstance(knobs, dict):
        raise RecipeError(_say("bad_rule_options", where=where, knobs=RULE_OPTIONS,
                               value=repr(knobs)))
    cfg = RuleGoldConfig(str(entry["rules"]), tuple(sorted((str(k), v) for k, v in knobs.items())),
                         bool(entry.get("valid_actions", False)), _gold_rows_kind(entry, where),
                         entry.get("history", DEFAULT_HISTORY))
    return _gold_spec(name, entry, where, cfg)


def _gold_rows_kind(entry: dict, where: str) -> str:
    kind = entry.get("rows", "trajectory")
    if "history" in entry and kind == "trajectory":
        raise RecipeError(_say("history_of_trajectory", where=where))
    return str(kind)


def _gold_spec(name: str, entry: dict, where: str, cfg) -> ConfigSpec:
    """A gold config, checked, with its splits' sizes: every trajectory or step."""
    try:
        cfg.validate()
    except ValueError as exc:
        raise RecipeError(_say("refused", where=where, reason=exc)) from None
    sizes = cfg.rows(name, 0, SPLITS).split_sizes()
    return ConfigSpec(name, str(entry.get("description", "")), cfg, sizes)


def _task_config(name: str, entry: dict, where: str) -> ConfigSpec:
    if "task" in entry and "family" in entry:
        raise RecipeError(_say("task_and_family", where=where))
    bad = sorted(set(map(str, entry)) - set(TASK_KEYS))
    if bad:
        raise RecipeError(_say("unknown_config_key", where=where, key=bad[0], kind="task",
                               accepted=TASK_KEYS))
    entry = dict(TRAC_DEFAULTS if "task" in entry else FAMILY_DEFAULTS, **entry)
    problems = entry.get("problems") or {}
    if not isinstance(problems, dict) or any(
            not isinstance(v, list) or not all(isinstance(p, (str, int)) and
                                               not isinstance(p, bool) for p in v)
            for v in problems.values()):
        raise RecipeError(_say("bad_problems", where=where))
    length = entry["length"]
    lengths = tuple(length) if isinstance(length, list) else (length,)
    if any(not isinstance(n, int) or isinstance(n, bool) for n in lengths):
        raise RecipeError(_say("bad_length", where=where, value=repr(length)))
    if entry["objects"] is not None and (not isinstance(entry["objects"], int)
                                         or isinstance(entry["objects"], bool)):
        raise RecipeError(_say("bad_objects", where=where, value=repr(entry["objects"])))
    kinds = entry.get("query_kinds", ["literal", "conjunction"])
    kinds = [kinds] if isinstance(kinds, str) else kinds
    if not isinstance(kinds, list):
        raise RecipeError(_say("bad_query_kinds", where=where, value=repr(kinds)))
    obfuscation = entry.get("obfuscation")
    simplifications = entry.get("simplifications", "")
    if not isinstance(simplifications, str):
        raise RecipeError(_say("task_simplifications", where=where,
                               value=repr(simplifications)))
    problems = {k: [str(p) for p in v] for k, v in problems.items()}
    rule_options = entry.get("rule_options") or {}
    if not isinstance(rule_options, dict):
        raise RecipeError(_say("bad_rule_options", where=where, knobs=RULE_OPTIONS,
                               value=repr(rule_options)))
    cfg = TaskConfig(family=str(entry.get("family", entry.get("task", ""))),
                     domain=str(entry["domain"]), form=str(entry["form"]), lengths=lengths,
                     problems={k: tuple(v) for k, v in problems.items()},
                     domain_file=str(entry.get("domain_file", "")), objects=entry["objects"],
                     query_kinds=tuple(str(k) for k in kinds), names=str(entry["names"]),
                     style=str(entry["style"]),
                     obfuscation=None if obfuscation is None else str(obfuscation),
                     paraphrase=entry.get("paraphrase", 0), science=str(entry.get("science", "")),
                     simplifications=simplifications, rules=str(entry.get("rules", "")),
                     rule_options=tuple(sorted((str(k), v) for k, v in rule_options.items())),
                     phrasing=_phrasing_path(entry, where))
    try:
        cfg.validate()
    except ValueError as exc:
        raise RecipeError(_say("refused", where=where, reason=exc)) from None
    splits = _splits(entry, where)
    missing = [s for s in splits if s not in cfg.problems] if cfg.problems else []
    if missing:
        raise RecipeError(_say("no_problems_for", where=where, split=missing[0]))
    return ConfigSpec(name, str(entry.get("description", "")), cfg, splits)


def _phrasing_path(entry: dict, where: str) -> str:
    value = entry.get("phrasing", "")
    if not isinstance(value, str):
        raise RecipeError(_say("bad_phrasing", where=where, value=repr(value)))
    return value


def _splits(entry: dict, where: str) -> dict[str, int]:
    splits = entry.get("splits")
    if not isinstance(splits, dict) or not splits:
        raise RecipeError(_say("bad_splits", where=where, splits=SPLITS))
    for split, n in splits.items():
        if split not in SPLITS:
            raise RecipeError(_say("unknown_split", where=where, split=split, splits=SPLITS))
        if not isinstance(n, int) or isinstance(n, bool) or n < 2 or n % 2 or n > MAX_SPLIT_ROWS:
            raise RecipeError(_say("odd_split", where=where, split=split, value=repr(n)))
    return {s: splits[s] for s in SPLITS if s in splits}
