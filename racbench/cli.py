"""racbench's command line: build | generate | show | audit | play.

User mistakes (unknown task, bad recipe value, malformed PDDL, impossible request)
end with one line naming what was wrong and what is accepted, and exit code 2.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .audit import audit_command, audit_dataset, update_card
from .export.build import BuildError, build
from .generators.base import QUERY_KINDS, TASKS, ConfigError, TaskConfig
from .generators.rows import GenerationError
from .generators.text import environment
from .recipe import ConfigSpec, Recipe, RecipeError, load_recipe
from .simulator.strips.sexpr import PDDLError
from .verification import verify_command

USER_ERRORS = (BuildError, ConfigError, GenerationError, RecipeError, PDDLError)


class UserError(click.ClickException):
    exit_code = 2


def _run_build(recipe: Recipe, out: Path, **options) -> None:
    try:
        build(recipe, out, **options)
    except USER_ERRORS as exc:
        raise UserError(str(exc)) from None
    except KeyboardInterrupt:
        click.echo(f"interrupted; rerun the same command to resume into {out}", err=True)
        sys.exit(130)
    click.echo(f"wrote {out}")


@click.group()
@click.version_option(package_name="racbench")
def main() -> None:
    """Generate offline text benchmarks about actions and change."""


@main.command("build")
@click.argument("recipe")
@click.option("--out", required=True, type=click.Path(path_type=Path), help="Output folder.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: all cores).")
@click.option("--seed", type=int, default=None, help="Override the recipe's seed.")
@click.option("--scale", type=float, default=1.0, help="Multiply every split's size.")
@click.option("--overwrite", is_flag=True, help="Replace an existing output folder.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--audit", "run_audit", is_flag=True,
              help="Also run the query-only probe and write it into the card.")
def build_command(recipe: str, out: Path, workers, seed, scale, overwrite, quiet,
                  run_audit) -> None:
    """Build a suite RECIPE (a built-in name such as 'trac', or a YAML file)."""
    try:
        loaded = load_recipe(recipe)
    except RecipeError as exc:
        raise UserError(str(exc)) from None
    _run_build(loaded, out, seed=seed, scale=scale, workers=workers, overwrite=overwrite,
               progress=not quiet)
    if run_audit:
        results = audit_dataset(out)
        update_card(out, results)
        failed = [r.config for r in results if not r.passed]
        click.echo(environment().get_template("cli/audit_summary.j2").render(
            probed=len(results), failed=failed))


def _split_sizes(n: int) -> dict[str, int]:
    """TRAC's 10 : 2 : 3 train/validation/test proportions, even sizes."""
    if n < 6:
        raise UserError(f"-n must be at least 6 (three splits of two rows), got {n}")
    validation = max(2, 2 * round(n * 2 / 15 / 2))
    test = max(2, 2 * round(n * 3 / 15 / 2))
    train = n - validation - test
    if train % 2:
        train -= 1
        test += 1 if test % 2 else 0
    return {"train": train, "validation": validation, "test": n - train - validation}


@main.command("generate")
@click.argument("task")
@click.option("--objects", type=int, default=5, show_default=True)
@click.option("--length", "lengths", type=int, multiple=True,
              help="Sequence length (default 1 for TRAC tasks, 2 for ACP families); "
              "repeat to mix lengths in one config (TRAC tasks).")
@click.option("-n", "rows", type=int, default=1000, show_default=True, help="Total rows.")
@click.option("--query-kinds", default=",".join(QUERY_KINDS), show_default=True)
@click.option("--names", default="seen", show_default=True, help="Name pool: seen or unseen.")
@click.option("--domain", default=None, help="A shipped STRIPS domain (ACP families).")
@click.option("--domain-file", type=click.Path(path_type=Path), default=None,
              help="A PDDL domain file (ACP families).")
@click.option("--problem-file", "problem_files", type=click.Path(path_type=Path),
              multiple=True, help="A PDDL problem file; repeat for several. With three or "
              "more, the last fifth (at least one) is the test split, the fifth before it "
              "validation; with fewer, all rows form one test split.")
@click.option("--form", default="bool", show_default=True, help="bool, mc or open (ACP).")
@click.option("--out", required=True, type=click.Path(path_type=Path))
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--workers", type=click.IntRange(min=1), default=None)
@click.option("--overwrite", is_flag=True)
@click.option("--quiet", is_flag=True)
def generate_command(task, objects, lengths, rows, query_kinds, names, domain, domain_file,
                     problem_files, form, out, seed, workers, overwrite, quiet) -> None:
    """Build one config of TASK: a TRAC task (projection, executability, planning,
    goal_recognition) on blocksworld, or, with --domain or --domain-file, any ACP
    family on a STRIPS domain."""
    if domain or domain_file or problem_files:
        return _generate_acp(task, domain, domain_file, problem_files, form,
                             lengths[0] if lengths else 2, rows, out, seed, workers,
                             overwrite, quiet)
    lengths = lengths or (1,)
    if task not in TASKS:
        from .acp.families import FAMILIES
        raise UserError(f"unknown task '{task}'; accepted: {', '.join(TASKS)}, or an ACP "
                        f"family with --domain/--domain-file: {', '.join(FAMILIES)}")
    cfg = TaskConfig(task=task, n_objects=objects, lengths=tuple(lengths),
                     query_kinds=tuple(k.strip() for k in query_kinds.split(",") if k.strip()),
                     names=names)
    try:
        cfg.validate()
    except ConfigError as exc:
        raise UserError(str(exc)) from None
    name = f"{task}_{'_'.join(f'L{n}' for n in lengths)}"
    words = environment().get_template("cli/generate.j2").module
    spec = ConfigSpec(name, str(words.config(task, objects)), cfg, _split_sizes(rows))
    recipe_text = json.dumps({"task": task, "objects": objects, "lengths": list(lengths),
                              "rows": rows, "query_kinds": list(cfg.query_kinds),
                              "names": names})
    recipe = Recipe(name, str(words.recipe(task)), seed, (spec,), recipe_text)
    _run_build(recipe, out, seed=seed, workers=workers, overwrite=overwrite,
               progress=not quiet)


