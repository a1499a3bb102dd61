"""Preparing configs in workers that are not forks of the driver (Ray's): the driver
loads no world.

A local build loads each run's worlds in its driver (forked workers share them), and
probes, checks and keeps each config's row maker there. A Ray worker shares nothing
with the driver, so there the driver would load every world for nothing but its own
checks (a fifth of a build's CPU on `acp`): instead the same steps run as jobs, in
rounds over the run's configs, each job naming the config it refuses: the run's worlds
made ahead (jobs.warm_job, kept for every worker to read back, see ray_engine.py), the
probe's shares (`parts_job`), each share (jobs.probe_job), the second round's shares
(jobs.further_job, each a probe_job too, as a local build runs them: one config's slow
surveys keep every worker busy), then the joined probe (kept in the partial folder for
a rerun as soon as it is back) with the checks of config_checks.checked (`settle_job`),
which send back what the driver needs of a row maker (its card summary, its rows per
shard). Each round's jobs go in a few tasks a worker (`run_batch`); a worker lost in a
round stops the build naming the configs of its batch. Same probes, same checks, same
order of refusals as a local build, so the same bytes and messages.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterator

from racbench.errors import InputError, WorkerDied
from racbench.export.config_checks import checked, named, naming
from racbench.export.jobs import further_job, probe_job, warm_job, warm_parts

BATCHES_PER_WORKER = 4  # a round's jobs go in this many tasks a worker (Ray's cost is per task)


@dataclass(frozen=True)
class Checked:
    """What the driver of a Ray build keeps of a config's row maker, which lives in the
    workers: what its card says of it and its rows per shard (None: the default)."""
    facts: dict
    rows_per_shard: int | None

    def summary(self) -> dict:
        return dict(self.facts)


def parts_job(args: tuple) -> list:
    """A config's probe shares ([None]: it is probed whole)."""
    name, task, seed, splits = args
    with naming(name):
        return (task.probe_parts(name, seed, splits) if hasattr(task, "probe_parts")
                else [None])


def run_batch(args: tuple) -> tuple[list, InputError | None]:
    """`job` over a run of its arguments in one task: the results up to the first
    InputError, and that error (None: there was none)."""
    job, batch = args
    out: list = []
    for one in batch:
        try:
            out.append(job(one))
        except InputError as exc:
            return out, exc
    return out, None


def settle_job(args: tuple) -> tuple:
    """A config's probe result joined from its shares' results (`found`: part -> result;
    None: `result` is the probe kept from an earlier run), then, if `check`, its checks
    (config_checks.checked): (probe result, Checked, or the InputError naming the config
    that the checks raised, which the driver raises in its turn). A join's error is
    raised here."""
    spec, seed, found, result, check = args
    name, task, splits = spec.name, spec.task, tuple(spec.splits)
    if found is not None:
        with naming(name):
            result = found[None] if list(found) == [None] else \
                task.probe(name, seed, splits, found)
    if not check:
        return result, None
    try:
        with naming(name):
            gen = checked(spec, seed, result)
    except InputError as exc:
        return result, exc
    return result, Checked(gen.summary(), getattr(gen, "rows_per_shard", None))


