"""A status the question says in a word, against a one-letter code of another status (outside
tryout 40 F-2, recheck 40: "How many line items were returned?" as ``l_returnflag = 'A'``, five
samples agreeing, was shown at 1.00; 'R' is stored beside it). A column of one-letter codes
stores a status by its initial ('R' returned, 'F' fulfilled, 'D' delivered): a question that says
a status word whose initial is a stored code, while the SQL compares another code the question
says nothing of, is about other rows than those asked for (``signal.value_swapped``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.checks._helpers import codes, scored, wrong_withheld_right_clear

CODE = "signal.value_swapped"


def _shipping(tmp_path: Path) -> Path:
    """Parcels by status ('D' delivered, 'P' pending, 'L' lost) and line items by return flag
    ('R', 'A', 'N'), as TPC-H stores them."""
    db = tmp_path / "shipping.sqlite"
    con = sqlite3.connect(db)
    con.execute(
        "CREATE TABLE parcels (parcel_id INTEGER PRIMARY KEY, p_status TEXT, p_weight REAL, "
        "sent_on TEXT)"
    )
    con.executemany(
        "INSERT INTO parcels VALUES (?, ?, ?, ?)",
        [(i, "DPL"[i % 3], 1.0 + i, f"2024-0{1 + i % 9}-01") for i in range(30)],
    )
    con.execute(
        "CREATE TABLE lineitem (l_orderkey INTEGER, l_returnflag TEXT, l_linestatus TEXT, "
        "l_quantity REAL)"
    )
    con.executemany(
        "INSERT INTO lineitem VALUES (?, ?, ?, ?)",
        [(i, "RAN"[i % 3], "OF"[i % 2], float(i)) for i in range(30)],
    )
    con.commit()
    con.close()
    return db


# (name, question, the wrong SQL all five samples agree on, the right SQL)
WRONG_AND_RIGHT = [
    (
        "delivered",
        "What is the total weight of the parcels that were delivered?",
        "SELECT sum(p_weight) FROM parcels WHERE p_status = 'P'",
        "SELECT sum(p_weight) FROM parcels WHERE p_status = 'D'",
    ),
    (
        "w1_returned",
        "How many line items were returned?",
        "SELECT count(*) FROM lineitem WHERE l_returnflag = 'A'",
        "SELECT count(*) FROM lineitem WHERE l_returnflag = 'R'",
    ),
    # an adverb says the status with the word after it: "partially delivered" is 'P' here
    (
        "partially_delivered",
        "How many parcels were partially delivered?",
        "SELECT count(*) FROM parcels WHERE p_status = 'L'",
        "SELECT count(*) FROM parcels WHERE p_status = 'P'",
    ),
    # a last state said with its time still says the state (outside recheck 41, F4: "orders
    # fulfilled in 1995" as o_orderstatus = 'O' was shown)
    (
        "delivered_in_a_month",
        "How many parcels were delivered in March?",
        "SELECT count(*) FROM parcels WHERE p_status = 'L' AND sent_on LIKE '2024-03%'",
        "SELECT count(*) FROM parcels WHERE p_status = 'D' AND sent_on LIKE '2024-03%'",
    ),
    (
        "returned_in_a_month",
        "How many line items were returned in August?",
        "SELECT count(*) FROM lineitem WHERE l_returnflag = 'N'",
        "SELECT count(*) FROM lineitem WHERE l_returnflag = 'R'",
    ),
]


@pytest.mark.parametrize(
    ("name", "question", "wrong", "right"), WRONG_AND_RIGHT, ids=[c[0] for c in WRONG_AND_RIGHT]
)
def test_a_status_word_against_another_code_is_withheld(
    tmp_path: Path, name: str, question: str, wrong: str, right: str
) -> None:
    db = _shipping(tmp_path)
    wrong_withheld_right_clear(tmp_path, (name, db, question, wrong, right, CODE))


# (name, question, SQL the check must stay silent on)
SILENT = [
    # "sent in": a word of an event with its time, not a status ('S' is not stored anyway;
    # 'placed in 1995' beside o_orderstatus 'P' is the case)
    (
        "event_not_status",
        "How many lost parcels were dispatched in March?",
        "SELECT count(*) FROM parcels WHERE p_status = 'L' AND sent_on LIKE '2024-03%'",
    ),
    (
        "placed_in",
        "How many completed parcels were posted in March?",
        "SELECT count(*) FROM parcels WHERE p_status = 'D' AND sent_on LIKE '2024-03%'",
    ),
    # the compared code is said by a status word too
    (
        "both_said",
        "How many parcels were delivered or lost?",
        "SELECT count(*) FROM parcels WHERE p_status IN ('D', 'L')",
    ),
    # the code itself said
    (
        "code_said",
        "How many returned line items have return flag A?",
        "SELECT count(*) FROM lineitem WHERE l_returnflag = 'A'",
    ),
    # a negated question may name the status it leaves out
    (
        "negated",
        "How many line items were not returned?",
        "SELECT count(*) FROM lineitem WHERE l_returnflag = 'N'",
    ),
]


@pytest.mark.parametrize(("name", "question", "sql"), SILENT, ids=[c[0] for c in SILENT])
def test_silent_where_no_status_word_says_another_code(
    tmp_path: Path, name: str, question: str, sql: str
) -> None:
    db = _shipping(tmp_path)
    assert CODE not in codes(scored(tmp_path, db, question, sql)), name
