"""Readings from agreed22 (a development set), each shown with five samples agreeing: "the
overall average net paid per sale line" as the average of per-category averages, "the average
daily sales amount for each region" as the average of single rows (several to a region's day),
"customers who spent more than 5,000 in total" as ``WHERE ss_net_paid > 5000`` on single
lines, and "the top 3 categories by units sold" ranked by ``sum(ws_net_paid)`` while
``sum(ws_quantity) AS units_sold`` is shown. Each on a small schema of its own, and the record
itself."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from assay.catalog import Profiles
from assay.checks import CheckContext
from assay.checks._averaged_averages import average_of_averages
from assay.checks._period_average import period_rows_averaged
from assay.checks._ranked_other import ranked_by_other_measure
from assay.checks._total_bound import total_bound_on_rows
from assay.connectors import PooledConnector, connect
from assay.types import Candidate

# -- an average of per-group averages (h22_d07) ---------------------------------------------

OVERALL = "What was the overall average amount per sale line in 2024?"
PER_REGION = "SELECT region, avg(amount) AS region_avg FROM sales GROUP BY region"


def _averaged(question: str, sql: str) -> list[str]:
    outcome = average_of_averages(CheckContext(question, Candidate(sql), "duckdb"))
    return [f.code for f in outcome.findings]


@pytest.mark.parametrize(
    "sql",
    [
        f"SELECT avg(region_avg) FROM ({PER_REGION}) t",
        f"WITH r AS ({PER_REGION}) SELECT round(avg(region_avg), 2) FROM r",
    ],
    ids=["derived-table", "cte"],
)
def test_one_average_asked_as_an_average_of_group_averages_fires(sql: str) -> None:
    assert _averaged(OVERALL, sql) == ["signal.average_of_averages"]


def test_the_agreed22_record_d07_fires() -> None:
    sql = (
        "SELECT avg(cat_avg) AS avg_net_paid FROM (SELECT i_category, avg(ss_net_paid) AS "
        "cat_avg FROM store_sales JOIN date_dim ON ss_sold_date_sk = d_date_sk JOIN item ON "
        "ss_item_sk = i_item_sk WHERE d_year = 2002 GROUP BY i_category) t"
    )
    question = "What was the overall average net paid per store sale line in 2002?"
    assert _averaged(question, sql) == ["signal.average_of_averages"]


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        (OVERALL, "SELECT avg(amount) FROM sales"),
        (
            "What is the average of the regions' average amounts?",
            f"SELECT avg(region_avg) FROM ({PER_REGION}) t",
        ),
        (
            "What is the mean of the region averages?",
            f"SELECT avg(region_avg) FROM ({PER_REGION}) t",
        ),
        (
            OVERALL,
            "SELECT avg(total) FROM (SELECT region, sum(amount) AS total FROM sales "
            "GROUP BY region) t",
        ),
        (OVERALL, "SELECT avg(a) FROM (SELECT avg(amount) AS a FROM sales) t"),
    ],
    ids=["rows", "averages-asked", "mean-of-averages", "average-of-totals", "ungrouped"],
)
def test_rows_averaged_or_an_average_of_averages_asked_is_silent(question: str, sql: str) -> None:
    assert _averaged(question, sql) == []


# -- an average per day over single rows (h22_c06) ------------------------------------------

DAILY = "What is the average daily sales amount for each region?"


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PooledConnector]:
    """``sales``: three products a day in two regions over 30 days (six rows a day), as the
    Snowflake Intelligence guide's data; ``totals``: one row per region and day; ``rates``:
    the rows of ``sales`` with their amount named a daily rate."""
    path: Path = tmp_path_factory.mktemp("dev22c") / "shop.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE sales AS SELECT DATE '2025-06-01' + CAST(d AS INTEGER) AS date, "
        "['North', 'South'][r + 1] AS region, p AS product_id, CAST(10 + d + p * 3 + r AS "
        "DOUBLE) AS sales_amount FROM range(30) a(d), range(2) b(r), range(3) c(p)"
    )
    con.execute("CREATE TABLE rates AS SELECT date, region, sales_amount AS daily_rate FROM sales")
    con.execute(
        "CREATE TABLE totals AS SELECT date, region, sum(sales_amount) AS sales_amount "
        "FROM sales GROUP BY date, region"
    )
    con.close()
    with connect(str(path)) as connector:
        yield connector


def _period(connector: PooledConnector, question: str, sql: str) -> list[str]:
    catalog = connector.catalog()
    ctx = CheckContext(
        question, Candidate(sql), connector.dialect, catalog, Profiles(connector, catalog)
    )
    return [f.code for f in period_rows_averaged(ctx).findings]


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        (DAILY, "SELECT region, avg(sales_amount) AS avg_daily_sales FROM sales GROUP BY region"),
        ("What is the daily average sales amount?", "SELECT avg(sales_amount) FROM sales"),
        (
            "What was the North region's average monthly sales amount?",
            "SELECT avg(s.sales_amount) FROM sales s WHERE s.region = 'North'",
        ),
    ],
    ids=["agreed22-c06", "daily-average", "monthly"],
)
def test_a_period_average_over_single_rows_fires(
    shop: PooledConnector, question: str, sql: str
) -> None:
    assert _period(shop, question, sql) == ["signal.period_rows_averaged"]


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        (
            DAILY,
            "SELECT region, avg(day_total) FROM (SELECT region, date, sum(sales_amount) AS "
            "day_total FROM sales GROUP BY region, date) t GROUP BY region",
        ),
        (DAILY, "SELECT region, avg(sales_amount) FROM totals GROUP BY region"),
        (
            "What is the average sales amount for each region?",
            "SELECT region, avg(sales_amount) FROM sales GROUP BY region",
        ),
        (DAILY, "SELECT region, date, avg(sales_amount) FROM sales GROUP BY region, date"),
        (
            "What is the average daily amount for each region?",
            "SELECT region, avg(daily_amount) FROM (SELECT *, sales_amount AS daily_amount "
            "FROM sales) s GROUP BY region",
        ),
        (
            "What is the average daily rate for each region?",
            "SELECT region, avg(s.daily_rate) FROM rates s GROUP BY region",
        ),
    ],
    ids=[
        "day-totals-first",
        "one-row-a-day",
        "no-period-asked",
        "grouped-by-day",
        "derived-table",
        "column-names-the-period",
    ],
)
def test_day_totals_averaged_or_no_period_asked_is_silent(
    shop: PooledConnector, question: str, sql: str
) -> None:
    assert _period(shop, question, sql) == []


# -- a bound on a total put on single rows (h22_d13) ----------------------------------------


def _bounded(question: str, sql: str) -> list[str]:
    outcome = total_bound_on_rows(CheckContext(question, Candidate(sql), "duckdb"))
    return [f.code for f in outcome.findings]


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        (
            "How many customers spent more than 5,000 in total at our store in 1999?",
            "SELECT count(DISTINCT ss_customer_sk) AS customers FROM store_sales JOIN date_dim "
            "ON ss_sold_date_sk = d_date_sk WHERE d_year = 1999 AND ss_net_paid > 5000",
        ),
        (
            "Which customers bought more than 20 units altogether?",
            "SELECT DISTINCT customer FROM orders WHERE units > 20",
        ),
        (
            "Which regions sold at least 300 combined?",
            "SELECT DISTINCT o.region FROM orders o WHERE 300 <= o.amount",
        ),
    ],
    ids=["agreed22-d13", "altogether", "combined-reversed"],
)
def test_a_bound_on_a_total_put_on_single_rows_fires(question: str, sql: str) -> None:
    assert _bounded(question, sql) == ["signal.total_bound_on_rows"]


SPENT = "Which customers spent more than 50,000 in total at our store in 2002?"


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        (
            SPENT,
            "SELECT ss_customer_sk FROM store_sales GROUP BY ss_customer_sk "
            "HAVING sum(ss_net_paid) > 50000",
        ),
        (
            SPENT,
            "WITH spend AS (SELECT ss_customer_sk, sum(ss_net_paid) AS total FROM store_sales "
            "GROUP BY ss_customer_sk) SELECT ss_customer_sk FROM spend WHERE total > 50000",
        ),
        (
            SPENT,
            "SELECT c FROM (SELECT ss_customer_sk AS c, sum(ss_net_paid) AS t FROM store_sales "
            "GROUP BY 1) s WHERE t > 50000",
        ),
        (
            "How many sale lines paid more than 5,000?",
            "SELECT count(*) FROM store_sales WHERE ss_net_paid > 5000",
        ),
        (SPENT, "SELECT DISTINCT ss_customer_sk FROM store_sales WHERE ss_quantity > 10"),
        (
            "What was the combined revenue of orders over 500?",
            "SELECT sum(amount) FROM orders WHERE amount > 500",
        ),
        (
            "Which customers spent more than 1,000 in total?",
            "SELECT CUSTOMER_NAME FROM SMG_DEMO WHERE LIFETIME_SPEND > 1000",
        ),
    ],
    ids=[
        "having",
        "cte-total",
        "derived-total",
        "no-total-asked",
        "other-number",
        "combined-measure-rows-bounded",
        "column-holds-total",
    ],
)
def test_a_total_bounded_or_no_total_asked_is_silent(question: str, sql: str) -> None:
    assert _bounded(question, sql) == []


# -- a ranking by a measure other than the one shown under its asked name (h22_d09) --------

TOP = "What were the top 3 item categories by units sold on the web in 1998?"
RANKED = (
    "SELECT i_category, sum(ws_quantity) AS units_sold FROM web_sales JOIN date_dim ON "
    "ws_sold_date_sk = d_date_sk JOIN item ON ws_item_sk = i_item_sk WHERE d_year = 1998 "
    "GROUP BY i_category ORDER BY {} DESC LIMIT 3"
)


def _ranked(question: str, order: str) -> list[str]:
    sql = RANKED.format(order)
    outcome = ranked_by_other_measure(CheckContext(question, Candidate(sql), "duckdb"))
    return [f.code for f in outcome.findings]


def test_the_agreed22_record_d09_fires() -> None:
    assert _ranked(TOP, "sum(ws_net_paid)") == ["signal.ranked_by_other_measure"]


@pytest.mark.parametrize(
    ("question", "order"),
    [
        (TOP, "sum(ws_quantity)"),
        (TOP, "units_sold"),
        (
            "What were the top 3 item categories by net paid on the web, with units sold?",
            "sum(ws_net_paid)",
        ),
    ],
    ids=["same-aggregate", "alias", "ordering-named"],
)
def test_the_named_ranking_is_silent(question: str, order: str) -> None:
    assert _ranked(question, order) == []
