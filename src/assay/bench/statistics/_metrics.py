"""Evaluation metrics of the four papers, vectorised with numpy.

Discrimination (AUROC with ties counted one half), calibration (ECE over 10 equal-width bins,
Brier, reliability bins as ``sklearn.calibration.calibration_curve`` bins them), selective
prediction (risk-coverage, AURC, normalised AURC, accuracy at a coverage), and exact McNemar.
Undefined values are NaN with an ``UndefinedStatisticWarning`` naming the reason, never 0.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from assay.bench.statistics._bootstrap import Estimate, Rng, estimate, nan_with_reason

__all__ = [
    "RiskCoverage",
    "accuracy_at_coverage",
    "aurc",
    "auroc",
    "auroc_interval",
    "brier",
    "ece",
    "mcnemar_exact",
    "paired_auroc_difference",
    "reliability_bins",
    "risk_coverage",
]


ArrayLike = Sequence[float] | Sequence[int] | np.ndarray


def _arrays(scores: ArrayLike, labels: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    s = np.asarray(scores, dtype=float)
    y = np.asarray(labels, dtype=float)
    if s.shape != y.shape:
        raise ValueError(f"scores ({s.shape}) and labels ({y.shape}) differ in length")
    return s, y


def auroc_weighted(scores: np.ndarray, labels: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """AUROC for each row of item weights (bootstrap counts), ties counted one half.

    AUROC = P(s+ > s-) + 0.5 P(s+ = s-), computed by grouping equal scores: each positive gains
    the weight of negatives below it plus half of those tied with it.
    """
    order = np.argsort(scores, kind="mergesort")
    s, y, w = scores[order], labels[order], weights[:, order]
    starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
    pos = np.add.reduceat(w * y, starts, axis=1)
    neg = np.add.reduceat(w * (1 - y), starts, axis=1)
    below = np.cumsum(neg, axis=1) - neg
    numerator = (pos * (below + 0.5 * neg)).sum(axis=1)
    denominator = pos.sum(axis=1) * neg.sum(axis=1)
    out = np.full(len(w), np.nan)
    ok = denominator > 0
    out[ok] = numerator[ok] / denominator[ok]
    return out


def auroc(scores: ArrayLike, labels: ArrayLike) -> float:
    """Area under the ROC curve, ties one half (the Mann-Whitney statistic).

    Example:
        >>> auroc([0.9, 0.8, 0.8, 0.1], [1, 1, 0, 0])
        0.875
    """
    s, y = _arrays(scores, labels)
    if len(set(y.tolist())) < 2:
        return nan_with_reason("AUROC is undefined with labels of one class only")
    return float(auroc_weighted(s, y, np.ones((1, len(s))))[0])


def auroc_interval(
    scores: ArrayLike,
    labels: ArrayLike,
    *,
    n_resamples: int = 2_000,
    confidence_level: float = 0.95,
    rng: Rng = 0,
    clusters: Sequence[Any] | None = None,
) -> Estimate:
    """AUROC with a percentile bootstrap interval over resampled answers (or clusters)."""
    s, y = _arrays(scores, labels)
    point = auroc(s, y)
    return estimate(
        point,
        lambda w: auroc_weighted(s, y, w),
        len(s),
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        rng=rng,
        clusters=clusters,
        method="percentile bootstrap",
    )


def paired_auroc_difference(
    baseline: ArrayLike,
    other: ArrayLike,
    labels: ArrayLike,
    *,
    n_resamples: int = 2_000,
    confidence_level: float = 0.95,
    rng: Rng = 0,
    clusters: Sequence[Any] | None = None,
) -> Estimate:
    """AUROC(other) - AUROC(baseline), both computed on the same resamples."""
    a, y = _arrays(baseline, labels)
    b, _ = _arrays(other, labels)
    point = auroc(b, y) - auroc(a, y)

    def diff(w: np.ndarray) -> np.ndarray:
        out: np.ndarray = auroc_weighted(b, y, w) - auroc_weighted(a, y, w)
        return out

    return estimate(
        point,
        diff,
        len(y),
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        rng=rng,
        clusters=clusters,
        method="paired percentile bootstrap",
    )


def _bin_ids(probabilities: np.ndarray, n_bins: int) -> np.ndarray:
    # As sklearn.calibration.calibration_curve(strategy="uniform") bins them.
    edges = np.linspace(0.0, 1.0, n_bins + 1)
    return np.searchsorted(edges[1:-1], probabilities)


def reliability_bins(
    probabilities: ArrayLike, labels: ArrayLike, n_bins: int = 10
) -> list[dict[str, float]]:
    """Per non-empty bin: mean predicted probability, observed accuracy, count."""
    p, y = _arrays(probabilities, labels)
    ids = _bin_ids(p, n_bins)
    bins = []
    for b in range(n_bins):
        mask = ids == b
        if mask.any():
            bins.append(
                {
                    "bin": b,
                    "low": b / n_bins,
                    "high": (b + 1) / n_bins,
                    "confidence": float(p[mask].mean()),
                    "accuracy": float(y[mask].mean()),
                    "count": int(mask.sum()),
                }
            )
    return bins


def ece(probabilities: ArrayLike, labels: ArrayLike, n_bins: int = 10) -> float:
    """Expected calibration error over equal-width bins: sum_b (n_b / n) |acc_b - conf_b|."""
    p, _ = _arrays(probabilities, labels)
    if len(p) == 0:
        return nan_with_reason("ECE is undefined with no answers")
    return float(
        sum(
            b["count"] / len(p) * abs(b["accuracy"] - b["confidence"])
            for b in reliability_bins(probabilities, labels, n_bins)
        )
    )


def brier(probabilities: ArrayLike, labels: ArrayLike) -> float:
    """Mean squared difference between the probability and the label."""
    p, y = _arrays(probabilities, labels)
    if len(p) == 0:
        return nan_with_reason("the Brier score is undefined with no answers")
    return float(np.mean((p - y) ** 2))


@dataclass(frozen=True)
class RiskCoverage:
    """Selective risk at every coverage k/n, answers taken from the highest score down (tied
    answers enter together at their mean error, the expectation under random tie-breaking)."""

    coverage: np.ndarray
    risk: np.ndarray


def risk_coverage(scores: ArrayLike, labels: ArrayLike) -> RiskCoverage:
    s, y = _arrays(scores, labels)
    n = len(s)
    if n == 0:
        return RiskCoverage(np.array([]), np.array([]))
    order = np.argsort(-s, kind="mergesort")
    s, errors = s[order], 1 - y[order]
    starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
    sizes = np.diff(np.r_[starts, n])
    group_errors = np.add.reduceat(errors, starts)
    k = np.arange(1, n + 1, dtype=float)
    group_of = np.repeat(np.arange(len(starts)), sizes)
    before_k = np.r_[0, np.cumsum(sizes)][group_of]
    before_e = np.r_[0.0, np.cumsum(group_errors)][group_of]
    rate = (group_errors / sizes)[group_of]
    risk = (before_e + (k - before_k) * rate) / k
    return RiskCoverage(k / n, risk)


def aurc(scores: ArrayLike, labels: ArrayLike) -> dict[str, float]:
    """AURC (mean selective risk over coverages), the oracle's and a random ordering's (the
    base error rate), and the normalised AURC = (AURC - oracle) / (random - oracle)."""
    curve = risk_coverage(scores, labels)
    _, y = _arrays(scores, labels)
    n = len(y)
    if n == 0:
        value = nan_with_reason("AURC is undefined with no answers")
        return {"aurc": value, "oracle": value, "random": value, "normalised": value}
    value = float(curve.risk.mean())
    n_right = int(y.sum())
    k = np.arange(1, n + 1)
    oracle = float(np.mean(np.maximum(0, k - n_right) / k))
    random_ = 1.0 - n_right / n
    if random_ == oracle:
        normalised = nan_with_reason(
            "normalised AURC is undefined when every answer is right or every answer is wrong"
        )
    else:
        normalised = (value - oracle) / (random_ - oracle)
    return {"aurc": value, "oracle": oracle, "random": random_, "normalised": normalised}


def accuracy_at_coverage(scores: ArrayLike, labels: ArrayLike, coverage: float) -> float:
    """Accuracy of the top ``coverage`` share of answers by score."""
    curve = risk_coverage(scores, labels)
    if not len(curve.risk):
        return nan_with_reason("accuracy at coverage is undefined with no answers")
    k = max(1, math.ceil(coverage * len(curve.risk)))
    return float(1 - curve.risk[k - 1])


def mcnemar_exact(a_correct: Sequence[bool], b_correct: Sequence[bool]) -> dict[str, float]:
    """McNemar's exact test on paired binary outcomes (two-sided binomial on discordant pairs).

    Example:
        >>> mcnemar_exact([1, 1, 1, 0], [0, 0, 0, 0])["p_value"]
        0.25
    """
    from scipy.stats import binomtest

    a = np.asarray(a_correct, dtype=bool)
    b = np.asarray(b_correct, dtype=bool)
    only_a = int(np.sum(a & ~b))
    only_b = int(np.sum(~a & b))
    if only_a + only_b == 0:
        return {"only_a": 0, "only_b": 0, "p_value": 1.0}
    p_value = binomtest(only_a, only_a + only_b, 0.5).pvalue
    return {"only_a": only_a, "only_b": only_b, "p_value": float(min(1.0, p_value))}
