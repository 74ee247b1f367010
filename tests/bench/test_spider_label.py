"""The Spider label: execution match as the official evaluation defines it."""

from __future__ import annotations

import pytest

from assay.bench.datasets import execution_match
from assay.types import Result

GOLD = Result(("a", "b"), ((1, "x"), (2, "y")), 2)


@pytest.mark.parametrize(
    ("predicted", "ordered", "expected"),
    [
        (Result(("b", "a"), (("x", 1), ("y", 2)), 2), True, True),
        (Result(("b", "a"), (("y", 2), ("x", 1)), 2), False, True),
        (Result(("b", "a"), (("y", 2), ("x", 1)), 2), True, False),
        (Result(("a",), ((1,), (2,)), 2), False, False),
        (Result(("a", "b"), ((1, "x"), (2, "z")), 2), False, False),
        (Result(("a", "b"), ((1, "x"),), 1), False, False),
    ],
    ids=["columns-swapped", "rows-any-order", "rows-order-matters", "narrower", "value", "fewer"],
)
def test_execution_match(predicted: Result, ordered: bool, expected: bool) -> None:
    assert execution_match(GOLD, predicted, ordered) is expected


def test_same_values_in_two_columns_try_both_orders() -> None:
    gold = Result(("a", "b"), ((1, 2), (2, 1)), 2)
    swapped = Result(("b", "a"), ((2, 1), (1, 2)), 2)
    assert execution_match(gold, swapped, ordered=True)
