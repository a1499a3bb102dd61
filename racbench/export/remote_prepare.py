"""Preparing configs in workers that are not forks of the driver (Ray's): the driver
loads no world.

A local build loads each run's worlds in its driver (forked workers share them), and
probes, checks and keeps each config's row maker there. A Ray worker shares nothing
with the driver, so there the driver would load every world for nothing but its own
checks (a fifth of a build's CPU on `acp`): instead the same steps run as jobs, in
rounds over the run's configs, each job naming the config it refuses: the probe's
shares (`parts_job`), the shares in batches (`probe_batch`, jobs.probe_job each), then
the joined probe (kept in the partial folder for a rerun as soon as it is back) with
the checks of config_checks.checked (`settle_job`), which send back what the driver
needs of a row maker (its card summary, its rows per shard). Same probes, same checks,
same order of refusals as a local build, so the same bytes and messages.
"""

from __future__ import annotations

from dataclasses import dataclass

from racbench.errors import InputError
from racbench.export.config_checks import checked, named, naming
from racbench.export.jobs import probe_job


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


def probe_batch(args: list) -> list:
    """Some of one config's probe shares (jobs.probe_job each), in one task."""
    return [probe_job(one) for one in args]


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


def _batches(parts: list, workers: int) -> list[list]:
    """A config's probe shares in at most `workers` runs of consecutive shares."""
    size = -(-len(parts) // max(1, workers))
    return [parts[k:k + size] for k in range(0, len(parts), size)]


def prepare_in_workers(recipe, seed: int, engine, probes=None) -> tuple[dict, dict]:
    """build.prepare for an engine whose workers are not forks: (name -> Checked,
    name -> what makes its row maker in a worker). Raises what prepare raises, having
    kept in `probes` every probe joined before the refusal. Ray costs its driver about
    a millisecond a task, so the tasks are few: a config's probe shares go in batches,
    one for each worker at most, and its join and checks in one task."""
    kept = {spec.name: probes.get(spec.name) for spec in recipe.configs
            if probes is not None and probes.has(spec.name)}
    cached = {name: result for name, (found, result) in kept.items() if found}
    todo = [spec for spec in recipe.configs if spec.name not in cached]
    with engine.pool(worlds=recipe.configs[0].task.worlds_key) as pool:
        shares = _in_order(pool, parts_job, [(s.name, s.task, seed, tuple(s.splits))
                                             for s in todo], [s.name for s in todo])
        batches, owners = [], []
        for spec, parts in zip(todo, shares):
            for batch in _batches(parts, pool.workers):
                batches.append([(spec.name, spec.task, seed, tuple(spec.splits) if part is None
                                 else dict(spec.splits), part) for part in batch])
                owners.append(spec.name)
        done: list = []
        error = failed = None
        try:
            for results in pool.imap(probe_batch, batches):
                done.append(results)
        except InputError as exc:  # the batch that failed is the one after those done
            failed = owners[len(done)]
            error = named(exc, failed)
        results = iter(result for batch in done for result in batch)
        settles = []
        for spec in recipe.configs:
            if spec.name == failed:
                break
            if spec.name in cached:
                if error is not None:  # nothing to keep: its probe is kept already
                    continue
                settles.append((spec, seed, None, cached[spec.name], error is None))
            else:
                parts = shares[todo.index(spec)]
                settles.append((spec, seed, {part: next(results) for part in parts}, None,
                                error is None))
        probed, gens, refused = {}, {}, None
        try:
            for result, outcome in pool.imap(settle_job, settles):
                spec = settles[len(probed)][0]
                probed[spec.name] = result
                if probes is not None and spec.name not in cached:
                    probes.put(spec.name, result)  # kept as soon as it is back
                if isinstance(outcome, InputError):
                    refused = refused or (spec.name, outcome)
                gens[spec.name] = outcome
        except InputError as exc:
            raise named(exc, settles[len(probed)][0].name) from None
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


def _in_order(pool, job, args: list, names: list[str]) -> list:
    """The results of `job` over `args` in order; an InputError names the config of the
    job that raised it."""
    out: list = []
    try:
        for result in pool.imap(job, args):
            out.append(result)
    except InputError as exc:
        raise named(exc, names[len(out)]) from None
    return out
