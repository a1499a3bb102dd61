"""Preparing configs in workers that are not forks of the driver (Ray's): the driver
loads no world.

A local build loads each run's worlds in its driver (forked workers share them), and
probes, checks and keeps each config's row maker there. A Ray worker shares nothing
with the driver, so there the driver would load every world for nothing but its own
checks (a fifth of a build's CPU on `acp`): instead the same steps run as jobs, in
rounds over the run's configs, each job naming the config it refuses: the probe's
shares (`parts_job`), each share (jobs.probe_job), the joined probe (`join_job`, kept
in the partial folder for a rerun as soon as it is back), and the checks of
config_checks.checked (`check_job`), which send back what the driver needs of a row
maker (its card summary, its rows per shard). Same probes, same checks, same order of
refusals as a local build, so the same bytes and messages.
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


def join_job(args: tuple):
    """A config's probe result, from its shares' results (`found`: part -> result)."""
    name, task, seed, splits, found = args
    with naming(name):
        return found[None] if list(found) == [None] else task.probe(name, seed, splits, found)


def check_job(args: tuple) -> Checked:
    """config_checks.checked in a worker; what the driver keeps of the row maker."""
    spec, seed, result = args
    with naming(spec.name):
        gen = checked(spec, seed, result)
    return Checked(gen.summary(), getattr(gen, "rows_per_shard", None))


def prepare_in_workers(recipe, seed: int, engine, probes=None) -> tuple[dict, dict]:
    """build.prepare for an engine whose workers are not forks: (name -> Checked,
    name -> what makes its row maker in a worker). Raises what prepare raises, having
    kept in `probes` every probe joined before the refusal."""
    kept = {spec.name: probes.get(spec.name) for spec in recipe.configs
            if probes is not None and probes.has(spec.name)}
    cached = {name: result for name, (found, result) in kept.items() if found}
    todo = [spec for spec in recipe.configs if spec.name not in cached]
    with engine.pool(worlds=recipe.configs[0].task.worlds_key) as pool:
        shares = _in_order(pool, parts_job, [(s.name, s.task, seed, tuple(s.splits))
                                             for s in todo], [s.name for s in todo])
        jobs = [(spec.name, spec.task, seed, tuple(spec.splits) if part is None else
                 dict(spec.splits), part) for spec, parts in zip(todo, shares)
                for part in parts]
        done: list = []
        error = failed = None
        try:
            for result in pool.imap(probe_job, jobs):
                done.append(result)
        except InputError as exc:  # the job that failed is the one after those done
            failed = jobs[len(done)][0]
            error = named(exc, failed)
        results = iter(done)
        joins = []
        for spec, parts in zip(todo, shares):
            if spec.name == failed:
                break
            joins.append((spec.name, spec.task, seed, tuple(spec.splits),
                          {part: next(results) for part in parts}))
        joined: dict = {}
        try:
            for result in pool.imap(join_job, joins):  # each kept as soon as it is back
                name = joins[len(joined)][0]
                joined[name] = result
                if probes is not None:
                    probes.put(name, result)
        except InputError as exc:
            raise named(exc, joins[len(joined)][0]) from None
        if error is not None:
            raise error
        probed = {**cached, **joined}
        specs = list(recipe.configs)
        checks = [(spec, seed, probed[spec.name]) for spec in specs]
        gens = {}
        try:
            for spec, found in zip(specs, pool.imap(check_job, checks)):
                gens[spec.name] = found
        except InputError:
            if probes is not None:  # the config must change to pass: its probe is of no use
                probes.drop(specs[len(gens)].name)
            raise
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
