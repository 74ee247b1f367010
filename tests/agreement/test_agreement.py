"""Agreement pinned to the governed-score paper: Definition 1, Proposition 1, truncation."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assay.agreement import (
    NULL,
    NormalisedResult,
    agreement,
    normalise_value,
    relaxed_match,
    strict_match,
)
from assay.types import Result


def res(*rows: tuple[object, ...], cols: int | None = None) -> Result:
    n = cols if cols is not None else (len(rows[0]) if rows else 1)
    return Result(tuple(f"c{i}" for i in range(n)), tuple(rows), len(rows))


A_ROWS = res((1, "x"), (2, "y"))
B_ROWS = res((3, "z"))


@pytest.mark.parametrize("shown_first", [True, False], ids=["with-the-four", "alone"])
def test_proposition_1(shown_first: bool) -> None:
    """K = 5, a 4-to-1 split: L2 = 1 - H(0.8, 0.2)/log 5 either way; A is 0.8 or 0.2."""
    samples = [A_ROWS] * 4 + [B_ROWS]
    if not shown_first:
        samples = [B_ROWS] + [A_ROWS] * 4
    result = agreement(samples)
    entropy = -(0.8 * math.log(0.8) + 0.2 * math.log(0.2))
    assert result.l2 == pytest.approx(1 - entropy / math.log(5))
    assert result.l2 == pytest.approx(0.689, abs=1e-3)
    assert result.a == pytest.approx(0.8 if shown_first else 0.2)


def test_a_is_zero_without_a_shown_result() -> None:
    result = agreement([None, A_ROWS, A_ROWS, A_ROWS, A_ROWS])
    assert result.a == 0.0
    assert result.cluster_sizes == (4, 1)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=5, max_size=5))
def test_a_takes_fifths_and_counts_itself(clusters: list[int]) -> None:
    pool = [res((1,)), res((2,)), res((3,)), None]
    result = agreement([pool[c] for c in clusters])
    assert result.a in {0.0, 0.2, 0.4, 0.6, 0.8, 1.0}
    if clusters[0] != 3:
        assert result.a >= 0.2
        assert result.a == pytest.approx(clusters.count(clusters[0]) / 5)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=2, max_size=8), st.randoms(use_true_random=False))
def test_l2_invariant_to_sample_order(clusters: list[int], rnd: object) -> None:
    pool = [res((1,)), res((2,)), res((3,)), None]
    samples = [pool[c] for c in clusters]
    shuffled = list(samples)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert agreement(samples).l2 == pytest.approx(agreement(shuffled).l2)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (1.23456, 1.2346),
        (Decimal("2.50000"), 2.5),
        ("3.14159", 3.1416),
        (" 42 ", 42),
        (7.0, 7),
        (True, 1),
        ("abc", "abc"),
        ("2024-01-02", "2024-01-02"),
    ],
    ids=[
        "float",
        "decimal",
        "numeric-string",
        "padded-int",
        "integral-float",
        "bool",
        "text",
        "date-text",
    ],
)
def test_normalise_value(raw: object, expected: object) -> None:
    assert normalise_value(raw) == expected


def test_one_null() -> None:
    assert normalise_value(None) is NULL
    assert agreement([res((None,)), res((None,))]).a == 1.0


def test_relaxed_allows_extra_columns_in_any_order() -> None:
    wide = res((1, "a", 10.0), (2, "b", 20.0))
    narrow = res((20, "b"), (10, "a"))
    assert agreement([narrow, wide]).a == 1.0
    assert agreement([narrow, wide], policy="strict").a == 0.5


def test_relaxed_needs_equal_row_counts_and_injective_columns() -> None:
    assert agreement([res((1,), (1,)), res((1,))]).a == 0.5
    # (x, x) is not a projection of (x, y): two narrow columns cannot share one wide column.
    narrow = NormalisedResult.of([(1, 1), (2, 2)], 2)
    wide = NormalisedResult.of([(1, 5), (2, 6)], 2)
    assert not relaxed_match(narrow, wide)
    wider = NormalisedResult.of([(1, 5, 1), (2, 6, 2)], 3)
    assert relaxed_match(narrow, wider)


def test_columns_must_match_row_by_row_not_just_as_sets() -> None:
    # Each column has the same values, but the rows pair them differently.
    a = NormalisedResult.of([(1, "a"), (2, "b")], 2)
    b = NormalisedResult.of([(1, "b"), (2, "a")], 2)
    assert not relaxed_match(a, b)
    assert not strict_match(a, b)


def _brute(a: NormalisedResult, b: NormalisedResult) -> bool:
    if len(a.rows) != len(b.rows):
        return False
    narrow, wide = (a, b) if a.n_cols <= b.n_cols else (b, a)
    target = Counter(narrow.rows)
    for cols in itertools.permutations(range(wide.n_cols), narrow.n_cols):
        if Counter(tuple(r[i] for i in cols) for r in wide.rows) == target:
            return True
    return False


table = st.integers(1, 4).flatmap(
    lambda n: st.lists(st.tuples(*[st.integers(0, 2)] * n), min_size=0, max_size=5).map(
        lambda rows: NormalisedResult.of(rows, n)
    )
)


@settings(max_examples=400, deadline=None)
@given(table, table)
def test_relaxed_equals_the_permutation_oracle(a: NormalisedResult, b: NormalisedResult) -> None:
    assert relaxed_match(a, b) == _brute(a, b)


def test_truncation_counts_as_agreeing_and_reports_the_bound() -> None:
    cut = Result(("n",), tuple((i,) for i in range(100)), None, truncated=True)
    other = Result(("n",), tuple((i + 1000,) for i in range(100)), None, truncated=True)
    result = agreement([cut, other, cut])
    assert result.undetermined == (1, 2)
    assert result.a == 1.0
    assert result.a_lower == pytest.approx(1 / 3)


def test_truncated_against_a_smaller_whole_result_disagrees() -> None:
    cut = Result(("n",), tuple((i,) for i in range(100)), None, truncated=True)
    small = res(*((i,) for i in range(10)))
    assert agreement([cut, small]).a == 0.5


def test_keeps_at_most_100_rows() -> None:
    big = Result(("n",), tuple((i,) for i in range(250)), 250)
    same = Result(("n",), tuple((i,) for i in range(250)), 250)
    result = agreement([big, same])
    assert result.undetermined == (1,)


def test_permuted_matching_frees_column_order_only() -> None:
    ab = Result(("a", "b"), ((1, "x"), (2, "y")), 2)
    ba = Result(("b", "a"), (("y", 2), ("x", 1)), 2)
    narrow = Result(("a",), ((1,), (2,)), 2)
    assert agreement([ab, ba], policy="permuted").a == 1.0
    assert agreement([ab, ba], policy="strict").a == 0.5
    assert agreement([ab, narrow], policy="permuted").a == 0.5
    assert agreement([ab, narrow], policy="relaxed").a == 1.0
