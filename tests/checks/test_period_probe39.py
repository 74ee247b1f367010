"""A single bound on the period's own first (or last) day, told apart by the data (fix39h).

"What was the gross revenue in 2023?" as ``order_date >= '2023-01-01'`` alone sums 2024 too
where the orders run into 2024 (the demo warehouse, shown), yet "in 1998" as ``>= '1998-01-01'``
is right on TPC-H, whose orders end in 1998. The engine says which: the rows the answer reads
hold a date past the period's other end, or they do not."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from assay.cli._ask import demo_warehouse
from assay.settings import load_settings
from tests.checks._helpers import codes, scored

QUESTION = "What was the total amount sold in 2023?"
# Each bound on the period's own first or last day (``> '2022-12-31'`` names no 2023, which
# ``literal_missing`` withholds whatever the data).
FROM_START = ["sale_date >= '2023-01-01'", "sale_date >= DATE '2023-01-01'"]
TO_END = ["sale_date < '2024-01-01'", "sale_date <= '2023-12-31'"]


def _sales(tmp_path_factory: pytest.TempPathFactory, first: str, days: int) -> Path:
    path = tmp_path_factory.mktemp("sales39") / "sales.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        f"CREATE TABLE sales AS SELECT CAST(DATE '{first}' + CAST(i AS INTEGER) AS DATE) AS "
        f"sale_date, 10.0 + i % 7 AS amount FROM range({days}) t(i)"
    )
    con.close()
    return path


@pytest.fixture(scope="module")
def past(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Sales from June 2022 to May 2024: past both ends of 2023."""
    return _sales(tmp_path_factory, "2022-06-01", 720)


@pytest.fixture(scope="module")
def inside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Sales from February to July 2023: both ends inside 2023."""
    return _sales(tmp_path_factory, "2023-02-01", 180)


def _sql(where: str) -> str:
    return f"SELECT SUM(amount) FROM sales WHERE {where}"


@pytest.mark.parametrize("where", [*FROM_START, *TO_END, "sale_date > '2022-12-31'"])
def test_one_bound_over_data_past_the_period_is_withheld(
    tmp_path: Path, past: Path, where: str
) -> None:
    verdict = scored(tmp_path, past, QUESTION, *[_sql(where)] * 5)
    assert verdict["action"] == "withhold", codes(verdict)
    assert "signal.period_bound" in codes(verdict)
    said = " ".join(f["message"] for f in verdict["findings"] if f["code"] == "signal.period_bound")
    assert "2023-01-01" in said and "2023-12-31" in said, said


@pytest.mark.parametrize("where", FROM_START + TO_END)
def test_one_bound_over_data_inside_the_period_is_shown(
    tmp_path: Path, inside: Path, where: str
) -> None:
    verdict = scored(tmp_path, inside, QUESTION, *[_sql(where)] * 5)
    assert "signal.period_bound" not in codes(verdict)
    assert verdict["action"] == "show", [(f["code"], f["message"]) for f in verdict["findings"]]


def test_both_bounds_over_data_past_the_period_are_shown(tmp_path: Path, past: Path) -> None:
    where = "sale_date >= '2023-01-01' AND sale_date < '2024-01-01'"
    verdict = scored(tmp_path, past, QUESTION, *[_sql(where)] * 5)
    assert verdict["action"] == "show", [(f["code"], f["message"]) for f in verdict["findings"]]


def test_the_demo_lower_bound_alone_is_withheld(tmp_path: Path) -> None:
    demo = demo_warehouse(load_settings())[0]
    sql = (
        "SELECT SUM(ol.quantity * ol.unit_price) FROM orders JOIN order_lines ol "
        "ON ol.order_id = orders.order_id WHERE orders.order_date >= '2023-01-01'"
    )
    verdict = scored(tmp_path, demo, "What was the gross revenue in 2023?", sql)
    assert verdict["action"] == "withhold", codes(verdict)
    assert "signal.period_bound" in codes(verdict)
