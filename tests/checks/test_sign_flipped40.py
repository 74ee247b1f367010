"""A sign said in words and compared the other way, five samples agreeing on it (outside
tryout 40, F-2 w8): "How many customers are in the AUTOMOBILE segment with a negative account
balance?" as ``... AND c_acctbal > 0`` was shown at 1.00 (274, the right count 28). A sign word
is a bound at zero: ``signal.comparison_flipped`` withholds the opposite comparison; the right
one beside it does not draw the code."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlglot import parse_one

from assay.checks._bounds import bound_flipped
from tests.checks._helpers import wrong_withheld_right_clear

CODE = "signal.comparison_flipped"


def _db(tmp_path: Path) -> Path:
    """Accounts with a balance on either side of zero, and shops with a profit."""
    db = tmp_path / "d.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE account (acct_id INTEGER, owner TEXT, kind TEXT, balance REAL)")
    con.executemany(
        "INSERT INTO account VALUES (?, ?, ?, ?)",
        [(i, f"o{i}", ("SAVINGS", "CHECKING")[i % 2], i * 7.0 - 60) for i in range(20)],
    )
    con.execute("CREATE TABLE shop (shop_id INTEGER, city TEXT, profit REAL)")
    con.executemany(
        "INSERT INTO shop VALUES (?, ?, ?)",
        [(i, ("Oslo", "Rome")[i % 2], i * 3.0 - 20) for i in range(12)],
    )
    con.commit()
    con.close()
    return db


# (name, question, the wrong SQL all five samples agree on, the right SQL)
MINE = [
    (
        "below_zero",
        "How many CHECKING accounts have a balance below zero?",
        "SELECT count(*) FROM account WHERE kind = 'CHECKING' AND balance > 0",
        "SELECT count(*) FROM account WHERE kind = 'CHECKING' AND balance < 0",
    ),
    (
        "positive_as_less",
        "List the owners of savings accounts whose balance is positive.",
        "SELECT owner FROM account WHERE kind = 'SAVINGS' AND balance <= 0",
        "SELECT owner FROM account WHERE kind = 'SAVINGS' AND balance > 0",
    ),
    (
        "at_a_loss",
        "How many shops in Oslo ran at a loss?",
        "SELECT count(*) FROM shop WHERE city = 'Oslo' AND profit > 0",
        "SELECT count(*) FROM shop WHERE city = 'Oslo' AND profit < 0",
    ),
]


@pytest.mark.parametrize(("name", "question", "wrong", "right"), MINE, ids=[c[0] for c in MINE])
def test_a_unanimous_flipped_sign_is_not_shown(
    tmp_path: Path, name: str, question: str, wrong: str, right: str
) -> None:
    wrong_withheld_right_clear(tmp_path, (name, _db(tmp_path), question, wrong, right, CODE))


def test_the_testers_record(tmp_path: Path, tpch_duckdb: Path) -> None:
    question = "How many customers are in the AUTOMOBILE segment with a negative account balance?"
    wrong = "SELECT count(*) FROM customer WHERE c_mktsegment='AUTOMOBILE' AND c_acctbal > 0"
    right = "SELECT count(*) FROM customer WHERE c_mktsegment='AUTOMOBILE' AND c_acctbal < 0"
    wrong_withheld_right_clear(tmp_path, ("w8", tpch_duckdb, question, wrong, right, CODE))


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        # negated: "not negative" keeps zero and above
        ("Accounts whose balance is not negative?", "SELECT * FROM a WHERE balance >= 0"),
        ("Accounts with a non-negative balance?", "SELECT * FROM a WHERE balance >= 0"),
        # the column says the side itself
        ("Shops that ran at a loss?", "SELECT * FROM s WHERE loss > 0"),
        # both signs said: nothing tells which comparison is which
        ("Positive or negative balances?", "SELECT * FROM a WHERE balance > 0 OR balance < 0"),
    ],
    ids=["negated", "non_negative", "side_column", "both"],
)
def test_silent_where_the_sign_is_kept(question: str, sql: str) -> None:
    assert bound_flipped(question, parse_one(sql)) is None
