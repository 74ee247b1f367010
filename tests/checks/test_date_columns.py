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


WEB = Catalog(
    (
        _table("web_sales", "ws_sold_date_sk", "ws_ship_date_sk", "ws_net_paid"),
        _table("date_dim", "d_date_sk", "d_year"),
    ),
)


def _web(question: str, key: str) -> list[str]:
    sql = (
        f"SELECT sum(ws_net_paid) FROM web_sales JOIN date_dim ON {key} = d_date_sk "
        "WHERE d_year = 2001"
    )
    tree = sqlglot.parse_one(sql, read="duckdb")
    return [f.code for f in date_keys_misread(question, tree, WEB)]


def test_a_sales_table_is_dated_by_its_sale_when_no_event_is_said() -> None:
    # Outside tryout 23, U3 and T2: a year's web (catalog) sales joined to the calendar on the
    # ship date, shown at 1.00; no verb said, so the sale's own date is meant.
    question = "What were web sales net paid in 2001?"
    assert _web(question, "ws_ship_date_sk") == ["signal.column_mismatch"]
    assert _web(question, "ws_sold_date_sk") == []
    # another event said: the ship date may be meant, and the check is silent
    assert _web("What were web sales net paid on shipping in 2001?", "ws_ship_date_sk") == []


FIRSTS = Catalog(
    (
        _table("customer", "c_customer_sk", "c_first_shipto_date_sk", "c_first_sales_date_sk"),
        _table("date_dim", "d_date_sk", "d_year"),
        _table("lineitem", "l_orderkey", "l_shipdate", "l_commitdate", "l_receiptdate"),
    ),
)


def _firsts(question: str, sql: str) -> list[str]:
    tree = sqlglot.parse_one(sql, read="duckdb")
    return [f.code for f in date_keys_misread(question, tree, FIRSTS)]


def test_a_first_purchase_is_the_first_sale_not_the_first_ship_to() -> None:
    # agreed20, h20_d16: shown at 1.00; TPC-DS glues "ship to" into one word
    question = "How many customers made their first purchase in 2000?"
    on = "SELECT count(*) FROM customer JOIN date_dim ON {} = d_date_sk WHERE d_year = 2000"
    assert _firsts(question, on.format("c_first_shipto_date_sk")) == ["signal.column_mismatch"]
    assert _firsts(question, on.format("c_first_sales_date_sk")) == []


def test_shipped_is_not_received() -> None:
    # agreed20, h20_h15: "shipped in March 1996" filtered on the receipt date, shown at 1.00
    question = "How many line items were shipped in March 1996?"
    sql = "SELECT count(*) FROM lineitem WHERE month({0}) = 3 AND year({0}) = 1996"
    assert _firsts(question, sql.format("l_receiptdate")) == ["signal.column_mismatch"]
    assert _firsts(question, sql.format("l_shipdate")) == []
    # a receipt is a delivery: "delivered" read through the receipt date is silent
    assert _firsts("How many line items were delivered in 1996?", sql.format("l_receiptdate")) == []


def test_received_is_the_receipt_date_not_the_ship_date() -> None:
    # Outside tryout 29, W4: "received in 1995" filtered on l_shipdate beside l_receiptdate,
    # shown at 1.00 (8773 rows, 8777 right)
    question = "How many line items were received in 1995?"
    sql = "SELECT count(*) FROM lineitem WHERE {0} >= DATE '1995-01-01' AND {0} < DATE '1996-01-01'"
    assert _firsts(question, sql.format("l_shipdate")) == ["signal.column_mismatch"]
    assert _firsts(question, sql.format("l_receiptdate")) == []


def test_committed_is_the_commit_date() -> None:
    # beside W4 of outside tryout 29: "committed" names l_commitdate as "received" l_receiptdate
    sql = "SELECT count(*) FROM lineitem WHERE year({0}) = 1995"
    question = "How many line items were committed in 1995?"
    assert _firsts(question, sql.format("l_shipdate")) == ["signal.column_mismatch"]
    assert _firsts(question, sql.format("l_commitdate")) == []
