"""A metric whose own definition aggregates a column of a table joined many to one from its
table (issue 12: OSI's ``store_productivity``, ``SUM(store_sales.ss_ext_sales_price) /
NULLIF(SUM(store.s_number_employees), 0)``).

The answer is the definition's: the planner joins the one side (LEFT, from the unmatched join
on, so no row of the metric's table leaves its other aggregates) and each store's employees
count once per sale. It is never shown plain: ``cap.fan_out_in_metric`` warns, naming the
column counted once per many-side row. A metric over its own table's columns only, or one
counting DISTINCT values of the one side, is not capped.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from assay.connectors import PooledConnector, connect
from assay.generators import plan
from assay.guard import validate
from assay.pipeline import Agent
from assay.semantic import JoinPath, Metric, Reading, SemanticLayer

PRODUCTIVITY = Metric(
    "productivity",
    "sales per employee",
    ("sales per employee",),
    "sales",
    "SUM(sales.amount) / NULLIF(SUM(store.employees), 0)",
)
TOTAL = Metric("total_sales", "total sales", ("total sales",), "sales", "SUM(sales.amount)")
PER_STORE = Metric(
    "sales_per_store",
    "sales per store",
    ("sales per store",),
    "sales",
    "SUM(sales.amount) / COUNT(DISTINCT store.store_id)",
)
LAYER = SemanticLayer(
    name="shop",
    metrics=(PRODUCTIVITY, TOTAL, PER_STORE),
    joins=(JoinPath("sales.store_id", "store.store_id", unmatched=1),),
    tables=("sales", "store"),
)
# Every sale, the employees of its store once per sale (NULL, so none, for the orphan sale).
DEFINED = (
    "SELECT SUM(s.amount) / NULLIF(SUM(t.employees), 0) FROM sales s "
    "LEFT JOIN store t ON s.store_id = t.store_id"
)


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PooledConnector]:
    """Two stores (10 and 30 employees), five sales, one of them with no store."""
    path: Path = tmp_path_factory.mktemp("fan") / "shop.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE store AS SELECT * FROM (VALUES (1, 10), (2, 30)) t(store_id, employees)"
    )
    con.execute(
        "CREATE TABLE sales AS SELECT * FROM (VALUES (1, 100.0), (1, 50.0), (1, 30.0), "
        "(2, 200.0), (NULL, 20.0)) t(store_id, amount)"
    )
    con.close()
    with connect(str(path)) as connector:
        yield connector


def _codes(verdict: object) -> list[str]:
    return [f.code for f in getattr(verdict, "findings", ())]


def test_the_definition_is_answered_and_warned(shop: PooledConnector) -> None:
    expected = shop.execute(DEFINED, time_limit_ms=5_000, max_rows=10).rows
    assert expected == ((400.0 / 60.0,),)  # employees 10 + 10 + 10 + 30, not 10 + 30
    verdict = Agent(shop, LAYER).ask("sales per employee")
    assert verdict.candidate is not None and verdict.candidate.result is not None
    assert verdict.candidate.result.rows == expected
    assert verdict.action == "warn"
    fan = [f for f in verdict.findings if f.code == "cap.fan_out_in_metric"]
    assert len(fan) == 1
    assert "employees is counted once per sales row, not once per store row" in fan[0].message
    assert "1 rows of sales match no store row" in fan[0].message


@pytest.mark.parametrize("question", ["total sales", "sales per store"])
def test_a_metric_without_a_one_side_sum_is_not_capped(
    shop: PooledConnector, question: str
) -> None:
    verdict = Agent(shop, LAYER).ask(question)
    assert verdict.candidate is not None and verdict.candidate.result is not None
    assert "cap.fan_out_in_metric" not in _codes(verdict)


def test_the_one_side_is_left_joined_only_for_the_metric_itself() -> None:
    """The metric's own join is LEFT (the orphan sale stays in SUM(sales.amount)); grouping by
    a column of the unmatched table is still refused (the orphan would vanish or be lumped)."""
    planned = plan(Reading("sales per employee", metrics=("productivity",)), LAYER)
    assert "LEFT JOIN store" in planned.sql
    assert validate(planned.sql, catalog=None, dialect="duckdb", semantic=LAYER).ok
    by_key = (
        "SELECT s.store_id, SUM(s.amount) / NULLIF(SUM(t.employees), 0) FROM sales s "
        "LEFT JOIN store t ON s.store_id = t.store_id GROUP BY s.store_id"
    )
    assert validate(by_key, catalog=None, dialect="duckdb", semantic=LAYER).ok
    for sql in (
        "SELECT t.employees, SUM(s.amount) FROM sales s LEFT JOIN store t "
        "ON s.store_id = t.store_id GROUP BY 1",
        "SELECT SUM(s.amount) FROM sales s JOIN store t ON s.store_id = t.store_id",
        "SELECT SUM(s.amount) FROM sales s LEFT JOIN store t ON s.store_id = t.store_id "
        "WHERE t.employees IS NULL",
        "SELECT t.store_id, SUM(s.amount) FROM sales s LEFT JOIN store t "
        "ON s.store_id = t.store_id GROUP BY t.store_id",
    ):
        assert not validate(sql, catalog=None, dialect="duckdb", semantic=LAYER).ok, sql
