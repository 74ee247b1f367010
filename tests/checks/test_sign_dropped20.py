"""A sign the question asks of a column the SQL never reads, five samples agreeing on it
(outside tester, tryout 26, q4): "How many customers in the BUILDING segment have a positive
account balance?" as ``SELECT count(*) FROM customer WHERE c_mktsegment = 'BUILDING'``, shown
at 1.00. The wrong answer is withheld; the right one beside it does not draw the code."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from assay.checks import QUESTION_SIGNALS
from assay.checks._sign_dropped import spells
from tests.checks._helpers import codes, scored, wrong_withheld_right_clear

CODE = "signal.sign_dropped"


def _db(tmp_path: Path) -> Path:
    """Customers with a segment and a balance (some below zero); singers with no number."""
    db = tmp_path / "d.sqlite"
    con = sqlite3.connect(db)
    con.execute(
        "CREATE TABLE customer (c_custkey INTEGER, c_name TEXT, c_mktsegment TEXT, c_acctbal REAL)"
    )
    con.executemany(
        "INSERT INTO customer VALUES (?, ?, ?, ?)",
        [(i, f"c{i}", ("BUILDING", "MACHINERY")[i % 2], i * 10.0 - 50) for i in range(20)],
    )
    con.execute("CREATE TABLE singer (Singer_ID INTEGER, Name TEXT)")
    con.executemany("INSERT INTO singer VALUES (?, ?)", [(i, f"s{i}") for i in range(5)])
    con.commit()
    con.close()
    return db


# (name, question, the wrong SQL all five samples agree on, the right SQL)
WRONG_AND_RIGHT = [
    (
        "q4_positive_balance",
        "How many customers in the BUILDING segment have a positive account balance?",
        "SELECT count(*) FROM customer WHERE c_mktsegment = 'BUILDING'",
        "SELECT count(*) FROM customer WHERE c_mktsegment = 'BUILDING' AND c_acctbal > 0",
    ),
    (
        "balance_is_negative",
        "Which MACHINERY customers have an account balance that is negative?",
        "SELECT c_name FROM customer WHERE c_mktsegment = 'MACHINERY'",
        "SELECT c_name FROM customer WHERE c_mktsegment = 'MACHINERY' AND c_acctbal < 0",
    ),
]


def test_the_code_is_a_question_signal() -> None:
    assert CODE in QUESTION_SIGNALS


@pytest.mark.parametrize(
    ("name", "question", "wrong", "right"), WRONG_AND_RIGHT, ids=[c[0] for c in WRONG_AND_RIGHT]
)
def test_a_unanimous_dropped_sign_is_not_shown(
    tmp_path: Path, name: str, question: str, wrong: str, right: str
) -> None:
    db = _db(tmp_path)
    wrong_withheld_right_clear(tmp_path, (name, db, question, wrong, right, CODE))


@pytest.mark.parametrize(
    ("name", "said", "run"),
    [
        ("acctbal", ("a", "positive", "account", "balance"), ("account", "balance")),
        ("balance", ("balance", "is", "negative"), ("balance",)),
        ("acctbal", ("a", "positive", "balance"), None),  # "account" is not said
        ("age", ("a", "positive", "age"), None),  # three letters match by chance
    ],
    ids=["abbreviated", "whole", "part_only", "short"],
)
def test_spells(name: str, said: tuple[str, ...], run: tuple[str, ...] | None) -> None:
    assert spells(name, said) == run


# (name, question, SQL the check must stay silent on)
SILENT = [
    # the sign's column is read
    (
        "sign_applied",
        "How many customers have a positive account balance?",
        "SELECT count(*) FROM customer WHERE c_acctbal > 0",
    ),
    # the sign's words name no column of the tables read
    (
        "sign_of_nothing",
        "How many singers got positive reviews?",
        "SELECT count(*) FROM singer",
    ),
]


@pytest.mark.parametrize(("name", "question", "sql"), SILENT, ids=[c[0] for c in SILENT])
def test_silent_where_the_sign_is_applied_or_names_no_column(
    tmp_path: Path, name: str, question: str, sql: str
) -> None:
    db = _db(tmp_path)
    assert CODE not in codes(scored(tmp_path, db, question, sql)), name
