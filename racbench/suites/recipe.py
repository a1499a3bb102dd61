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
            raise RecipeError(f"--configs {patterns!r} matches none of the recipe's "
                              f"{len(self.configs)} configs (e.g. {self.configs[0].name})")
        return dataclasses.replace(self, configs=configs)

    def scaled(self, scale: float) -> "Recipe":
        """Every split at `scale` times its rows, kept even so labels stay 50/50."""
        for c in self.configs:
            for split, n in c.splits.items():
                if not n * scale <= MAX_SPLIT_ROWS:
                    raise RecipeError(f"--scale {scale:g} asks for {n * scale:.3g} {split} rows "
                                      f"in config '{c.name}'; a split holds at most "
                                      f"{MAX_SPLIT_ROWS:,} rows")
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
        raise RecipeError(f"unknown recipe '{name_or_path}'; accepted: "
                          f"{', '.join(recipe_names())} or a path to a .yaml file")
    if path.is_dir():
        raise RecipeError(f"{name_or_path}: is a folder; a recipe is a built-in name "
                          f"({', '.join(recipe_names())}) or a .yaml file")
    try:
        if path.exists() and not path.is_file():  # a device or a pipe: never read it whole
            raise RecipeError(f"{name_or_path}: not a regular file; a recipe is a .yaml file")
        with open(path, "rb") as handle:
            data = handle.read(MAX_RECIPE_BYTES + 1)
    except OSError as exc:
        raise RecipeError(f"{name_or_path}: cannot read recipe ({exc.strerror})") from None
    if len(data) > MAX_RECIPE_BYTES:
        raise RecipeError(f"{name_or_path}: more than {MAX_RECIPE_BYTES:,} bytes; a recipe "
                          f"is a YAML text of at most {MAX_RECIPE_BYTES:,} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecipeError(f"{name_or_path}: not UTF-8 text (byte {exc.start}); a recipe is "
                          "a YAML file") from None
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
                    None, None, f"key '{key}' appears twice in one mapping", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep)


def parse_recipe(text: str, source: str, _including: tuple[str, ...] = ()) -> Recipe:
    try:
        data = yaml.load(text, Loader=_RecipeLoader)  # noqa: S506 (a safe loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{source}:{mark.line + 1}" if mark else source
        raise RecipeError(f"{where}: not valid YAML ({getattr(exc, 'problem', exc)})") from None
    except RecursionError:
        raise RecipeError(f"{source}: nested too deeply; a recipe is a mapping whose "
                          "'configs' list holds flat mappings") from None
    if not isinstance(data, dict):
        raise RecipeError(f"{source}: expected a mapping with keys {', '.join(RECIPE_KEYS)}")
    _check_keys(data, RECIPE_KEYS, source, "recipe")
    included = _included(data, source, _including)
    entries = data.get("configs", [] if included else None)
    if not isinstance(entries, list) or not (entries or included):
        raise RecipeError(f"{source}: 'configs' must be a non-empty list")
    configs: list[ConfigSpec] = [c for r in included for c in r.configs]
    for i, entry in enumerate(entries):
        where = f"{source}: configs[{i}]"
        if not isinstance(entry, dict):
            raise RecipeError(f"{where}: expected a mapping")
        _check_keys(entry, CONFIG_KEYS, source, f"configs[{i}]")
        configs.extend(_expand(_rebased(entry, Path(source).parent), where))
    names = [c.name for c in configs]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise RecipeError(f"{source}: config names must be unique; repeated: {', '.join(dupes)}")
    seed = data.get("seed", 0)
    if not isinstance(seed, int):
        raise RecipeError(f"{source}: 'seed' must be an integer, got {seed!r}")
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
        raise RecipeError(f"{source}: 'include' must be a list of recipe names (built-in: "
                          f"{', '.join(recipe_names())}) or .yaml paths")
    chain = including + (source,)
    out = []
    for name in names:
        target = name
        if name not in recipe_names():
            if Path(name).suffix not in (".yaml", ".yml") or source in _builtin_sources():
                raise RecipeError(f"{source}: 'include' names unknown recipe {name!r}; "
                                  f"accepted: {', '.join(recipe_names())} or a .yaml path "
                                  "relative to this recipe")
            target = str(Path(source).parent / name)
        key = f"{target}.yaml" if target in recipe_names() else target
        if key in chain:
            raise RecipeError(f"{source}: 'include' of {name!r} makes a cycle: "
                              f"{' -> '.join(chain + (key,))}")
        out.append(load_recipe(target, chain))
    return out


def _builtin_sources() -> set[str]:
    return {f"{n}.yaml" for n in recipe_names()}


