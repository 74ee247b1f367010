"""The heads: a text classifier over rendered prefixes, and the gradient-boosted hybrid.

``TextHead`` is the default head (the paper's ModernBERT stand-in, Section 3.3 and Appendix C):
hashed word 1-2-grams and character 3-5-grams (within word boundaries), sublinear tf-idf, L2
normalisation, and an L2-regularised logistic regression (scikit-learn). Hashing keeps the head
free of a stored vocabulary; only the columns seen in training carry an idf and a weight, so the
head saves as plain numbers and scores without scikit-learn objects.

``BoostedHybrid`` is the gradient-boosted hybrid of the head's score and the Appendix I features
(``HistGradientBoostingClassifier``, which treats NaN as missing); its trees are saved as
arrays and walked in numpy.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import numpy as np

if TYPE_CHECKING:
    import scipy.sparse as sp
    from sklearn.feature_extraction.text import HashingVectorizer

__all__ = [
    "DEFAULT_C",
    "BoostedHybrid",
    "TextHead",
    "fit_hybrid",
    "fit_text_head",
    "fit_text_head_counts",
    "text_counts",
]

N_FEATURES = 2**18
# The head's inverse regularisation strength when none is selected (see select_head_c).
DEFAULT_C = 4.0


# scikit-learn and scipy.sparse are imported when a head is first used, not with the package:
# importing them took most of `assay ask`'s cold start, and a question answered without a
# monitor never needs them.
@functools.cache
def _vectorizers() -> tuple[HashingVectorizer, HashingVectorizer]:
    """The word (1-2 grams) and character (3-5 grams within words) hashing vectorizers."""
    from sklearn.feature_extraction.text import HashingVectorizer

    word = HashingVectorizer(
        analyzer="word",
        ngram_range=(1, 2),
        n_features=N_FEATURES,
        alternate_sign=False,
        norm=None,
        token_pattern=r"(?u)\b\w+\b",
    )
    char = HashingVectorizer(
        analyzer="char_wb",
        ngram_range=(3, 5),
        n_features=N_FEATURES,
        alternate_sign=False,
        norm=None,
    )
    return word, char


# Character n-grams never cross a word (char_wb), so a text's counts are the sum of its words'
# counts: each distinct word is hashed once and kept (bounded; cleared when full).
_WORD_NGRAMS: dict[str, tuple[np.ndarray, np.ndarray]] = {}
_WORD_NGRAMS_LIMIT = 200_000


def _char_counts(texts: Sequence[str]) -> sp.csr_matrix:
    """Exactly the character vectorizer's ``transform(texts)``, summed from cached per-word
    counts."""
    indptr, indices, data = [0], [], []
    for text in texts:
        words = Counter(text.lower().split())
        new = [w for w in words if w not in _WORD_NGRAMS]
        if new:
            if len(_WORD_NGRAMS) + len(new) > _WORD_NGRAMS_LIMIT:
                _WORD_NGRAMS.clear()
            rows = _vectorizers()[1].transform(new)
            for i, w in enumerate(new):
                lo, hi = rows.indptr[i], rows.indptr[i + 1]
                _WORD_NGRAMS[w] = (rows.indices[lo:hi].copy(), rows.data[lo:hi].copy())
        parts = [_WORD_NGRAMS[w] for w in words]
        if parts:
            cols = np.concatenate([c for c, _ in parts])
            vals = np.concatenate([v * words[w] for w, (_, v) in zip(words, parts, strict=True)])
            unique, inverse = np.unique(cols, return_inverse=True)
            indices.append(unique)
            data.append(np.bincount(inverse, weights=vals))
            indptr.append(indptr[-1] + len(unique))
        else:
            indptr.append(indptr[-1])
    import scipy.sparse as sp

    return sp.csr_matrix(
        (
            np.concatenate(data) if data else np.zeros(0),
            np.concatenate(indices) if indices else np.zeros(0, dtype=np.int32),
            np.asarray(indptr),
        ),
        shape=(len(texts), N_FEATURES),
    )


def text_counts(texts: Sequence[str]) -> sp.csr_matrix:
    """The hashed n-gram counts (sublinear tf) every head reads: compute once, score with
    ``TextHead.score_counts`` on any number of heads."""
    import scipy.sparse as sp

    matrix = sp.hstack([_vectorizers()[0].transform(texts), _char_counts(texts)], format="csr")
    matrix.data = 1.0 + np.log(matrix.data)  # sublinear tf
    return matrix


def _sigmoid(z: np.ndarray) -> np.ndarray:
    out: np.ndarray = 1.0 / (1.0 + np.exp(-np.clip(z, -500, 500)))
    return out


@dataclass(frozen=True)
class TextHead:
    """A fitted text head: ``score(texts)`` is the probability of the positive class."""

    columns: np.ndarray  # int, the hashed columns seen in training
    idf: np.ndarray  # idf of those columns
    coef: np.ndarray  # weight of those columns
    intercept: float
    n_docs: int
    C: float

    def score(self, texts: Sequence[str]) -> np.ndarray:
        return self.score_counts(text_counts(texts))

    def score_counts(self, counts: sp.csr_matrix) -> np.ndarray:
        """``score`` on counts from ``text_counts`` (one vectorisation shared by the heads)."""
        idf, coef = self._dense()
        # Per row: tf-idf over the stored entries only (no dense or copied matrix per call).
        rows = np.repeat(np.arange(counts.shape[0]), np.diff(counts.indptr))
        w = counts.data * idf[counts.indices]
        norms = np.sqrt(np.bincount(rows, weights=w * w, minlength=counts.shape[0]))
        dots = np.bincount(rows, weights=w * coef[counts.indices], minlength=counts.shape[0])
        norms[norms == 0] = 1.0
        return _sigmoid(dots / norms + self.intercept)

    def _dense(self) -> tuple[np.ndarray, np.ndarray]:
        """The idf and weight of every hashed column (unseen columns: the idf of a term in no
        training document, weight 0), built once per head."""
        cached = self.__dict__.get("_dense_cache")
        if cached is None:
            idf = np.full(2 * N_FEATURES, math.log(1 + self.n_docs) + 1.0)
            idf[self.columns] = self.idf
            coef = np.zeros(2 * N_FEATURES)
            coef[self.columns] = self.coef
            cached = (idf, coef)
            object.__setattr__(self, "_dense_cache", cached)
        return cast(tuple[np.ndarray, np.ndarray], cached)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "hashed_tfidf_logistic",
            "n_features": N_FEATURES,
            "columns": self.columns.tolist(),
            "idf": [round(float(v), 6) for v in self.idf],
            "coef": [round(float(v), 6) for v in self.coef],
            "intercept": float(self.intercept),
            "n_docs": self.n_docs,
            "C": self.C,
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> TextHead:
        return cls(
            np.asarray(raw["columns"], dtype=np.int64),
            np.asarray(raw["idf"], dtype=float),
            np.asarray(raw["coef"], dtype=float),
            float(raw["intercept"]),
            int(raw["n_docs"]),
            float(raw["C"]),
        )


def fit_text_head(texts: Sequence[str], labels: Sequence[int], *, C: float = DEFAULT_C) -> TextHead:
    """Fit the head; ``labels`` are 1 for the positive class. Both classes must be present."""
    return fit_text_head_counts(text_counts(texts), labels, C=C)


def fit_text_head_counts(
    counts: sp.csr_matrix, labels: Sequence[int], *, C: float = DEFAULT_C
) -> TextHead:
    """``fit_text_head`` on counts from ``text_counts`` (so several C share one vectorisation)."""
    n = counts.shape[0]
    df = np.bincount(counts.indices, minlength=counts.shape[1])
    columns = np.flatnonzero(df)
    idf_seen = np.log((1 + n) / (1 + df[columns])) + 1.0
    idf = np.zeros(counts.shape[1])
    idf[columns] = idf_seen
    weighted = counts.multiply(idf).tocsr()
    norms = np.sqrt(np.asarray(weighted.multiply(weighted).sum(axis=1)).ravel())
    norms[norms == 0] = 1.0
    import scipy.sparse as sp

    x = sp.diags(1.0 / norms) @ weighted[:, columns]
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(C=C, class_weight="balanced", max_iter=2000)
    model.fit(x, np.asarray(labels, dtype=int))
    return TextHead(
        columns.astype(np.int64), idf_seen, model.coef_[0].copy(), float(model.intercept_[0]), n, C
    )


@dataclass(frozen=True)
class BoostedHybrid:
    """Gradient-boosted trees over ``[head score, *features]`` saved as node arrays."""

    baseline: float
    trees: tuple[dict[str, np.ndarray], ...]
    used: tuple[int, ...]  # the input columns the trees read (never-observed ones are dropped)

    def score(self, x: np.ndarray) -> np.ndarray:
        x = x[:, list(self.used)]
        raw = np.full(x.shape[0], self.baseline)
        for tree in self.trees:
            raw += _walk(tree, x)
        return _sigmoid(raw)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "hist_gradient_boosting",
            "baseline": self.baseline,
            "used": list(self.used),
            "trees": [{k: v.tolist() for k, v in t.items()} for t in self.trees],
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> BoostedHybrid:
        trees = tuple(
            {
                "value": np.asarray(t["value"], dtype=float),
                "feature": np.asarray(t["feature"], dtype=np.int64),
                "threshold": np.asarray(t["threshold"], dtype=float),
                "missing_left": np.asarray(t["missing_left"], dtype=bool),
                "left": np.asarray(t["left"], dtype=np.int64),
                "right": np.asarray(t["right"], dtype=np.int64),
                "leaf": np.asarray(t["leaf"], dtype=bool),
            }
            for t in raw["trees"]
        )
        return cls(float(raw["baseline"]), trees, tuple(int(i) for i in raw["used"]))


def _walk(tree: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    node = np.zeros(x.shape[0], dtype=np.int64)
    rows = np.arange(x.shape[0])
    for _ in range(64):  # depth is capped at fit time; 64 is a safe bound
        active = ~tree["leaf"][node]
        if not active.any():
            break
        value = x[rows, tree["feature"][node]]
        go_left = np.where(
            np.isnan(value), tree["missing_left"][node], value <= tree["threshold"][node]
        )
        nxt = np.where(go_left, tree["left"][node], tree["right"][node])
        node = np.where(active, nxt, node)
    out: np.ndarray = tree["value"][node]
    return out


def fit_hybrid(x: np.ndarray, labels: Sequence[int], *, seed: int = 42) -> BoostedHybrid:
    """Fit the hybrid (shallow trees, no early stopping, so the fit is deterministic)."""
    from sklearn.ensemble import HistGradientBoostingClassifier

    model = HistGradientBoostingClassifier(
        max_iter=100, max_depth=3, learning_rate=0.1, early_stopping=False, random_state=seed
    )
    used = tuple(int(i) for i in np.flatnonzero(~np.all(np.isnan(x), axis=0)))
    model.fit(x[:, list(used)], np.asarray(labels, dtype=int))
    trees = []
    for (predictor,) in model._predictors:
        nodes = predictor.nodes
        trees.append(
            {
                "value": np.asarray(nodes["value"], dtype=float),
                "feature": np.asarray(nodes["feature_idx"], dtype=np.int64),
                "threshold": np.asarray(nodes["num_threshold"], dtype=float),
                "missing_left": np.asarray(nodes["missing_go_to_left"], dtype=bool),
                "left": np.asarray(nodes["left"], dtype=np.int64),
                "right": np.asarray(nodes["right"], dtype=np.int64),
                "leaf": np.asarray(nodes["is_leaf"], dtype=bool),
            }
        )
    baseline = float(np.ravel(model._baseline_prediction)[0])
    return BoostedHybrid(baseline, tuple(trees), used)
