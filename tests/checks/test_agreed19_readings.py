"""Readings from agreed19 (a development set), each shown at 1.00 with five samples agreeing:
"August 2025" as ``month(date) = 7``, "the overall click-through rate" as the AVG of each day's
rate, revenue by product line joined on ``d.Region_id = p.Product_id``, "the first quarter of
2024" as ``BETWEEN '2024-01-01' AND '2024-03-31'`` over timestamps, the top 3 by units ranked
by sales, each region's revenue summed once per state, and "cost of goods sold" answered
without ``COGS``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from assay.catalog import Catalog, ColumnInfo, Profiles, TableInfo
from assay.checks import CheckContext
from assay.checks._day_end import day_end_dropped
from assay.checks._month_named import month_mismatch
from assay.checks._other_key import join_on_other_key
from assay.checks._ranked_other import ranked_by_other_measure
from assay.checks._ratio_overall import average_of_ratios
from assay.checks._spelled_out import spelled_column_unread
from assay.checks._sum_fan_out import sum_fanned_out
from assay.connectors import PooledConnector, connect
from assay.types import Candidate

AUGUST = "What were total sales in August 2025?"


def _month(question: str, where: str) -> list[str]:
    sql = f"SELECT SUM(sales_amount) FROM sales WHERE {where}"
    outcome = month_mismatch(CheckContext(question, Candidate(sql), "duckdb"))
    return [f.code for f in outcome.findings]


@pytest.mark.parametrize(
    ("question", "where"),
    [
        (AUGUST, "year(date) = 2025 AND month(date) = 7"),
        (AUGUST, "EXTRACT(MONTH FROM date) = 7"),
        (AUGUST, "strftime('%m', date) = '07'"),
        ("How many orders in May 2024?", "month(date) IN (6, 7)"),
    ],
    ids=["month", "extract", "strftime", "in-list"],
)
def test_another_months_number_fires(question: str, where: str) -> None:
    assert _month(question, where) == ["signal.month_mismatch"]


@pytest.mark.parametrize(
    ("question", "where"),
    [
        (AUGUST, "year(date) = 2025 AND month(date) = 8"),
        ("Sales in July compared with August 2025?", "month(date) IN (7, 8)"),
        ("Which products may sell best in 2025?", "month(date) = 7"),
        ("What were total sales last month?", "month(date) = 7"),
        (AUGUST, "month(date) BETWEEN 6 AND 9"),
    ],
    ids=["same-month", "both-named", "may-verb", "no-month", "range"],
)
def test_the_named_month_or_no_month_is_silent(question: str, where: str) -> None:
    assert _month(question, where) == []


OVERALL = "What was the overall click-through rate across all campaign days?"


def _ratio(question: str, select: str) -> list[str]:
    sql = f"SELECT {select} FROM marketing_campaign_metrics"
    outcome = average_of_ratios(CheckContext(question, Candidate(sql), "duckdb"))
    return [f.code for f in outcome.findings]


def test_an_overall_rate_averaged_per_row_fires() -> None:
    assert _ratio(OVERALL, "AVG(clicks * 1.0 / impressions) AS ctr") == ["signal.average_of_ratios"]


@pytest.mark.parametrize(
    ("question", "select"),
    [
        (OVERALL, "SUM(clicks) * 1.0 / SUM(impressions)"),
        ("What was the average daily click-through rate?", "AVG(clicks * 1.0 / impressions)"),
        ("What was the overall click share in percent?", "AVG(clicks / 100.0)"),
    ],
    ids=["ratio-of-sums", "average-asked", "constant-denominator"],
)
def test_a_ratio_of_totals_or_an_average_asked_is_silent(question: str, select: str) -> None:
    assert _ratio(question, select) == []


def _table(name: str, *columns: str) -> TableInfo:
    return TableInfo(name, tuple(ColumnInfo(c, "") for c in columns))


CORTEX = Catalog(
    (
        _table(
            "daily_revenue",
            "DATE",
            "REVENUE",
            "FORECASTED_REVENUE",
            "COGS",
            "Product_id",
            "Region_id",
        ),
        _table("product", "Product_id", "Product_line"),
        _table("region", "Region_id", "Region", "State"),
    )
)
BY_LINE = "Break down total revenue by product line."


def _key(on: str) -> list[str]:
    sql = (
        "SELECT p.Product_line, SUM(d.REVENUE) FROM daily_revenue d JOIN product p "
        f"ON {on} GROUP BY p.Product_line"
    )
    outcome = join_on_other_key(CheckContext(BY_LINE, Candidate(sql), "duckdb", CORTEX))
    return [f.code for f in outcome.findings]


def test_a_join_on_another_key_than_the_tables_own_fires() -> None:
    assert _key("d.Region_id = p.Product_id") == ["signal.join_on_other_key"]


def test_the_matching_key_is_silent() -> None:
    assert _key("d.Product_id = p.Product_id") == []
    # both keys joined: the other pair is then a second condition, not a misread key
    assert _key("d.Product_id = p.Product_id AND d.Region_id = p.Product_id") == []


@pytest.fixture(scope="module")
def revenue(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PooledConnector]:
    """A day's revenue stamped at 15:07 (a timestamp column) and the same day as a date."""
    path: Path = tmp_path_factory.mktemp("day_end") / "revenue.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE daily_revenue AS SELECT TIMESTAMP '2024-01-01 15:07:00' + "
        "INTERVAL (i) DAY AS DATE, CAST(TIMESTAMP '2024-01-01' + INTERVAL (i) DAY AS DATE) "
        "AS day, 100 + i AS REVENUE FROM range(0, 120) t(i)"
    )
    con.close()
    with connect(str(path)) as connector:
        yield connector


