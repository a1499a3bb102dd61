"""Question-only and options-only bag-of-words probes for built racbench datasets.

The label probe answers one question per true/false config: can a classifier
that sees only one text column (by default ``question``) predict the label?  A
benchmark whose negatives are worded differently from its positives fails
this check even when its labels are balanced.  Ours must stay at chance: at
most ``ACCURACY_THRESHOLD`` held-out accuracy.

The options probe asks the same of multiple-choice configs (rows with a
``choices`` list and the correct ``answer_index``): each option text is a
document labelled correct or wrong, the same classifier is trained on the
train split's options, and on each evaluated row it picks the option it
scores highest (ties: the lowest index).  A benchmark whose correct options
are worded differently from its distractors fails this check; ours must pick
the correct option at most ``OPTIONS_THRESHOLD`` of the time (chance is one
over the number of options).

The classifier (`racbench.checks.bagofwords`) is a deliberately simple,
deterministic bag-of-words logistic regression.

Splits: train on ``train`` and evaluate on every other split pooled
(``validation+test``: problems the probe has not seen). A config without that
pair is pooled and scored by 5-fold cross-validation with folds assigned by a
blake2b hash of each row's question text and index (for the options probe, whole
rows go to a fold with all their options); the accuracy is then the share of all rows
predicted right by the model that did not see their fold.

Verdict: a config fails when its accuracy lies outside the band around chance
(above the threshold, or as far below chance as the threshold is above it) and a
two-sided binomial test against chance (`scipy.stats.binomtest`) gives
p < ``SIGNIFICANCE``; an audit of many configs adjusts the p-values for their
number (Holm), so that a dataset whose every config is at chance is flagged by
luck at most 1% of the time. On a held-out split, far below chance is a leak too:
held-out answers that are systematically what train never answers (a split held out
by its answer, say) read near 0%, and a reader who picks against the probe reads
them. Cross-validation judges only the upper side: there, below chance is the known
artefact of folds (the same text with both labels, one copy in each fold, is
predicted against), and no training split exists for a reader to exploit.

The section goes into the card through `racbench.export.card_section`; all English
prose shown to readers lives in the Jinja2 template ``templates/card/audit.md.j2``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable, NamedTuple, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from scipy.stats import binomtest

from racbench.checks import bagofwords
from racbench.errors import InputError
from racbench.export import layout
from racbench.export.card_section import write_section
from racbench.progress import progress_bar
from racbench.text import environment, sayer

__all__ = [
    "ACCURACY_THRESHOLD",
    "OPTIONS_THRESHOLD",
    "AuditError",
    "ProbeResult",
    "audit_dataset",
    "has_binary_labels",
    "has_mc_choices",
    "holm",
    "probe_config",
    "probe_options",
    "render_audit_section",
    "update_card",
]

#: A config passes when the probe's accuracy is at most this.
ACCURACY_THRESHOLD = 0.55
SIGNIFICANCE = 0.01  # outside the band, a config fails only if clearly away from chance
#: An options probe passes when it picks the correct option at most this often
#: (chance is 25% with four options).
OPTIONS_THRESHOLD = 0.35
#: Folds for single-split configs.
N_FOLDS = 5

QUESTION = "question"
FIELDS = (QUESTION, "context")
#: The options probe always reads the option texts.
OPTIONS_FIELD = "choices"
ANSWER_COLUMN = "answer_index"
#: What a probe predicts: the row's true/false label, or its correct option.
PROBE_LABEL = "label"
PROBE_OPTIONS = "options"
METHOD_HOLDOUT = "holdout"
METHOD_CV = f"{N_FOLDS}-fold-cv"

_TEMPLATE_NAME = "card/audit.md.j2"
_say = sayer("cli", ("audit.j2",))


class AuditError(InputError):
    """Raised when a folder or config is not a usable racbench dataset."""


@dataclass(frozen=True)
class ProbeResult:
    config: str
    field: str
    train_split: str
    eval_split: str
    n_train: int
    n_eval: int
    accuracy: float
    majority_baseline: float
    passed: bool
    method: str
    p_value: float = 1.0  # binomial test against chance (two-sided on a held-out split)
    p_adjusted: float | None = None  # p_value adjusted for the configs of an audit (holm)
    # PROBE_LABEL (majority_baseline is the majority class) or PROBE_OPTIONS
    # (majority_baseline is chance, one over the number of options).
    probe: str = PROBE_LABEL


def chance_p_value(accuracy: float, n: int, chance: float = 0.5,
                   two_sided: bool = True) -> float:
    """The exact binomial test of this many correct of n against guessing right with
    probability ``chance``: two-sided (counts at most as likely as this one), or the
    upper tail (at least this many correct)."""
    if n <= 0:
        return 1.0
    alternative = "two-sided" if two_sided else "greater"
    return float(binomtest(round(accuracy * n), n, chance, alternative=alternative).pvalue)


def _within_band(accuracy: float, threshold: float, chance: float, two_sided: bool) -> bool:
    """At most the threshold and, judged on both sides, no further below chance than the
    threshold is above it."""
    return accuracy <= threshold and (not two_sided or accuracy >= 2 * chance - threshold)


def _passes(accuracy: float, n: int, threshold: float = ACCURACY_THRESHOLD,
            chance: float = 0.5, two_sided: bool = True, p_value: float | None = None) -> bool:
    """At chance: within the band, or outside it by no more than sampling noise
    (small evaluation sets cannot tell 57% from 50%)."""
    if p_value is None:
        p_value = chance_p_value(accuracy, n, chance, two_sided)
    return _within_band(accuracy, threshold, chance, two_sided) or p_value >= SIGNIFICANCE


# --------------------------------------------------------------------------
# Reading configs


def _read(path: Path, columns: Iterable[str]) -> pa.Table:
    """One shard's columns; a missing column is this config's fault, said as the audit's."""
    try:
        return layout.read_columns(path, sorted(set(columns)))
    except layout.LayoutError as exc:
        raise AuditError(str(exc)) from None


