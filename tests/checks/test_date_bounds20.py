"""A day the question bounds by, compared the other way for its own day, five samples agreeing
on it (agreed20, a development set, h20_g12): "How many customers placed their first order from
November 1 through December 31, 2016?" as ``FIRST_ORDERED_AT < DATE '2016-12-31'`` leaves out
31 December and was shown at 1.00; ``bound_strictness`` reads numbers, not days said with a
month's name. The wrong answer is withheld; the right one beside it does not draw the code."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from tests.checks._helpers import codes, scored, wrong_withheld_right_clear

CODE = "signal.date_bound_strictness"


def _customers(tmp_path: Path) -> Path:
    """Customers with the day of their first order, one a day over 2016 (31 December too)."""
    db = tmp_path / "customers.duckdb"
    con = duckdb.connect(str(db))
    con.execute(
        "CREATE TABLE SMG_DEMO AS SELECT i AS CUSTOMER_ID, "
        "DATE '2016-01-01' + CAST(i AS INTEGER) AS FIRST_ORDERED_AT FROM range(0, 366) t(i)"
    )
    con.close()
    return db


COUNT = "SELECT count(*) AS customers FROM SMG_DEMO WHERE "
NOVEMBER = "FIRST_ORDERED_AT >= DATE '2016-11-01' AND "
# (name, question, the wrong SQL all five samples agree on, the right SQL)
WRONG_AND_RIGHT = [
    (
        "g12_through_december_31",
        "How many customers placed their first order from November 1 through December 31, 2016?",
        COUNT + NOVEMBER + "FIRST_ORDERED_AT < DATE '2016-12-31'",
        COUNT + "FIRST_ORDERED_AT BETWEEN DATE '2016-11-01' AND DATE '2016-12-31'",
    ),
    (
        "between_and",
        "How many customers placed their first order between November 1 and December 31, 2016?",
        COUNT + NOVEMBER + "FIRST_ORDERED_AT < '2016-12-31'",
        COUNT + NOVEMBER + "FIRST_ORDERED_AT <= '2016-12-31'",
    ),
    (
        "before_the_day",
        "How many customers placed their first order before 1 March 2016?",
        COUNT + "FIRST_ORDERED_AT <= DATE '2016-03-01'",
        COUNT + "FIRST_ORDERED_AT < DATE '2016-03-01'",
    ),
    (
        "since_the_day_reversed",
        "How many customers have ordered for the first time since 2016-06-01?",
        COUNT + "DATE '2016-06-01' < FIRST_ORDERED_AT",
        COUNT + "DATE '2016-06-01' <= FIRST_ORDERED_AT",
    ),
]


@pytest.mark.parametrize(
    ("name", "question", "wrong", "right"), WRONG_AND_RIGHT, ids=[c[0] for c in WRONG_AND_RIGHT]
)
def test_a_unanimous_day_lost_or_added_is_not_shown(
    tmp_path: Path, name: str, question: str, wrong: str, right: str
) -> None:
    db = _customers(tmp_path)
    wrong_withheld_right_clear(tmp_path, (name, db, question, wrong, right, CODE))


# (name, question, SQL the check must stay silent on)
SILENT = [
    # the day after, exclusive: right
    (
        "next_day_exclusive",
        "How many customers placed their first order through December 31, 2016?",
        COUNT + "FIRST_ORDERED_AT < DATE '2017-01-01'",
    ),
    # "to" after a month, not a day, may or may not include its day: not read (after two
    # days, "November 1 to December 31", it names the range's last day: agreed26 h26_c04)
    (
        "to_unread",
        "How many customers placed their first order from November to December 31, 2016?",
        COUNT + NOVEMBER + "FIRST_ORDERED_AT < DATE '2016-12-31'",
    ),
    # another year than the one asked
    (
        "other_year",
        "How many customers placed their first order through December 31, 2015?",
        COUNT + "FIRST_ORDERED_AT < DATE '2016-12-31'",
    ),
    # "after" a day, strict, written strict
    (
        "after_strict",
        "How many customers placed their first order after Dec. 31st, 2015?",
        COUNT + "FIRST_ORDERED_AT > '2015-12-31'",
    ),
]


@pytest.mark.parametrize(("name", "question", "sql"), SILENT, ids=[c[0] for c in SILENT])
def test_silent_where_the_day_is_kept_as_asked(
    tmp_path: Path, name: str, question: str, sql: str
) -> None:
    db = _customers(tmp_path)
    assert CODE not in codes(scored(tmp_path, db, question, sql)), name