def _license(data: dict, source: str) -> str:
    value = data.get("license", DEFAULT_LICENSE)
    if value in HUB_LICENSES:
        return value
    close = difflib.get_close_matches(str(value).lower(), HUB_LICENSES, n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    raise RecipeError(f"{source}: 'license' must be a licence identifier the Hugging Face Hub "
                      f"knows, such as mit, apache-2.0, cc-by-4.0, cc-by-sa-4.0, cc0-1.0 or "
                      f"{DEFAULT_LICENSE}; got {value!r}{hint}. All accepted: "
                      f"{', '.join(HUB_LICENSES)}")


def _citation(data: dict, source: str) -> str:
    value = data.get("citation", "")
    if not isinstance(value, str) or (value.strip() and not value.lstrip().startswith("@")):
        raise RecipeError(f"{source}: 'citation' must be BibTeX text, one or more entries "
                          f"such as @article{{key, title = {{...}}, ...}}; got {value!r:.60}")
    return value.strip()


def _check_keys(data: dict, accepted: tuple[str, ...], source: str, where: str) -> None:
    unknown = sorted(set(map(str, data)) - set(accepted))
    if unknown:
        raise RecipeError(f"{source}: unknown key '{unknown[0]}' in {where}; accepted: "
                          f"{', '.join(accepted)}")


def _expand(entry: dict, where: str) -> list[ConfigSpec]:
    for_each = entry.get("for_each") or {}
    if not isinstance(for_each, dict) or any(not isinstance(v, list) for v in for_each.values()):
        raise RecipeError(f"{where}: 'for_each' must map fields to lists of values")
    bad = sorted(set(for_each) - set(CONFIG_KEYS))
    if bad:
        raise RecipeError(f"{where}: unknown key '{bad[0]}' in for_each; accepted: "
                          f"{', '.join(CONFIG_KEYS)}")
    fields = list(for_each)  # the recipe's order: first field varies slowest
    combinations = math.prod(len(v) for v in for_each.values())
    if combinations > MAX_CONFIGS:
        raise RecipeError(f"{where}: 'for_each' makes {combinations:,} configs; a recipe "
                          f"holds at most {MAX_CONFIGS:,} configs")
    exclude = entry.get("exclude") or []
    if not isinstance(exclude, list) or any(not isinstance(x, dict) for x in exclude):
        raise RecipeError(f"{where}: 'exclude' must be a list of mappings of fields to values")
    out = []
    for values in itertools.product(*(for_each[f] for f in fields)):
        merged = {k: v for k, v in entry.items() if k not in ("for_each", "exclude")}
        merged.update(zip(fields, values))
        if any(all(merged.get(k) == v for k, v in x.items()) for x in exclude):
            continue
        name = _fill(str(entry.get("name", "")), merged)
        unfilled = PLACEHOLDER.search(name)
        if unfilled:
            raise RecipeError(f"{where}: name placeholder {unfilled.group(0)} is not a field; "
                              f"accepted: {', '.join('{' + k + '}' for k in merged)}")
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
        raise RecipeError(f"{where}: every config needs a 'name'")
    if not CONFIG_NAME.fullmatch(name):
        raise RecipeError(f"{where}: config name {name!r:.80} is not accepted: it names a "
                          "folder of the dataset, so it is 1-100 letters, digits, '_' or '-', "
                          "starting with a letter or digit (e.g. gripper_planning_bool)")
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
        raise RecipeError(f"{where}: unknown key '{bad[0]}' for a {next_observation.NAME} "
                          f"config; accepted: {', '.join(NEXT_OBSERVATION_KEYS)}")
    splits = _splits(entry, where)
    try:
        cfg = next_observation.NextObservationConfig.from_entry(entry).validate()
        cfg.check_splits(splits)
    except ValueError as exc:
        raise RecipeError(f"{where}: {exc}") from None
    return ConfigSpec(name, str(entry.get("description", "")), cfg, splits)


def _science_config(name: str, entry: dict, where: str) -> ConfigSpec:
    """Gold trajectories of one science task: one row per (variation, simplifications),
    or with `rows` one per gold step; splits come from the task's variation split, so
    no sizes are given."""
    bad = sorted(set(map(str, entry)) - set(SCIENCE_KEYS))
    if bad:
        raise RecipeError(f"{where}: unknown key '{bad[0]}' for a science config; accepted: "
                          f"{', '.join(SCIENCE_KEYS)}")
    settings = entry.get("simplifications", [""])
    if isinstance(settings, str) or not isinstance(settings, list):
        raise RecipeError(f"{where}: 'simplifications' must be a list of settings "
                          "such as ['', easy, 'teleport,openDoors']")
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
        raise RecipeError(f"{where}: unknown key '{bad[0]}' for a rule world's gold rows "
                          f"(no 'family'); accepted: {', '.join(RULE_GOLD_KEYS)}")
    knobs = entry.get("rule_options") or {}
    if not isinstance(knobs, dict):
        raise RecipeError(f"{where}: 'rule_options' must map knobs ({', '.join(RULE_OPTIONS)}) "
                          f"to values, got {knobs!r}")
    cfg = RuleGoldConfig(str(entry["rules"]), tuple(sorted((str(k), v) for k, v in knobs.items())),
                         bool(entry.get("valid_actions", False)), _gold_rows_kind(entry, where),
                         entry.get("history", DEFAULT_HISTORY))
    return _gold_spec(name, entry, where, cfg)


def _gold_rows_kind(entry: dict, where: str) -> str:
    kind = entry.get("rows", "trajectory")
    if "history" in entry and kind == "trajectory":
        raise RecipeError(f"{where}: 'history' is for rows: behaviour_cloning or "
                          "return_conditioned (one row per gold step); trajectory rows hold "
                          "every step")
    return str(kind)


def _gold_spec(name: str, entry: dict, where: str, cfg) -> ConfigSpec:
    """A gold config, checked, with its splits' sizes: every trajectory or step."""
    try:
        cfg.validate()
    except ValueError as exc:
        raise RecipeError(f"{where}: {exc}") from None
    sizes = cfg.rows(name, 0, SPLITS).split_sizes()
    return ConfigSpec(name, str(entry.get("description", "")), cfg, sizes)


def _task_config(name: str, entry: dict, where: str) -> ConfigSpec:
    if "task" in entry and "family" in entry:
        raise RecipeError(f"{where}: give either 'task' (TRAC) or 'family', not both")
    bad = sorted(set(map(str, entry)) - set(TASK_KEYS))
    if bad:
        raise RecipeError(f"{where}: unknown key '{bad[0]}' for a task config; accepted: "
                          f"{', '.join(TASK_KEYS)}")
    entry = dict(TRAC_DEFAULTS if "task" in entry else FAMILY_DEFAULTS, **entry)
    problems = entry.get("problems") or {}
    if not isinstance(problems, dict) or any(
            not isinstance(v, list) or not all(isinstance(p, (str, int)) and
                                               not isinstance(p, bool) for p in v)
            for v in problems.values()):
        raise RecipeError(f"{where}: 'problems' must map splits to lists of problem names "
                          "(p01, ...), files, or science-task variations")
    length = entry["length"]
    lengths = tuple(length) if isinstance(length, list) else (length,)
    if any(not isinstance(n, int) or isinstance(n, bool) for n in lengths):
        raise RecipeError(f"{where}: 'length' must be an integer or a list of integers, "
                          f"got {length!r}")
    if entry["objects"] is not None and (not isinstance(entry["objects"], int)
                                         or isinstance(entry["objects"], bool)):
        raise RecipeError(f"{where}: 'objects' must be an integer, got {entry['objects']!r}")
    kinds = entry.get("query_kinds", ["literal", "conjunction"])
    kinds = [kinds] if isinstance(kinds, str) else kinds
    if not isinstance(kinds, list):
        raise RecipeError(f"{where}: 'query_kinds' must be a list such as [literal, "
                          f"conjunction], got {kinds!r}")
    obfuscation = entry.get("obfuscation")
    simplifications = entry.get("simplifications", "")
    if not isinstance(simplifications, str):
        raise RecipeError(f"{where}: 'simplifications' of a task config is one setting such "
                          f"as 'easy' or 'teleport,openDoors', got {simplifications!r}")
    problems = {k: [str(p) for p in v] for k, v in problems.items()}
    rule_options = entry.get("rule_options") or {}
    if not isinstance(rule_options, dict):
        raise RecipeError(f"{where}: 'rule_options' must map knobs ({', '.join(RULE_OPTIONS)}) "
                          f"to values, got {rule_options!r}")
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
        raise RecipeError(f"{where}: {exc}") from None
    splits = _splits(entry, where)
    missing = [s for s in splits if s not in cfg.problems] if cfg.problems else []
    if missing:
        raise RecipeError(f"{where}: 'problems' lists no problems for split '{missing[0]}'")
    return ConfigSpec(name, str(entry.get("description", "")), cfg, splits)


def _phrasing_path(entry: dict, where: str) -> str:
    value = entry.get("phrasing", "")
    if not isinstance(value, str):
        raise RecipeError(f"{where}: 'phrasing' must be the path of a phrasing file "
                          f"(e.g. phrasing.yaml), got {value!r}")
    return value


def _splits(entry: dict, where: str) -> dict[str, int]:
    splits = entry.get("splits")
    if not isinstance(splits, dict) or not splits:
        raise RecipeError(f"{where}: 'splits' must map some of {', '.join(SPLITS)} to row counts")
    for split, n in splits.items():
        if split not in SPLITS:
            raise RecipeError(f"{where}: unknown split '{split}'; accepted: {', '.join(SPLITS)}")
        if not isinstance(n, int) or isinstance(n, bool) or n < 2 or n % 2 or n > MAX_SPLIT_ROWS:
            raise RecipeError(f"{where}: split '{split}' needs an even number of rows >= 2 "
                              f"(labels are exactly 50/50), got {n!r}")
    return {s: splits[s] for s in SPLITS if s in splits}
