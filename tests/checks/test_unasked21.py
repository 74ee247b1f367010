"""Extra conditions nobody asked for, five samples agreeing on each, shown at 1.00 (agreed20, a
development set): "How many customers have placed more than 100 orders?" with ``AND
LIFETIME_SPEND > 1000`` (h20_g17; "more than" kept ``bound_unasked`` silent on the whole
question), "How many customers last ordered in August 2017?" with ``AND CUSTOMER_TYPE =
'returning'`` (h20_g11) and "How many catalog orders in 2000 went out by express shipping?" with
``AND sm.sm_code = 'AIR'`` beside ``sm_type = 'EXPRESS'`` (h20_d02; ``code_unasked`` read only
values of three characters). The wrong answer is withheld; the right one beside it draws no
code."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.checks._helpers import codes, scored, wrong_withheld_right_clear

BOUND = "signal.bound_unasked"
CODE = "signal.code_unasked"


def _db(tmp_path: Path) -> Path:
    """A customer summary (one row a customer, a type new/returning), ship modes with a type
    and a code of words, catalog orders shipped by them, and costs of events whose type names
    the table the event is in."""
    db = tmp_path / "d.sqlite"
    con = sqlite3.connect(db)
    con.execute(
        "CREATE TABLE SMG_DEMO (CUSTOMER_ID INTEGER, CUSTOMER_TYPE TEXT, "
        "COUNT_LIFETIME_ORDERS INTEGER, LIFETIME_SPEND REAL, LAST_ORDERED_AT DATE)"
    )
    con.executemany(
        "INSERT INTO SMG_DEMO VALUES (?, ?, ?, ?, ?)",
        [
            (i, ("new", "returning")[i % 2], 20 * i, 150.0 * i, f"2017-0{1 + i % 9}-15")
            for i in range(30)
        ],
    )
    con.execute("CREATE TABLE ship_mode (sm_ship_mode_sk INTEGER, sm_type TEXT, sm_code TEXT)")
    modes = [
        (i, t, c)
        for i, (t, c) in enumerate(
            [("EXPRESS", "AIR"), ("EXPRESS", "SURFACE"), ("REGULAR", "SEA"), ("REGULAR", "BIKE")]
        )
    ]
    con.executemany("INSERT INTO ship_mode VALUES (?, ?, ?)", modes)
    con.execute(
        "CREATE TABLE catalog_sales (cs_order_number INTEGER, cs_ship_mode_sk INTEGER, "
        "cs_year INTEGER)"
    )
    con.executemany(
        "INSERT INTO catalog_sales VALUES (?, ?, ?)",
        [(i, i % 4, 1999 + i % 3) for i in range(40)],
    )
    con.execute("CREATE TABLE prescriptions (row_id INTEGER, drug TEXT)")
    con.execute("CREATE TABLE procedures (row_id INTEGER, title TEXT)")
    con.execute("CREATE TABLE cost (event_type TEXT, event_id INTEGER, cost REAL)")
    con.executemany(
        "INSERT INTO cost VALUES (?, ?, ?)",
        [(("prescriptions", "procedures")[i % 2], i, 10.0 + i) for i in range(10)],
    )
    con.execute("CREATE TABLE orders (o_orderkey INTEGER, o_orderdate DATE, o_orderpriority TEXT)")
    ranks = ("1-URGENT", "2-HIGH", "3-MEDIUM", "4-NOT SPECIFIED", "5-LOW")
    con.executemany(
        "INSERT INTO orders VALUES (?, ?, ?)",
        [(i, f"{1995 + i % 3}-0{1 + i % 9}-10", ranks[i % 5]) for i in range(40)],
    )
    con.commit()
    con.close()
    return db


# (name, question, the wrong SQL all five samples agree on, the right SQL, the code)
WRONG_AND_RIGHT = [
    (
        "g17_spend",
        "How many customers have placed more than 100 orders?",
        "SELECT count(*) FROM SMG_DEMO WHERE COUNT_LIFETIME_ORDERS > 100 AND LIFETIME_SPEND > 1000",
        "SELECT count(*) FROM SMG_DEMO WHERE COUNT_LIFETIME_ORDERS > 100",
        BOUND,
    ),
    (
        "g11_customer_type",
        "How many customers last ordered in August 2017?",
        "SELECT count(*) FROM SMG_DEMO WHERE LAST_ORDERED_AT BETWEEN '2017-08-01' AND "
        "'2017-08-31' AND CUSTOMER_TYPE = 'returning'",
        "SELECT count(*) FROM SMG_DEMO WHERE LAST_ORDERED_AT BETWEEN '2017-08-01' AND '2017-08-31'",
        CODE,
    ),
    (
        "d02_ship_code",
        "How many catalog orders in 2000 went out by express shipping?",
        "SELECT count(DISTINCT cs.cs_order_number) FROM catalog_sales cs JOIN ship_mode sm ON "
        "cs.cs_ship_mode_sk = sm.sm_ship_mode_sk WHERE cs.cs_year = 2000 AND "
        "sm.sm_type = 'EXPRESS' AND sm.sm_code = 'AIR'",
        "SELECT count(DISTINCT cs.cs_order_number) FROM catalog_sales cs JOIN ship_mode sm ON "
        "cs.cs_ship_mode_sk = sm.sm_ship_mode_sk WHERE cs.cs_year = 2000 AND "
        "sm.sm_type = 'EXPRESS'",
        CODE,
    ),
    # outside tryout 29, W1: a priority is a category, its values a rank's digit and a word
    (
        "w1_order_priority",
        "How many orders were placed in 1996?",
        "SELECT count(*) FROM orders WHERE o_orderdate >= '1996-01-01' AND "
        "o_orderdate < '1997-01-01' AND o_orderpriority = '1-URGENT'",
        "SELECT count(*) FROM orders WHERE o_orderdate >= '1996-01-01' AND "
        "o_orderdate < '1997-01-01'",
        CODE,
    ),
]


@pytest.mark.parametrize(
    ("name", "question", "wrong", "right", "code"),
    WRONG_AND_RIGHT,
    ids=[c[0] for c in WRONG_AND_RIGHT],
)
def test_an_unasked_extra_condition_is_not_shown(
    tmp_path: Path, name: str, question: str, wrong: str, right: str, code: str
) -> None:
    db = _db(tmp_path)
    wrong_withheld_right_clear(tmp_path, (name, db, question, wrong, right, code))


# (name, question, SQL the checks must stay silent on, the code)
SILENT = [
    # a second comparison the question spells by a word ("big spenders") stays implicit
    (
        "implicit_beside_said",
        "How many big spenders have placed more than 100 orders?",
        "SELECT count(*) FROM SMG_DEMO WHERE COUNT_LIFETIME_ORDERS > 100 AND LIFETIME_SPEND > 1000",
        BOUND,
    ),
    # a comparison whose number the SQL does not bound by is not accounted for
    (
        "number_not_bounded",
        "How many customers have placed more than 100 orders?",
        "SELECT count(*) FROM SMG_DEMO WHERE COUNT_LIFETIME_ORDERS > 99 AND LIFETIME_SPEND > 1000",
        BOUND,
    ),
    # the value is said
    (
        "value_said",
        "How many returning customers last ordered in August 2017?",
        "SELECT count(*) FROM SMG_DEMO WHERE LAST_ORDERED_AT >= '2017-08-01' AND "
        "CUSTOMER_TYPE = 'returning'",
        CODE,
    ),
    # the column's kind word is said
    (
        "kind_said",
        "How many customers of each type ordered, for the type returning?",
        "SELECT count(*) FROM SMG_DEMO WHERE CUSTOMER_TYPE = 'returning'",
        CODE,
    ),
    # a category looked up in a subquery is a key's lookup, not a condition on the rows
    (
        "in_subquery",
        "How many catalog orders went out?",
        "SELECT count(*) FROM catalog_sales WHERE cs_ship_mode_sk IN "
        "(SELECT sm_ship_mode_sk FROM ship_mode WHERE sm_code = 'AIR')",
        CODE,
    ),
    # the priority is said
    (
        "priority_said",
        "How many urgent orders were placed in 1996?",
        "SELECT count(*) FROM orders WHERE o_orderdate >= '1996-01-01' AND "
        "o_orderpriority = '1-URGENT'",
        CODE,
    ),
    # a category whose values name tables says which table a key points into (EHRSQL's cost)
    (
        "names_a_table",
        "What is the price of the drug vial?",
        "SELECT DISTINCT cost FROM cost WHERE event_type = 'prescriptions' AND event_id IN "
        "(SELECT row_id FROM prescriptions WHERE drug = 'vial')",
        CODE,
    ),
]


@pytest.mark.parametrize(("name", "question", "sql", "code"), SILENT, ids=[c[0] for c in SILENT])
def test_silent_where_the_condition_may_be_asked(
    tmp_path: Path, name: str, question: str, sql: str, code: str
) -> None:
    db = _db(tmp_path)
    assert code not in codes(scored(tmp_path, db, question, sql)), name


def test_a_plural_category_said_in_the_singular_is_asked(tmp_path: Path) -> None:
    """'toys' said as "toy" ("How many toy products are there?") is the category asked for
    (outside tryout 38: the agent's right answer was withheld); another category is not."""
    db = tmp_path / "p.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE products (id INTEGER, name TEXT, category TEXT)")
    con.executemany(
        "INSERT INTO products VALUES (?, ?, ?)",
        [(i, f"p{i}", ("tools", "toys", "books", "food")[i % 4]) for i in range(20)],
    )
    con.commit()
    con.close()
    question = "How many toy products are there?"
    right = "SELECT count(*) FROM products WHERE category = 'toys'"
    assert CODE not in codes(scored(tmp_path, db, question, right))
    wrong = "SELECT count(*) FROM products WHERE name = 'p1' AND category = 'books'"
    assert CODE in codes(scored(tmp_path, db, "How many products named p1 are there?", wrong))
