"""The asked value swapped for another stored value of the same column, five samples agreeing on
it (outside tester, tryout 26): "total sales amount in the North region" as ``region =
'South'`` (q1), "sales of Footwear" as ``category = 'Accessories'`` (q2), "customers in the
AUTOMOBILE segment" as ``c_mktsegment = 'BUILDING'`` (p10), each shown at 1.00. The wrong answer
is withheld; the right one beside it does not draw the code."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from assay.checks import QUESTION_SIGNALS
from tests.checks._helpers import codes, scored, wrong_withheld_right_clear

CODE = "signal.value_swapped"


def _shop(tmp_path: Path) -> Path:
    """A small shop: sales by region and product, products by category, customers by segment."""
    db = tmp_path / "shop.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE products (product_id INTEGER PRIMARY KEY, category TEXT)")
    con.execute(
        "CREATE TABLE sales (sale_id INTEGER PRIMARY KEY, product_id INTEGER "
        "REFERENCES products (product_id), region TEXT, sales_amount REAL)"
    )
    con.execute("CREATE TABLE customer (c_custkey INTEGER, c_mktsegment TEXT, c_acctbal REAL)")
    categories = ["Footwear", "Accessories", "Outerwear"]
    con.executemany(
        "INSERT INTO products VALUES (?, ?)", [(i, categories[i % 3]) for i in range(9)]
    )
    regions = ["North", "South", "East", "West"]
    con.executemany(
        "INSERT INTO sales VALUES (?, ?, ?, ?)",
        [(i, i % 9, regions[i % 4], 10.0 + i) for i in range(40)],
    )
    segments = ["AUTOMOBILE", "BUILDING", "FURNITURE", "MACHINERY", "HOUSEHOLD"]
    con.executemany(
        "INSERT INTO customer VALUES (?, ?, ?)", [(i, segments[i % 5], i * 1.5) for i in range(25)]
    )
    con.commit()
    con.close()
    return db


# (name, question, the wrong SQL all five samples agree on, the right SQL)
WRONG_AND_RIGHT = [
    (
        "q1_region",
        "What was the total sales amount in the North region?",
        "SELECT sum(sales_amount) FROM sales WHERE region = 'South'",
        "SELECT sum(sales_amount) FROM sales WHERE region = 'North'",
    ),
    (
        "q2_category",
        "What was the total sales amount of Footwear?",
        "SELECT sum(s.sales_amount) FROM sales s JOIN products p USING (product_id) "
        "WHERE p.category = 'Accessories'",
        "SELECT sum(s.sales_amount) FROM sales s JOIN products p USING (product_id) "
        "WHERE p.category = 'Footwear'",
    ),
    (
        "p10_segment",
        "What is the average account balance of customers in the AUTOMOBILE segment?",
        "SELECT avg(c_acctbal) FROM customer WHERE c_mktsegment = 'BUILDING'",
        "SELECT avg(c_acctbal) FROM customer WHERE c_mktsegment = 'AUTOMOBILE'",
    ),
    (
        "in_list",
        "How many sales were made in the East?",
        "SELECT count(*) FROM sales WHERE region IN ('West')",
        "SELECT count(*) FROM sales WHERE region IN ('East')",
    ),
]


def test_the_code_is_a_question_signal() -> None:
    assert CODE in QUESTION_SIGNALS


@pytest.mark.parametrize(
    ("name", "question", "wrong", "right"), WRONG_AND_RIGHT, ids=[c[0] for c in WRONG_AND_RIGHT]
)
def test_a_unanimous_swapped_value_is_not_shown(
    tmp_path: Path, name: str, question: str, wrong: str, right: str
) -> None:
    db = _shop(tmp_path)
    wrong_withheld_right_clear(tmp_path, (name, db, question, wrong, right, CODE))


# (name, question, SQL the check must stay silent on)
SILENT = [
    # the question excludes the value it names: the others are asked for
    (
        "other_than",
        "What was the total sales amount in regions other than North?",
        "SELECT sum(sales_amount) FROM sales WHERE region IN ('South', 'East', 'West')",
    ),
    (
        "not_in",
        "How many sales were not made in the North?",
        "SELECT count(*) FROM sales WHERE region = 'South' OR region = 'East' OR region = 'West'",
    ),
    # both values said: a comparison of the two
    (
        "both_said",
        "Compare the sales amount of North with South.",
        "SELECT region, sum(sales_amount) FROM sales WHERE region IN ('North', 'South') "
        "GROUP BY region",
    ),
    # the asked value carried elsewhere in the SQL
    (
        "carried",
        "How much more did North sell?",
        "SELECT (SELECT sum(sales_amount) FROM sales WHERE region = 'North') - "
        "(SELECT sum(sales_amount) FROM sales WHERE region = 'South')",
    ),
    # `!=` excludes the compared value
    (
        "neq",
        "What was the total sales amount in the North region?",
        "SELECT sum(sales_amount) FROM sales WHERE region != 'South' AND region = 'North'",
    ),
]


@pytest.mark.parametrize(("name", "question", "sql"), SILENT, ids=[c[0] for c in SILENT])
def test_silent_where_the_other_value_may_be_meant(
    tmp_path: Path, name: str, question: str, sql: str
) -> None:
    db = _shop(tmp_path)
    assert CODE not in codes(scored(tmp_path, db, question, sql)), name


def test_a_name_column_one_value_a_row_swaps_too(tmp_path: Path) -> None:
    # Outside tryout 27: "car makers from Japan" counted for 'germany' was shown at 1.00:
    # car_1's countries store each name once, so the column read as no category.
    case = (
        "countries",
        "car_1",
        "How many car makers are from Japan?",
        "SELECT count(*) FROM car_makers m JOIN countries c ON m.Country = c.CountryId "
        "WHERE c.CountryName = 'germany'",
        "SELECT count(*) FROM car_makers m JOIN countries c ON m.Country = c.CountryId "
        "WHERE c.CountryName = 'japan'",
        "signal.value_swapped",
    )
    wrong_withheld_right_clear(tmp_path, case, right_shown=True)