def _shards(splits: dict[str, list[Path]]) -> list[Path]:
    """Every shard of a config, split by split."""
    return [path for files in splits.values() for path in files]


def _texts(column: pa.ChunkedArray) -> list[str]:
    return ["" if s is None else str(s) for s in column.to_pylist()]


def _read_split(paths: Sequence[Path], field: str) -> tuple[list[str], list[str], np.ndarray]:
    """Return (field texts, question texts, labels) of all shards, in file order."""
    texts: list[str] = []
    queries: list[str] = []
    labels: list[np.ndarray] = []
    for path in paths:
        table = _read(path, (QUESTION, field, "label"))
        queries.extend(_texts(table.column(QUESTION)))
        texts.extend(_texts(table.column(field)))
        labels.append(_labels(table.column("label"), path))
    y = np.concatenate(labels) if labels else np.zeros(0, dtype=np.int64)
    return texts, queries, y


def has_binary_labels(config_dir: Path) -> bool:
    """Only configs of true/false rows can be probed (not multiple-choice, open-ended or
    trajectory rows)."""
    for path in _shards(layout.split_files(config_dir)):
        if "label" not in layout.schema(path).names:
            return False
        y = layout.read_columns(path, ["label"]).column("label").to_numpy(zero_copy_only=False)
        if len(y) and not np.isin(y, (0, 1)).all():
            return False
    return True


def _option_counts(table: pa.Table) -> tuple[np.ndarray, np.ndarray]:
    """(number of choices, answer_index) per row; nulls read as -1 so they never qualify."""
    counts = pc.fill_null(pc.list_value_length(table.column(OPTIONS_FIELD)), -1)
    answers = pc.fill_null(table.column(ANSWER_COLUMN), -1)
    return (np.asarray(counts.to_numpy(), dtype=np.int64),
            np.asarray(answers.to_numpy(), dtype=np.int64))


