"""Strict, permuted and relaxed matching of two normalised results.

Strict matching wants the same columns in the same order and the same multiset of rows;
permuted matching lets the columns come in any order (the same width); relaxed matching also
lets the narrower result be a projection of the wider.

Relaxed matching is Definition 1 of the governed-score paper: the results have the same row
count and the narrower equals, as a multiset of rows, a projection of the wider onto an
injective choice of its columns. Columns are paired by content fingerprints (the multiset of a
column's values) and the assignment is searched with a partial-projection check at every step,
so wide results never enumerate column permutations.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["NormalisedResult", "permuted_match", "relaxed_match", "strict_match"]

Row = tuple[Any, ...]
# Search nodes tried before giving up on a pathological assignment (then: no match).
MAX_NODES = 20_000


@dataclass(frozen=True)
class NormalisedResult:
    """Rows after normalisation, with their column vectors and fingerprints cached."""

    n_cols: int
    rows: tuple[Row, ...]

    @classmethod
    def of(cls, rows: Sequence[Row], n_cols: int) -> NormalisedResult:
        return cls(n_cols, tuple(rows))

    @property
    def columns(self) -> list[tuple[Any, ...]]:
        cached: list[tuple[Any, ...]] | None = self.__dict__.get("_columns")
        if cached is None:
            cached = [tuple(r[j] for r in self.rows) for j in range(self.n_cols)]
            object.__setattr__(self, "_columns", cached)
        return cached

    @property
    def fingerprints(self) -> list[frozenset[tuple[Any, int]]]:
        cached: list[frozenset[tuple[Any, int]]] | None = self.__dict__.get("_fps")
        if cached is None:
            cached = [frozenset(Counter(col).items()) for col in self.columns]
            object.__setattr__(self, "_fps", cached)
        return cached

    @property
    def row_multiset(self) -> Counter[Row]:
        cached: Counter[Row] | None = self.__dict__.get("_multiset")
        if cached is None:
            cached = Counter(self.rows)
            object.__setattr__(self, "_multiset", cached)
        return cached


def strict_match(a: NormalisedResult, b: NormalisedResult) -> bool:
    """Same number of columns and the same multiset of rows.

    Example:
        >>> strict_match(NormalisedResult.of([(1, "x")], 2), NormalisedResult.of([(1, "x")], 2))
        True
    """
    return a.n_cols == b.n_cols and len(a.rows) == len(b.rows) and a.row_multiset == b.row_multiset


def permuted_match(a: NormalisedResult, b: NormalisedResult) -> bool:
    """The same number of columns and the same multiset of rows once the columns are put in
    some order: what Spider's execution match accepts (column order is presentation).

    Example:
        >>> permuted_match(NormalisedResult.of([(1, "x")], 2), NormalisedResult.of([("x", 1)], 2))
        True
        >>> permuted_match(NormalisedResult.of([(1,)], 1), NormalisedResult.of([(1, "x")], 2))
        False
    """
    return a.n_cols == b.n_cols and relaxed_match(a, b)


def relaxed_match(a: NormalisedResult, b: NormalisedResult) -> bool:
    """Definition 1: equal row counts, and the narrower is a projection of the wider.

    Example:
        >>> wide = NormalisedResult.of([(1, "a", 9), (2, "b", 9)], 3)
        >>> narrow = NormalisedResult.of([("b", 2), ("a", 1)], 2)
        >>> relaxed_match(narrow, wide)
        True
    """
    if len(a.rows) != len(b.rows):
        return False
    narrow, wide = (a, b) if a.n_cols <= b.n_cols else (b, a)
    if narrow.n_cols == 0:
        return True
    if narrow.n_cols == wide.n_cols and narrow.row_multiset == wide.row_multiset:
        return True
    wide_fps = wide.fingerprints
    candidates: list[list[int]] = []
    for fp in narrow.fingerprints:
        found = [i for i, w in enumerate(wide_fps) if w == fp]
        if not found:
            return False
        candidates.append(found)
    if all(len(c) == 1 for c in candidates):
        # One candidate per column (the common case): one assignment to verify, no search.
        chosen = [c[0] for c in candidates]
        if len(set(chosen)) != len(chosen):
            return False
        projected = Counter(tuple(row[i] for i in chosen) for row in wide.rows)
        return projected == narrow.row_multiset
    order = sorted(range(narrow.n_cols), key=lambda j: len(candidates[j]))
    return _search(narrow, wide, order, candidates)


def _search(
    narrow: NormalisedResult,
    wide: NormalisedResult,
    order: list[int],
    candidates: list[list[int]],
) -> bool:
    """Depth-first assignment; identical wide columns are tried once (they are
    interchangeable), and each partial assignment must already match as a multiset."""
    n_rows = len(narrow.rows)
    budget = [MAX_NODES]
    n_cols, w_cols = narrow.columns, wide.columns

    def partial_ok(assigned: list[tuple[int, int]]) -> bool:
        left = Counter(zip(*(n_cols[j] for j, _ in assigned), strict=True))
        right = Counter(zip(*(w_cols[i] for _, i in assigned), strict=True))
        return left == right

    def step(depth: int, assigned: list[tuple[int, int]], used: set[int]) -> bool:
        if depth == len(order):
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        j = order[depth]
        tried: set[tuple[Any, ...]] = set()
        for i in candidates[j]:
            if i in used or w_cols[i] in tried:
                continue
            tried.add(w_cols[i])
            assigned.append((j, i))
            if (depth == 0 or n_rows == 0 or partial_ok(assigned)) and step(
                depth + 1, assigned, used | {i}
            ):
                return True
            assigned.pop()
        return False

    return step(0, [], set())
