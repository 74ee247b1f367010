"""A sign said in words against a bound other than zero (outside recheck 41, F5): "How many
customers have a negative balance?" as ``c_acctbal < 100``, two samples agreeing, was shown by
/api/score (157; the right count 139). The column is read, so ``sign_dropped`` never looked at
it; a sign word is a bound at zero, and a query that compares the column with other numbers only
draws ``signal.sign_dropped``."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.checks._helpers import codes, scored, wrong_withheld_right_clear

CODE = "signal.sign_dropped"


def _db(tmp_path: Path) -> Path:
    """Wallets with a balance on either side of zero."""
    db = tmp_path / "w.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE wallet (wallet_id INTEGER, holder TEXT, balance REAL)")
    con.executemany(
        "INSERT INTO wallet VALUES (?, ?, ?)",
        [(i, ("ann", "bo")[i % 2], i * 9.0 - 70) for i in range(25)],
    )
    con.commit()
    con.close()
    return db


WRONG_AND_RIGHT = [
    (
        "negative_below_100",
        "How many wallets have a negative balance?",
        "SELECT count(*) FROM wallet WHERE balance < 100",
        "SELECT count(*) FROM wallet WHERE balance < 0",
    ),
    (
        "positive_above_50",
        "List the holders of wallets whose balance is positive.",
        "SELECT holder FROM wallet WHERE balance > 50",
        "SELECT holder FROM wallet WHERE balance > 0",
    ),
]


@pytest.mark.parametrize(
    ("name", "question", "wrong", "right"), WRONG_AND_RIGHT, ids=[c[0] for c in WRONG_AND_RIGHT]
)
def test_a_sign_compared_with_another_bound_is_withheld(
    tmp_path: Path, name: str, question: str, wrong: str, right: str
) -> None:
    wrong_withheld_right_clear(tmp_path, (name, _db(tmp_path), question, wrong, right, CODE))


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT count(*) FROM wallet WHERE balance <= 0.0",
        "SELECT count(*) FROM wallet WHERE NOT balance >= 0",
        "SELECT count(*) FROM wallet WHERE balance BETWEEN -1000 AND 0",
        "SELECT count(*) FROM wallet WHERE balance < 0 AND balance > -50",
    ],
)
def test_a_bound_at_zero_is_silent(tmp_path: Path, sql: str) -> None:
    question = "How many wallets have a negative balance?"
    assert CODE not in codes(scored(tmp_path, _db(tmp_path), question, sql))


def test_a_bound_the_question_says_is_silent(tmp_path: Path) -> None:
    question = "How many wallets have a positive balance above 1,000?"
    sql = "SELECT count(*) FROM wallet WHERE balance > 1000"
    assert CODE not in codes(scored(tmp_path, _db(tmp_path), question, sql))