def has_mc_choices(config_dir: Path) -> bool:
    """Multiple-choice configs get the options probe: every row names its correct option
    (answer_index >= 0) among the same number (at least 2) of `choices`.  Open-ended rows
    (answer_index -1) have no options to probe."""
    sizes: set[int] = set()
    for path in _shards(layout.split_files(config_dir)):
        schema = layout.schema(path)
        if not {OPTIONS_FIELD, ANSWER_COLUMN} <= set(schema.names):
            return False
        if not (pa.types.is_list(schema.field(OPTIONS_FIELD).type)
                or pa.types.is_large_list(schema.field(OPTIONS_FIELD).type)):
            return False
        if not pa.types.is_integer(schema.field(ANSWER_COLUMN).type):
            return False
        counts, answers = _option_counts(layout.read_columns(path, [OPTIONS_FIELD, ANSWER_COLUMN]))
        if len(answers) and ((answers < 0).any() or (answers >= counts).any()):
            return False
        sizes.update(np.unique(counts).tolist())
    return len(sizes) == 1 and min(sizes) >= 2


def _labels(column: pa.ChunkedArray, path: Path) -> np.ndarray:
    if column.null_count:
        raise AuditError(_say("label_nulls", path=path, nulls=column.null_count))
    if not (pa.types.is_integer(column.type) or pa.types.is_boolean(column.type)):
        raise AuditError(_say("label_type", path=path, type=column.type))
    y = np.asarray(column.to_numpy(), dtype=np.int64)
    bad = ~np.isin(y, (0, 1))
    if bad.any():
        raise AuditError(_say("label_values", path=path, values=sorted(set(y[bad].tolist()))[:5]))
    return y


# --------------------------------------------------------------------------
# Scoring


def _fit_predict(train_texts: Sequence[str], y_train: np.ndarray,
                 eval_texts: Sequence[str]) -> np.ndarray:
    model = bagofwords.fit([bagofwords.features(t) for t in train_texts], y_train)
    return model.predict([bagofwords.features(t) for t in eval_texts])


def _majority_accuracy(y_train: np.ndarray, y_eval: np.ndarray) -> float:
    """Accuracy of always predicting the training majority class (ties -> 0)."""
    majority = 1 if int(y_train.sum()) * 2 > len(y_train) else 0
    return float(np.mean(y_eval == majority))


def _fold_of(question: str, index: int) -> int:
    key = f"{question}\x1f{index}".encode("utf-8")
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big") % N_FOLDS


def _cv_folds(queries: Sequence[str]) -> list[tuple[np.ndarray, np.ndarray]]:
    """(training rows, evaluated rows) of each cross-validation fold that has both; a
    row's fold comes from its question text and position."""
    folds = np.fromiter((_fold_of(q, i) for i, q in enumerate(queries)),
                        dtype=np.int64, count=len(queries))
    return [(np.flatnonzero(folds != k), np.flatnonzero(folds == k)) for k in range(N_FOLDS)
            if (folds == k).any() and not (folds == k).all()]


def _eval_split(splits: dict[str, list[Path]]) -> str | None:
    """The held-out splits, every split but train pooled (e.g. "validation+test"),
    or None when there is no train/held-out pair and the config is scored by
    cross-validation. Pooling them doubles the rows a verdict rests on."""
    held_out = [name for name in splits if name != "train"]
    return "+".join(held_out) if "train" in splits and held_out else None


def _eval_files(splits: dict[str, list[Path]], eval_name: str) -> list[Path]:
    return [path for name in eval_name.split("+") for path in splits[name]]


# --------------------------------------------------------------------------
# Public probe API