def prepare_in_workers(recipe, seed: int, engine, probes=None) -> tuple[dict, dict]:
    """build.prepare for an engine whose workers are not forks: (name -> Checked,
    name -> what makes its row maker in a worker). Raises what prepare raises, having
    kept in `probes` every probe joined before the refusal. Ray costs its driver about
    a millisecond a task, so the tasks are few: each round's jobs go in a few batches
    a worker, and a config's join and checks are one job."""
    kept = {spec.name: probes.get(spec.name) for spec in recipe.configs
            if probes is not None and probes.has(spec.name)}
    cached = {name: result for name, (found, result) in kept.items() if found}
    todo = [spec for spec in recipe.configs if spec.name not in cached]
    with engine.pool(worlds=recipe.configs[0].task.worlds_key) as pool:
        # the run's worlds made first, each by one worker, as a local build's workers
        # make them (build._load_ahead): the others read them back (kept_spaces)
        parts = warm_parts(replace(recipe, configs=tuple(todo)))
        if len(parts) > 1 and pool.workers > 1:
            for _ in _batched(pool, warm_job, parts, [config for _, _, config in parts]):
                pass
        shares = list(_batched(pool, parts_job, [(s.name, s.task, seed, tuple(s.splits))
                                                 for s in todo], [s.name for s in todo]))
        jobs = [(spec.name, spec.task, seed, tuple(spec.splits) if part is None else
                 dict(spec.splits), part) for spec, parts in zip(todo, shares)
                for part in parts]
        founds, failed, error = _probe_round(pool, jobs, [(spec, parts) for spec, parts
                                                          in zip(todo, shares)])
        if error is None:  # the second round: the shares a config's join asks for
            more = list(_batched(pool, further_job, [
                (spec.name, spec.task, seed, tuple(spec.splits), founds[spec.name])
                for spec in todo], [spec.name for spec in todo]))
            jobs = [(spec.name, spec.task, seed, dict(spec.splits), part)
                    for spec, parts in zip(todo, more) for part in parts]
            further, failed, error = _probe_round(pool, jobs, [
                (spec, parts) for spec, parts in zip(todo, more)])
            for spec, parts in zip(todo, more):  # cut short by a refusal: those before
                if spec.name in further:
                    founds[spec.name].update(further[spec.name])
                else:
                    founds.pop(spec.name, None)
        settles = []
        for spec in recipe.configs:
            if spec.name == failed:
                break
            if spec.name in cached:
                if error is not None:  # nothing to keep: its probe is kept already
                    continue
                settles.append((spec, seed, None, cached[spec.name], True))
            else:
                settles.append((spec, seed, founds[spec.name], None, error is None))
        probed, gens, refused = {}, {}, None
        for result, outcome in _batched(pool, settle_job, settles,
                                        [one[0].name for one in settles]):
            spec = settles[len(probed)][0]
            probed[spec.name] = result
            if probes is not None and spec.name not in cached:
                probes.put(spec.name, result)  # kept as soon as it is back
            if isinstance(outcome, InputError):
                refused = refused or (spec.name, outcome)
            gens[spec.name] = outcome
        if error is not None:
            raise error
        if refused is not None:  # the config must change to pass: its probe is of no use
            if probes is not None:
                probes.drop(refused[0])
            raise refused[1]
    specs = list(recipe.configs)
    makers = {spec.name: (spec.task, seed, tuple(spec.splits), probed[spec.name])
              for spec in specs}
    return gens, makers


def _probe_round(pool, jobs: list, shares: list) -> tuple[dict, str | None,
                                                         InputError | None]:
    """probe_job over `jobs`, the shares (`shares`: (spec, its parts), in order) of each
    config: (config -> part -> result, for each config whose jobs all came back; the
    config of the job refused and its error, or None, None)."""
    done: list = []
    failed = error = None
    try:
        for result in _batched(pool, probe_job, jobs, [job[0] for job in jobs]):
            done.append(result)
    except InputError as exc:  # the job that failed is the one after those done
        failed, error = jobs[len(done)][0], exc
    results, founds, left = iter(done), {}, len(done)
    for spec, parts in shares:
        if len(parts) > left or spec.name == failed:
            break
        founds[spec.name] = {part: next(results) for part in parts}
        left -= len(parts)
    return founds, failed, error


def _batched(pool, job, args: list, names: list[str]) -> Iterator:
    """The results of `job` over `args` in order, run in a few batches a worker
    (run_batch); an InputError is raised in its turn, naming the config of its job. A
    batch lost with its worker (WorkerDied, Ray's retries spent) names every config its
    jobs were preparing, in order (a tuple: the build says "preparing configs ..."),
    whose probes a rerun makes again; those kept before it are not."""
    if not args:
        return
    runs = min(len(args), BATCHES_PER_WORKER * pool.workers)
    size = -(-len(args) // runs)
    batches = [(job, args[k:k + size]) for k in range(0, len(args), size)]
    done = taken = 0
    results = pool.imap(run_batch, batches)
    while True:
        try:
            found, error = next(results)
        except StopIteration:
            return
        except WorkerDied as exc:  # the batch after those taken
            exc.config = tuple(dict.fromkeys(names[taken * size:(taken + 1) * size]))
            raise
        taken += 1
        yield from found
        done += len(found)
        if error is not None:
            raise named(error, names[done])
