"""Stand-in codes inside an aggregate (tryout 10, item 119).

``9999-12-31`` stands for "never shipped". Averaged in, it makes an average delivery of about
160 years: a number that means nothing, so it is withheld (``veto.stand_in_in_aggregate``),
never shown as a warning. Whether the answer's own rows hold the code is measured in the
engine: a period or a required filter that keeps them out leaves the answer clean. A count
still counts real rows (``cap.stand_in_in_aggregate`` warns). Excluding the stand-ins is the
layer's decision: a required filter that excludes them gives the shown average.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import duckdb
import pytest

from assay.cli._ask import demo_warehouse
from assay.connectors import PooledConnector, connect
from assay.pipeline import Agent
from assay.semantic import Metric, SemanticLayer, load_semantic
from assay.settings import load_settings

DELIVERY = Metric(
    "delivery_days",
    "delivery days",
    ("delivery days",),
    "orders",
    "AVG(orders.shipped_date - orders.order_date)",
    "orders.order_date",
)
LATEST = Metric(
    "latest_ship",
    "latest ship date",
    ("latest ship date",),
    "orders",
    "MAX(orders.shipped_date)",
    "orders.order_date",
)
SHIPPED = Metric(
    "shipments",
    "shipments",
    ("shipments",),
    "orders",
    "COUNT(orders.shipped_date)",
    "orders.order_date",
)
LATE = Metric(
    "late",
    "late shipments",
    ("late shipments",),
    "orders",
    "SUM(CASE WHEN orders.shipped_date > orders.order_date + 3 THEN 1 ELSE 0 END)",
    "orders.order_date",
)
LAYER = SemanticLayer(
    name="orders",
    metrics=(DELIVERY, LATEST, SHIPPED, LATE),
    coverage=(dt.date(2022, 1, 1), dt.date(2023, 12, 31)),
    clock=dt.date(2023, 12, 31),
    tables=("orders",),
)
CLEAN = "orders.shipped_date <> CAST('9999-12-31' AS DATE)"


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PooledConnector]:
    """730 orders over 2022-2023, shipped 1 to 5 days later; every 20th order of 2023 is never
    shipped (9999-12-31, 2.5% of rows); 2022 has none."""
    path: Path = tmp_path_factory.mktemp("standin") / "orders.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE orders AS SELECT i AS order_id, DATE '2022-01-01' + i AS order_date, "
        "CASE WHEN i >= 365 AND i % 20 = 0 THEN DATE '9999-12-31' "
        "ELSE DATE '2022-01-01' + i + 1 + i % 5 END AS shipped_date "
        "FROM (SELECT CAST(range AS INTEGER) AS i FROM range(0, 730))"
    )
    con.execute(
        "CREATE TABLE tickets AS SELECT i AS ticket_id, TIMESTAMP '2023-01-01 08:00' + "
        "TO_DAYS(i) AS opened_at, CASE WHEN i % 25 = 0 THEN TIMESTAMP '9999-12-31 23:59:59' "
        "ELSE TIMESTAMP '2023-01-01 17:30' + TO_DAYS(i) END AS closed_at "
        "FROM (SELECT CAST(range AS INTEGER) AS i FROM range(0, 300))"
    )
    con.close()
    with connect(str(path)) as connector:
        yield connector


def _one(connector: PooledConnector, sql: str) -> object:
    return connector.execute(sql, time_limit_ms=5_000, max_rows=1).rows[0][0]


def _codes(verdict: object) -> set[str]:
    return {f.code for f in getattr(verdict, "findings", ())}


def test_an_average_over_stand_ins_is_withheld(shop: PooledConnector) -> None:
    in_2023 = "WHERE order_date >= DATE '2023-01-01' AND order_date < DATE '2024-01-01'"
    stand_ins = _one(shop, f"SELECT count(*) FROM orders {in_2023} AND shipped_date = '9999-12-31'")
    assert stand_ins == 18
    verdict = Agent(shop, LAYER).ask("delivery days in 2023")
    assert verdict.action == "withhold", verdict.reasons
    assert "veto.stand_in_in_aggregate" in verdict.reasons
    [finding] = [f for f in verdict.findings if f.code == "veto.stand_in_in_aggregate"]
    assert finding.evidence["rows"] == stand_ins
    assert "18 of the rows it aggregates" in finding.message
    assert CLEAN in finding.message  # the fix: the layer's own exclusion


def test_a_maximum_over_stand_ins_is_withheld(shop: PooledConnector) -> None:
    verdict = Agent(shop, LAYER).ask("latest ship date in 2023")
    assert verdict.action == "withhold"
    assert "veto.stand_in_in_aggregate" in _codes(verdict)


def test_a_period_without_stand_ins_is_shown(shop: PooledConnector) -> None:
    expected = _one(
        shop,
        "SELECT AVG(shipped_date - order_date) FROM orders "
        "WHERE order_date >= DATE '2022-01-01' AND order_date < DATE '2023-01-01'",
    )
    assert isinstance(expected, float) and 2.9 < expected < 3.1
    verdict = Agent(shop, LAYER).ask("delivery days in 2022")
    assert verdict.candidate is not None and verdict.candidate.result is not None
    assert verdict.candidate.result.rows[0][-1] == pytest.approx(expected)
    assert not {"veto.stand_in_in_aggregate", "cap.stand_in_in_aggregate"} & _codes(verdict)
    assert verdict.action == "show"


def test_a_count_over_stand_ins_is_only_warned(shop: PooledConnector) -> None:
    verdict = Agent(shop, LAYER).ask("shipments in 2023")
    assert verdict.action == "warn"
    assert verdict.reasons == ("cap.stand_in_in_aggregate",)


def test_a_stand_in_that_only_picks_rows_is_only_warned(shop: PooledConnector) -> None:
    """``CASE WHEN shipped_date > ...``: the never-shipped orders count as late (the code is
    compared, not summed), so the number is a count of rows, warned."""
    verdict = Agent(shop, LAYER).ask("late shipments in 2023")
    assert verdict.action == "warn"
    assert verdict.reasons == ("cap.stand_in_in_aggregate",)


def test_the_layers_exclusion_answers_without_them(shop: PooledConnector) -> None:
    expected = _one(
        shop,
        "SELECT AVG(shipped_date - order_date) FROM orders WHERE order_date >= DATE '2023-01-01'"
        " AND order_date < DATE '2024-01-01' AND shipped_date <> DATE '9999-12-31'",
    )
    clean = replace(DELIVERY, required_filters=(CLEAN,))
    layer = replace(LAYER, metrics=(clean, LATEST, SHIPPED, LATE))
    verdict = Agent(shop, layer).ask("delivery days in 2023")
    assert verdict.candidate is not None and verdict.candidate.result is not None
    assert verdict.candidate.result.rows[0][-1] == pytest.approx(expected)
    assert verdict.action == "show", verdict.reasons


def test_the_demo_average_delivery_per_channel_is_withheld() -> None:
    db, semantic = demo_warehouse(load_settings())
    con = duckdb.connect(str(db), read_only=True)
    [(stand_ins,)] = con.execute(
        "SELECT count(*) FROM orders WHERE order_date >= DATE '2024-01-01' AND order_date < "
        "DATE '2024-11-16' AND status <> 'cancelled' AND shipped_date = DATE '9999-12-31'"
    ).fetchall()
    con.close()
    assert stand_ins == 135
    with connect(str(db)) as connector:
        verdict = Agent(connector, load_semantic(semantic)).ask(
            "average delivery days per channel this year"
        )
    assert verdict.action == "withhold"
    [finding] = [f for f in verdict.findings if f.code == "veto.stand_in_in_aggregate"]
    assert finding.evidence["rows"] == stand_ins


def test_a_timestamp_stand_in_late_in_the_day_is_found(shop: PooledConnector) -> None:
    """The profile matches a date code on the value's first ten characters; so does the
    probe (``9999-12-31 23:59:59`` is not ``CAST('9999-12-31' AS TIMESTAMP)``)."""
    last = Metric(
        "last_close",
        "last close",
        ("last close",),
        "tickets",
        "MAX(tickets.closed_at)",
        "tickets.opened_at",
    )
    layer = SemanticLayer(
        name="tickets",
        metrics=(last,),
        coverage=(dt.date(2023, 1, 1), dt.date(2023, 12, 31)),
        clock=dt.date(2023, 12, 31),
        tables=("tickets",),
    )
    verdict = Agent(shop, layer).ask("last close in 2023")
    assert verdict.action == "withhold"
    [finding] = [f for f in verdict.findings if f.code == "veto.stand_in_in_aggregate"]
    assert finding.evidence["rows"] == 12  # i % 25 == 0 for i in 0..299