def probe_config(config_dir: Path, field: str = QUESTION) -> ProbeResult:
    """Probe one true/false config folder; see the module docstring for the protocol."""
    config_dir = Path(config_dir)
    if field not in FIELDS:
        raise AuditError(_say("bad_field", fields=FIELDS, field=repr(field)))
    splits = layout.split_files(config_dir)
    if not splits:
        raise AuditError(_say("no_parquet", config=config_dir))
    eval_name = _eval_split(splits)
    if eval_name is not None:
        x_tr, _, y_tr = _read_split(splits["train"], field)
        x_ev, _, y_ev = _read_split(_eval_files(splits, eval_name), field)
        if len(y_tr) == 0 or len(y_ev) == 0:
            raise AuditError(_say("empty_split", config=config_dir, split=eval_name))
        pred = _fit_predict(x_tr, y_tr, x_ev)
        accuracy = float(np.mean(pred == y_ev))
        return ProbeResult(
            config=config_dir.name, field=field, train_split="train",
            eval_split=eval_name,
            n_train=len(y_tr), n_eval=len(y_ev), accuracy=accuracy,
            majority_baseline=_majority_accuracy(y_tr, y_ev),
            passed=_passes(accuracy, len(y_ev)), method=METHOD_HOLDOUT,
            p_value=chance_p_value(accuracy, len(y_ev)),
        )

    # One split (or no train/eval pair): pool everything, 5-fold CV.
    names = list(splits)
    texts: list[str] = []
    queries: list[str] = []
    ys: list[np.ndarray] = []
    for name in names:
        t, q, y = _read_split(splits[name], field)
        texts.extend(t)
        queries.extend(q)
        ys.append(y)
    y_all = np.concatenate(ys)
    if len(y_all) < 2:
        raise AuditError(_say("too_few_rows", config=config_dir))
    # every row is predicted once, by the model that did not see its fold: the
    # accuracy is correct rows over all rows (a binomial count, as the test assumes),
    # not a mean of fold accuracies, which small, unequal folds would make erratic
    correct = majority = scored = 0
    for train_idx, eval_idx in _cv_folds(queries):
        pred = _fit_predict([texts[i] for i in train_idx], y_all[train_idx],
                            [texts[i] for i in eval_idx])
        correct += int(np.sum(pred == y_all[eval_idx]))
        majority += round(_majority_accuracy(y_all[train_idx], y_all[eval_idx]) * len(eval_idx))
        scored += len(eval_idx)
    if not scored:
        raise AuditError(_say("too_few_for_folds", config=config_dir, folds=N_FOLDS))
    accuracy = correct / scored
    split_label = "+".join(names)
    return ProbeResult(
        config=config_dir.name, field=field, train_split=split_label,
        eval_split=split_label,
        n_train=len(y_all), n_eval=scored, accuracy=accuracy,
        majority_baseline=majority / scored,
        passed=_passes(accuracy, scored, two_sided=False), method=METHOD_CV,
        p_value=chance_p_value(accuracy, scored, two_sided=False),
    )


# --------------------------------------------------------------------------
# Options probe (multiple-choice configs)


class _Options(NamedTuple):
    """Multiple-choice rows: option texts, correct index and question text per row."""

    choices: list[list[str]]
    answers: np.ndarray
    queries: list[str]

    def take(self, idx: np.ndarray) -> "_Options":
        return _Options([self.choices[i] for i in idx], self.answers[idx],
                        [self.queries[i] for i in idx])


def _read_options(paths: Sequence[Path]) -> _Options:
    """Rows of all shards, in file order; the question column only assigns CV folds."""
    choices: list[list[str]] = []
    answers: list[np.ndarray] = []
    queries: list[str] = []
    for path in paths:
        table = _read(path, (QUESTION, OPTIONS_FIELD, ANSWER_COLUMN))
        counts, index = _option_counts(table)
        if ((index < 0) | (index >= counts)).any():
            raise AuditError(_say("answer_outside_options", path=path, answer=ANSWER_COLUMN,
                                  options=OPTIONS_FIELD))
        choices.extend(["" if s is None else str(s) for s in row]
                       for row in table.column(OPTIONS_FIELD).to_pylist())
        answers.append(index)
        queries.extend(_texts(table.column(QUESTION)))
    y = np.concatenate(answers) if answers else np.zeros(0, dtype=np.int64)
    return _Options(choices, y, queries)


