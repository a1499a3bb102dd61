"""racbench: offline text benchmarks about actions and change.

The public API (each imports its engine on first call, so `import racbench` stays light):

* `generate(family, ...)`: rows of one task family, as a list of dicts or a
  `datasets.Dataset`;
* `build(recipe, out, ...)`: a whole recipe (`"trac"`, `"acp"`, a YAML file) written as a
  Hugging Face dataset folder;
* `score(row, reply)`: a model's free-form reply to a row, scored as a `Score`;
* `stream(tasks, ...)`: rows of a family or a weighted mixture without end, at a
  difficulty level or a `Curriculum`'s (for training; racbench/training/);
* `Curriculum(band=..., window=...)`: moves each task's level to keep its recent
  accuracy in a band as scores come back (`update`), saved and restored as JSON.

gymnasium environments: `import racbench.envs`, then `gymnasium.make("racbench/...")`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from racbench.version import __version__

if TYPE_CHECKING:
    import datasets

    from racbench.checks.score import Score

__all__ = ["Curriculum", "Score", "__version__", "build", "generate", "score", "stream"]


def __getattr__(name: str) -> Any:
    """`racbench.Score` (for type hints) and `racbench.Curriculum`, loaded on first use
    like the engines."""
    if name == "Score":
        from racbench.checks.score import Score

        return Score
    if name == "Curriculum":
        from racbench.training.curriculum import Curriculum

        return Curriculum
    raise AttributeError(f"module 'racbench' has no attribute '{name}'")


def generate(family: str, *, domain: str | None = None,
             problem: str | Path | Sequence[str | Path] | None = None,
             domain_file: str | Path | None = None, n: int = 100, form: str | None = None,
             length: int | Sequence[int] | None = None, seed: int = 0, split: str = "test",
             objects: int | None = None, names: str | None = None, style: str | None = None,
             query_kinds: str | Sequence[str] | None = None, dataset: bool = False,
             science: str | None = None, simplifications: str = "",
             history: int | None = None, valid_actions: bool = False,
             phrasing: str | Path | None = None
             ) -> "list[dict[str, Any]] | datasets.Dataset":
    """`n` rows of one task family, made exactly as `racbench build` makes them.

    The world: a shipped `domain` ("gripper", ...) with `problem` names ("p04", or a
    list; default: the split's shipped problems), or your PDDL (`domain_file` and
    `problem` paths); with neither, TRAC's blocksworld of `objects` blocks (default 5),
    named from colours and phrased in TRAC's style. `form` is "bool", "mc" or "open"
    (default: bool, or the family's only form, e.g. plan_generation's open);
    `length` the sequence length (default 1 on TRAC's blocksworld, 2 on a domain, as in
    `racbench generate` and recipes; a list mixes lengths in bool rows); `query_kinds`
    ("literal", "conjunction") the size of queries and goals in bool rows; `names`
    "problem", "seen" or "unseen"; `style` "acp" or "trac". The same arguments and
    `seed` give the same rows. `phrasing` is your phrasing file for the domain
    (docs/phrasing.md; default: phrasing.yaml beside `domain_file`). Returns a list of
    row dicts, or with `dataset=True` a `datasets.Dataset` with the declared features. Bad arguments raise
    `racbench.errors.InputError` naming what is accepted.

        rows = racbench.generate("projection", n=10)                  # TRAC's blocks
        rows = racbench.generate("landmarks", domain="logistics", problem="p04", form="mc",
                                 n=10)

    Rows of the science lab's gold trajectories: `family` "behaviour_cloning",
    "return_conditioned" or "trajectory", `science` a task ("boil", ...), with
    `simplifications` ("easy", ...), `history` (past steps of a step row) and
    `valid_actions`; the first `n` rows of `split` (ScienceWorld's split of the
    variations), as `racbench build` writes them:

        steps = racbench.generate("behaviour_cloning", science="boil", n=20, split="train")
    """
    from racbench.api import _gold_rows, _rows

    if science is not None:
        return _gold_rows(family, science, n, split, simplifications, history,
                          valid_actions, dataset)
    from racbench.suites.generate import API, generate_config

    cfg = generate_config(family, domain=domain, domain_file=domain_file, problems=problem,
                          split=split, form=form, length=length, objects=objects,
                          names=names, style=style, query_kinds=query_kinds,
                          phrasing=phrasing, arguments=API)
    rows = _rows(cfg, n, seed, split)
    if not dataset:
        return rows
    import datasets

    from racbench.tasks.schema import task_features

    return datasets.Dataset.from_list(rows, features=task_features())


def build(recipe: Any, out: str | Path, *, seed: int | None = None, scale: float = 1.0,
          workers: int | None = None, overwrite: bool = False,
          progress: bool = False, engine: str = "local", address: str | None = None) -> Path:
    """Build a recipe (a built-in name such as "trac", a YAML file path, or a loaded
    `Recipe`) into the dataset folder `out`, as `racbench build` does; returns the
    folder. `engine="ray"` runs the shard work as Ray tasks (on the cluster at `address`,
    on the Ray this process already initialised, or on one started for the build) and
    writes the same bytes. Bad input raises `racbench.errors.InputError` before anything
    is written."""
    from racbench.api import _build

    return _build(recipe, out, seed=seed, scale=scale, workers=workers, overwrite=overwrite,
                  progress=progress, engine=engine, address=address)


def score(row: Mapping[str, Any], reply: Any) -> "Score":
    """Score a model's reply to one dataset row (a dict, as `datasets` yields it).

    The reply may be a bare answer ("B", "true", a plan one action per line) or free
    text ("Yes, because the block is clear.", "The answer is (B).", reasoning then a
    numbered plan). Returns a `Score`: `value` in [0, 1] (`float(result)` gives it),
    `parsed` False when no answer could be read from the reply (value 0.0, so an
    evaluation can count those apart from wrong answers), and `extracted`, the answer
    as read. A row without what scoring reads raises `racbench.errors.InputError`.

        row = racbench.generate("applicability", domain="gripper", problem="p04",
                                form="mc", n=4)[0]
        result = racbench.score(row, f"Let me think... The answer is ({row['answer']}).")
        assert result.value == 1.0 and result.parsed
    """
    from racbench.checks.score import score as _score

    return _score(row, reply)


def stream(tasks: "str | Mapping[str, float]", *, seed: int = 0,
           level: "str | int | Mapping[str, str | int]" = "easy", form: str = "bool",
           domain: str | None = None, rules: str | None = None, science: str | None = None,
           curriculum: Any = None, dataset: bool = False, n_shards: int = 1) -> Any:
    """Rows of a family, or of a weighted mixture {task: weight}, without end, for
    training: row i is a pure function of (seed, i) and its level (any reader of any
    slice gets the same bytes), made by the row makers `generate` and builds run, from
    train problems only, each row scored by `racbench.score` as it is. A task is a
    family on `domain=` / `rules=` / `science=` (or TRAC's blocksworld), or "family@world"
    ("projection@gripper", "first_target@rules/rtfm"). `level` is "easy", "medium",
    "hard" or "expert" (or 0-3; a dict per task), or a `curriculum` (a
    `racbench.Curriculum`) sets each task's level as scores come back. Returns a
    `racbench.training.Stream` (iterate it, or `row(i)`), or with `dataset=True` a
    `datasets.IterableDataset` of `n_shards` shards.

        mixed = racbench.stream({"projection": 2, "applicability@gripper": 1}, seed=0)
        first = [row for row, _ in zip(mixed, range(4))]
    """
    from racbench.training.stream import Stream

    made = Stream(tasks, seed=seed, level=level, form=form, domain=domain, rules=rules,
                  science=science, curriculum=curriculum)
    return made.to_iterable_dataset(n_shards) if dataset else made
