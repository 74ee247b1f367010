"""Outside tryout 31 on TPC-H at scale factor 0.01, r4: "How many different customers placed
orders in 1996?" as ``COUNT(*)`` of a CTE of DISTINCT ``o_custkey`` (880, right, five samples
agreeing) was withheld as counting rows of orders; a count of orders' rows (``count(o_custkey)``,
``count(*)`` of orders, a CTE of DISTINCT order keys) still is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.checks._helpers import codes, scored

CUSTOMERS = "How many different customers placed orders in 1996?"
IN_1996 = "o_orderdate >= DATE '1996-01-01' AND o_orderdate < DATE '1997-01-01'"
COUNTED_KEYS = [
    ("distinct_cte",
     f"WITH b AS (SELECT DISTINCT o_custkey FROM orders WHERE {IN_1996}) SELECT count(*) FROM b"),
    ("grouped_cte",
     f"WITH b AS (SELECT o_custkey FROM orders WHERE {IN_1996} GROUP BY o_custkey) "
     "SELECT count(*) FROM b"),
    ("grouped_derived_table",
     f"SELECT count(*) FROM (SELECT o_custkey FROM orders WHERE {IN_1996} GROUP BY o_custkey) t"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "sql"), COUNTED_KEYS, ids=[c[0] for c in COUNTED_KEYS])
def test_a_count_of_distinct_customer_keys_counts_customers(
    tmp_path: Path, tpch_duckdb: Path, name: str, sql: str
) -> None:
    verdict = scored(tmp_path, tpch_duckdb, CUSTOMERS, *[sql] * 5)
    assert verdict["action"] == "show", (name, verdict["reasons"])


COUNTED_ORDERS = [
    ("count_of_the_key", f"SELECT count(o_custkey) FROM orders WHERE {IN_1996}"),
    ("count_of_orders", f"SELECT count(*) FROM orders WHERE {IN_1996}"),
    ("distinct_orders_cte",
     f"WITH b AS (SELECT DISTINCT o_orderkey FROM orders WHERE {IN_1996}) SELECT count(*) FROM b"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "sql"), COUNTED_ORDERS, ids=[c[0] for c in COUNTED_ORDERS])
def test_a_count_of_orders_rows_is_still_withheld(
    tmp_path: Path, tpch_duckdb: Path, name: str, sql: str
) -> None:
    verdict = scored(tmp_path, tpch_duckdb, CUSTOMERS, *[sql] * 5)
    assert verdict["action"] == "withhold", (name, codes(verdict))
