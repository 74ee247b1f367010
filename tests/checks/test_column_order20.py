"""Two amounts compared the other way round from the question, five samples agreeing on it
(agreed20, a development set, h20_d24): "How many web sales lines in 2001 were sold at a
discount, below the list price?" as ``ws_list_price < ws_sales_price`` was shown at 1.00.
``columns_compared_backwards`` read "after" and "before" only, and wanted both columns named;
here the words before "below" name neither (the sales price is the question's unsaid subject).
The wrong answer is withheld; the right one beside it does not draw the code."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.checks._helpers import codes, scored, wrong_withheld_right_clear

CODE = "signal.columns_compared_backwards"


def _web_sales(tmp_path: Path) -> Path:
    """Web sales lines sold below, at or above their list price, with a wholesale cost."""
    db = tmp_path / "web.sqlite"
    con = sqlite3.connect(db)
    con.execute(
        "CREATE TABLE web_sales (ws_order_number INTEGER, ws_list_price REAL, "
        "ws_sales_price REAL, ws_wholesale_cost REAL)"
    )
    con.executemany(
        "INSERT INTO web_sales VALUES (?, 100.0, ?, 40.0)",
        [(i, 80.0 + 10 * (i % 5)) for i in range(30)],
    )
    con.commit()
    con.close()
    return db


COUNT = "SELECT count(*) AS discounted FROM web_sales ws WHERE "
# (name, question, the wrong SQL all five samples agree on, the right SQL)
WRONG_AND_RIGHT = [
    (
        "d24_below_the_list_price",
        "How many web sales lines were sold at a discount, below the list price?",
        COUNT + "ws.ws_list_price < ws.ws_sales_price",
        COUNT + "ws.ws_sales_price < ws.ws_list_price",
    ),
    (
        "above_the_list_price",
        "How many web sales lines were sold above the list price?",
        COUNT + "ws_sales_price < ws_list_price",
        COUNT + "ws_list_price < ws_sales_price",
    ),
    (
        "sales_price_more_than_list",
        "How many lines have a sales price more than their list price?",
        COUNT + "ws_list_price > ws_sales_price",
        COUNT + "ws_sales_price > ws_list_price",
    ),
]


@pytest.mark.parametrize(
    ("name", "question", "wrong", "right"), WRONG_AND_RIGHT, ids=[c[0] for c in WRONG_AND_RIGHT]
)
def test_a_unanimous_backwards_comparison_is_not_shown(
    tmp_path: Path, name: str, question: str, wrong: str, right: str
) -> None:
    db = _web_sales(tmp_path)
    wrong_withheld_right_clear(tmp_path, (name, db, question, wrong, right, CODE))


# (name, question, SQL the check must stay silent on)
SILENT = [
    # right, the operands written the other way
    (
        "right_reversed",
        "How many web sales lines were sold below the list price?",
        COUNT + "ws_list_price > ws_sales_price",
    ),
    # the cue is about a number, not two columns
    ("a_number", "How many web sales lines were sold below 90?", COUNT + "ws_sales_price < 90"),
    # negated: "not sold below the list price" is "at or above it"
    (
        "negated",
        "How many web sales lines were not sold below the list price?",
        COUNT + "ws_sales_price >= ws_list_price",
    ),
    # the column after the cue is not in the comparison
    (
        "other_column",
        "How many web sales lines were sold above the wholesale cost but below the list price?",
        COUNT + "ws_sales_price > ws_wholesale_cost AND ws_sales_price < ws_list_price",
    ),
]


@pytest.mark.parametrize(("name", "question", "sql"), SILENT, ids=[c[0] for c in SILENT])
def test_silent_where_the_order_is_right_or_unread(
    tmp_path: Path, name: str, question: str, sql: str
) -> None:
    db = _web_sales(tmp_path)
    assert CODE not in codes(scored(tmp_path, db, question, sql)), name
