"""Which date the question means, across the tables the SQL reads: "line items shipped in
1996" filtered on the order's date (agreed16: shown at 1.00), with TPC-H's glued names
(``l_shipdate``, ``o_orderdate``)."""

from __future__ import annotations

import sqlglot

from assay.catalog import Catalog, ColumnInfo, TableInfo
from assay.checks._date_keys import date_keys_misread


def _table(name: str, *columns: str) -> TableInfo:
    return TableInfo(name, tuple(ColumnInfo(c, "") for c in columns))


CATALOG = Catalog(
    (
        _table("orders", "o_orderkey", "o_orderdate", "o_totalprice"),
        _table("lineitem", "l_orderkey", "l_shipdate", "l_extendedprice", "l_discount"),
    ),
)
JOIN = "FROM lineitem JOIN orders ON l_orderkey = o_orderkey"
QUESTION = "What was the total revenue of line items shipped in 1996?"


def _codes(question: str, sql: str) -> list[str]:
    tree = sqlglot.parse_one(sql, read="duckdb")
    return [f.code for f in date_keys_misread(question, tree, CATALOG)]


def test_the_other_tables_date_is_a_column_mismatch() -> None:
    sql = f"SELECT SUM(l_extendedprice) {JOIN} WHERE year(o_orderdate) = 1996"
    assert _codes(QUESTION, sql) == ["signal.column_mismatch"]


def test_the_meant_date_or_no_event_is_silent() -> None:
    sql = f"SELECT SUM(l_extendedprice) {JOIN} WHERE year(l_shipdate) = 1996"
    assert _codes(QUESTION, sql) == []
    other = f"SELECT SUM(l_extendedprice) {JOIN} WHERE year(o_orderdate) = 1996"
    assert _codes("What was the total revenue of line items in 1996?", other) == []
