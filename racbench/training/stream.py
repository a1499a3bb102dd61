"""An endless, seeded stream of rows of one family or a weighted mixture.

Row `i` of a stream is a pure function of (seed, i) and the level it is asked at:
which task of a mixture it belongs to is drawn from a hash of (seed, i), and its
content is the task's row maker (`ConfigRows.row`, the one `racbench.generate` and
builds run; next_observation's `NextObservationRows.row`, its recipes') at index `i`,
whose random stream is itself hashed from (seed, config, i). So any reader of any
slice, in any process, gets the same bytes for row `i`. True/false labels are balanced
exactly in every block of `BLOCK` rows of a one-task stream (the
block's stratum codes are a hashed permutation, as a build's split's are). A stream
does not remove repeated problems (a build does, to keep splits apart): it asks only
train problems, and a long stream of a small world repeats some.

A task is a family on a world: "projection" (TRAC's blocksworld, or the `domain=`,
`rules=` or `science=` given to the stream) or "projection@gripper" (a shipped domain),
"projection@rules/rtfm", "projection@science/boil". Its level comes from `level`
(one for all tasks, or a dict per task), or from a `curriculum` asked at each row.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Iterator, Mapping

from racbench.errors import GenerationError, ProbeRefusal
from racbench.splits.seeding import derive_seed
from racbench.splits.strata import position_codes
from racbench.tasks.config import ConfigError
from racbench.text import sayer
from racbench.training.levels import (LEVELS, check_world, level_config, level_name,
                                      world_of)

if TYPE_CHECKING:
    import datasets

    from racbench.training.curriculum import Curriculum

BLOCK = 64  # rows per block of stratum codes (even: labels exactly 50/50 per block)
SPLIT = "train"  # a stream asks train problems only
MAX_ATTEMPTS = 8  # draws of one row before its error is raised
_say = sayer("cli", ("training.j2",))


def task_key(family: str, world: str) -> str:
    """How a stream, its rows' scores and a curriculum name a family on a world."""
    return f"{family}@{world}"


def row_task(row: Mapping[str, Any]) -> str:
    """The task key of a stream's row (its family and the world its symbolic form names)."""
    return task_key(row["family"], row["domain"])


