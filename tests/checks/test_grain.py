"""The time grain a question asks ("per year", "monthly") against the one the SQL groups by
(``assay.checks._grain``; outside tryout 23: "per year" as ``GROUP BY d_moy`` was shown)."""

from __future__ import annotations

import pytest
from sqlglot import parse_one

from assay.checks._grain import grain_mismatch

PER_YEAR = "What was the total store sales net paid per year?"


@pytest.mark.parametrize(
    ("question", "sql", "fires"),
    [
        (PER_YEAR, "SELECT year(d), sum(x) FROM t GROUP BY 1", False),
        (PER_YEAR, "SELECT strftime(d, '%Y') AS y, sum(x) FROM t GROUP BY y", False),
        (PER_YEAR, "SELECT d_year, d_moy, sum(x) FROM t GROUP BY d_year, d_moy", False),
        (PER_YEAR, "SELECT month(d), sum(x) FROM t GROUP BY month(d)", True),
        (PER_YEAR, "SELECT d_date, sum(x) FROM t GROUP BY d_date", True),
        ("Monthly store sales?", "SELECT EXTRACT(YEAR FROM d), sum(x) FROM t GROUP BY 1", True),
        ("Total sales by store, sorted by year?", "SELECT s, sum(x) FROM t GROUP BY s", False),
        ("Sales for each year by store?", "SELECT s, sum(x) FROM t GROUP BY s", False),
        ("Sales for each day of the week?", "SELECT d_day_name, sum(x) FROM t GROUP BY 1", False),
        ("Sales per day?", "SELECT d_dow, sum(x) FROM t GROUP BY d_dow", False),
    ],
    ids=[
        "year-function",
        "year-format-alias",
        "year-and-month",
        "month-function",
        "date",
        "monthly-by-year",
        "sorted-by-year",
        "no-time-grouped",
        "day-of-week",
        "weekday-column",
    ],
)
def test_the_grain_read(question: str, sql: str, fires: bool) -> None:
    assert (grain_mismatch(question, parse_one(sql, read="duckdb")) is not None) is fires
