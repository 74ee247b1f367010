"""A state the question asks for, on a table whose status column the SQL never reads, five
samples agreeing on it (agreed20, a development set, h20_h02): "How many urgent orders placed
in 1995 are still open?" answered without ``o_orderstatus = 'O'`` was shown at 1.00. The wrong
answer is withheld; the right one beside it does not draw the code."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from assay.checks import QUESTION_SIGNALS
from tests.checks._helpers import codes, scored, wrong_withheld_right_clear

CODE = "signal.status_dropped"
PRIORITIES = ["1-URGENT", "2-HIGH", "3-MEDIUM"]


def _shop(tmp_path: Path) -> Path:
    """Orders with a priority, a date and a status coded 'O', 'F' or 'P'; accounts whose status
    is spelled out; line items with no status at all."""
    db = tmp_path / "shop.sqlite"
    con = sqlite3.connect(db)
    con.execute(
        "CREATE TABLE orders (o_orderkey INTEGER PRIMARY KEY, o_orderpriority TEXT, "
        "o_orderdate DATE, o_orderstatus TEXT)"
    )
    con.executemany(
        "INSERT INTO orders VALUES (?, ?, ?, ?)",
        [
            (i, PRIORITIES[i % 3], f"199{4 + i % 3}-0{1 + i % 9}-15", "OFP"[i % 4 % 3])
            for i in range(60)
        ],
    )
    con.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY, Status TEXT, balance REAL)")
    con.executemany(
        "INSERT INTO accounts VALUES (?, ?, ?)",
        [(i, ["active", "inactive", "closed"][i % 3], i * 2.5) for i in range(30)],
    )
    con.execute("CREATE TABLE lineitem (l_orderkey INTEGER, l_quantity INTEGER)")
    con.executemany("INSERT INTO lineitem VALUES (?, ?)", [(i % 60, i % 7) for i in range(120)])
    con.commit()
    con.close()
    return db


URGENT_1995 = (
    "SELECT count(*) AS open_urgent FROM orders WHERE o_orderpriority = '1-URGENT' "
    "AND o_orderdate BETWEEN '1995-01-01' AND '1995-12-31'"
)
# (name, question, the wrong SQL all five samples agree on, the right SQL)
WRONG_AND_RIGHT = [
    (
        "h02_still_open",
        "How many urgent orders placed in 1995 are still open?",
        URGENT_1995,
        URGENT_1995 + " AND o_orderstatus = 'O'",
    ),
    (
        "active_spelled_out",
        "What is the total balance of active accounts?",
        "SELECT sum(balance) FROM accounts",
        "SELECT sum(balance) FROM accounts WHERE Status = 'active'",
    ),
]


def test_the_code_is_a_question_signal() -> None:
    assert CODE in QUESTION_SIGNALS


@pytest.mark.parametrize(
    ("name", "question", "wrong", "right"), WRONG_AND_RIGHT, ids=[c[0] for c in WRONG_AND_RIGHT]
)
def test_a_unanimous_dropped_state_is_not_shown(
    tmp_path: Path, name: str, question: str, wrong: str, right: str
) -> None:
    db = _shop(tmp_path)
    wrong_withheld_right_clear(tmp_path, (name, db, question, wrong, right, CODE))


# (name, question, SQL the check must stay silent on)
SILENT = [
    # no state asked
    ("no_state", "How many urgent orders were placed in 1995?", URGENT_1995),
    # the status read another way: not finished
    (
        "read_otherwise",
        "How many orders are still open?",
        "SELECT count(*) FROM orders WHERE o_orderstatus NOT IN ('F', 'P')",
    ),
    # the table read has no status column
    (
        "no_status_column",
        "How many line items belong to open orders, by quantity?",
        "SELECT l_quantity, count(*) FROM lineitem GROUP BY l_quantity",
    ),
    # a state word the status column codes with no value ('S' for suspended is not stored)
    ("state_not_stored", "How many suspended orders are there?", "SELECT count(*) FROM orders"),
]


@pytest.mark.parametrize(("name", "question", "sql"), SILENT, ids=[c[0] for c in SILENT])
def test_silent_where_no_coded_state_is_dropped(
    tmp_path: Path, name: str, question: str, sql: str
) -> None:
    db = _shop(tmp_path)
    assert CODE not in codes(scored(tmp_path, db, question, sql)), name
