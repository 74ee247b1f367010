"""Two amounts compared the other way round from a verb of the question (agreed22, a development
set, h22_c14): "On how many days in 2024 did revenue beat the forecast?" as ``REVENUE <
FORECASTED_REVENUE`` counts the days revenue fell short, five samples agreeing, shown at 1.00.
``columns_compared_backwards`` read "after", "below", "more than" and the like, no verb: "beat",
"outperform", "surpass", "top" (the first the larger) and "fall short of", "miss", "trail", "lag"
(the first the smaller) are read now, between two columns that hold no dates (a date that beats
a deadline is the earlier one)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.checks._helpers import codes, scored, wrong_withheld_right_clear

CODE = "signal.columns_compared_backwards"


def _revenue(tmp_path: Path) -> Path:
    """Daily revenue beside its forecast over 2024, some days above it and some below; orders
    with the day they shipped and the day they were due."""
    db = tmp_path / "revenue.sqlite"
    con = sqlite3.connect(db)
    con.execute(
        "CREATE TABLE daily_revenue (DATE DATE, REVENUE REAL, FORECASTED_REVENUE REAL, COST REAL)"
    )
    con.executemany(
        "INSERT INTO daily_revenue VALUES (date('2024-01-01', ?), ?, 100.0, 50.0)",
        [(f"+{i} day", 80.0 + 7 * (i % 6)) for i in range(40)],
    )
    con.execute("CREATE TABLE orders (o_id INTEGER, o_shipdate DATE, o_duedate DATE)")
    con.executemany(
        "INSERT INTO orders VALUES (?, date('2024-01-01', ?), date('2024-01-03'))",
        [(i, f"+{i % 5} day") for i in range(20)],
    )
    con.commit()
    con.close()
    return db


COUNT = "SELECT count(*) AS days FROM daily_revenue WHERE strftime('%Y', DATE) = '2024' AND "
# (name, question, the wrong SQL all five samples agree on, the right SQL)
WRONG_AND_RIGHT = [
    (
        "h22_c14_beat_the_forecast",
        "On how many days in 2024 did revenue beat the forecast?",
        COUNT + "REVENUE < FORECASTED_REVENUE",
        COUNT + "REVENUE > FORECASTED_REVENUE",
    ),
    (
        "fell_short_of_the_forecast",
        "On how many days in 2024 did revenue fall short of the forecast?",
        COUNT + "REVENUE > FORECASTED_REVENUE",
        COUNT + "REVENUE < FORECASTED_REVENUE",
    ),
    (
        "outperformed_the_forecast",
        "How many days in 2024 had revenue that outperformed the forecast?",
        COUNT + "FORECASTED_REVENUE > REVENUE",
        COUNT + "FORECASTED_REVENUE < REVENUE",
    ),
    (
        "forecast_missed",
        "On how many days in 2024 did the revenue miss its forecast?",
        COUNT + "REVENUE >= FORECASTED_REVENUE",
        COUNT + "REVENUE < FORECASTED_REVENUE",
    ),
]


@pytest.mark.parametrize(
    ("name", "question", "wrong", "right"), WRONG_AND_RIGHT, ids=[c[0] for c in WRONG_AND_RIGHT]
)
def test_a_verb_read_backwards_is_not_shown(
    tmp_path: Path, name: str, question: str, wrong: str, right: str
) -> None:
    db = _revenue(tmp_path)
    wrong_withheld_right_clear(tmp_path, (name, db, question, wrong, right, CODE))


# (name, question, SQL the check must stay silent on)
SILENT = [
    # dates: an order that beat its due date shipped before it
    (
        "dates_beat",
        "How many orders beat their due date?",
        "SELECT count(*) FROM orders WHERE o_shipdate < o_duedate",
    ),
    (
        "dates_missed",
        "How many orders missed their due date?",
        "SELECT count(*) FROM orders WHERE o_shipdate > o_duedate",
    ),
    # negated: "did not beat" is "at most"
    (
        "negated",
        "On how many days in 2024 did revenue not beat the forecast?",
        COUNT + "REVENUE <= FORECASTED_REVENUE",
    ),
    # the column after the verb is not in the comparison
    (
        "other_column",
        "On how many days did revenue beat the cost?",
        "SELECT count(*) FROM daily_revenue WHERE COST < REVENUE",
    ),
]


@pytest.mark.parametrize(("name", "question", "sql"), SILENT, ids=[c[0] for c in SILENT])
def test_silent_where_the_verb_is_read_right_or_not_of_amounts(
    tmp_path: Path, name: str, question: str, sql: str
) -> None:
    db = _revenue(tmp_path)
    assert CODE not in codes(scored(tmp_path, db, question, sql)), name
