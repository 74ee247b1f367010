"""A place said of one table's rows, reached through another table's key (agreed22, a development
set, h22_h02): "What was the revenue (extended price less discount) in 1996 on line items
supplied by German suppliers?" joined nation on the customer's ``c_nationkey``, summing what
German customers bought; five samples agreeing were shown at 1.00. The SQL reads supplier (so
``filtered_elsewhere``, a named table left unread, is silent) and nation holds 'GERMANY' (no
value check objects): only the road to nation is wrong. ``reached_through_other_role`` reads it
on a TPC-H layout of a few rows."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.checks._helpers import codes, scored, wrong_withheld_right_clear

CODE = "signal.reached_through_other_role"


def _tpch(tmp_path: Path) -> Path:
    """Three nations; suppliers and customers spread over them; orders of 1996 and 1997 whose
    line items come from suppliers of other nations than their customers'."""
    db = tmp_path / "tpch.sqlite"
    con = sqlite3.connect(db)
    con.executescript(
        """
        CREATE TABLE nation (n_nationkey INTEGER, n_name TEXT);
        CREATE TABLE supplier (s_suppkey INTEGER, s_name TEXT, s_nationkey INTEGER);
        CREATE TABLE customer (c_custkey INTEGER, c_name TEXT, c_nationkey INTEGER);
        CREATE TABLE orders (o_orderkey INTEGER, o_custkey INTEGER, o_orderdate DATE);
        CREATE TABLE lineitem (l_orderkey INTEGER, l_suppkey INTEGER, l_extendedprice REAL,
                               l_discount REAL);
        INSERT INTO nation VALUES (0, 'GERMANY'), (1, 'FRANCE'), (2, 'JAPAN');
        """
    )
    con.executemany(
        "INSERT INTO supplier VALUES (?, ?, ?)", [(i, f"S{i}", i % 3) for i in range(9)]
    )
    con.executemany(
        "INSERT INTO customer VALUES (?, ?, ?)", [(i, f"C{i}", (i + 1) % 3) for i in range(12)]
    )
    con.executemany(
        "INSERT INTO orders VALUES (?, ?, ?)",
        [(i, i % 12, f"{1996 + i % 2}-0{1 + i % 9}-15") for i in range(30)],
    )
    con.executemany(
        "INSERT INTO lineitem VALUES (?, ?, ?, 0.1)",
        [(i % 30, i % 9, 100.0 + i) for i in range(90)],
    )
    con.commit()
    con.close()
    return db


REVENUE = "SELECT sum(l_extendedprice * (1 - l_discount)) AS revenue FROM lineitem "
ORDERS = "JOIN orders ON l_orderkey = o_orderkey "
SUPPLIER = "JOIN supplier ON l_suppkey = s_suppkey "
CUSTOMER = "JOIN customer ON o_custkey = c_custkey "
IN_1996 = "WHERE n_name = 'GERMANY' AND strftime('%Y', o_orderdate) = '1996'"
BY_CUSTOMER = "JOIN nation ON c_nationkey = n_nationkey "
BY_SUPPLIER = "JOIN nation ON s_nationkey = n_nationkey "
GERMAN_SUPPLIERS = (
    "What was the revenue (extended price less discount) in 1996 on line items supplied by "
    "German suppliers?"
)
# (name, question, the wrong SQL all five samples agree on, the right SQL)
WRONG_AND_RIGHT = [
    (
        "h22_h02_german_suppliers",
        GERMAN_SUPPLIERS,
        REVENUE + ORDERS + SUPPLIER + CUSTOMER + BY_CUSTOMER + IN_1996,
        REVENUE + ORDERS + SUPPLIER + BY_SUPPLIER + IN_1996,
    ),
    (
        "suppliers_unread",
        "What was the 1996 revenue on line items from suppliers in GERMANY?",
        REVENUE + ORDERS + CUSTOMER + BY_CUSTOMER + IN_1996,
        REVENUE + ORDERS + SUPPLIER + BY_SUPPLIER + IN_1996,
    ),
]


@pytest.mark.parametrize(
    ("name", "question", "wrong", "right"), WRONG_AND_RIGHT, ids=[c[0] for c in WRONG_AND_RIGHT]
)
def test_a_place_reached_through_another_table_is_not_shown(
    tmp_path: Path, name: str, question: str, wrong: str, right: str
) -> None:
    db = _tpch(tmp_path)
    wrong_withheld_right_clear(tmp_path, (name, db, question, wrong, right, CODE))
    verdict = scored(tmp_path, db, question, *[wrong] * 5)
    found = next(f for f in verdict["findings"] if f["code"] == CODE)
    assert found["evidence"]["reached_through"] == "customer.c_nationkey"
    assert found["evidence"]["said_of"] == "supplier.s_nationkey"


# (name, question, SQL the check must stay silent on)
SILENT = [
    # the customers are named: their nation may be the one meant
    (
        "customers_named",
        "What was the 1996 revenue on line items bought by German customers from any supplier?",
        REVENUE + ORDERS + SUPPLIER + CUSTOMER + BY_CUSTOMER + IN_1996,
    ),
    # both roads taken (a supplier and a customer of the same nation)
    (
        "both_roads",
        GERMAN_SUPPLIERS,
        REVENUE
        + ORDERS
        + SUPPLIER
        + CUSTOMER
        + BY_CUSTOMER
        + "AND s_nationkey = n_nationkey "
        + IN_1996,
    ),
    # no other named table refers to nation
    (
        "orders_only",
        "What was the 1996 revenue of orders placed in GERMANY?",
        "SELECT sum(o_orderkey) FROM orders " + CUSTOMER + BY_CUSTOMER + IN_1996,
    ),
]


@pytest.mark.parametrize(("name", "question", "sql"), SILENT, ids=[c[0] for c in SILENT])
def test_silent_where_the_road_taken_may_be_the_one_meant(
    tmp_path: Path, name: str, question: str, sql: str
) -> None:
    db = _tpch(tmp_path)
    assert CODE not in codes(scored(tmp_path, db, question, sql)), name
