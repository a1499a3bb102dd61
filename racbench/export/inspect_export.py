"""`racbench export inspect DIR --out FOLDER`: Inspect tasks over a built dataset.

One Python file of Inspect (`inspect_ai`) tasks, a `@task` per config of the build in
DIR, named as the lm-eval export names its tasks (`racbench_<suite>_<config>`). Each
loads the built folder offline with `datasets.load_dataset(DIR, config)` (DIR found
relative to the file, so the build and FOLDER move together; or the Hub dataset of
`--hub-id`), turns rows into
samples (the prompt of the lm-eval export, export/prompt.j2, as input; the row's answer
as target; the options of multiple-choice rows as choices; the row as metadata), asks
the model with `generate()` and scores its reply with a scorer built on `racbench.score`
(metrics accuracy, stderr and parsed). Run it with `inspect eval FOLDER/<file> --model
...`; racbench must be installed where Inspect runs. Nothing here imports inspect_ai:
the file is text.

The configs, task names, test splits and refusals are the lm-eval export's
(`harness.plan_export`); FOLDER is written whole or not at all.
"""

from __future__ import annotations

from pathlib import Path

from racbench import __version__
from racbench.export.harness import MAX_GEN_TOKS, plan_export, write_all
from racbench.text import environment


def export_inspect(folder: Path, out: Path, patterns: str | None = None,
                   hub_id: str | None = None) -> tuple[str, list[str]]:
    """Write the Inspect tasks of the build in `folder` (its configs matching the
    comma-separated shell `patterns`, if given) into `out`, loading it from the Hub
    dataset `hub_id` if given, else from the folder relative to `out`; the file
    written and the task names."""
    plan = plan_export(folder, out, patterns, hub_id)
    env = environment()
    prompt = env.get_template("export/prompt.j2").module.lm_eval()
    file = f"{plan.group}.py"
    tasks = [{"config": name, "task": task, "test": test, "splits": splits}
             for name, task, test, splits in plan.configs]
    text = env.get_template("export/inspect_tasks.py.j2").render(
        hub_id=plan.hub_id, relative=plan.relative, suite=plan.suite, file=file, tasks=tasks,
        prompt=str(prompt), max_tokens=MAX_GEN_TOKS, version=__version__)
    write_all(plan.out, {file: text})
    return file, [t["task"] for t in tasks]
