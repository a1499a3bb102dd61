"""racbench's command line: build | generate | phrasing | show | audit | verify | publish | export | play.

Each command imports the engine it needs only when it runs, so `racbench --help` and
argument errors answer at once. A user's mistake (any `racbench.errors.InputError`: an
unknown recipe key, malformed PDDL, an impossible request, an unusable path) ends with
one message naming what was wrong and what is accepted, and exit code 2. Ctrl-C ends
with exit code 130 and keeps what a rerun resumes from. A worker process killed under a
build (out of memory, a segfault, `kill -9`) ends it with one message naming the config
it was building and exit code 75 (sysexits' EX_TEMPFAIL: not the user's input, so not
2; a failure a rerun may get past, resuming from the finished configs it keeps).
"""

from __future__ import annotations

import os
import signal

from racbench import launch

if __name__ == "__main__":  # `python -m racbench.cli`: Ctrl-C exits at once from here on
    launch.hold_ctrl_c()

import math  # after Ctrl-C is held: click and the engines load slowly
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import click

# Builds run one worker process per core; BLAS threads inside each (the graph passes'
# matrix products) would only fight over the same cores: 20x slower products were
# measured on a loaded two-core machine. Set before numpy loads; a user's own
# setting wins.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

from racbench.data import recipe_names
from racbench.errors import InputError, WorkerDied

INTERRUPTED = launch.INTERRUPTED
WORKER_DIED = 75  # EX_TEMPFAIL (see the module's text)


class UserError(click.ClickException):
    exit_code = 2


class WorkerDiedError(click.ClickException):
    exit_code = WORKER_DIED


def _words(message: str, /, **kw) -> str:
    """A sentence of templates/cli/commands.j2 (jinja2 is loaded only when one is said:
    `racbench --help` stays quick)."""
    from racbench.text import sayer

    return sayer("cli", ("commands.j2",))(message, **kw)


def _exit_interrupted(message: str = "interrupted") -> None:
    """Exit with 130 at once. `sys.exit` is not enough: if the interrupt surfaced inside
    a C extension's import code, CPython still ends the process with SIGINT (-2). (Its
    one word is no template's: a signal handler must not import jinja2 mid-import.)"""
    click.echo(message, err=True)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(INTERRUPTED)


