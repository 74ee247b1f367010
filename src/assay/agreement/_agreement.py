"""Agreement among K sampled answers: A (Definition 1) and the scaled entropy L2.

``A`` is the share of the K samples whose result matches sample 0's, counting sample 0 itself;
it is 0 when sample 0 has no result. ``L2 = 1 - H(pi) / log K`` where ``pi`` is the share of
samples in each cluster of identical full-row signatures (floats to six places), a sample with
no result being its own cluster (Proposition 1: L2 does not depend on sample order).

Results are kept up to ``KEEP_ROWS`` rows. When truncation leaves a pair undetermined, the pair
counts as agreeing (the paper's pre-registered policy) and ``a_lower`` reports A with such pairs
counted as disagreeing.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from assay.agreement._match import (
    NormalisedResult,
    permuted_match,
    relaxed_match,
    strict_match,
)
from assay.agreement._normalise import needs_six_places, normalise_row
from assay.errors import ScoringError
from assay.types import Result

__all__ = [
    "KEEP_ROWS",
    "MATCHERS",
    "Agreement",
    "MatchingPolicy",
    "Prepared",
    "agreement",
    "prepare",
]

KEEP_ROWS = 100
MatchingPolicy = Literal["relaxed", "permuted", "strict"]
MATCHERS = {"relaxed": relaxed_match, "permuted": permuted_match, "strict": strict_match}


@dataclass(frozen=True)
class Prepared:
    """One sample's result, normalised once for every comparison it takes part in."""

    matchable: NormalisedResult
    signature: tuple[Any, ...]
    row_count: int | None  # true count when known
    truncated: bool


def prepare(result: Result | None, keep_rows: int = KEEP_ROWS) -> Prepared | None:
    if result is None:
        return None
    rows = result.rows
    truncated = result.truncated or len(rows) > keep_rows
    kept = rows[:keep_rows]
    n_cols = len(result.columns) if result.columns else (len(kept[0]) if kept else 0)
    count = result.row_count if result.row_count is not None else (None if truncated else len(rows))
    four = [normalise_row(r, 4) for r in kept]
    matchable = NormalisedResult.of(four, n_cols)
    six = Counter(
        normalise_row(r, 6) if needs_six_places(r) else n for r, n in zip(kept, four, strict=True)
    )
    signature = (n_cols, count, truncated, frozenset(six.items()))
    return Prepared(matchable, signature, count, truncated)


@dataclass(frozen=True)
class Agreement:
    """A, its lower bound under truncation, L2, and which samples agree with sample 0."""

    a: float
    a_lower: float
    l2: float | None
    k: int
    agreeing: tuple[int, ...]
    undetermined: tuple[int, ...]
    cluster_sizes: tuple[int, ...]
    policy: MatchingPolicy
    weights: tuple[float, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        extra: dict[str, Any] = {"weights": list(self.weights)} if self.weights else {}
        return {
            **extra,
            "a": self.a,
            "a_lower": self.a_lower,
            "l2": self.l2,
            "k": self.k,
            "agreeing": list(self.agreeing),
            "undetermined": list(self.undetermined),
            "cluster_sizes": list(self.cluster_sizes),
            "policy": self.policy,
        }


def _pair(r0: Prepared, rk: Prepared | None, policy: MatchingPolicy) -> bool | None:
    """True, False, or None when truncation leaves it undetermined."""
    if rk is None:
        return False
    if r0.row_count is not None and rk.row_count is not None and r0.row_count != rk.row_count:
        return False
    if r0.truncated or rk.truncated:
        if r0.truncated and rk.truncated:
            return None
        whole, cut = (rk, r0) if r0.truncated else (r0, rk)
        if whole.row_count is not None and whole.row_count <= len(cut.matchable.rows):
            return False  # the cut one has more rows than the whole one
        return None
    return MATCHERS[policy](r0.matchable, rk.matchable)


def agreement(
    results: Sequence[Result | None] | Sequence[Prepared | None],
    *,
    policy: MatchingPolicy = "relaxed",
    weights: Sequence[float] | None = None,
) -> Agreement:
    """Agreement with sample 0 over K samples (``None`` for a sample with no result).

    ``weights`` (one positive number per sample, e.g. each sampler's measured reliability)
    make A the weighted share ``sum(w_k over agreeing k) / sum(w_k)``; without them every
    sample weighs the same. L2 and the cluster sizes stay unweighted.

    Example:
        >>> one = Result(("n",), ((3,),), 1)
        >>> other = Result(("n",), ((4,),), 1)
        >>> agreement([one, one, one, one, other]).a
        0.8
    """
    prepared = [r if isinstance(r, Prepared) or r is None else prepare(r) for r in results]
    k = len(prepared)
    if weights is not None and (
        len(weights) != k or not all(math.isfinite(w) and w > 0 for w in weights)
    ):
        raise ScoringError(
            f"Agreement weights must be {k} positive numbers, one per sample; got "
            f"{list(weights)!r}.",
            hint="Give every sampler a reliability above 0, or score without weights.",
        )
    if k == 0:
        return Agreement(0.0, 0.0, None, 0, (), (), (), policy)
    first = prepared[0]
    agreeing: list[int] = []
    undetermined: list[int] = []
    if first is not None:
        agreeing.append(0)
        for index in range(1, k):
            outcome = _pair(first, prepared[index], policy)
            if outcome is None:
                undetermined.append(index)
            elif outcome:
                agreeing.append(index)
    w = list(weights) if weights is not None else [1.0] * k
    total = sum(w)
    a = sum(w[i] for i in (*agreeing, *undetermined)) / total
    a_lower = sum(w[i] for i in agreeing) / total
    sizes = _cluster_sizes(prepared)
    return Agreement(
        round(a, 12),
        round(a_lower, 12),
        _l2(sizes, k),
        k,
        tuple(agreeing),
        tuple(undetermined),
        sizes,
        policy,
        tuple(round(x, 12) for x in weights) if weights is not None else None,
    )


def _cluster_sizes(prepared: Sequence[Prepared | None]) -> tuple[int, ...]:
    counts: Counter[Any] = Counter()
    singles = 0
    for item in prepared:
        if item is None:
            singles += 1
        else:
            counts[item.signature] += 1
    return tuple(sorted(list(counts.values()) + [1] * singles, reverse=True))


def _l2(sizes: tuple[int, ...], k: int) -> float | None:
    """1 - H(pi)/log K; undefined (``None``) for fewer than two samples."""
    if k < 2:
        return None
    entropy = -sum((n / k) * math.log(n / k) for n in sizes if n)
    return round(1.0 - entropy / math.log(k), 12)
