"""Bootstrap machinery: resamples as count matrices, percentile intervals, named NaNs.

A resample of n items is held as a row of counts (how many times each item was drawn), so a
statistic is computed for all resamples at once as a weighted statistic, and two statistics
computed on the same count matrix stay paired. Indices are drawn as
``rng.integers(0, n, (n_resamples, n))``, exactly as ``scipy.stats.bootstrap`` draws them, so
percentile intervals can be checked against scipy on the same resamples. Clustered data
(questions sharing a database or a template family) resample whole clusters.

Reference: Efron and Tibshirani, An Introduction to the Bootstrap (1993), percentile method.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "Estimate",
    "UndefinedStatisticWarning",
    "as_rng",
    "bootstrap_counts",
    "estimate",
    "nan_with_reason",
    "percentile_interval",
]

Rng = int | np.random.Generator | None


class UndefinedStatisticWarning(UserWarning):
    """A statistic has no defined value on these data (one class only, no usable resample)."""


def nan_with_reason(reason: str) -> float:
    """Warn with the reason and return NaN, never 0."""
    warnings.warn(reason, UndefinedStatisticWarning, stacklevel=3)
    return math.nan


def as_rng(rng: Rng) -> tuple[np.random.Generator, int | None]:
    if isinstance(rng, np.random.Generator):
        return rng, None
    seed = 0 if rng is None else int(rng)
    return np.random.default_rng(seed), seed


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its percentile interval and how it was made."""

    value: float
    low: float
    high: float
    method: str
    n_resamples: int
    confidence_level: float
    seed: int | None
    n_usable: int
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        def num(x: float) -> float | None:
            return None if math.isnan(x) else round(float(x), 6)

        return {
            "value": num(self.value),
            "low": num(self.low),
            "high": num(self.high),
            "method": self.method,
            "n_resamples": self.n_resamples,
            "confidence_level": self.confidence_level,
            "seed": self.seed,
            "n_usable": self.n_usable,
            "reason": self.reason,
        }


def bootstrap_counts(
    n: int,
    n_resamples: int,
    rng: np.random.Generator,
    clusters: Sequence[Any] | None = None,
) -> np.ndarray:
    """A ``(n_resamples, n)`` matrix of draw counts.

    Without clusters, items are drawn with replacement (``rng.integers(0, n, (B, n))``). With
    clusters, whole clusters are drawn with replacement, and every item of a drawn cluster
    counts once per draw.
    """
    if clusters is None:
        index = rng.integers(0, n, (n_resamples, n))
        offsets = (np.arange(n_resamples) * n)[:, None]
        flat = np.bincount((index + offsets).ravel(), minlength=n_resamples * n)
        return flat.reshape(n_resamples, n)
    labels, member = np.unique(np.asarray(clusters, dtype=object).astype(str), return_inverse=True)
    g = len(labels)
    draws = rng.integers(0, g, (n_resamples, g))
    offsets = (np.arange(n_resamples) * g)[:, None]
    per_cluster = np.bincount((draws + offsets).ravel(), minlength=n_resamples * g).reshape(
        n_resamples, g
    )
    return per_cluster[:, member]


def percentile_interval(values: np.ndarray, confidence_level: float) -> tuple[float, float, int]:
    """Percentile interval over the finite values, and how many were finite."""
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return math.nan, math.nan, 0
    alpha = (1 - confidence_level) / 2
    low, high = np.percentile(finite, [alpha * 100, (1 - alpha) * 100])
    return float(low), float(high), int(finite.size)


def estimate(
    point: float,
    weighted: Callable[[np.ndarray], np.ndarray],
    n: int,
    *,
    n_resamples: int = 2_000,
    confidence_level: float = 0.95,
    rng: Rng = 0,
    clusters: Sequence[Any] | None = None,
    method: str = "percentile bootstrap",
) -> Estimate:
    """A point estimate and the percentile interval of ``weighted`` over bootstrap counts."""
    generator, seed = as_rng(rng)
    if n == 0:
        nan_with_reason("no items to resample")
        return Estimate(
            math.nan, math.nan, math.nan, method, n_resamples, confidence_level, seed, 0, "no items"
        )
    counts = bootstrap_counts(n, n_resamples, generator, clusters)
    with np.errstate(invalid="ignore", divide="ignore"):
        values = weighted(counts)
    low, high, usable = percentile_interval(values, confidence_level)
    reason = ""
    if usable == 0:
        reason = "no usable resample"
        nan_with_reason(f"{method}: {reason}")
    if clusters is not None:
        method = f"{method}, clusters resampled"
    return Estimate(point, low, high, method, n_resamples, confidence_level, seed, usable, reason)
