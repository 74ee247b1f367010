"""A bound on a number the question never asks for, five samples agreeing on it (outside
tester, tryout 26): "How many clicks did the Summer Fitness Campaign get in total?" with ``AND
impressions > 8000`` (s_w6) and "What is the average retail price of parts?" with ``WHERE p_size
> 10`` (q5), each shown at 1.00. The wrong answer is withheld; the right one beside it does not
draw the code."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from assay.checks import QUESTION_SIGNALS
from tests.checks._helpers import codes, scored, wrong_withheld_right_clear

CODE = "signal.bound_unasked"


def _db(tmp_path: Path) -> Path:
    """Campaign metrics by day, and parts with a size and a retail price."""
    db = tmp_path / "m.sqlite"
    con = sqlite3.connect(db)
    con.execute(
        "CREATE TABLE marketing_campaign_metrics (day INTEGER, campaign_name TEXT, "
        "impressions INTEGER, clicks INTEGER)"
    )
    con.executemany(
        "INSERT INTO marketing_campaign_metrics VALUES (?, ?, ?, ?)",
        [(i, "Summer Fitness Campaign", 5000 + 500 * i, 100 + i) for i in range(12)],
    )
    con.execute("CREATE TABLE part (p_partkey INTEGER, p_size INTEGER, p_retailprice REAL)")
    con.executemany(
        "INSERT INTO part VALUES (?, ?, ?)", [(i, i % 20, 900.0 + i) for i in range(40)]
    )
    con.commit()
    con.close()
    return db


# (name, question, the wrong SQL all five samples agree on, the right SQL)
WRONG_AND_RIGHT = [
    (
        "s_w6_impressions",
        "How many clicks did the Summer Fitness Campaign get in total?",
        "SELECT sum(clicks) FROM marketing_campaign_metrics WHERE campaign_name = "
        "'Summer Fitness Campaign' AND impressions > 8000",
        "SELECT sum(clicks) FROM marketing_campaign_metrics WHERE campaign_name = "
        "'Summer Fitness Campaign'",
    ),
    (
        "q5_size",
        "What is the average retail price of parts?",
        "SELECT avg(p_retailprice) FROM part WHERE p_size > 10",
        "SELECT avg(p_retailprice) FROM part",
    ),
]


def test_the_code_is_a_question_signal() -> None:
    assert CODE in QUESTION_SIGNALS


@pytest.mark.parametrize(
    ("name", "question", "wrong", "right"), WRONG_AND_RIGHT, ids=[c[0] for c in WRONG_AND_RIGHT]
)
def test_a_unanimous_unasked_bound_is_not_shown(
    tmp_path: Path, name: str, question: str, wrong: str, right: str
) -> None:
    db = _db(tmp_path)
    wrong_withheld_right_clear(tmp_path, (name, db, question, wrong, right, CODE))


# (name, question, SQL the check must stay silent on)
SILENT = [
    # the number is said
    (
        "number_said",
        "What is the average retail price of parts of size 10 and up?",
        "SELECT avg(p_retailprice) FROM part WHERE p_size >= 10",
    ),
    # the column is named
    (
        "column_named",
        "How many clicks did the campaign get on days with a lot of impressions?",
        "SELECT sum(clicks) FROM marketing_campaign_metrics WHERE impressions > 8000",
    ),
    # an implicit bound: "large parts"
    (
        "implicit",
        "What is the average retail price of large parts?",
        "SELECT avg(p_retailprice) FROM part WHERE p_size > 15",
    ),
    # 0 and 1 are read as "any" and "at least one"
    (
        "zero",
        "What is the average retail price of parts in stock?",
        "SELECT avg(p_retailprice) FROM part WHERE p_size > 0",
    ),
]


@pytest.mark.parametrize(("name", "question", "sql"), SILENT, ids=[c[0] for c in SILENT])
def test_silent_where_the_bound_may_be_asked(
    tmp_path: Path, name: str, question: str, sql: str
) -> None:
    db = _db(tmp_path)
    assert CODE not in codes(scored(tmp_path, db, question, sql)), name