def _day_end(connector: PooledConnector, where: str) -> list[str]:
    sql = f"SELECT SUM(REVENUE) FROM daily_revenue WHERE {where}"
    catalog = connector.catalog()
    question = "What was total revenue in the first quarter of 2024?"
    ctx = CheckContext(
        question, Candidate(sql), connector.dialect, catalog, Profiles(connector, catalog)
    )
    return [f.code for f in day_end_dropped(ctx).findings]


def test_a_range_closed_on_a_day_over_timestamps_fires(revenue: PooledConnector) -> None:
    assert _day_end(revenue, "DATE BETWEEN '2024-01-01' AND '2024-03-31'") == [
        "signal.day_end_dropped"
    ]
    assert _day_end(revenue, "DATE >= '2024-01-01' AND DATE <= DATE '2024-03-31'") == [
        "signal.day_end_dropped"
    ]


@pytest.mark.parametrize(
    "where",
    [
        "DATE >= '2024-01-01' AND DATE < '2024-04-01'",
        "day BETWEEN '2024-01-01' AND '2024-03-31'",
        "DATE BETWEEN '2024-01-01' AND '2024-03-31 23:59:59'",
    ],
    ids=["exclusive", "dates", "bound-with-time"],
)
def test_an_exclusive_bound_dates_or_a_timed_bound_is_silent(
    revenue: PooledConnector, where: str
) -> None:
    assert _day_end(revenue, where) == []


UNITS = "Which 3 products sold the most units?"
RANKED = (
    "SELECT p.product_name, SUM(s.units_sold) AS units FROM sales s JOIN products p "
    "ON s.product_id = p.product_id GROUP BY p.product_name ORDER BY {} DESC LIMIT 3"
)


def _ranked(question: str, order: str) -> list[str]:
    sql = RANKED.format(order)
    outcome = ranked_by_other_measure(CheckContext(question, Candidate(sql), "duckdb"))
    return [f.code for f in outcome.findings]


def test_a_top_n_ranked_by_a_measure_not_named_fires() -> None:
    assert _ranked(UNITS, "SUM(s.sales_amount)") == ["signal.ranked_by_other_measure"]