def _generate_acp(family, domain, domain_file, problem_files, form, length, rows, out, seed,
                  workers, overwrite, quiet) -> None:
    from .acp.config import AcpConfig

    if domain and domain_file:
        raise UserError("give either --domain (a shipped domain) or --domain-file, not both")
    if domain_file and not problem_files:
        raise UserError("--domain-file needs at least one --problem-file")
    if problem_files and not domain_file and not domain:
        raise UserError("--problem-file needs --domain-file (or --domain for shipped names)")
    files = [str(p) for p in problem_files]
    problems: dict[str, tuple[str, ...]] = {}
    if files and len(files) >= 3:
        held = max(1, round(len(files) / 5))
        problems = {"train": tuple(files[:-2 * held]), "validation": tuple(files[-2 * held:-held]),
                    "test": tuple(files[-held:])}
        sizes = _split_sizes(rows)
    elif files:
        problems = {"test": tuple(files)}
        if rows < 2 or rows % 2:
            raise UserError(f"-n must be an even number >= 2 (labels are 50/50), got {rows}")
        sizes = {"test": rows}
    else:
        sizes = _split_sizes(rows)
    if domain and files:  # shipped domain, problems named p01... or given as paths
        problems = {k: tuple(Path(p).stem if not Path(p).is_file() else p for p in v)
                    for k, v in problems.items()}
        if any(Path(p).is_file() for v in problems.values() for p in v):
            domain_file = str(_shipped_domain_file(domain))
            domain = ""
    cfg = AcpConfig(family=family, domain=domain or "", form=form, length=length,
                    problems=problems, domain_file=str(domain_file or ""))
    try:
        cfg.validate()
    except ConfigError as exc:
        raise UserError(str(exc)) from None
    name = f"{family}_{form}"
    spec = ConfigSpec(name, f"{family} on {cfg.domain_label}, {form} questions", cfg, sizes)
    recipe_text = json.dumps({"family": family, "domain": domain, "domain_file": str(domain_file),
                              "problems": problems, "form": form, "length": length,
                              "rows": rows}, sort_keys=True, default=str)
    recipe = Recipe(name, str(environment().get_template("cli/generate.j2").module.recipe(family)),
                    seed, (spec,), recipe_text)
    _run_build(recipe, out, seed=seed, workers=workers, overwrite=overwrite,
               progress=not quiet)


def _shipped_domain_file(domain: str) -> Path:
    from .acp.world import shipped_domains, shipped_files
    if domain not in shipped_domains():
        raise UserError(f"unknown domain '{domain}'; accepted: {', '.join(shipped_domains())}")
    return Path(shipped_files(domain, [])[0])


@main.command("show")
@click.argument("directory", type=click.Path(path_type=Path))
@click.argument("config")
@click.option("-n", "count", type=int, default=3, show_default=True)
@click.option("--split", default=None, help="Split to show (default: the first one).")
def show_command(directory: Path, config: str, count: int, split: str | None) -> None:
    """Print rows of CONFIG from a built DIRECTORY readably."""
    import pyarrow.parquet as pq


    folder = directory / config
    if not folder.is_dir():
        available = sorted(p.name for p in directory.iterdir() if p.is_dir()
                           and not p.name.startswith(".")) if directory.is_dir() else []
        raise UserError(f"no config '{config}' in {directory}; available: "
                        f"{', '.join(available) or 'none (is this a racbench folder?)'}")
    files = sorted(folder.glob(f"{split or ''}*.parquet"))
    if split is None and files:
        first = files[0].name.split("-")[0]
        order = [s for s in ("train", "validation", "test")
                 if any(f.name.startswith(s + "-") for f in files)]
        first = order[0] if order else first
        files = [f for f in files if f.name.startswith(first + "-")]
    if not files:
        raise UserError(f"no '{split}' split in {folder}")
    table = pq.read_table(files[0]).slice(0, count).to_pylist()
    template = environment().get_template("cli/show.j2")
    for row in table:
        click.echo(template.render(row=row, label="true" if row.get("label") == 1 else "false"))


main.add_command(audit_command)
main.add_command(verify_command)


@main.group("play")
def play_group() -> None:
    """Play a world interactively at the terminal."""


@play_group.command("science")
@click.argument("task")
@click.option("--variation", type=int, default=0, show_default=True)
@click.option("--simplifications", default="", help="Comma-separated: teleport, openDoors, "
              "openContainers, noElectricalAction, easy.")
def play_science(task: str, variation: int, simplifications: str) -> None:
    """Play science-lab TASK (e.g. boil) at the terminal; 'quit' ends."""
    from .simulator.science.play import play

    try:
        play(task, variation, simplifications)
    except ValueError as exc:  # unknown task, variation out of range, bad simplification
        raise UserError(str(exc)) from None


if __name__ == "__main__":  # pragma: no cover
    main()
