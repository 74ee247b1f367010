"""Two columns compared the other way round from the question, five samples agreeing on it
(outside tester, tryout 26, probe p11): "How many line items were shipped after their commit
date?" as ``l_commitdate > l_shipdate`` was shown at 1.00. The wrong answer is withheld; the
right one beside it does not draw the code."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from assay.checks import QUESTION_SIGNALS
from tests.checks._helpers import codes, scored, wrong_withheld_right_clear

CODE = "signal.columns_compared_backwards"


def _lineitems(tmp_path: Path) -> Path:
    """Line items shipped some days before or after their commit date."""
    db = tmp_path / "items.sqlite"
    con = sqlite3.connect(db)
    con.execute(
        "CREATE TABLE lineitem (l_orderkey INTEGER, l_shipdate DATE, l_commitdate DATE, "
        "l_receiptdate DATE)"
    )
    con.executemany(
        "INSERT INTO lineitem VALUES (?, date('2024-01-10', ?), '2024-01-10', "
        "date('2024-01-20', ?))",
        [(i, f"{i % 7 - 3} days", f"{i % 5} days") for i in range(30)],
    )
    con.commit()
    con.close()
    return db


# (name, question, the wrong SQL all five samples agree on, the right SQL)
WRONG_AND_RIGHT = [
    (
        "p11_after",
        "How many line items were shipped after their commit date?",
        "SELECT count(*) FROM lineitem WHERE l_commitdate > l_shipdate",
        "SELECT count(*) FROM lineitem WHERE l_shipdate > l_commitdate",
    ),
    (
        "before_written_as_lt",
        "How many line items were shipped before their commit date?",
        "SELECT count(*) FROM lineitem WHERE l_commitdate < l_shipdate",
        "SELECT count(*) FROM lineitem WHERE l_shipdate < l_commitdate",
    ),
    (
        "later_than",
        "How many line items were received later than the commit date?",
        "SELECT count(*) FROM lineitem WHERE l_receiptdate <= l_commitdate",
        "SELECT count(*) FROM lineitem WHERE l_commitdate < l_receiptdate",
    ),
]


def test_the_code_is_a_question_signal() -> None:
    assert CODE in QUESTION_SIGNALS


@pytest.mark.parametrize(
    ("name", "question", "wrong", "right"), WRONG_AND_RIGHT, ids=[c[0] for c in WRONG_AND_RIGHT]
)
def test_a_unanimous_backwards_comparison_is_not_shown(
    tmp_path: Path, name: str, question: str, wrong: str, right: str
) -> None:
    db = _lineitems(tmp_path)
    wrong_withheld_right_clear(tmp_path, (name, db, question, wrong, right, CODE))


# (name, question, SQL the check must stay silent on)
SILENT = [
    # negated: "not shipped after" is "on or before"
    (
        "negated",
        "How many line items were not shipped after their commit date?",
        "SELECT count(*) FROM lineitem WHERE l_shipdate <= l_commitdate",
    ),
    # "date" names both columns: the cue's words name no one column
    (
        "date_only",
        "How many line items have a date after the date?",
        "SELECT count(*) FROM lineitem WHERE l_commitdate > l_shipdate",
    ),
    # the cue is about a number, not the two columns
    (
        "after_a_day",
        "How many line items were shipped after 2024-01-10, committed or not?",
        "SELECT count(*) FROM lineitem WHERE l_shipdate > '2024-01-10'",
    ),
]


@pytest.mark.parametrize(("name", "question", "sql"), SILENT, ids=[c[0] for c in SILENT])
def test_silent_where_the_order_is_not_read(
    tmp_path: Path, name: str, question: str, sql: str
) -> None:
    db = _lineitems(tmp_path)
    assert CODE not in codes(scored(tmp_path, db, question, sql)), name