def _n_choices(config_dir: Path, *parts: _Options) -> int:
    """The config's number of options per row (one number, at least two)."""
    sizes = {len(row) for part in parts for row in part.choices}
    if len(sizes) != 1 or min(sizes) < 2:
        raise AuditError(_say("options_differ", config=config_dir, options=OPTIONS_FIELD,
                              sizes=sorted(sizes)))
    return sizes.pop()


def _option_docs(rows: _Options) -> list[set[str]]:
    """One document per option, row by row (row-major, so scores reshape to rows x k)."""
    return [bagofwords.features(text) for options in rows.choices for text in options]


def _pick_options(train: _Options, held_out: _Options, n_choices: int) -> np.ndarray:
    """Index of the option the classifier trained on ``train`` scores highest in each
    held-out row (ties: the lowest index)."""
    y = (np.arange(n_choices)[None, :] == train.answers[:, None]).ravel().astype(np.int64)
    model = bagofwords.fit(_option_docs(train), y)
    scores = model.margins(_option_docs(held_out)).reshape(len(held_out.answers), n_choices)
    return np.argmax(scores, axis=1)


def _options_accuracy(train: _Options, held_out: _Options, n_choices: int) -> float:
    return float(np.mean(_pick_options(train, held_out, n_choices) == held_out.answers))


def _options_result(config_dir: Path, train_split: str, eval_split: str, n_train: int,
                    n_eval: int, accuracy: float, n_choices: int, method: str) -> ProbeResult:
    """Options-probe result, judged against chance (one over the number of options)."""
    chance, two_sided = 1.0 / n_choices, method == METHOD_HOLDOUT
    return ProbeResult(
        config=config_dir.name, field=OPTIONS_FIELD, train_split=train_split,
        eval_split=eval_split, n_train=n_train, n_eval=n_eval, accuracy=accuracy,
        majority_baseline=chance,
        passed=_passes(accuracy, n_eval, OPTIONS_THRESHOLD, chance, two_sided), method=method,
        p_value=chance_p_value(accuracy, n_eval, chance, two_sided), probe=PROBE_OPTIONS,
    )


def probe_options(config_dir: Path) -> ProbeResult:
    """Options-only probe of one multiple-choice config: can the correct option be
    picked from the option texts alone?  Same splits and folds as ``probe_config``."""
    config_dir = Path(config_dir)
    splits = layout.split_files(config_dir)
    if not splits:
        raise AuditError(_say("no_parquet", config=config_dir))
    eval_name = _eval_split(splits)
    if eval_name is not None:
        train = _read_options(splits["train"])
        held_out = _read_options(_eval_files(splits, eval_name))
        if len(train.answers) == 0 or len(held_out.answers) == 0:
            raise AuditError(_say("empty_split", config=config_dir, split=eval_name))
        k = _n_choices(config_dir, train, held_out)
        return _options_result(config_dir, "train", eval_name, len(train.answers),
                               len(held_out.answers), _options_accuracy(train, held_out, k),
                               k, METHOD_HOLDOUT)

    # One split (or no train/eval pair): pool everything, 5-fold CV by row.
    names = list(splits)
    parts = [_read_options(splits[name]) for name in names]
    rows = _Options([r for p in parts for r in p.choices],
                    np.concatenate([p.answers for p in parts]),
                    [q for p in parts for q in p.queries])
    if len(rows.answers) < 2:
        raise AuditError(_say("too_few_rows", config=config_dir))
    k = _n_choices(config_dir, rows)
    folds = _cv_folds(rows.queries)
    if not folds:
        raise AuditError(_say("too_few_for_folds", config=config_dir, folds=N_FOLDS))
    correct = sum(_options_accuracy(rows.take(train), rows.take(held), k) * len(held)
                  for train, held in folds)
    scored = sum(len(held) for _, held in folds)
    split_label = "+".join(names)
    return _options_result(config_dir, split_label, split_label, len(rows.answers),
                           scored, correct / scored, k, METHOD_CV)