@contextmanager
def _working():
    """Ctrl-C raises KeyboardInterrupt while a command works (so pools are terminated and
    finished configs kept); everywhere else `run` makes it exit at once. Once the work is
    done (the dataset renamed into place), Ctrl-C is ignored: what is left is a line of
    output and the interpreter's shutdown, which resets Python's handlers to the default
    and would die of the signal (exit -2) with the output complete."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    hook = sys.unraisablehook
    sys.unraisablehook = _interrupt_again(hook)
    try:
        yield
    except BaseException:
        signal.signal(signal.SIGINT, previous)
        raise
    finally:
        sys.unraisablehook = hook
    signal.signal(signal.SIGINT, signal.SIG_IGN)


REDELIVERY_DELAY = 0.05  # s: the finalizer that swallowed a Ctrl-C has long returned


def _interrupt_again(hook):
    """An unraisable-exception hook for `_working`: a Ctrl-C that lands inside a finalizer
    (a pool's weakref callback run by the garbage collector) raises KeyboardInterrupt where
    Python cannot raise it, so Python prints it as ignored and the build ran on. It is sent
    again, by a thread a moment later, so it lands in the build's own code; any other
    unraisable exception goes to `hook`. (Sent from within the hook, it would land in the
    hook and be ignored again.)"""
    def interrupt_again(unraisable) -> None:
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            hook(unraisable)
            return
        threading.Timer(REDELIVERY_DELAY, os.kill, (os.getpid(), signal.SIGINT)).start()
    return interrupt_again


def run() -> None:
    """The console script: Ctrl-C exits at once while modules load (nothing is written
    yet, and some libraries' import code swallows KeyboardInterrupt: a build once ran on
    after it), and raises KeyboardInterrupt only inside `_working`."""
    signal.signal(signal.SIGINT, lambda signum, frame: _exit_interrupted())
    main()


class _Racbench(click.Group):
    """Turns refused requests into exit code 2, Ctrl-C into 130 and a worker process
    killed under a build into 75, for every command."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except InputError as exc:
            raise UserError(str(exc)) from None
        except WorkerDied as exc:
            raise WorkerDiedError(str(exc)) from None
        except KeyboardInterrupt:
            _exit_interrupted()


class PositiveNumber(click.ParamType):
    """A finite number above zero, at most `maximum` (click's FloatRange lets nan and inf
    through)."""

    name = "number"

    def __init__(self, minimum: float = 0.0, maximum: float = math.inf):
        self.minimum, self.maximum = minimum, maximum

    def convert(self, value, param, ctx):
        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(_words("not_a_number", value=repr(value)), param, ctx)
        low_ok = number >= self.minimum if self.minimum else number > 0
        if not (math.isfinite(number) and low_ok and number <= self.maximum):
            self.fail(_words("number_out_of_range", value=repr(value),
                             minimum=self.minimum and f"{self.minimum:g}",
                             maximum=f"{self.maximum:g}" if math.isfinite(self.maximum)
                             else None), param, ctx)
        return number


class WorkerCount(click.ParamType):
    """Worker processes: 1 up to 4 per core. More only adds memory (each worker is a forked
    copy of the worlds) and switching, and a typo such as 2000 would fork the machine to a
    halt."""

    name = "integer"

    def convert(self, value, param, ctx):
        limit = 4 * (os.cpu_count() or 1)
        try:
            number = int(value)
        except (TypeError, ValueError):
            self.fail(_words("not_an_integer", value=repr(value)), param, ctx)
        if not 1 <= number <= limit:
            self.fail(_words("workers_out_of_range", value=repr(value), limit=limit), param, ctx)
        return number


def _limit_options(command):
    """The PDDL size limits, for every command that reads PDDL files."""
    options = [
        click.option("--max-pddl-mb", type=PositiveNumber(maximum=1e6), default=None,
                     help="Refuse PDDL files larger than this (default 10 MB)."),
        click.option("--max-ground-actions", type=click.IntRange(min=1), default=None,
                     help="Refuse problems with more ground actions or fluent atoms than "
                     "this (default 50,000)."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _search_options(command):
    """How many states a problem may have for its families to enumerate them, and how
    many one search may store beyond that, for the commands that make rows."""
    options = [
        click.option("--max-enumerated-states", type=click.IntRange(min=1), default=None,
                     help="Enumerate the reachable states of problems up to this many "
                     "(default 200,000); larger problems are answered by search."),
        click.option("--search-budget", type=click.IntRange(min=1), default=None,
                     help="States one search may store in a problem answered by search "
                     "(default 20,000); a question it cannot prove within them is drawn "
                     "again, and the card counts those."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _recipes_help() -> str:
    return ", ".join(recipe_names())


@click.group(cls=_Racbench)
@click.version_option(package_name="racbench")
def main() -> None:
    """Generate offline text benchmarks about actions and change."""


def _build_options(command):
    """Options shared by `build` and `generate`."""
    options = [
        click.option("--workers", type=WorkerCount(), default=None,
                     help="Worker processes (default: all cores)."),
        click.option("--overwrite", is_flag=True,
                     help="Replace an existing dataset folder that racbench built."),
        click.option("--quiet", is_flag=True, help="No progress output."),
    ]
    for option in reversed(options):
        command = option(command)
    return _search_options(_limit_options(command))


def _run_build(recipe, out: Path, max_pddl_mb=None, max_ground_actions=None,
               max_enumerated_states=None, search_budget=None, **options) -> None:
    from racbench.export.build import _say, build, finished_configs
    from racbench.worlds.strips.limits import overridden

    try:
        with _working(), overridden(max_pddl_mb=max_pddl_mb,
                                    max_ground_actions=max_ground_actions,
                                    max_enumerated_states=max_enumerated_states,
                                    search_budget=search_budget):
            build(recipe, out, say=lambda line: click.echo(line, err=True), **options)
    except KeyboardInterrupt:
        kept = finished_configs(out)
        _exit_interrupted(_say("interrupted_kept", out=out, kept=kept,
                               total=len(recipe.configs)) if kept else
                          _say("interrupted_nothing_kept"))
    click.echo(_words("wrote", out=out))


@main.command("build", help="Build a suite RECIPE: a built-in name (" + _recipes_help() +
              ") or a YAML recipe file. A built-in name always means the built-in "
              "recipe; write ./NAME for a file of that name.")
@click.argument("recipe")
@click.option("--out", required=True, type=click.Path(path_type=Path), help="Output folder.")
@click.option("--seed", type=int, default=None, help="Override the recipe's seed.")
@click.option("--scale", type=PositiveNumber(), default=1.0,
              help="Multiply every split's size (kept even, at least 2).")
@click.option("--configs", "patterns", default=None,
              help="Only the configs matching these comma-separated patterns, e.g. "
              "'blocksworld_*,gripper_planning_bool'.")
@click.option("--audit", "run_audit", is_flag=True,
              help="Also run the surface-text probes and write them into the card.")
@click.option("--engine", type=click.Choice(("local", "ray")), default="local",
              show_default=True, help="Where shard work runs: this machine's worker "
              "processes, or Ray tasks (needs the 'ray' extra). Same bytes either way.")
@click.option("--address", default=None, help="With --engine ray: the Ray cluster to use "
              "(host:port of its head, or 'auto'); default: start one on this machine.")
@_build_options
def build_command(recipe: str, out: Path, seed, scale, patterns, run_audit, engine, address,
                  workers, overwrite, quiet, max_pddl_mb, max_ground_actions,
                  max_enumerated_states, search_budget) -> None:
    from racbench.suites.recipe import load_recipe

    loaded = load_recipe(recipe)
    if patterns is not None:
        loaded = loaded.select(patterns)
    _run_build(loaded, out, seed=seed, scale=scale, workers=workers, overwrite=overwrite,
               progress=not quiet, max_pddl_mb=max_pddl_mb,
               max_ground_actions=max_ground_actions, max_enumerated_states=max_enumerated_states,
               search_budget=search_budget, engine=engine, address=address)
    if run_audit:
        _audit_and_report(out, "question", card=True, progress=not quiet)


def _split_sizes(n: int) -> dict[str, int]:
    """TRAC's 10 : 2 : 3 train/validation/test proportions, each split even."""
    if n < 6 or n % 2:
        raise UserError(_words("bad_trac_n", n=n))
    validation = max(2, 2 * round(n * 2 / 15 / 2))
    test = max(2, 2 * round(n * 3 / 15 / 2))
    return {"train": n - validation - test, "validation": validation, "test": test}


@main.command("generate")
@click.argument("task")
@click.option("--objects", type=int, default=None,
              help="Blocks of TRAC's blocksworld (TRAC tasks; default 5).")
@click.option("--length", "lengths", type=int, multiple=True,
              help="Sequence length (default 1 for TRAC tasks, 2 for ACP families); "
              "repeat to mix lengths in one config (true/false questions).")
@click.option("-n", "rows", type=int, default=1000, show_default=True,
              help="Total rows, an even number (split 10:2:3 into train, validation, test).")
@click.option("--query-kinds", default="literal,conjunction", show_default=True)
@click.option("--names", default=None,
              help="Name pool: seen or unseen (TRAC tasks' default: seen), or problem.")
@click.option("--domain", default=None, help="A shipped STRIPS domain (ACP families).")
@click.option("--domain-file", type=click.Path(path_type=Path), default=None,
              help="A PDDL domain file (ACP families).")
@click.option("--problem-file", "problem_files", type=click.Path(path_type=Path),
              multiple=True, help="A PDDL problem file; repeat for several. With three or "
              "more, the last fifth (at least one) is the test split, the fifth before it "
              "validation; with fewer, all rows form one test split.")
@click.option("--form", default=None, help="bool, mc or open (ACP; default: bool, or "
              "the family's only form, e.g. open for plan_generation).")
@click.option("--phrasing", type=click.Path(path_type=Path), default=None,
              help="Your phrasing file for the domain (default: phrasing.yaml beside "
              "--domain-file, if there is one); see 'racbench phrasing init'.")
@click.option("--out", required=True, type=click.Path(path_type=Path))
@click.option("--seed", type=int, default=0, show_default=True)
@_build_options
def generate_command(task, objects, lengths, rows, query_kinds, names, domain, domain_file,
                     problem_files, form, phrasing, out, seed, workers, overwrite, quiet,
                     max_pddl_mb, max_ground_actions, max_enumerated_states,
                     search_budget) -> None:
    """Build one config of TASK: a TRAC task (projection, executability, planning,
    goal_recognition) on blocksworld, or, with --domain or --domain-file, any ACP
    family on a STRIPS domain."""
    from racbench.suites.generate import CLI, generate_config, generate_recipe

    cfg = generate_config(task, domain=domain, domain_file=domain_file, problems=problem_files,
                          form=form, length=lengths or None, objects=objects, names=names,
                          query_kinds=query_kinds, phrasing=phrasing, arguments=CLI)
    recipe = generate_recipe(cfg, rows, seed, _split_sizes)
    _run_build(recipe, out, seed=seed, workers=workers, overwrite=overwrite,
               progress=not quiet, max_pddl_mb=max_pddl_mb,
               max_ground_actions=max_ground_actions, max_enumerated_states=max_enumerated_states,
               search_budget=search_budget)


@main.group("phrasing")
def phrasing_group() -> None:
    """Phrase your own PDDL domain: write a starter phrasing file, check one."""


def _phrasing_domain(domain: str):
    """A shipped domain's name or a domain file -> (domain, its text, its file)."""
    from racbench.worlds.strips.shipped import shipped_domains, shipped_files
    from racbench.worlds.strips.world import domain_text

    path = Path(domain)
    if domain in shipped_domains() and not path.is_file():
        path = Path(shipped_files(domain, [])[0])
    elif not path.is_file():
        raise UserError(_words("unknown_domain", domain=domain, shipped=shipped_domains()))
    text, parsed = domain_text(path)
    return parsed, text, path


@phrasing_group.command("init")
@click.argument("domain")
@click.option("-o", "--out", type=click.Path(path_type=Path), default=None,
              help="File to write (default: phrasing.yaml beside the domain file); an "
              "existing file is never overwritten.")
@_limit_options
def phrasing_init_command(domain: str, out, max_pddl_mb, max_ground_actions) -> None:
    """Write a starter phrasing file for DOMAIN (a PDDL domain file or a shipped domain's
    name) with today's guesses filled in, for you to edit."""
    from racbench.text.domain import DomainText
    from racbench.text.phrasing_check import say, starter
    from racbench.worlds.strips.limits import overridden

    with overridden(max_pddl_mb=max_pddl_mb, max_ground_actions=max_ground_actions):
        parsed, text, path = _phrasing_domain(domain)
    out = out or path.parent / "phrasing.yaml"
    if out.exists() or out.is_symlink():
        raise UserError(_words("phrasing_exists", out=out))
    content = starter(parsed, text, DomainText(parsed))
    try:
        partial = out.with_name(out.name + ".partial")
        partial.write_text(content, encoding="utf-8")
        partial.replace(out)
    except OSError as exc:
        raise UserError(_words("cannot_write", out=out, reason=exc.strerror or exc)) from None
    click.echo(say("wrote", out=out, domain=parsed.name))


@phrasing_group.command("check")
@click.argument("domain")
@click.option("--phrasing", type=click.Path(path_type=Path), default=None,
              help="The phrasing file (default: phrasing.yaml beside the domain file, if "
              "there is one; else the shipped templates or the default guesses).")
@_limit_options
def phrasing_check_command(domain: str, phrasing, max_pddl_mb, max_ground_actions) -> None:
    """Render every predicate (both polarities) and action of DOMAIN with sample objects
    and flag sentences that drop an object or end on a dangling word. Exit 1 when any
    is flagged, 2 for a bad domain or phrasing file."""
    from racbench.text.domain import DomainText
    from racbench.text.phrasing_check import check, say, source_label
    from racbench.text.user_phrasing import beside, load_phrasing
    from racbench.worlds.strips.limits import overridden

    with overridden(max_pddl_mb=max_pddl_mb, max_ground_actions=max_ground_actions):
        parsed, text, path = _phrasing_domain(domain)
    file = phrasing or beside(path)
    loaded = load_phrasing(file, parsed, text) if file else None
    rendering = DomainText(parsed, phrasing=loaded)
    checked, flags = check(rendering)
    for flag in flags:
        click.echo(flag.line())
    click.echo(say("summary", domain=parsed.name, checked=checked, flagged=len(flags),
                   source=source_label(loaded, rendering)))
    sys.exit(1 if flags else 0)


@main.command("show")
@click.argument("directory", type=click.Path(path_type=Path))
@click.argument("config")
@click.option("-n", "count", type=click.IntRange(min=1), default=3, show_default=True)
@click.option("--split", default=None, help="Split to show (default: the first one).")
def show_command(directory: Path, config: str, count: int, split: str | None) -> None:
    """Print rows of CONFIG from a built DIRECTORY readably."""
    from racbench.export.show import show_rows

    for text in show_rows(directory, config, count, split):
        click.echo(text)


def _audit_and_report(directory: Path, field: str, card: bool, progress: bool) -> bool:
    from racbench.checks.audit import audit_dataset, render_audit_section, update_card

    with _working():
        results = audit_dataset(directory, field=field, progress=progress)
    if card:
        update_card(directory, results)
    click.echo(render_audit_section(results), nl=False)
    return all(r.passed for r in results)


@main.command("audit")
@click.argument("directory", metavar="DIR", type=click.Path(path_type=Path))
@click.option("--field", type=click.Choice(("question", "context")), default="question",
              show_default=True, help="text column visible to the probe of true/false "
              "configs (multiple-choice configs are probed on choices)")
@click.option("--no-card", is_flag=True, help="print only, leave README.md untouched")
@click.option("--quiet", is_flag=True, help="No progress output.")
def audit_command(directory: Path, field: str, no_card: bool, quiet: bool) -> None:
    """Probe whether each config of DIR is answerable from surface text alone.

    True/false configs: is the label predictable from one text column?
    Multiple-choice configs: is the correct option predictable from the
    option texts alone?  Open-ended configs are skipped.

    Exit status: 0 if every config stays at chance, 1 if any config is
    clearly above chance, 2 if DIR is not a racbench dataset folder.
    """
    passed = _audit_and_report(directory, field, card=not no_card, progress=not quiet)
    sys.exit(0 if passed else 1)


@main.command("verify")
@click.argument("directory", metavar="DIR", type=click.Path(path_type=Path))
@click.option("--limit", type=click.IntRange(min=1), default=None,
              help="Rows per config (default: all), spread over its splits.")
@click.option("--configs", default=None, help="Comma-separated configs (default: all).")
@click.option("--no-optimal", is_flag=True,
              help="Skip the Fast Downward (optimal cost, solvability) checks.")
@click.option("--require-optimal", is_flag=True,
              help="Fail (exit 2) if Fast Downward is not installed.")
@click.option("--jobs", type=WorkerCount(), default=None,
              help="Worker processes (default: all cores).")
@click.option("--fd-timeout", type=PositiveNumber(minimum=1, maximum=86_400), default=120.0,
              show_default=True, help="Seconds per Fast Downward search; slower claims "
                                      "are skipped.")
@click.option("--require-checked", is_flag=True,
              help="Fail (exit 3) if any row is left unchecked by every engine.")
@click.option("--per-row", is_flag=True,
              help="Print one line per row: the engines that checked it, or why none could.")
@click.option("--quiet", is_flag=True, help="No progress output.")
def verify_command(directory: Path, limit, configs, no_optimal, require_optimal, jobs,
                   fd_timeout, require_checked, per_row, quiet) -> None:
    """Re-derive every label of the dataset in DIR with unified-planning and Fast
    Downward (where unified-planning refuses a row: Fast Downward's translator, a
    finite-domain stepper and Fast Downward's search). Rows no engine can run on are
    counted as unchecked, with the reason, never as mismatches. Exit 0 if every checked
    row agrees, 1 if any row disagrees (or no row could be checked), 2 if DIR is not a
    racbench dataset, 3 if rows are unchecked under --require-checked. See docs/verify.md."""
    from racbench.progress import progress_bar
    from racbench.checks.verify import verify_dataset

    if no_optimal and require_optimal:
        raise UserError(_words("optimal_flags_clash"))
    names = [c.strip() for c in configs.split(",") if c.strip()] if configs else None
    bar = progress_bar(enabled=not quiet, unit="rows", desc="verify")
    try:
        with _working():
            report = verify_dataset(directory, limit=limit, configs=names,
                                    optimal=False if no_optimal else None,
                                    require_optimal=require_optimal, jobs=jobs,
                                    fd_timeout=fd_timeout, require_checked=require_checked,
                                    per_row=per_row, progress=bar.update)
    finally:
        bar.close()
    for note in report.notes:
        click.echo(note, err=True)
    for line in report.row_lines:
        click.echo(f"ROW {line}")
    for mismatch in report.mismatches:
        click.echo(f"MISMATCH {mismatch}")
    click.echo(report.summary())
    sys.exit(report.exit_code)


@main.command("publish")
@click.argument("directory", metavar="DIR", type=click.Path(path_type=Path))
@click.option("--repo-id", required=True, help="The Hub dataset repo: USER/NAME.")
@click.option("--private", is_flag=True, help="Create the repo private (if it is new).")
@click.option("--message", default=None, help="Commit message.")
@click.option("--quiet", is_flag=True, help="No progress output.")
def publish_command(directory: Path, repo_id: str, private: bool, message, quiet) -> None:
    """Upload the dataset racbench built in DIR to the Hugging Face Hub (token from
    HF_TOKEN or 'hf auth login'). Refuses a folder that is not a complete racbench
    build, before sending anything (exit 2)."""
    from racbench.export.publish import _say, publish

    if quiet:
        from huggingface_hub.utils import disable_progress_bars

        disable_progress_bars()
    with _working():
        done = publish(directory, repo_id, private=private, message=message)
    click.echo(_say("published", folder=directory, repo_id=done.repo_id, url=done.url,
                    files=done.files, commit=done.commit))


@main.group("export")
def export_group() -> None:
    """Write a built dataset as tasks of an evaluation harness."""


@export_group.command("lm-eval")
@click.argument("directory", metavar="DIR", type=click.Path(path_type=Path))
@click.option("--out", required=True, type=click.Path(path_type=Path),
              help="Folder to create for the task YAMLs.")
@click.option("--hub-id", default=None, help="Load the dataset from this Hub id (USER/NAME, "
              "as racbench publish uploaded DIR) instead of from DIR.")
def export_lm_eval_command(directory: Path, out: Path, hub_id) -> None:
    """lm-evaluation-harness tasks (one per config, a group for the suite) that load the
    build in DIR and score replies with racbench.score. The tasks find DIR by its path
    relative to --out: move the two folders together (or give --hub-id)."""
    from racbench.export.harness import _say, export_lm_eval

    group, files = export_lm_eval(directory, out, hub_id)
    click.echo(_say("exported", out=out, files=len(files), group=group))


@export_group.command("inspect")
@click.argument("directory", metavar="DIR", type=click.Path(path_type=Path))
@click.option("--out", required=True, type=click.Path(path_type=Path),
              help="Folder to create for the tasks file.")
@click.option("--configs", "patterns", default=None,
              help="Only the configs matching these comma-separated patterns, e.g. "
              "'blocksworld_*,gripper_planning_bool'.")
@click.option("--hub-id", default=None, help="Load the dataset from this Hub id (USER/NAME, "
              "as racbench publish uploaded DIR) instead of from DIR.")
def export_inspect_command(directory: Path, out: Path, patterns, hub_id) -> None:
    """Inspect tasks (a Python file, one @task per config) that load the build in DIR
    and score replies with racbench.score; needs the 'inspect' extra where they run.
    The tasks find DIR by its path relative to --out: move the two folders together
    (or give --hub-id)."""
    from racbench.export.harness import _say
    from racbench.export.inspect_export import export_inspect

    file, tasks = export_inspect(directory, out, patterns, hub_id)
    # relative: Inspect reads a file named without @task as a glob, relative before 3.13
    click.echo(_say("exported_inspect", out=out, file=file, tasks=len(tasks),
                    path=os.path.relpath(out / file)))


@main.group("play")
def play_group() -> None:
    """Play a world interactively at the terminal (through its gymnasium environment)."""


class _ScienceCommand(click.Command):
    """`play science --help` lists the tasks (read when the help is shown, not at start)."""

    def format_epilog(self, ctx, formatter):
        from racbench.worlds.science.registry import task_names

        names = task_names()
        formatter.write_paragraph()
        formatter.write_text(_words("science_tasks", count=len(names)))
        with formatter.indentation():
            for name in names:  # one a line: the wrapper would break them at hyphens
                formatter.write(f"{'':>{formatter.current_indent}}{name}\n")
        super().format_epilog(ctx, formatter)


@play_group.command("science", cls=_ScienceCommand)
@click.argument("task")
@click.option("--variation", type=int, default=0, show_default=True)
@click.option("--simplifications", default="", help="Comma-separated: teleportAction, openDoors, "
              "openContainers, selfWateringFlowerPots, noElectricalAction, easy.")
def play_science(task: str, variation: int, simplifications: str) -> None:
    """Play science-lab TASK (e.g. boil) at the terminal; 'actions' lists moves, 'quit' ends."""
    from racbench.envs.play import play_science as play

    try:
        play(task, variation, simplifications)
    except ValueError as exc:  # unknown task, variation out of range, bad simplification
        raise UserError(str(exc)) from None


@play_group.command("strips")
@click.option("--domain", help="A shipped domain, e.g. gripper.")
@click.option("--problem", help="A problem of the shipped domain, e.g. p01.")
@click.option("--domain-file", type=click.Path(dir_okay=False), help="Your own PDDL domain.")
@click.option("--problem-file", type=click.Path(dir_okay=False), help="Your own PDDL problem.")
@_limit_options
def play_strips(domain: str | None, problem: str | None, domain_file: str | None,
                problem_file: str | None, max_pddl_mb, max_ground_actions) -> None:
    """Play a PDDL problem at the terminal; 'actions' lists moves, 'quit' ends."""
    from racbench.envs.play import play_strips as play
    from racbench.worlds.strips.limits import overridden

    try:
        with overridden(max_pddl_mb=max_pddl_mb, max_ground_actions=max_ground_actions):
            play(domain, problem, domain_file, problem_file)
    except ValueError as exc:  # unknown domain or problem, unreadable PDDL (InputError)
        raise UserError(str(exc)) from None


@play_group.command("rules")
@click.argument("game", type=click.Choice(["rtfm", "messenger"]))
@click.option("--split", default="train", show_default=True,
              type=click.Choice(["train", "validation", "test"]))
@click.option("--episode", type=int, default=0, show_default=True)
@click.option("--depth", type=int, help="Manual sentences to chain (rtfm 2-6, messenger 1-5).")
@click.option("--irrelevant", type=int, help="Irrelevant rules in the manual (0-6).")
@click.option("--grid", type=int, help="Cells a side inside the walls (3-8).")
@click.option("--entities", type=int, help="Entities on the grid (rtfm 2-5, messenger 3-6).")
@click.option("--no-overlap", is_flag=True, help="The manual calls entities by words "
              "that share none with their names.")
def play_rules(game: str, split: str, episode: int, depth, irrelevant, grid, entities,
               no_overlap: bool) -> None:
    """Play a rule world (GAME: rtfm or messenger) at the terminal; 'quit' ends."""
    from racbench.envs.play import play_rules as play

    knobs = {k: v for k, v in (("depth", depth), ("irrelevant", irrelevant), ("grid", grid),
                               ("entities", entities)) if v is not None}
    if no_overlap:
        knobs["overlap"] = False
    try:
        play(game, split, episode, **knobs)
    except ValueError as exc:  # a knob out of range
        raise UserError(str(exc)) from None


if __name__ == "__main__":  # pragma: no cover
    run()
