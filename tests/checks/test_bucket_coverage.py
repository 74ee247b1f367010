"""A series' rows are labelled by their bucket's first day: data that begins mid-month has its
first month labelled before coverage begins, and that label is no impossible date (outside
tryout 19: "Units sold per month by region" on Cortex Analyst's marketing model was withheld
for "a date outside coverage (2025-05-01)", its data beginning 2025-05-16)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from assay.checks import CheckContext
from assay.checks._verify import possible_values
from assay.connectors import PooledConnector, connect
from assay.generators import plan
from assay.semantic import Metric, Reading, SemanticLayer
from assay.types import Candidate

ORDERS = Metric("orders", "Orders", ("orders",), "orders", "COUNT(*)", "orders.placed")
# the data's first day is 16 May 2025, its last 14 August 2025
LAYER = SemanticLayer(
    name="shop",
    metrics=(ORDERS,),
    coverage=(dt.date(2025, 5, 16), dt.date(2025, 8, 14)),
    tables=("orders",),
)


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PooledConnector]:
    path: Path = tmp_path_factory.mktemp("buckets") / "shop.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE orders AS SELECT i AS id, DATE '2025-05-16' + CAST(i % 91 AS INTEGER) "
        "AS placed FROM range(0, 500) t(i)"
    )
    con.close()
    with connect(str(path)) as connector:
        yield connector


def _codes(connector: PooledConnector, reading: Reading, sql: str | None = None) -> list[str]:
    sql = sql or plan(reading, LAYER, connector.dialect).sql
    result = connector.execute(sql, time_limit_ms=5_000, max_rows=100)
    ctx = CheckContext(
        reading.question,
        Candidate(sql, (), None, result),
        connector.dialect,
        reading=reading,
        layer=LAYER,
        metric=ORDERS,
        coverage=LAYER.coverage,
    )
    return [f.code for f in possible_values(ctx).findings]


@pytest.mark.parametrize("grain", ["week", "month", "quarter", "year"])
def test_a_bucket_that_holds_coverage_start_is_no_impossible_date(
    shop: PooledConnector, grain: str
) -> None:
    reading = Reading(f"orders per {grain}", metrics=("orders",), grain=grain)
    assert _codes(shop, reading) == []


def test_a_date_before_the_first_bucket_is_still_impossible(shop: PooledConnector) -> None:
    reading = Reading("orders per month", metrics=("orders",), grain="month")
    # a month before the month coverage begins in: no bucket of this data holds it
    sql = "SELECT DATE '2025-04-01' AS month, 3 AS value"
    assert _codes(shop, reading, sql) == ["veto.impossible_value"]
    # a day row (no grain) before coverage's first day stays impossible too
    daily = Reading("orders", metrics=("orders",))
    assert _codes(shop, daily, "SELECT DATE '2025-05-01' AS day, 3 AS value") == [
        "veto.impossible_value"
    ]
