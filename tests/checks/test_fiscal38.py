"""Fiscal periods carried by fiscal columns or by another period's dates (outside tryout 38,
item 2).

"revenue in fiscal Q1 2024" as ``fiscal_year = 'FY24' AND fiscal_quarter = 'Q1'`` is right and
was withheld as ``literal_missing`` (2024 is written nowhere as such); as ``fiscal_year = 2024
AND fiscal_quarter = 2`` it is another quarter and was shown. With the layer's fiscal year
starting in October, fiscal Q2 2024 (January to March 2024) answered with fiscal Q1's dates
(``'2023-10-01'`` to ``'2024-01-01'``) was shown: the digits 2024 are in the exclusive end."""

from __future__ import annotations

import datetime as dt

import pytest

from assay.checks import QUESTION_CHECKS, CheckContext
from assay.semantic import SemanticLayer
from assay.types import Candidate

OCTOBER = SemanticLayer(name="shop", clock=dt.date(2024, 11, 15), fiscal_year_start_month=10)
FEBRUARY = SemanticLayer(name="shop", clock=dt.date(2024, 11, 15), fiscal_year_start_month=2)
Q1 = "What was revenue in fiscal Q1 2024?"


def _missing(question: str, where: str, layer: SemanticLayer | None = OCTOBER) -> list[str]:
    sql = f"SELECT SUM(net) FROM orders WHERE {where}"
    ctx = CheckContext(question, Candidate(sql), "duckdb", layer=layer)
    found = [f for check in QUESTION_CHECKS for f in check(ctx).findings]
    return [f.message for f in found if f.code == "signal.literal_missing"]


def _dates(start: str, end: str) -> str:
    return f"order_date >= DATE '{start}' AND order_date < DATE '{end}'"


@pytest.mark.parametrize(
    "where",
    [
        "fiscal_year = 'FY24' AND fiscal_quarter = 'Q1'",
        "fiscal_year = 24 AND fiscal_quarter = 1",
        "fiscal_quarter = 'FY24-Q1'",
        "fiscal_period = 'FY2024 Q1'",
        "fy = 2024 AND fiscal_qtr = 'Q1'",
    ],
    ids=["fy24-q1", "numbers-24", "one-label", "period-label", "fy-qtr"],
)
def test_fiscal_columns_carrying_the_period_are_not_missing(where: str) -> None:
    assert _missing(Q1, where) == []


@pytest.mark.parametrize(
    "where",
    [
        "fiscal_year = 2024 AND fiscal_quarter = 2",
        "fiscal_year = 'FY23' AND fiscal_quarter = 'Q1'",
        "fiscal_quarter = 'FY24-Q2'",
    ],
    ids=["other-quarter", "other-year", "other-label"],
)
def test_fiscal_columns_carrying_another_period_are_reported(where: str) -> None:
    messages = _missing(Q1, where)
    assert messages and "fiscal Q1 2024" in messages[0], messages


def test_another_fiscal_quarters_dates_are_reported() -> None:
    """Fiscal Q2 2024 is January to March 2024 under October's calendar."""
    messages = _missing("What was revenue in fiscal Q2 2024?", _dates("2023-10-01", "2024-01-01"))
    assert messages and "fiscal Q2 2024" in messages[0] and "2024-01-01" in messages[0], messages
    assert _missing("What was revenue in fiscal Q2 2024?", _dates("2024-01-01", "2024-04-01")) == []


@pytest.mark.parametrize(
    ("layer", "start", "end"),
    [(OCTOBER, "2023-10-01", "2024-01-01"), (FEBRUARY, "2023-02-01", "2023-05-01")],
    ids=["october", "february"],
)
def test_the_fiscal_quarters_own_dates_are_not_missing(
    layer: SemanticLayer, start: str, end: str
) -> None:
    assert _missing(Q1, _dates(start, end), layer) == []


def test_a_year_later_under_february_is_reported() -> None:
    """February's fiscal Q1 2024 is February to April 2023 (a fiscal year is named by the year
    it ends in); February to April 2024 is fiscal Q1 2025, though it writes 2024."""
    assert _missing(Q1, _dates("2024-02-01", "2024-05-01"), FEBRUARY)


def test_fiscal_months_carry_the_quarter_they_fill() -> None:
    """Fiscal months 1 to 3 are fiscal Q1; a fiscal month is no year (3 is not 2003)."""
    assert _missing(Q1, "fiscal_year = 2024 AND fiscal_month IN (1, 2, 3)") == []
    assert _missing(Q1, "fiscal_year = 2024 AND fiscal_month IN (4, 5, 6)")


def test_dates_that_carry_the_period_settle_it_beside_a_fiscal_year_column() -> None:
    where = f"fiscal_year = 2024 AND {_dates('2023-10-01', '2024-01-01')}"
    assert _missing(Q1, where) == []
