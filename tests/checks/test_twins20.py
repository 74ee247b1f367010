"""agreed20 (a development set, tuned on): seven wrong answers, each a column read in place of
its twin, that five agreeing samples saw shown at 1.00: net paid for "tax included", the with-tax
spend for "before tax", the last order's date for "their first order", a unit cost summed for a
total, tax multiplied into "revenue after discount", the first ship-to date for "first purchase",
the receipt date for "shipped". Each draws ``signal.column_mismatch`` and is withheld; the right
answer beside it does not draw it and is shown (a small shop built here, named as TPC-DS, TPC-H
and the semantic-model-generator's customer summary name their columns)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
import sqlglot

from assay.catalog import Catalog, ColumnInfo, TableInfo
from assay.checks import CheckContext
from assay.checks._first_last import _asked
from assay.checks._mentions import column_fit
from assay.types import Candidate
from tests.checks._helpers import wrong_withheld_right_clear


def _ints(n: int) -> str:
    """``i`` from 0 to ``n - 1``, as INTEGER (a date plus a BIGINT does not bind)."""
    return f"(SELECT CAST(range AS INTEGER) AS i FROM range({n}))"


_TABLES = [
    "CREATE TABLE date_dim (d_date_sk INTEGER, d_date DATE, d_year INTEGER)",
    "INSERT INTO date_dim SELECT i, DATE '1999-07-01' + i * 40, year(DATE '1999-07-01' + i * 40) "
    "FROM " + _ints(30),
    "CREATE TABLE web_sales (ws_sold_date_sk INTEGER, ws_ship_date_sk INTEGER, "
    "ws_quantity INTEGER, ws_wholesale_cost DECIMAL(7,2), ws_ext_wholesale_cost DECIMAL(9,2), "
    "ws_net_paid DECIMAL(9,2), ws_net_paid_inc_tax DECIMAL(9,2))",
    "INSERT INTO web_sales SELECT i % 30, (i + 2) % 30, 1 + i % 4, 10 + i % 7, "
    "(10 + i % 7) * (1 + i % 4), 20 + i, (20 + i) * 1.08 FROM " + _ints(120),
    "CREATE TABLE customer (c_customer_sk INTEGER, c_first_sales_date_sk INTEGER, "
    "c_first_shipto_date_sk INTEGER, c_last_name VARCHAR)",
    "INSERT INTO customer SELECT i, i % 30, (i * 7 + 3) % 30, 'name' || i FROM " + _ints(60),
    "CREATE TABLE lineitem (l_orderkey INTEGER, l_extendedprice DECIMAL(9,2), "
    "l_discount DECIMAL(4,2), l_tax DECIMAL(4,2), l_shipdate DATE, l_commitdate DATE, "
    "l_receiptdate DATE)",
    "INSERT INTO lineitem SELECT i, 100 + i, (i % 5) / 100, (i % 3) / 100, "
    "DATE '1995-12-01' + i * 3, DATE '1995-12-10' + i * 3, DATE '1995-12-20' + i * 3 "
    "FROM " + _ints(80),
    'CREATE TABLE "SMG_DEMO" ("CUSTOMER_ID" INTEGER, "FIRST_ORDERED_AT" DATE, '
    '"LAST_ORDERED_AT" DATE, "LIFETIME_SPEND_PRETAX" DOUBLE, "LIFETIME_TAX_PAID" DOUBLE, '
    '"LIFETIME_SPEND" DOUBLE)',
    "INSERT INTO \"SMG_DEMO\" SELECT i, DATE '2016-03-01' + i * 11, DATE '2016-09-01' + i * 13, "
    "100 + i, (100 + i) * 0.06, (100 + i) * 1.06 FROM " + _ints(90),
]


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("twins20") / "shop.duckdb"
    con = duckdb.connect(str(path))
    try:
        for sql in _TABLES:
            con.execute(sql)
    finally:
        con.close()
    return path


_WEB_2000 = " FROM web_sales JOIN date_dim ON ws_sold_date_sk = d_date_sk WHERE d_year = 2000"
_FIRST_2000 = " = d_date_sk WHERE d_year = 2000"
_MARCH = " >= DATE '1996-03-01' AND {0} < DATE '1996-04-01'"

# (name, question, the wrong SQL all five samples agree on, the right SQL)
WRONG_AND_RIGHT = [
    (
        "before_tax_for_tax_included",  # h20_d14
        "What was the total amount paid for web sales in 2000, tax included?",
        "SELECT sum(ws_net_paid)" + _WEB_2000,
        "SELECT sum(ws_net_paid_inc_tax)" + _WEB_2000,
    ),
    (
        "with_tax_for_before_tax",  # h20_g03
        "What is the total lifetime spend before tax across all customers?",
        'SELECT sum("LIFETIME_SPEND") FROM "SMG_DEMO"',
        'SELECT sum("LIFETIME_SPEND_PRETAX") FROM "SMG_DEMO"',
    ),
    (
        "last_order_for_first",  # h20_g16
        "How many buyers placed their first order in 2017?",
        'SELECT count(*) FROM "SMG_DEMO" WHERE year("LAST_ORDERED_AT") = 2017',
        'SELECT count(*) FROM "SMG_DEMO" WHERE year("FIRST_ORDERED_AT") = 2017',
    ),
    (
        "unit_cost_summed_for_a_total",  # h20_d05
        "What was the total wholesale cost of web sales in 2000?",
        "SELECT sum(ws_wholesale_cost)" + _WEB_2000,
        "SELECT sum(ws_ext_wholesale_cost)" + _WEB_2000,
    ),
    (
        "tax_multiplied_into_revenue_after_discount",  # h20_h06
        "What was the total revenue after discount for line items shipped in 1996?",
        "SELECT sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) FROM lineitem "
        "WHERE year(l_shipdate) = 1996",
        "SELECT sum(l_extendedprice * (1 - l_discount)) FROM lineitem "
        "WHERE year(l_shipdate) = 1996",
    ),
    (
        "first_ship_to_for_first_purchase",  # h20_d16
        "How many customers made their first purchase in 2000?",
        "SELECT count(*) FROM customer JOIN date_dim ON c_first_shipto_date_sk" + _FIRST_2000,
        "SELECT count(*) FROM customer JOIN date_dim ON c_first_sales_date_sk" + _FIRST_2000,
    ),
    (
        "receipt_date_for_shipped",  # h20_h15
        "How many line items were shipped in March 1996?",
        "SELECT count(*) FROM lineitem WHERE l_receiptdate" + _MARCH.format("l_receiptdate"),
        "SELECT count(*) FROM lineitem WHERE l_shipdate" + _MARCH.format("l_shipdate"),
    ),
]


@pytest.mark.parametrize("case", WRONG_AND_RIGHT, ids=[c[0] for c in WRONG_AND_RIGHT])
def test_wrong_withheld_right_shown(tmp_path: Path, shop: Path, case: tuple[str, ...]) -> None:
    name, question, wrong, right = case
    pair = (name, shop, question, wrong, right, "signal.column_mismatch")
    wrong_withheld_right_clear(tmp_path, pair, True)


def _table(name: str, *columns: str, kind: str = "") -> TableInfo:
    return TableInfo(name, tuple(ColumnInfo(c, kind) for c in columns))


CATALOG = Catalog(
    (
        _table("web_sales", "ws_net_paid", "ws_net_paid_inc_tax", "ws_ext_tax", "ws_quantity"),
        _table("web_sales_unit", "wu_wholesale_cost", "wu_ext_wholesale_cost", "wu_quantity"),
        _table("people", "first_name", "last_name", "first_seen", "last_seen", kind="VARCHAR"),
        _table("visits", "FIRST_VISIT_AT", "LAST_VISIT_AT", kind="TIMESTAMP"),
        _table("lineitem", "l_extendedprice", "l_discount", "l_tax"),
    )
)


def _mismatch(question: str, sql: str) -> bool:
    ctx = CheckContext(question, Candidate(sql), "duckdb", CATALOG)
    return any(f.code == "signal.column_mismatch" for f in column_fit(ctx).findings)


# (name, question, SQL): each a right reading the twin readings must leave alone
SILENT = [
    (
        "tax_computed_by_the_sql",
        "What was the total amount paid for web sales, tax included?",
        "SELECT sum(ws_net_paid + ws_ext_tax) FROM web_sales",
    ),
    (
        "no_qualifier_said",
        "What was the total amount paid for web sales?",
        "SELECT sum(ws_net_paid) FROM web_sales",
    ),
    (
        "unit_cost_extended_by_the_sql",
        "What was the total wholesale cost?",
        "SELECT sum(wu_wholesale_cost * wu_quantity) FROM web_sales_unit",
    ),
    (
        "unit_cost_averaged",
        "What was the average wholesale cost?",
        "SELECT avg(wu_wholesale_cost) FROM web_sales_unit",
    ),
    (
        "unit_cost_asked_per_unit",
        "What is the sum of the unit wholesale costs?",
        "SELECT sum(wu_wholesale_cost) FROM web_sales_unit",
    ),
    (
        "names_are_not_moments",
        "Who came first in line? Give their surname.",
        "SELECT last_name FROM people",
    ),
    (
        "first_as_an_order",
        "List visits by their last visit, latest first",
        'SELECT "LAST_VISIT_AT" FROM visits ORDER BY 1 DESC',
    ),
    (
        "no_factor_said",
        "What was the total charge of all line items?",
        "SELECT sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) FROM lineitem",
    ),
    (
        "every_factor_said",
        "What was the total revenue after discount, with tax?",
        "SELECT sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) FROM lineitem",
    ),
]


@pytest.mark.parametrize("case", SILENT, ids=[c[0] for c in SILENT])
def test_right_readings_are_silent(case: tuple[str, str, str]) -> None:
    _, question, sql = case
    assert sqlglot.parse_one(sql, read="duckdb") is not None
    assert not _mismatch(question, sql)


def test_the_first_of_two_visits_is_read() -> None:
    question = "How many visitors made their first visit in 2020?"
    assert _mismatch(question, 'SELECT count(*) FROM visits WHERE year("LAST_VISIT_AT") = 2020')
    assert not _mismatch(
        question, 'SELECT count(*) FROM visits WHERE year("FIRST_VISIT_AT") = 2020'
    )


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("How many customers placed their first order in 2017?", "first"),
        ("How many customers last ordered in August 2017?", "last"),
        ("Orders in the first quarter of 1995", None),
        ("Top 5 customers by spend, biggest first", None),
        ("Customers by first order date, most recent first", None),
        ("First 10 customers by last order", "last"),
    ],
    ids=["first_order", "last_ordered", "first_quarter", "biggest_first", "both", "first_10"],
)
def test_which_end_the_question_asks(question: str, asked: str | None) -> None:
    assert _asked(question) == asked
