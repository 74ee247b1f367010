"""A range of months or days said with both ends included (outside tryout 38, item 3).

"from January through March 2024" as ``sale_date < '2024-03-31'`` loses 31 March, and was shown
at 1.00: the period readers knew "March 2024" and "Q1 2024", not a range of months. "between
1 January and 31 March 2024" withheld every answer, right ones too, as ``projection_short``: the
head "the total amount sold between 1 january and 31 march 2024" was read as two attributes.
The right forms (``< '2024-04-01'``; ``BETWEEN`` on a DATE column) are shown; ``BETWEEN`` on a
timestamp column drops the last day's hours (``day_end_dropped``)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from tests.checks._helpers import codes, scored


@pytest.fixture(scope="module")
def sales(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """200 days of sales from December 2023, a DATE and a timestamp (15:07) a row."""
    path = tmp_path_factory.mktemp("sales38") / "sales.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE sales AS SELECT CAST(DATE '2023-12-01' + CAST(i AS INTEGER) AS DATE) AS "
        "sale_date, TIMESTAMP '2023-12-01 15:07:00' + INTERVAL (i) DAY AS sold_at, "
        "10.0 + i % 7 AS amount FROM range(200) t(i)"
    )
    con.close()
    return path


def _sql(where: str) -> str:
    return f"SELECT SUM(amount) FROM sales WHERE {where}"


THROUGH = "What was the total amount sold from January through March 2024?"
BETWEEN = "What was the total amount sold between 1 January and 31 March 2024?"
RANGES = [
    THROUGH,
    BETWEEN,
    "What was the total amount sold from January to March 2024?",
    "Total amount sold January-March 2024?",
    "What was the total amount sold between January and March 2024?",
]
RIGHT = [
    "sale_date >= '2024-01-01' AND sale_date < '2024-04-01'",
    "sale_date BETWEEN '2024-01-01' AND '2024-03-31'",
    "sold_at >= '2024-01-01' AND sold_at < '2024-04-01'",
]


@pytest.mark.parametrize("question", RANGES, ids=["through", "between-days", "to", "dash", "btw"])
def test_the_right_bounds_are_shown(sales: Path, tmp_path: Path, question: str) -> None:
    for where in RIGHT:
        verdict = scored(tmp_path, sales, question, *[_sql(where)] * 5)
        assert verdict["action"] == "show", (where, verdict["reasons"])


@pytest.mark.parametrize("question", RANGES, ids=["through", "between-days", "to", "dash", "btw"])
@pytest.mark.parametrize("column", ["sale_date", "sold_at"])
def test_an_end_before_the_last_day_is_withheld(
    sales: Path, tmp_path: Path, question: str, column: str
) -> None:
    where = f"{column} >= '2024-01-01' AND {column} < '2024-03-31'"
    verdict = scored(tmp_path, sales, question, *[_sql(where)] * 5)
    assert verdict["action"] == "withhold"
    found = {"signal.period_bound", "signal.date_bound_strictness"} & set(verdict["reasons"])
    assert found, verdict["reasons"]
    assert "signal.projection_short" not in codes(verdict)


def test_between_on_timestamps_drops_the_last_days_hours(sales: Path, tmp_path: Path) -> None:
    where = "sold_at BETWEEN '2024-01-01' AND '2024-03-31'"
    for question in (THROUGH, BETWEEN):
        verdict = scored(tmp_path, sales, question, *[_sql(where)] * 5)
        assert verdict["reasons"] == ["signal.day_end_dropped"], verdict["reasons"]
