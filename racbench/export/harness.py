"""`racbench export lm-eval DIR --out FOLDER`: evaluation-harness tasks over a built dataset.

One lm-evaluation-harness task per config of the build in DIR (a YAML each, loading the
built folder offline with `datasets.load_dataset(DIR, config)`), a group of them all
named after the suite, and a utils.py whose `process_results` scores a model's reply
with `racbench.score`, the answer extraction of the rest of racbench. Run them with
`lm_eval --include_path FOLDER --tasks racbench_<suite> ...`; racbench must be installed
where lm-eval runs. Nothing here imports lm-eval: the files are text.

A task tests on the config's test split (its last split if it has none) and draws
few-shot examples, if asked for, from train. Science trajectory configs are not
questions and are left out. FOLDER must not exist or be empty; it is written whole or
not at all.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

from racbench import __version__
from racbench.errors import InputError
from racbench.export.folder import card_front_matter
from racbench.export.publish import build_files
from racbench.text import environment, sayer

MAX_GEN_TOKS = 1024  # room for reasoning and an open answer (a plan, a list of facts)
_say = sayer("cli", ("export.j2",))


class ExportError(InputError):
    """An export we refuse: an --out that is in use, a build with nothing to export."""


def task_name(*parts: str) -> str:
    """An lm-eval task name: lower-case letters, digits and underscores."""
    return re.sub(r"[^a-z0-9_]+", "_", "_".join(parts).lower()).strip("_")


def export_lm_eval(folder: Path, out: Path) -> tuple[str, list[str]]:
    """Write the tasks of the build in `folder` into `out`; the group's name and the
    files written."""
    folder = Path(os.path.abspath(folder))
    out = Path(os.path.abspath(out))
    build_files(folder)  # a complete racbench build, or PublishError naming what is not
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ExportError(_say("out_in_use", out=out))
    front = card_front_matter(folder)
    suite = str(front.get("pretty_name") or folder.name)
    group = task_name("racbench", suite)
    configs = []
    for config in front["configs"]:
        name = str(config["config_name"])
        splits = [str(f["split"]) for f in config["data_files"]]
        if not _is_question_config(folder / name):
            continue
        configs.append((name, splits))
    if not configs:
        raise ExportError(_say("nothing_to_export", folder=folder))
    env = environment()
    prompt = env.get_template("export/prompt.j2").module.lm_eval()
    files: dict[str, str] = {}
    tasks = []
    for name, splits in configs:
        task = task_name(group, name)
        tasks.append(task)
        test = "test" if "test" in splits else splits[-1]
        files[f"{task}.yaml"] = env.get_template("export/lm_eval_task.yaml.j2").render(
            task=task, group=group, folder=str(folder), config=name, test_split=test,
            fewshot_split="train" if "train" in splits and test != "train" else None,
            prompt=str(prompt), max_gen_toks=MAX_GEN_TOKS, version=__version__)
    files[f"{group}.yaml"] = env.get_template("export/lm_eval_group.yaml.j2").render(
        group=group, tasks=tasks, folder=str(folder), suite=suite)
    files["utils.py"] = env.get_template("export/lm_eval_utils.py.j2").render(
        version=__version__)
    _write_all(out, files)
    return group, sorted(files)


def _is_question_config(config_dir: Path) -> bool:
    """Task rows (context, question, answer), not science gold trajectories."""
    from racbench.export.layout import schema, split_files

    first = next(iter(split_files(config_dir).values()))[0]
    return {"context", "question", "answer"} <= set(schema(first).names)


def _write_all(out: Path, files: dict[str, str]) -> None:
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
