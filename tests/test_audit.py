"""Tests for ``racbench audit``: the query-only bag-of-words probe.

All datasets are real Parquet folders written with pyarrow into tmp_path.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from racbench.checks import audit, bagofwords
from racbench.cli import main
from racbench.checks.audit import (
    ACCURACY_THRESHOLD,
    AuditError,
    ProbeResult,
    audit_dataset,
    probe_config,
    render_audit_section,
    update_card,
)
from racbench.export.card_section import CARD_END, CARD_START, CardError

REPO_ROOT = Path(__file__).resolve().parents[1]
WORDS = [f"tok{i}" for i in range(400)] + [
    "block", "table", "on", "the", "is", "clear", "after", "move", "stack", "onto",
]
CARD = """---
license: mit
configs:
- config_name: blocks
---

# Dataset card

Some text written by the generator.
"""


# --------------------------------------------------------------------------
# helpers


def _rows(rng: np.random.Generator, n: int, leak: float = 0.0,
          marker: str = "not", balanced: bool = True) -> tuple[list[str], np.ndarray]:
    """Random queries; with ``leak`` > 0 negatives contain ``marker`` far more often."""
    y = (np.arange(n) % 2) if balanced else rng.integers(0, 2, n)
    y = rng.permutation(y).astype(np.int64)
    lengths = rng.integers(8, 20, n)
    picks = rng.integers(0, len(WORDS), int(lengths.sum()))
    texts, pos = [], 0
    for label, length in zip(y, lengths):
        words = [WORDS[k] for k in picks[pos:pos + length]]
        pos += length
        p_marker = (0.5 + leak / 2) if label == 0 else (0.5 - leak / 2)
        if leak and rng.random() < p_marker:
            words.insert(int(rng.integers(0, len(words))), marker)
        texts.append(" ".join(words))
    return texts, y


def _write_split(config_dir: Path, split: str, texts, y, contexts=None, shards: int = 1) -> None:
    config_dir.mkdir(parents=True, exist_ok=True)
    contexts = list(texts) if contexts is None else list(contexts)
    bounds = np.linspace(0, len(texts), shards + 1).astype(int)
    for k in range(shards):
        lo, hi = bounds[k], bounds[k + 1]
        table = pa.table({
            "question": pa.array(list(texts[lo:hi]), pa.string()),
            "context": pa.array(contexts[lo:hi], pa.string()),
            "label": pa.array(np.asarray(y[lo:hi]), pa.int64()),
        })
        pq.write_table(table, config_dir / f"{split}-{k:05d}-of-{shards:05d}.parquet")


def _make_dataset(root: Path, configs: dict[str, dict[str, tuple]], card: str | None = CARD) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    if card is not None:
        (root / "README.md").write_text(card, encoding="utf-8")
    for name, splits in configs.items():
        for split, (texts, y) in splits.items():
            _write_split(root / name, split, texts, y)
    return root


def _clean_dataset(root: Path, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    return _make_dataset(root, {
        "blocks": {"train": _rows(rng, 600), "test": _rows(rng, 300)},
    })


def _leaky_dataset(root: Path, seed: int = 0) -> Path:
    rng = np.random.default_rng(seed)
    return _make_dataset(root, {
        "blocks": {"train": _rows(rng, 600), "test": _rows(rng, 300)},
        "leaky": {"train": _rows(rng, 600, leak=0.7), "test": _rows(rng, 300, leak=0.7)},
    })


# --------------------------------------------------------------------------
# the probe


def test_leak_detector_fires(tmp_path):
    rng = np.random.default_rng(1)
    cfg = tmp_path / "ds" / "leaky"
    _write_split(cfg, "train", *_rows(rng, 800, leak=0.7))
    _write_split(cfg, "test", *_rows(rng, 400, leak=0.7))
    r = probe_config(cfg)
    assert (r.config, r.field, r.train_split, r.eval_split, r.method) == (
        "leaky", "question", "train", "test", "holdout")
    assert (r.n_train, r.n_eval) == (800, 400)
    # negatives say "not" 85% of the time, positives 15%: Bayes accuracy 85%
    assert r.accuracy > 0.75
    assert not r.passed
    assert abs(r.majority_baseline - 0.5) < 0.01


def test_weak_bigram_leak_is_detected(tmp_path):
    """Only the bigram 'is clear' (not its unigrams) separates the classes."""
    rng = np.random.default_rng(2)
    cfg = tmp_path / "ds" / "bigram"

    def rows(n):
        texts, y = _rows(rng, n)
        out = []
        for t, label in zip(texts, y):
            # both classes mention "clear" and "is"; only positives say "is clear"
            out.append(t + (" block is clear" if label else " clear block is"))
        return out, y

    _write_split(cfg, "train", *rows(600))
    _write_split(cfg, "test", *rows(300))
    r = probe_config(cfg)
    assert r.accuracy > 0.95 and not r.passed


def test_random_labels_stay_at_chance(tmp_path):
    rng = np.random.default_rng(3)
    cfg = tmp_path / "ds" / "random"
    _write_split(cfg, "train", *_rows(rng, 3000, balanced=False))
    _write_split(cfg, "test", *_rows(rng, 1500, balanced=False))
    r = probe_config(cfg)
    assert r.passed
    assert abs(r.accuracy - 0.5) < 0.04
    assert r.accuracy <= ACCURACY_THRESHOLD


def test_probe_is_deterministic(tmp_path):
    root = _leaky_dataset(tmp_path / "ds")
    first = audit_dataset(root)
    second = audit_dataset(root)
    assert first == second
    assert isinstance(first[0], ProbeResult)
    with pytest.raises(Exception):
        first[0].accuracy = 0.0  # frozen


def test_single_split_uses_cross_validation(tmp_path):
    rng = np.random.default_rng(4)
    leaky = tmp_path / "ds" / "only_test_leaky"
    clean = tmp_path / "ds" / "only_test_clean"
    _write_split(leaky, "test", *_rows(rng, 800, leak=0.7))
    _write_split(clean, "test", *_rows(rng, 800))
    r = probe_config(leaky)
    assert r.method == audit.METHOD_CV == "5-fold-cv"
    assert (r.train_split, r.eval_split, r.n_train, r.n_eval) == ("test", "test", 800, 800)
    assert r.accuracy > 0.75 and not r.passed
    c = probe_config(clean)
    assert c.passed and abs(c.accuracy - 0.5) < 0.06
    assert probe_config(leaky) == r


def test_cv_folds_are_hash_based_and_cover_all_folds():
    import hashlib

    folds = [audit._fold_of(f"query {i}", i) for i in range(500)]
    assert set(folds) == set(range(audit.N_FOLDS))
    key = "query 7\x1f7".encode("utf-8")
    expected = int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big") % 5
    assert folds[7] == expected
    # identical query text at different rows may land in different folds
    assert len({audit._fold_of("same", i) for i in range(50)}) == audit.N_FOLDS


def test_shards_and_validation_fallback(tmp_path):
    rng = np.random.default_rng(5)
    cfg = tmp_path / "ds" / "sharded"
    texts, y = _rows(rng, 500)
    _write_split(cfg, "train", texts, y, shards=3)
    _write_split(cfg, "validation", *_rows(rng, 120), shards=2)
    r = probe_config(cfg)
    assert (r.train_split, r.eval_split, r.n_train, r.n_eval) == ("train", "validation", 500, 120)
    # validation and test are pooled when both exist: more rows for the verdict
    _write_split(cfg, "test", *_rows(rng, 90))
    r = probe_config(cfg)
    assert (r.eval_split, r.n_eval) == ("validation+test", 210)


def test_context_field(tmp_path):
    rng = np.random.default_rng(6)
    cfg = tmp_path / "ds" / "ctx"
    for split, n in (("train", 600), ("test", 300)):
        queries, y = _rows(rng, n)
        contexts = [f"{q} {'yes' if label else 'no'}" for q, label in zip(queries, y)]
        _write_split(cfg, split, queries, y, contexts=contexts)
    assert probe_config(cfg).passed
    r = probe_config(cfg, field="context")
    assert r.field == "context" and r.accuracy == 1.0 and not r.passed
    with pytest.raises(AuditError):
        probe_config(cfg, field="label")


def test_bad_inputs_raise(tmp_path):
    cfg = tmp_path / "ds" / "bad"
    cfg.mkdir(parents=True)
    pq.write_table(pa.table({"question": ["a", "b"], "label": pa.array([0, 2], pa.int64())}),
                   cfg / "test-00000-of-00001.parquet")
    with pytest.raises(AuditError, match="label values"):
        probe_config(cfg)
    pq.write_table(pa.table({"text": ["a", "b"], "label": pa.array([0, 1], pa.int64())}),
                   cfg / "test-00000-of-00001.parquet")
    with pytest.raises(AuditError, match="question"):
        probe_config(cfg)


def test_features_and_vocabulary():
    assert bagofwords.features("Block A is NOT clear.") == {
        "block", "a", "is", "not", "clear",
        "block a", "a is", "is not", "not clear",
    }
    docs = [{"b", "a", "c"}, {"b", "a"}, {"c", "d"}, {"e"}]
    # df: a=2, b=2, c=2, d=1, e=1 -> ties broken alphabetically
    assert bagofwords.build_vocab(docs, max_features=4) == {"a": 0, "b": 1, "c": 2, "d": 3}
    assert bagofwords.build_vocab(docs, max_features=2) == {"a": 0, "b": 1}
    assert list(bagofwords.build_vocab(docs)) == ["a", "b", "c", "d", "e"]


def _docs(rng: np.random.Generator, n: int, marker=None) -> tuple[list[set[str]], np.ndarray]:
    """Random documents; with ``marker`` positives say "yes" and negatives "no"."""
    texts, y = _rows(rng, n)
    if marker:
        texts = [f"{t} {'yes' if label else 'no'}" for t, label in zip(texts, y)]
    return [bagofwords.features(t) for t in texts], y


def test_fit_separates_a_separable_set():
    rng = np.random.default_rng(20)
    docs, y = _docs(rng, 400, marker=True)
    model = bagofwords.fit(docs, y)
    assert (model.predict(docs) == y).all()
    new_docs, new_y = _docs(rng, 200, marker=True)
    assert (model.predict(new_docs) == new_y).all()
    assert model.weights[model.vocab["yes"]] > 0 > model.weights[model.vocab["no"]]


def test_fit_is_the_minimum_of_the_documented_objective():
    """Zero gradient of mean log-loss + lam/2 ||w||^2 (bias unpenalised), computed
    densely here: the objective is strictly convex, so that is its one minimum."""
    from scipy.special import expit

    rng = np.random.default_rng(21)
    docs, y = _docs(rng, 300)
    y[:60] = 1  # unbalanced: the unpenalised bias must match the base rate
    model = bagofwords.fit(docs, y)
    X = bagofwords.design(docs, model.vocab).toarray()
    r = expit(X @ model.weights + model.bias) - y
    assert np.abs(X.T @ r / len(y) + bagofwords.L2_LAMBDA * model.weights).max() < 1e-9
    assert abs(r.mean()) < 1e-9
    stronger = bagofwords.fit(docs, y, lam=1.0)
    assert np.linalg.norm(stronger.weights) < np.linalg.norm(model.weights) / 10


def test_fit_does_not_depend_on_the_hash_seed(tmp_path):
    """Feature sets iterate in PYTHONHASHSEED order; the fitted weights must not."""
    rng = np.random.default_rng(22)
    _write_split(tmp_path / "cfg", "train", *_rows(rng, 300, leak=0.5))
    script = ("import sys, hashlib, pyarrow.parquet as pq; from racbench.checks import bagofwords as b;"
              "t = pq.read_table(sys.argv[1]);"
              "m = b.fit([b.features(q) for q in t['question'].to_pylist()], t['label'].to_numpy());"
              "print(hashlib.sha256(m.weights.tobytes()).hexdigest(), m.bias.hex())")
    outs = set()
    for seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        proc = subprocess.run([sys.executable, "-c", script,
                               str(tmp_path / "cfg" / "train-00000-of-00001.parquet")],
                              env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        outs.add(proc.stdout)
    assert len(outs) == 1


def test_audit_dataset_finds_configs_sorted(tmp_path):
    rng = np.random.default_rng(7)
    root = _make_dataset(tmp_path / "ds", {
        "zeta": {"train": _rows(rng, 100), "test": _rows(rng, 50)},
        "alpha": {"test": _rows(rng, 100)},
    })
    (root / "notes").mkdir()
    (root / "notes" / "x.txt").write_text("x")
    hidden = root / ".cache"
    _write_split(hidden, "train", *_rows(rng, 20))
    results = audit_dataset(root)
    assert [r.config for r in results] == ["alpha", "zeta"]
    assert [r.method for r in results] == ["5-fold-cv", "holdout"]


# --------------------------------------------------------------------------
# dataset card


def _results(tmp_path: Path) -> list[ProbeResult]:
    return audit_dataset(_leaky_dataset(tmp_path / "ds"))


def test_render_section(tmp_path):
    results = _results(tmp_path)
    text = render_audit_section(results)
    assert CARD_START not in text and CARD_END not in text
    assert text.endswith("\n") and not text.endswith("\n\n")
    table = [line for line in text.splitlines() if line.startswith("|")]
    assert len(table) == 2 + len(results)
    assert "| blocks |" in table[2] and "| leaky |" in table[3]
    assert "pass" in table[2] and "FAIL" in table[3]
    assert render_audit_section([])  # renders even with nothing to report


def test_render_escapes_pipes():
    r = ProbeResult("a|b", "question", "train", "test", 10, 5, 0.5, 0.5, True, "holdout")
    row = [line for line in render_audit_section([r]).splitlines() if line.startswith("| a")][0]
    assert "a\\|b" in row


def test_update_card_appends_then_replaces_idempotently(tmp_path):
    root = _leaky_dataset(tmp_path / "ds")
    results = audit_dataset(root)
    readme = root / "README.md"
    update_card(root, results)
    once = readme.read_text(encoding="utf-8")
    update_card(root, results)
    twice = readme.read_text(encoding="utf-8")
    assert once == twice
    assert twice.count(CARD_START) == 1 and twice.count(CARD_END) == 1
    assert twice.startswith(CARD)  # everything before the section is untouched
    assert twice.endswith(CARD_END + "\n")
    assert render_audit_section(results) in twice
    assert [p.name for p in root.iterdir() if p.name.startswith(".README")] == []


def test_update_card_replaces_between_markers_only(tmp_path):
    root = _clean_dataset(tmp_path / "ds")
    readme = root / "README.md"
    before = CARD + f"\n{CARD_START}\nstale table\n{CARD_END}\n\n## Citation\n\nkeep me\n"
    readme.write_text(before, encoding="utf-8")
    os.chmod(readme, 0o644)
    results = audit_dataset(root)
    update_card(root, results)
    after = readme.read_text(encoding="utf-8")
    assert "stale table" not in after
    assert after.startswith(CARD + f"\n{CARD_START}\n")
    assert after.endswith(f"{CARD_END}\n\n## Citation\n\nkeep me\n")
    assert after.count(CARD_START) == 1
    assert oct(readme.stat().st_mode & 0o777) == oct(0o644)
    update_card(root, results)
    assert readme.read_text(encoding="utf-8") == after


def test_update_card_rejects_malformed_markers(tmp_path):
    root = _clean_dataset(tmp_path / "ds")
    readme = root / "README.md"
    readme.write_text(CARD + CARD_START + "\n", encoding="utf-8")
    with pytest.raises(CardError, match="malformed audit markers"):
        update_card(root, audit_dataset(root))
    assert readme.read_text(encoding="utf-8") == CARD + CARD_START + "\n"


# --------------------------------------------------------------------------
# CLI


def test_cli_passes_and_writes_card(tmp_path):
    root = _clean_dataset(tmp_path / "ds")
    result = CliRunner().invoke(main, ["audit", str(root)])
    assert result.exit_code == 0, result.output
    assert "| blocks |" in result.stdout
    assert (root / "README.md").read_text(encoding="utf-8").count(CARD_START) == 1


def test_cli_fails_on_leak(tmp_path):
    root = _leaky_dataset(tmp_path / "ds")
    result = CliRunner().invoke(main, ["audit", str(root)])
    assert result.exit_code == 1, result.output
    assert "| leaky |" in result.stdout
    card = (root / "README.md").read_text(encoding="utf-8")
    assert card.count(CARD_START) == 1 and "FAIL" in card


def test_cli_no_card_and_field(tmp_path):
    root = _clean_dataset(tmp_path / "ds")
    result = CliRunner().invoke(main, ["audit", str(root), "--no-card", "--field", "context"])
    assert result.exit_code == 0, result.output
    assert "`context`" in result.stdout
    assert (root / "README.md").read_text(encoding="utf-8") == CARD
    bad = CliRunner().invoke(main, ["audit", str(root), "--field", "label"])
    assert bad.exit_code == 2


@pytest.mark.parametrize("case", ["no_readme", "no_parquet", "missing_dir", "bad_column"])
def test_cli_not_a_dataset_exits_2(tmp_path, case):
    root = tmp_path / "ds"
    if case == "no_readme":
        _clean_dataset(root)
        (root / "README.md").unlink()
    elif case == "no_parquet":
        root.mkdir()
        (root / "README.md").write_text(CARD, encoding="utf-8")
        (root / "blocks").mkdir()
    elif case == "bad_column":
        _make_dataset(root, {})
        (root / "blocks").mkdir()
        pq.write_table(pa.table({"text": ["a"], "label": pa.array([0], pa.int64())}),
                       root / "blocks" / "test-00000-of-00001.parquet")
    result = CliRunner().invoke(main, ["audit", str(root)])
    assert result.exit_code == 2, result.output
    message = result.stderr.strip()
    assert message and "\n" not in message
    assert str(root) in message
    assert result.stdout == ""


def test_cli_real_subprocess(tmp_path):
    root = _leaky_dataset(tmp_path / "ds")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    cmd = [sys.executable, "-c", "from racbench.cli import main; main()", "audit"]
    proc = subprocess.run(cmd + [str(root)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert "| leaky |" in proc.stdout and "FAIL" in proc.stdout
    card = (root / "README.md").read_text(encoding="utf-8")
    assert card.count(CARD_START) == 1 and card.count(CARD_END) == 1

    proc = subprocess.run(cmd + [str(tmp_path / "nowhere")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.strip() and "\n" not in proc.stderr.strip()


def _mc_rows(rng: np.random.Generator, n: int, leak: str | None = None,
             k: int = 4) -> tuple[list[str], list[list[str]], np.ndarray]:
    """Questions, k options drawn from one word distribution, and a random correct index;
    with ``leak`` the correct option (and only it) contains that word."""
    answers = rng.integers(0, k, n).astype(np.int32)
    questions, choices = [], []
    for i, answer in enumerate(answers):
        options = [" ".join(WORDS[j] for j in rng.integers(0, len(WORDS), 6)) for _ in range(k)]
        if leak is not None:
            options[answer] += f" {leak}"
        questions.append(f"which option holds {i}")
        choices.append(options)
    return questions, choices, answers


def _write_mc(config_dir: Path, split: str, questions, choices, answers) -> None:
    """ACP-like rows: `question`, `choices`, `answer_index` (-1 for open rows), label -1."""
    config_dir.mkdir(parents=True, exist_ok=True)
    table = pa.table({
        "question": pa.array(list(questions), pa.string()),
        "choices": pa.array(list(choices), pa.list_(pa.string())),
        "answer_index": pa.array(np.asarray(answers), pa.int32()),
        "label": pa.array(np.full(len(questions), -1), pa.int64()),
    })
    pq.write_table(table, config_dir / f"{split}-00000-of-00001.parquet")


def test_task_family_rows_use_question_and_open_configs_are_skipped(tmp_path):
    """ACP rows name their text `question`; mc rows (label -1, answer_index >= 0) get the
    options probe on `choices`; open rows (label -1, answer_index -1) cannot be probed."""
    rng = np.random.default_rng(3)
    folder = tmp_path / "fam_bool"
    folder.mkdir()
    texts, y = _rows(rng, 400, leak=1.0)
    pq.write_table(pa.table({"question": texts, "label": pa.array(y, pa.int64())}),
                   folder / "test-00000-of-00001.parquet")
    _write_mc(tmp_path / "fam_mc", "test", *_mc_rows(rng, 200))
    questions, _, _ = _mc_rows(rng, 200)
    _write_mc(tmp_path / "fam_open", "test", questions, [[] for _ in questions],
              np.full(len(questions), -1))
    (tmp_path / "README.md").write_text(CARD)
    results = audit.audit_dataset(tmp_path)
    assert [r.config for r in results] == ["fam_bool", "fam_mc"]
    assert results[0].accuracy > 0.8  # the planted leak is found in `question`
    assert results[0].field == "question"  # and the card names that column
    assert (results[0].probe, results[1].probe) == ("label", "options")
    assert results[1].field == "choices" and results[1].method == "5-fold-cv"
    assert results[1].passed


def test_options_probe_finds_planted_leak(tmp_path):
    rng = np.random.default_rng(11)
    cfg = tmp_path / "ds" / "fam_mc"
    _write_mc(cfg, "train", *_mc_rows(rng, 300, leak="reachable"))
    _write_mc(cfg, "test", *_mc_rows(rng, 100, leak="reachable"))
    assert audit.has_mc_choices(cfg) and not audit.has_binary_labels(cfg)
    r = audit.probe_options(cfg)
    assert (r.config, r.field, r.train_split, r.eval_split, r.method, r.probe) == (
        "fam_mc", "choices", "train", "test", "holdout", "options")
    assert (r.n_train, r.n_eval, r.majority_baseline) == (300, 100, 0.25)
    assert r.accuracy > 0.8 and not r.passed and r.p_value < 1e-6


def test_options_probe_without_leak_stays_at_chance(tmp_path):
    rng = np.random.default_rng(12)
    cfg = tmp_path / "ds" / "fam_mc"
    _write_mc(cfg, "train", *_mc_rows(rng, 300))
    _write_mc(cfg, "validation", *_mc_rows(rng, 300))
    r = audit.probe_options(cfg)
    assert r.eval_split == "validation" and r.passed
    assert abs(r.accuracy - 0.25) < 0.08
    assert audit.probe_options(cfg) == r  # deterministic


def test_options_probe_single_split_uses_row_folds(tmp_path):
    rng = np.random.default_rng(13)
    leaky, clean = tmp_path / "ds" / "leaky_mc", tmp_path / "ds" / "clean_mc"
    _write_mc(leaky, "test", *_mc_rows(rng, 300, leak="reachable"))
    _write_mc(clean, "test", *_mc_rows(rng, 300))
    r = audit.probe_options(leaky)
    assert (r.method, r.train_split, r.n_train, r.n_eval) == ("5-fold-cv", "test", 300, 300)
    assert r.accuracy > 0.8 and not r.passed
    c = audit.probe_options(clean)
    assert c.passed and abs(c.accuracy - 0.25) < 0.08


def test_options_probe_ties_pick_the_lowest_index(tmp_path):
    """Identical options score identically, so the probe always answers 0."""
    rng = np.random.default_rng(14)
    cfg = tmp_path / "ds" / "same_mc"
    for split, n in (("train", 80), ("test", 40)):
        questions, choices, answers = _mc_rows(rng, n)
        _write_mc(cfg, split, questions, [[row[0]] * 4 for row in choices], answers)
    r = audit.probe_options(cfg)
    test = pq.read_table(cfg / "test-00000-of-00001.parquet")
    assert r.accuracy == float(np.mean(test.column("answer_index").to_numpy() == 0))


def test_mc_detection_reads_values_not_names(tmp_path):
    rng = np.random.default_rng(15)
    questions, choices, answers = _mc_rows(rng, 20)
    _write_mc(tmp_path / "looks_bool", "test", questions, choices, answers)
    assert audit.has_mc_choices(tmp_path / "looks_bool")
    _write_mc(tmp_path / "open_mc", "test", questions, [[] for _ in questions],
              np.full(20, -1))
    assert not audit.has_mc_choices(tmp_path / "open_mc")
    _write_mc(tmp_path / "ragged", "test", questions, [c[:3 + i % 2] for i, c in enumerate(choices)],
              answers % 3)
    assert not audit.has_mc_choices(tmp_path / "ragged")
    assert not audit.has_mc_choices(tmp_path / "no_rows")  # no parquet: nothing to probe


def test_chance_p_value_is_the_exact_binomial_test():
    """Two-sided: every count no more likely than the one seen (scipy's relative
    tolerance for ties); one-sided: the upper tail; from exact binomial probabilities."""
    import math
    from fractions import Fraction

    for n in (1, 10, 57, 200):
        for acc in (0.0, 0.3, 0.5, 0.56, 0.7, 1.0):
            k = round(acc * n)
            for chance in (Fraction(1, 2), Fraction(1, 4), Fraction(1, 3)):
                pmf = [math.comb(n, i) * chance ** i * (1 - chance) ** (n - i)
                       for i in range(n + 1)]
                exact = sum(q for q in pmf if q <= pmf[k] * Fraction(10_000_001, 10_000_000))
                p = audit.chance_p_value(acc, n, float(chance))
                assert p == pytest.approx(min(1.0, float(exact)), rel=1e-9, abs=0.0)
                upper = audit.chance_p_value(acc, n, float(chance), two_sided=False)
                assert upper == pytest.approx(float(sum(pmf[k:])), rel=1e-12, abs=0.0)
    assert audit.chance_p_value(0.5, 0) == 1.0
    assert 0.0 < audit.chance_p_value(0.30, 10_000, 0.25) < 1e-20  # large n: no underflow
    assert audit._passes(0.35, 100, audit.OPTIONS_THRESHOLD, 0.25)
    assert not audit._passes(0.5, 100, audit.OPTIONS_THRESHOLD, 0.25)
    assert audit._passes(0.15, 100, audit.OPTIONS_THRESHOLD, 0.25)  # the band's foot
    assert not audit._passes(0.0, 100, audit.OPTIONS_THRESHOLD, 0.25)  # far below chance
    assert not audit._passes(0.30, 1000, audit.ACCURACY_THRESHOLD)  # bool: 30% is 70% flipped
    # cross-validation: below chance is the folds' artefact, judged on the upper side only
    assert audit._passes(0.30, 1000, audit.ACCURACY_THRESHOLD, two_sided=False)


def test_options_that_train_never_answers_fail_below_chance(tmp_path):
    """A split held out by its answer: every held-out row's right option is one no train
    row answers, so the probe, trained to like train's answers, reads about 0%. The
    options still give the answer away (pick the option train never answers), and the
    audit must say so, not pass it for being under the threshold."""
    rng = np.random.default_rng(7)
    names = [f"entity{i}" for i in range(12)]
    seen, held = names[:6], names[6:]

    def rows(n, answers_from):
        questions, choices, answers = [], [], []
        for i in range(n):
            right = answers_from[rng.integers(len(answers_from))]
            others = [x for x in seen if x != right]
            options = [right] + list(rng.choice(others, size=3, replace=False))
            order = rng.permutation(4)
            choices.append([f"the {options[j]} carries it" for j in order])
            answers.append(int(np.where(order == 0)[0][0]))
            questions.append(f"which one carries the message in episode {i}?")
        return questions, choices, np.array(answers)

    _write_mc(tmp_path / "held_out_by_answer", "train", *rows(300, seen))
    _write_mc(tmp_path / "held_out_by_answer", "test", *rows(150, held))
    result = audit.probe_options(tmp_path / "held_out_by_answer")
    assert result.accuracy < 0.05 and not result.passed and result.p_value < 1e-9
    assert not audit.holm([result])[0].passed


def test_holm_on_known_numbers():
    """Textbook step-down: sorted p times (m, m-1, ...), made monotone, capped at 1."""
    def result(p, accuracy=0.9):
        return ProbeResult("c", "question", "train", "test", 10, 5, accuracy, 0.5, False,
                           "holdout", p)

    # sorted: 0.0005*5, 0.001*4, 0.003*3, 0.006*2, 0.05*1
    judged = audit.holm([result(p) for p in (0.001, 0.006, 0.003, 0.0005, 0.05)])
    assert [r.p_adjusted for r in judged] == pytest.approx([0.004, 0.012, 0.009, 0.0025, 0.05])
    assert [r.passed for r in judged] == [False, True, False, False, True]
    assert audit.holm([result(0.3), result(0.3)])[1].p_adjusted == pytest.approx(0.6)
    assert audit.holm([result(0.5), result(0.6), result(0.7)])[0].p_adjusted == 1.0
    assert audit.holm([result(1e-9, accuracy=0.5)])[0].passed  # at the threshold: pass
    assert audit.holm([]) == []


def test_card_lists_mc_config_on_choices(tmp_path):
    rng = np.random.default_rng(16)
    root = _make_dataset(tmp_path / "ds", {"blocks": {"train": _rows(rng, 200), "test": _rows(rng, 100)}})
    _write_mc(root / "fam_mc", "train", *_mc_rows(rng, 200, leak="reachable"))
    _write_mc(root / "fam_mc", "test", *_mc_rows(rng, 100, leak="reachable"))
    result = CliRunner().invoke(main, ["audit", str(root)])
    assert result.exit_code == 1, result.output  # only the mc config fails
    card = (root / "README.md").read_text(encoding="utf-8")
    row = [line for line in card.splitlines() if line.startswith("| fam_mc |")]
    assert len(row) == 1
    cells = [c.strip() for c in row[0].strip("|").split("|")]
    assert cells[1] == "`choices`" and cells[7] == "25.0%"
    assert cells[9] == "held-out split (options)" and cells[10] == "**FAIL**"
    assert "| blocks |" in card and "(options) | pass" not in card


def test_holm_judges_an_audit_of_many_configs_as_a_whole():
    """One config 37% right of 100 options rows (p = 0.008) fails alone, but among 200
    configs at chance that is luck; a real leak (50%) still fails among them."""
    from racbench.checks.audit import PROBE_OPTIONS, ProbeResult, chance_p_value, holm

    def result(name, accuracy):
        p = chance_p_value(accuracy, 100, 0.25)
        return ProbeResult(name, "choices", "train", "test", 400, 100, accuracy, 0.25,
                           p >= 0.01 or accuracy <= 0.35, "holdout", p, probe=PROBE_OPTIONS)

    lucky, leak = result("lucky", 0.37), result("leak", 0.50)
    assert not holm([lucky])[0].passed and not holm([leak])[0].passed
    crowd = [result(f"c{i:03d}", 0.25) for i in range(200)]
    judged = {r.config: r for r in holm(crowd + [lucky, leak])}
    assert judged["lucky"].passed and not judged["leak"].passed
    assert judged["leak"].p_adjusted == pytest.approx(min(1.0, 202 * leak.p_value))
    assert all(judged[f"c{i:03d}"].passed for i in range(200))
