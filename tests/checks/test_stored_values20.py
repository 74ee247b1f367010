"""A stored value read wrong, five samples agreeing on it (agreed20, a development set: each
shown at 1.00): "customers with a college education" as ``cd_education_status = '4 yr
Degree'`` (h20_d09; 'College' is stored, and ``value_swapped`` had taken "college" for a word of
the schema, ``cd_dep_college_count``, which the query never reads), and "shipped by regular
air" as ``l_shipmode = 'AIR'`` (h20_h12; 'REG AIR' is stored). The wrong answer is withheld;
the right one beside it does not draw the code."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from assay.checks import QUESTION_SIGNALS
from tests.checks._helpers import codes, scored, wrong_withheld_right_clear

EDUCATION = ["Primary", "Secondary", "College", "2 yr Degree", "4 yr Degree", "Advanced Degree"]
MODES = ["AIR", "REG AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"]


def _shop(tmp_path: Path) -> Path:
    """Store sales by the buyer's demographics (education, and a count of college dependents)
    and line items by ship mode."""
    db = tmp_path / "shop.sqlite"
    con = sqlite3.connect(db)
    con.execute(
        "CREATE TABLE customer_demographics (cd_demo_sk INTEGER PRIMARY KEY, "
        "cd_education_status TEXT, cd_dep_college_count INTEGER)"
    )
    con.execute("CREATE TABLE store_sales (ss_ticket_number INTEGER, ss_cdemo_sk INTEGER)")
    con.execute("CREATE TABLE lineitem (l_orderkey INTEGER, l_shipmode TEXT, l_shipdate DATE)")
    con.executemany(
        "INSERT INTO customer_demographics VALUES (?, ?, ?)",
        [(i, EDUCATION[i % 6], i % 4) for i in range(36)],
    )
    con.executemany("INSERT INTO store_sales VALUES (?, ?)", [(i, i % 36) for i in range(200)])
    con.executemany(
        "INSERT INTO lineitem VALUES (?, ?, ?)",
        [(i, MODES[i % 7], f"199{5 + i % 3}-0{1 + i % 9}-1{i % 10}") for i in range(140)],
    )
    con.commit()
    con.close()
    return db


SALES = (
    "SELECT count(*) AS sales FROM store_sales ss JOIN customer_demographics cd "
    "ON ss.ss_cdemo_sk = cd.cd_demo_sk WHERE cd.cd_education_status = "
)
ITEMS = "SELECT count(*) AS line_items FROM lineitem WHERE l_shipmode "
# (name, question, the wrong SQL all five samples agree on, the right SQL, the code)
WRONG_AND_RIGHT = [
    (
        "d09_college",
        "How many store sales were made to customers with a college education?",
        SALES + "'4 yr Degree'",
        SALES + "'College'",
        "signal.value_swapped",
    ),
    (
        "h12_regular_air",
        "How many line items were shipped by regular air in 1996?",
        ITEMS + "= 'AIR' AND strftime('%Y', l_shipdate) = '1996'",
        ITEMS + "= 'REG AIR' AND strftime('%Y', l_shipdate) = '1996'",
        "signal.fuller_value_said",
    ),
    (
        "reg_air_in_list",
        "How many line items went by regular air?",
        ITEMS + "IN ('AIR')",
        ITEMS + "IN ('REG AIR')",
        "signal.fuller_value_said",
    ),
]


def test_the_codes_are_question_signals() -> None:
    assert {"signal.value_swapped", "signal.fuller_value_said"} <= set(QUESTION_SIGNALS)


@pytest.mark.parametrize(
    ("name", "question", "wrong", "right", "code"),
    WRONG_AND_RIGHT,
    ids=[c[0] for c in WRONG_AND_RIGHT],
)
def test_a_unanimous_misread_value_is_not_shown(
    tmp_path: Path, name: str, question: str, wrong: str, right: str, code: str
) -> None:
    db = _shop(tmp_path)
    wrong_withheld_right_clear(tmp_path, (name, db, question, wrong, right, code))


# (name, question, SQL the checks must stay silent on)
SILENT = [
    # "air" alone says the shorter value: 'AIR' is what is asked
    ("air_alone", "How many line items were shipped by air?", ITEMS + "= 'AIR'"),
    # both asked, both carried
    (
        "both_modes",
        "How many line items went by air or by regular air?",
        ITEMS + "IN ('AIR', 'REG AIR')",
    ),
    # "not by regular air": the other values asked by naming one
    (
        "negated",
        "How many line items were shipped by air but not by regular air?",
        ITEMS + "= 'AIR'",
    ),
]


@pytest.mark.parametrize(("name", "question", "sql"), SILENT, ids=[c[0] for c in SILENT])
def test_silent_where_the_value_asked_is_compared(
    tmp_path: Path, name: str, question: str, sql: str
) -> None:
    db = _shop(tmp_path)
    found = codes(scored(tmp_path, db, question, sql))
    assert "signal.fuller_value_said" not in found, name
    assert "signal.value_swapped" not in found, name
