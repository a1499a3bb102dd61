"""`racbench export lm-eval DIR --out FOLDER`: evaluation-harness tasks over a built dataset.

One lm-evaluation-harness task per config of the build in DIR (a YAML each, loading the
built folder offline through utils.py, which finds DIR by its path relative to FOLDER, so
that the build and the export move together; or, with `--hub-id`, the dataset `racbench
publish` uploaded, by its Hub id), a group of them all
named after the suite, and a utils.py whose `process_results` scores a model's reply
with `racbench.score`, the answer extraction of the rest of racbench. Run them with
`lm_eval --include_path FOLDER --tasks racbench_<suite> ...`; racbench must be installed
where lm-eval runs. Nothing here imports lm-eval: the files are text.

A task tests on the config's test split (its last split if it has none) and draws
few-shot examples, if asked for, from train. Science trajectory configs are not
questions and are left out. FOLDER must not exist or be empty; it is written whole or
not at all. `plan_export` and `write_all` are shared with the Inspect export
(inspect_export.py): the same configs, task names, test splits and refusals.
"""

from __future__ import annotations

import fnmatch
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from racbench import __version__
from racbench.errors import InputError
from racbench.export.folder import card_front_matter
from racbench.export.publish import build_files, check_repo_id
from racbench.paths import check_utf8
from racbench.text import environment, sayer

MAX_GEN_TOKS = 1024  # room for reasoning and an open answer (a plan, a list of facts)
_say = sayer("cli", ("export.j2",))


class ExportError(InputError):
    """An export we refuse: an --out that is in use, a build with nothing to export."""


def task_name(*parts: str) -> str:
    """An lm-eval task name: lower-case letters, digits and underscores."""
    return re.sub(r"[^a-z0-9_]+", "_", "_".join(parts).lower()).strip("_")


@dataclass(frozen=True)
class ExportPlan:
    """What an export of a build writes tasks for: the build's absolute folder, the
    absolute --out, the suite's name, the group (a prefix of every task's name), the
    question configs as (config, task name, test split, splits), in the card's order,
    and where the tasks find the dataset: a Hub id, or else `relative`, the build's
    folder relative to --out's (both with links resolved), so that the build and the
    export move together."""

    folder: Path
    out: Path
    suite: str
    group: str
    configs: list[tuple[str, str, str, list[str]]]
    hub_id: str | None = None

    @property
    def relative(self) -> str:
        real_out = Path(os.path.realpath(self.out.parent)) / self.out.name
        return os.path.relpath(os.path.realpath(self.folder), real_out)

    @property
    def source(self) -> str:
        """How the files name the dataset, for their comments and metadata."""
        return self.hub_id or self.relative


def plan_export(folder: Path, out: Path, patterns: str | None = None,
                hub_id: str | None = None) -> ExportPlan:
    """The configs of the build in `folder` to export (those matching the
    comma-separated shell `patterns`, if given), loaded by the tasks from the Hub
    dataset `hub_id` (the build as `racbench publish` uploaded it) if given, else from
    the folder by a path relative to `out`; or ExportError before anything is
    written: not a complete build, an --out in use, no config matching, no question
    config, two configs whose names make the same task name, a malformed Hub id."""
    check_utf8(folder, "DIR")
    check_utf8(out, "--out")
    folder = Path(os.path.abspath(folder))
    out = Path(os.path.abspath(out))
    if out.is_symlink():  # a link to a folder (or to where one is to be): write there
        out = Path(os.path.realpath(out))
    if hub_id is not None:
        check_repo_id(hub_id, option="--hub-id")
    build_files(folder)  # a complete racbench build, or PublishError naming what is not
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ExportError(_say("out_in_use", out=out))
    front = card_front_matter(folder)
    suite = str(front.get("pretty_name") or folder.name)
    group = task_name("racbench", suite)
    names = [str(config["config_name"]) for config in front["configs"]]
    splits = {str(config["config_name"]): [str(f["split"]) for f in config["data_files"]]
              for config in front["configs"]}
    if patterns is not None:
        wanted = [p.strip() for p in patterns.split(",") if p.strip()]
        names = [n for n in names if any(fnmatch.fnmatchcase(n, p) for p in wanted)]
        if not names:
            raise ExportError(_say("no_config_matches", patterns=patterns, folder=folder,
                                   configs=sorted(splits)))
    configs, seen = [], {}
    for name in names:
        if not _is_question_config(folder / name):
            continue
        task = task_name(group, name)
        if task in seen:
            raise ExportError(_say("same_task_name", first=seen[task], second=name,
                                   task=task))
        seen[task] = name
        test = "test" if "test" in splits[name] else splits[name][-1]
        configs.append((name, task, test, splits[name]))
    if not configs:
        raise ExportError(_say("nothing_to_export", folder=folder))
    return ExportPlan(folder, out, suite, group, configs, hub_id)


def export_lm_eval(folder: Path, out: Path, hub_id: str | None = None
                   ) -> tuple[str, list[str]]:
    """Write the tasks of the build in `folder` into `out` (loading it from the Hub
    dataset `hub_id` if given, else from the folder relative to `out`); the group's
    name and the files written."""
    plan = plan_export(folder, out, hub_id=hub_id)
    env = environment()
    prompt = env.get_template("export/prompt.j2").module.lm_eval()
    files: dict[str, str] = {}
    for name, task, test, splits in plan.configs:
        files[f"{task}.yaml"] = env.get_template("export/lm_eval_task.yaml.j2").render(
            task=task, group=plan.group, hub_id=plan.hub_id, relative=plan.relative,
            config=name,
            test_split=test,
            fewshot_split="train" if "train" in splits and test != "train" else None,
            prompt=str(prompt), max_gen_toks=MAX_GEN_TOKS, version=__version__)
    files[f"{plan.group}.yaml"] = env.get_template("export/lm_eval_group.yaml.j2").render(
        group=plan.group, tasks=[task for _, task, _, _ in plan.configs],
        source=plan.source, suite=plan.suite)
    files["utils.py"] = env.get_template("export/lm_eval_utils.py.j2").render(
        version=__version__)
    write_all(plan.out, files)
    return plan.group, sorted(files)


def _is_question_config(config_dir: Path) -> bool:
    """Task rows (context, question, answer), not science gold trajectories."""
    from racbench.export.layout import schema, split_files

    first = next(iter(split_files(config_dir).values()))[0]
    return {"context", "question", "answer"} <= set(schema(first).names)


def write_all(out: Path, files: dict[str, str]) -> None:
    """Every file into a temporary folder beside `out`, renamed into place at the end."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        for name, text in files.items():
            (tmp / name).write_text(text.rstrip("\n") + "\n", encoding="utf-8")
        if out.exists():
            out.rmdir()  # empty, checked above
        os.replace(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