def _probe(config_dir: Path, field: str) -> ProbeResult | None:
    """The probe a config's rows call for: label probe for true/false rows, options
    probe for multiple-choice rows, none for open-ended or trajectory rows."""
    if has_binary_labels(config_dir):
        return probe_config(config_dir, field=field)
    if has_mc_choices(config_dir):
        return probe_options(config_dir)
    return None


def audit_dataset(root: Path, field: str = QUESTION, progress: bool = False) -> list[ProbeResult]:
    """Probe every config (subdirectory with *.parquet) of ``root``, sorted by name.

    ``field`` is the text column of true/false configs; multiple-choice configs are
    always probed on their ``choices``. Raises AuditError if ``root`` is not a dataset
    folder or a config cannot be read."""
    root = Path(root)
    if not root.is_dir():
        raise AuditError(_say("not_a_directory", root=root))
    if not (root / "README.md").is_file():
        raise AuditError(_say("no_card", root=root))
    try:  # the verdicts go into this card: find out now, not after the probes
        (root / "README.md").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise AuditError(_say("unreadable_card", card=root / "README.md", reason=exc)) from None
    configs = layout.config_dirs(root)
    if not configs:
        raise AuditError(_say("no_configs", root=root))
    results = []
    for config_dir in progress_bar(configs, enabled=progress, desc="audit", unit="configs",
                                   leave=False):
        try:
            result = _probe(config_dir, field)
        except (pa.ArrowException, OSError) as exc:
            raise AuditError(_say("unreadable_parquet", config=config_dir,
                                  reason=" ".join(str(exc).split()))) from None
        if result is not None:
            results.append(result)
    return holm(results)


def holm(results: list[ProbeResult]) -> list[ProbeResult]:
    """Adjust the p-values of a whole audit for the number of configs probed (Holm's
    step-down method) and judge each config on its adjusted p-value: at a 1% level
    per config, an audit of hundreds of configs at chance would flag a few by luck;
    this keeps the chance of any false alarm in the audit at 1%."""
    p = np.array([r.p_value for r in results], dtype=np.float64)
    order = np.argsort(p, kind="stable")  # equal p-values keep the configs' order
    adjusted = np.empty_like(p)
    adjusted[order] = np.minimum(1.0, np.maximum.accumulate((len(p) - np.arange(len(p))) * p[order]))
    out = []
    for r, p_adj in zip(results, adjusted.tolist()):
        options = r.probe == PROBE_OPTIONS  # majority_baseline is chance there
        threshold, chance = ((OPTIONS_THRESHOLD, r.majority_baseline) if options
                             else (ACCURACY_THRESHOLD, 0.5))
        out.append(replace(r, p_adjusted=p_adj,
                           passed=_passes(r.accuracy, r.n_eval, threshold, chance,
                                          r.method == METHOD_HOLDOUT, p_adj)))
    return out


# --------------------------------------------------------------------------
# Dataset card


def render_audit_section(results: Iterable[ProbeResult]) -> str:
    """Markdown section (without markers) summarising probe results."""
    results = list(results)
    text = environment().get_template(_TEMPLATE_NAME).render(
        results=results,
        threshold=ACCURACY_THRESHOLD, significance=SIGNIFICANCE,
        max_features=bagofwords.MAX_FEATURES,
        l2_lambda=bagofwords.L2_LAMBDA,
        n_folds=N_FOLDS,
        method_holdout=METHOD_HOLDOUT,
        method_cv=METHOD_CV,
        options_threshold=OPTIONS_THRESHOLD,
        probe_options=PROBE_OPTIONS,
        all_passed=all(r.passed for r in results),
    )
    return text.strip("\n") + "\n"


def update_card(root: Path, results: Iterable[ProbeResult]) -> Path:
    """Replace (or append) the marked audit section of ``root/README.md``."""
    return write_section(root, render_audit_section(results))
