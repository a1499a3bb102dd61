"""The audit's classifier: does the surface form of a text give its answer away?

Deliberately simple, so that a failed probe means a wording leak and not a clever
model, and fully deterministic, so that an audit prints the same table on any machine:

* features: binary presence of lower-cased word unigrams and bigrams, the vocabulary
  capped at the ``MAX_FEATURES`` most frequent by document frequency in the training
  texts (ties broken alphabetically);
* model: L2-regularised logistic regression with an unpenalised bias, minimising
  mean log-loss + ``L2_LAMBDA``/2 * ||w||^2 from zero on a `scipy.sparse` design
  matrix with `scipy.optimize.minimize` (trust-region Newton-CG on exact gradients and
  Hessian-vector products, fixed tolerance and iteration budget). The objective is
  strictly convex, so the fit is its unique minimum and not an artefact of the solver.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from scipy import optimize, sparse
from scipy.special import expit

#: Vocabulary cap (features kept by training document frequency).
MAX_FEATURES = 2000
#: L2 strength on the weights (objective: mean log-loss + lam/2 * ||w||^2).
L2_LAMBDA = 1e-3
#: Fixed optimiser budget: stop when the gradient norm is below GTOL, when float64 can
#: no longer lower the objective, or after MAX_ITER trust-region steps (a handful
#: suffice on real configs: Newton steps converge quadratically).
GTOL = 1e-10
MAX_ITER = 100

_TOKEN_RE = re.compile(r"\w+(?:'\w+)*")


def features(text: str) -> set[str]:
    """The lower-cased word unigrams and bigrams present in ``text``."""
    tokens = _TOKEN_RE.findall(text.lower())
    feats = set(tokens)
    feats.update(f"{a} {b}" for a, b in zip(tokens, tokens[1:]))
    return feats


def build_vocab(docs: Sequence[set[str]], max_features: int = MAX_FEATURES) -> dict[str, int]:
    """feature -> column: the ``max_features`` most frequent by document frequency,
    ties broken alphabetically."""
    df: Counter[str] = Counter()
    for feats in docs:
        df.update(feats)
    items = list(df.items())
    if len(items) > max_features:
        # Only features at least as frequent as the max_features-th can make the cut;
        # sorting just those (not the long tail of ties) gives the same order.
        counts = np.fromiter(df.values(), dtype=np.int64, count=len(df))
        cutoff = int(np.partition(counts, len(counts) - max_features)[len(counts) - max_features])
        items = [kv for kv in items if kv[1] >= cutoff]
    ranked = sorted(items, key=lambda kv: (-kv[1], kv[0]))[:max_features]
    return {feat: j for j, (feat, _) in enumerate(ranked)}


def design(docs: Sequence[set[str]], vocab: dict[str, int]) -> sparse.csr_array:
    """Binary documents x vocabulary matrix. Each row's columns are sorted, so sums over
    a document's features do not depend on set order (PYTHONHASHSEED): equal documents
    get bit-identical scores."""
    indptr, indices = [0], []
    for feats in docs:
        indices.extend(sorted(vocab[f] for f in feats if f in vocab))
        indptr.append(len(indices))
    return sparse.csr_array((np.ones(len(indices)), np.asarray(indices, dtype=np.int64),
                             np.asarray(indptr, dtype=np.int64)), shape=(len(docs), len(vocab)))


@dataclass(frozen=True)
class Model:
    """A fitted classifier: P(y=1 | text) = sigmoid(margin + bias)."""

    vocab: dict[str, int]
    weights: np.ndarray
    bias: float

    def margins(self, docs: Sequence[set[str]]) -> np.ndarray:
        """X @ w of each document, without the bias (the same for every document)."""
        return design(docs, self.vocab) @ self.weights

    def predict(self, docs: Sequence[set[str]]) -> np.ndarray:
        """1 where the model says positive, else 0."""
        return (self.margins(docs) + self.bias > 0.0).astype(np.int64)


def fit(docs: Sequence[set[str]], y: np.ndarray, lam: float = L2_LAMBDA) -> Model:
    """The logistic regression of 0/1 labels ``y`` on the documents' features."""
    vocab = build_vocab(docs)
    w, b = _logistic(design(docs, vocab), np.asarray(y, dtype=np.float64), lam)
    return Model(vocab, w, b)


def _logistic(X: sparse.csr_array, y: np.ndarray, lam: float) -> tuple[np.ndarray, float]:
    """argmin over (w, b) of mean(log(1 + e^z) - y z) + lam/2 ||w||^2, z = X w + b."""
    n, d = X.shape
    XT = X.T.tocsr()
    curvature: dict[str, np.ndarray] = {}

    def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
        w, b = theta[:d], theta[d]
        z = X @ w + b
        r = expit(z) - y
        f = float(np.mean(np.logaddexp(0.0, z) - y * z) + 0.5 * lam * np.dot(w, w))
        return f, np.append(XT @ r / n + lam * w, r.mean())

    def hessp(theta: np.ndarray, v: np.ndarray) -> np.ndarray:
        # trust-ncg asks for several products at one point: weigh rows by p(1-p) once.
        if "at" not in curvature or not np.array_equal(curvature["at"], theta):
            p = expit(X @ theta[:d] + theta[d])
            curvature.update(at=theta.copy(), s=p * (1.0 - p))
        t = curvature["s"] * (X @ v[:d] + v[d])
        return np.append(XT @ t / n + lam * v[:d], t.sum() / n)

    result = optimize.minimize(objective, np.zeros(d + 1), jac=True, hessp=hessp,
                               method="trust-ncg",
                               options={"gtol": GTOL, "maxiter": MAX_ITER})
    return result.x[:d], float(result.x[d])
