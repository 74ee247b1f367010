"""agreed16 (tuned on): "the last full calendar year" answered with the latest year holding any
data, ``= (SELECT MAX(year) ...)``, though that year holds two days (h16_d13, h16_h16: both shown
at 1.00). It is ``signal.period_bound``; a year the SQL checks, or steps back from, is silent."""

from __future__ import annotations

import pytest

from assay.checks import CheckContext
from assay.checks._period_ends import period_end_included
from assay.types import Candidate

FULL = "What was the total value of orders placed in the last complete calendar year in the data?"
_YEAR = "EXTRACT(YEAR FROM o_orderdate)"
_TOTAL = f"SELECT SUM(o_totalprice) FROM orders WHERE {_YEAR} = "


def _codes(question: str, sql: str) -> list[str]:
    ctx = CheckContext(question, Candidate(sql), "duckdb", None)
    return [f.code for f in period_end_included(ctx).findings]


def test_the_latest_year_taken_as_full_is_a_period_bound() -> None:
    sql = _TOTAL + f"(SELECT MAX({_YEAR}) FROM orders)"
    assert _codes(FULL, sql) == ["signal.period_bound"]
    revenue = "What was our store revenue in the last full calendar year we have data for?"
    keyed = (
        "SELECT SUM(ss_ext_sales_price) FROM store_sales JOIN date_dim ON ss_sold_date_sk = "
        "d_date_sk WHERE d_year = (SELECT MAX(d_year) FROM store_sales JOIN date_dim "
        "ON ss_sold_date_sk = d_date_sk)"
    )
    assert _codes(revenue, keyed) == ["signal.period_bound"]


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        (FULL, _TOTAL + f"(SELECT MAX({_YEAR}) - 1 FROM orders)"),
        (FULL, _TOTAL + f"(SELECT MAX({_YEAR}) FROM orders WHERE o_orderdate <= '1998-12-31')"),
        (
            FULL,
            _TOTAL + f"(SELECT MAX(y) FROM (SELECT {_YEAR} AS y FROM orders GROUP BY y "
            "HAVING COUNT(DISTINCT month(o_orderdate)) = 12))",
        ),
        (FULL, _TOTAL + "1997"),
        (
            "What was the total value of orders placed in the latest year in the data?",
            _TOTAL + f"(SELECT MAX({_YEAR}) FROM orders)",
        ),
    ],
    ids=["stepped_back", "bounded_by_dec_31", "twelve_months_checked", "year_named", "no_full"],
)
def test_a_checked_year_or_no_full_year_asked_is_silent(question: str, sql: str) -> None:
    assert _codes(question, sql) == []