class Stream:
    """Rows of `tasks` (a task, or {task: weight}) without end. Iterate it, take
    `row(i)` or `rows(start, stop)`, or read it as a `datasets.IterableDataset`."""

    def __init__(self, tasks: str | Mapping[str, float], *, seed: int = 0,
                 level: str | int | Mapping[str, str | int] = "easy", form: str = "bool",
                 domain: str | None = None, rules: str | None = None,
                 science: str | None = None, curriculum: "Curriculum | None" = None):
        if isinstance(tasks, str):
            tasks = {tasks: 1.0}
        if not isinstance(tasks, Mapping) or not tasks:
            raise ConfigError(_say("stream_tasks", got=repr(tasks)))
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ConfigError(_say("seed_not_integer", got=repr(seed)))
        self.seed, self.form, self.curriculum = seed, form, curriculum
        self.tasks: dict[str, tuple[str, str]] = {}  # key -> (family, world)
        named: dict[str, str] = {}  # as the caller names a task -> its key
        weights = {}
        for given, weight in tasks.items():
            family, _, world = str(given).partition("@")
            world = world or world_of(family, domain, rules, science)
            check_world(world)
            key = named[str(given)] = task_key(family, world)
            if not isinstance(weight, (int, float)) or isinstance(weight, bool) or \
                    not weight > 0:
                raise ConfigError(_say("bad_weight", task=repr(given), got=repr(weight)))
            self.tasks[key] = (family, world)
            weights[key] = float(weight)
        self.keys = sorted(self.tasks)
        total = sum(weights.values())
        self._bounds = list(itertools.accumulate(weights[k] / total for k in self.keys))
        per_task = level if isinstance(level, Mapping) else {}
        default = LEVELS[0] if isinstance(level, Mapping) else level_name(level)
        self.levels = dict.fromkeys(self.keys, default)
        for given, lv in per_task.items():
            key = named.get(given, given)
            if key not in self.tasks:
                raise ConfigError(_say("level_for_other_task", task=repr(given),
                                       tasks=sorted(named)))
            self.levels[key] = level_name(lv)
        for key in self.keys:  # every task and level is checked before any row is made
            for lv in LEVELS if curriculum is not None else (self.levels[key],):
                self._config(key, lv)
        if curriculum is not None:
            curriculum.track(self.keys)
        self._makers: dict[tuple[str, str], Any] = {}

    # -- which task and level ----------------------------------------------------------
    def task_at(self, i: int) -> str:
        """The task of row `i`: a hash of (seed, i) against the cumulative weights."""
        if len(self.keys) == 1:
            return self.keys[0]
        u = derive_seed(self.seed, "stream-task", i) / 2 ** 63
        for key, bound in zip(self.keys, self._bounds):
            if u < bound:
                return key
        return self.keys[-1]

    def level_of(self, key: str) -> str:
        """The level a task is asked at now: the curriculum's, or the stream's."""
        if self.curriculum is not None:
            return self.curriculum.level(key)
        return self.levels[key]

    def _config(self, key: str, level: str):
        """The task's config at `level`; a config refused says the task, form and level
        (a mixture's or a curriculum's levels are all checked as the stream starts)."""
        family, world = self.tasks[key]
        try:
            return level_config(family, level, world, self.form)
        except ConfigError as exc:
            raise ConfigError(_say("no_config_at_level", task=key, form=self.form,
                                   level=level, reason=exc)) from None

    def _maker(self, key: str, level: str):
        """The task's row maker at `level` (built, probed and kept on first use)."""
        maker = self._makers.get((key, level))
        if maker is None:
            cfg = self._config(key, level)
            name = f"{key.replace('/', '-')}_{self.form}_{level}"
            # a rule world's mc options are surveyed per episode, 200 of them: as rows
            # draw them (ConfigRows' `lazy`); a domain's few problems are probed first
            lazy = self.tasks[key][1].startswith("rules/")
            try:
                made = cfg.rows(name, self.seed, (SPLIT,), lazy=lazy)
            except GenerationError as exc:
                raise GenerationError(_say("no_questions_at_level", task=key, form=self.form,
                                           level=level, reason=exc)) from None
            maker = self._makers[(key, level)] = (name, made)
        return maker

    # -- rows ----------------------------------------------------------------------------
    def row(self, i: int, level: str | int | None = None) -> dict[str, Any]:
        """Row `i` (at `level`, default the task's level now)."""
        if not isinstance(i, int) or isinstance(i, bool) or i < 0:
            raise ConfigError(_say("bad_row_index", got=repr(i)))
        key = self.task_at(i)
        level = level_name(level) if level is not None else self.level_of(key)
        name, maker = self._maker(key, level)
        block, offset = divmod(i, BLOCK)
        code = block * BLOCK + position_codes(self.seed, name, f"{SPLIT}-{block}",
                                              BLOCK)[offset]
        for attempt in range(MAX_ATTEMPTS):
            try:
                return maker.row(SPLIT, i, code, attempt).columns
            except ProbeRefusal as exc:  # a lazy maker's probe, made at its first rows
                raise GenerationError(_say("no_questions_at_level", task=key, form=self.form,
                                           level=level, reason=exc)) from None
            except GenerationError:  # a draw that found no row: the next attempt's seed
                if attempt == MAX_ATTEMPTS - 1:
                    raise
        raise GenerationError(_say("no_attempt", row=i))  # MAX_ATTEMPTS >= 1

    def rows(self, start: int, stop: int) -> list[dict[str, Any]]:
        """Rows start .. stop - 1."""
        return [self.row(i) for i in range(start, stop)]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (self.row(i) for i in itertools.count())

    def __getstate__(self) -> dict:
        """What a worker process gets: the stream without its row makers (rebuilt there)."""
        return {**self.__dict__, "_makers": {}}

    # -- datasets --------------------------------------------------------------------------
    def to_iterable_dataset(self, n_shards: int = 1) -> "datasets.IterableDataset":
        """The stream as a `datasets.IterableDataset` of `n_shards` shards, shard `k`
        the rows k, k + n_shards, k + 2 n_shards, ... (each endless). One shard (the
        default) reads rows 0, 1, 2, ...; to read with W processes (nodes, or a
        DataLoader's workers), give `n_shards=W` and `split_dataset_by_node(ds, rank,
        W)` gives reader `rank` its shard, making only its rows. (With one shard,
        `split_dataset_by_node` over any W gives each reader every W-th row, each reader
        making all rows.) Either way a row has the bytes of `row(i)`. Reading several
        endless shards in one process reads the first only: datasets reads shards one
        after another. With a curriculum, read the dataset in the process that updates
        the curriculum: a worker process gets a copy that does not see its moves."""
        import datasets

        from racbench.tasks.schema import task_features

        if not isinstance(n_shards, int) or isinstance(n_shards, bool) or n_shards < 1:
            raise ConfigError(_say("bad_shards", got=repr(n_shards)))
        return datasets.IterableDataset.from_generator(
            _shard_rows, features=task_features(),
            gen_kwargs={"stream": self, "n_shards": n_shards, "shards": list(range(n_shards))})


def _shard_rows(stream: Stream, n_shards: int, shards: list[int]) -> Iterator[dict]:
    """The rows of `shards` (of `n_shards`) in index order, without end."""
    for start in itertools.count(0, n_shards):
        for k in shards:
            yield stream.row(start + k)
