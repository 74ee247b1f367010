"""agreed22's right answers withheld (a development set; five samples agreeing on each): a
weekend share whose total is a scalar subquery's SUM over a CTE (h22_d01: ``_rates``), and an
average per year as a DISTINCT window partitioned by year (h22_h05: ``_partitioned``), each
first on a small schema of its own (``_club22``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from assay.checks._consistency import aggregate_fit, grouping_fit
from assay.connectors import PooledConnector
from tests.checks._club22 import club_at, club_ctx
from tests.checks._helpers import codes, scored


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PooledConnector]:
    with club_at(tmp_path_factory.mktemp("right22") / "club.duckdb") as connector:
        yield connector


PER = "What was the average sale amount per year?"


@pytest.mark.parametrize(
    ("sql", "fires"),
    [
        ("SELECT DISTINCT yr, avg(amount) OVER (PARTITION BY yr) FROM sales", False),
        ("SELECT DISTINCT yr AS y, avg(amount) OVER (PARTITION BY yr) AS a FROM sales", False),
        ("SELECT yr, avg(amount) OVER (PARTITION BY yr) FROM sales", True),  # a row per sale
        ("SELECT DISTINCT yr, avg(amount) OVER (PARTITION BY yr ORDER BY mo) FROM sales", True),
        ("SELECT DISTINCT avg(amount) OVER (PARTITION BY yr) FROM sales", True),  # no year
        ("SELECT DISTINCT yr, avg(amount) OVER (PARTITION BY mo) FROM sales", True),
        ("SELECT DISTINCT yr, avg(amount) FROM sales", True),
    ],
    ids=["distinct", "aliased", "no_distinct", "running", "unnamed", "other_part", "plain"],
)
def test_a_distinct_window_per_partition_is_a_grouping(
    club: PooledConnector, sql: str, fires: bool
) -> None:
    found = [f.code for f in grouping_fit(club_ctx(club, PER, sql)).findings]
    assert ("signal.grouping_missing" in found) is fires


WEEKEND = "What share of sales amount came in the first half of the year?"
SHARE_CTE = (
    "WITH t AS (SELECT mo <= 6 AS first_half, sum(amount) AS s FROM sales GROUP BY 1) "
    "SELECT (SELECT s FROM t WHERE first_half) / ({}) AS share"
)


@pytest.mark.parametrize(
    ("total", "fires"),
    [
        ("SELECT sum(s) FROM t", False),  # the scalar subquery's SUM is the ratio's side
        ("SELECT max(s) FROM t HAVING sum(s) > 0", True),  # a SUM of its HAVING is not
    ],
    ids=["sum_of_subquery", "sum_in_having"],
)
def test_a_sum_a_scalar_subquery_returns_is_a_side_of_the_ratio(
    club: PooledConnector, total: str, fires: bool
) -> None:
    findings = aggregate_fit(club_ctx(club, WEEKEND, SHARE_CTE.format(total))).findings
    assert any("adds up (SUM)" in f.message for f in findings) is fires


def test_a_weekend_share_over_a_cte_is_shown(tmp_path: Path, tpcds_duckdb: Path) -> None:
    sql = (
        "WITH t AS (SELECT d_weekend, sum(ss_net_paid) AS paid FROM store_sales JOIN date_dim "
        "ON ss_sold_date_sk = d_date_sk WHERE d_year = 2001 GROUP BY d_weekend) SELECT (SELECT "
        "paid FROM t WHERE d_weekend = 'Y') / (SELECT sum(paid) FROM t) AS weekend_share"
    )
    question = "What share of our 2001 store sales net paid came in on weekends?"
    verdict = scored(tmp_path, tpcds_duckdb, question, *[sql] * 5)
    assert verdict["action"] == "show", codes(verdict)


def test_an_average_per_year_as_a_distinct_window_is_shown(
    tmp_path: Path, tpch_duckdb: Path
) -> None:
    sql = (
        "SELECT DISTINCT extract(year FROM o_orderdate) AS order_year, avg(o_totalprice) OVER "
        "(PARTITION BY extract(year FROM o_orderdate)) AS avg_total FROM orders ORDER BY "
        "order_year"
    )
    question = "What was the average order total price per year? List by year."
    verdict = scored(tmp_path, tpch_duckdb, question, *[sql] * 5)
    assert verdict["action"] == "show", codes(verdict)