@pytest.mark.parametrize(
    ("question", "order"),
    [
        (UNITS, "SUM(s.units_sold)"),
        (UNITS, "units"),
        ("Which 3 products had the highest sales amount, with their units?", "SUM(s.sales_amount)"),
    ],
    ids=["same-aggregate", "alias", "ordering-named"],
)
def test_a_ranking_by_the_named_measure_is_silent(question: str, order: str) -> None:
    assert _ranked(question, order) == []


@pytest.fixture(scope="module")
def regions(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PooledConnector]:
    """Daily revenue by region id, and a region table with one row per state (three states in
    region 1, two in region 2), as in the Cortex Analyst tutorial's data."""
    path: Path = tmp_path_factory.mktemp("fan_out") / "regions.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE daily_revenue AS SELECT i AS day, 1 + i % 2 AS Region_id, 10 AS REVENUE "
        "FROM range(0, 10) t(i)"
    )
    con.execute(
        "CREATE TABLE region AS SELECT * FROM (VALUES (1, 'East', 'NY'), (1, 'East', 'NJ'), "
        "(1, 'East', 'PA'), (2, 'West', 'CA'), (2, 'West', 'OR')) v(Region_id, Region, State)"
    )
    con.close()
    with connect(str(path)) as connector:
        yield connector


def _fan_out(connector: PooledConnector, sql: str) -> list[str]:
    catalog = connector.catalog()
    ctx = CheckContext(
        "What is the total revenue for each region?",
        Candidate(sql),
        connector.dialect,
        catalog,
        Profiles(connector, catalog),
    )
    return [f.code for f in sum_fanned_out(ctx).findings]


def test_a_sum_over_a_join_that_repeats_its_rows_fires(regions: PooledConnector) -> None:
    sql = (
        "SELECT r.Region, SUM(d.REVENUE) FROM daily_revenue d JOIN region r "
        "ON d.Region_id = r.Region_id GROUP BY r.Region"
    )
    assert _fan_out(regions, sql) == ["signal.sum_fanned_out"]


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT r.Region, SUM(d.REVENUE) FROM daily_revenue d JOIN (SELECT DISTINCT Region_id, "
        "Region FROM region) r ON d.Region_id = r.Region_id GROUP BY r.Region",
        "SELECT r.State, SUM(d.REVENUE) FROM daily_revenue d JOIN region r "
        "ON d.Region_id = r.Region_id GROUP BY r.State",
        "SELECT SUM(d.REVENUE) FROM daily_revenue d JOIN region r "
        "ON d.Region_id = r.Region_id WHERE r.State = 'NY'",
    ],
    ids=["distinct-regions", "per-state", "one-state"],
)
def test_a_sum_whose_rows_are_not_repeated_is_silent(regions: PooledConnector, sql: str) -> None:
    assert _fan_out(regions, sql) == []


GROSS = "What was our gross profit (revenue minus cost of goods sold) in 2024?"


def _spelled(question: str, select: str) -> list[str]:
    sql = f"SELECT {select} FROM daily_revenue WHERE YEAR(DATE) = 2024"
    outcome = spelled_column_unread(CheckContext(question, Candidate(sql), "duckdb", CORTEX))
    return [f.code for f in outcome.findings]


def test_a_column_spelled_by_its_initials_and_not_read_fires() -> None:
    assert _spelled(GROSS, "SUM(REVENUE - FORECASTED_REVENUE)") == ["signal.spelled_column_unread"]


@pytest.mark.parametrize(
    ("question", "select"),
    [
        (GROSS, "SUM(REVENUE) - SUM(COGS)"),
        (GROSS, "*"),
        ("What was our gross profit in 2024?", "SUM(REVENUE - FORECASTED_REVENUE)"),
    ],
    ids=["read", "star", "not-spelled"],
)
def test_the_spelled_column_read_or_not_spelled_is_silent(question: str, select: str) -> None:
    assert _spelled(question, select) == []
