"""An equality on a flag or a code the question never asks about, five samples agreeing on it
(outside tester, tryout 27, W3): "How many singers are from France?" with ``AND Is_male =
'T'``, shown at 1.00. The wrong answer is withheld; the right one beside it does not draw the
code."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from assay.checks import QUESTION_SIGNALS
from tests.checks._helpers import codes, scored, wrong_withheld_right_clear

CODE = "signal.code_unasked"


def _db(tmp_path: Path) -> Path:
    """Singers with a country and a T/F male flag; customers with a segment; line items with
    a one-letter return flag and a ship mode; cars whose maker's country is a key stored as
    text ('1', '2', '3')."""
    db = tmp_path / "d.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE singer (Singer_ID INTEGER, Name TEXT, Country TEXT, Is_male TEXT)")
    con.executemany(
        "INSERT INTO singer VALUES (?, ?, ?, ?)",
        [(i, f"s{i}", ("France", "Spain")[i % 2], "TF"[i % 3 == 0]) for i in range(12)],
    )
    con.execute("CREATE TABLE customer (c_custkey INTEGER, c_mktsegment TEXT)")
    con.executemany(
        "INSERT INTO customer VALUES (?, ?)",
        [(i, ("BUILDING", "MACHINERY")[i % 2]) for i in range(20)],
    )
    con.execute("CREATE TABLE lineitem (l_orderkey INTEGER, l_returnflag TEXT, l_shipmode TEXT)")
    con.executemany(
        "INSERT INTO lineitem VALUES (?, ?, ?)",
        [(i, "RAN"[i % 3], ("AIR", "MAIL")[i % 2]) for i in range(30)],
    )
    con.execute("CREATE TABLE countries (CountryId INTEGER, CountryName TEXT)")
    con.executemany(
        "INSERT INTO countries VALUES (?, ?)", [(1, "usa"), (2, "germany"), (3, "france")]
    )
    con.execute("CREATE TABLE car_makers (Id INTEGER, Maker TEXT, Country TEXT)")
    con.executemany(
        "INSERT INTO car_makers VALUES (?, ?, ?)", [(i, f"m{i}", str(1 + i % 3)) for i in range(9)]
    )
    con.commit()
    con.close()
    return db


# (name, question, the wrong SQL all five samples agree on, the right SQL)
WRONG_AND_RIGHT = [
    (
        "w3_is_male",
        "How many singers are from France?",
        "SELECT count(*) FROM singer WHERE Country = 'France' AND Is_male = 'T'",
        "SELECT count(*) FROM singer WHERE Country = 'France'",
    ),
    (
        "return_flag",
        "How many line items were shipped by MAIL?",
        "SELECT count(*) FROM lineitem WHERE l_shipmode = 'MAIL' AND l_returnflag = 'N'",
        "SELECT count(*) FROM lineitem WHERE l_shipmode = 'MAIL'",
    ),
]


def test_the_code_is_a_question_signal() -> None:
    assert CODE in QUESTION_SIGNALS


@pytest.mark.parametrize(
    ("name", "question", "wrong", "right"), WRONG_AND_RIGHT, ids=[c[0] for c in WRONG_AND_RIGHT]
)
def test_a_unanimous_unasked_code_is_not_shown(
    tmp_path: Path, name: str, question: str, wrong: str, right: str
) -> None:
    db = _db(tmp_path)
    wrong_withheld_right_clear(tmp_path, (name, db, question, wrong, right, CODE))


# (name, question, SQL the check must stay silent on)
SILENT = [
    # the flag's word is said ("male"), or another word of sex ("women")
    (
        "male_said",
        "How many male singers are from France?",
        "SELECT count(*) FROM singer WHERE Country = 'France' AND Is_male = 'T'",
    ),
    (
        "women_said",
        "How many women singers are from France?",
        "SELECT count(*) FROM singer WHERE Country = 'France' AND Is_male = 'F'",
    ),
    # the code is said, or a word beginning with it ("returned" may say 'R')
    (
        "code_said",
        "How many line items have return flag R?",
        "SELECT count(*) FROM lineitem WHERE l_returnflag = 'R'",
    ),
    (
        "code_word",
        "How many line items shipped by AIR were returned?",
        "SELECT count(*) FROM lineitem WHERE l_shipmode = 'AIR' AND l_returnflag = 'R'",
    ),
    # a value of words is no code: the question names it
    (
        "long_value",
        "How many customers are in the BUILDING segment?",
        "SELECT count(*) FROM customer WHERE c_mktsegment = 'BUILDING'",
    ),
    # digits are a key, named through its row ("France" is country 3)
    (
        "key_as_text",
        "How many car makers are from France?",
        "SELECT count(*) FROM car_makers WHERE Country = '3'",
    ),
]


@pytest.mark.parametrize(("name", "question", "sql"), SILENT, ids=[c[0] for c in SILENT])
def test_silent_where_the_question_may_ask_for_it(
    tmp_path: Path, name: str, question: str, sql: str
) -> None:
    db = _db(tmp_path)
    assert CODE not in codes(scored(tmp_path, db, question, sql)), name
