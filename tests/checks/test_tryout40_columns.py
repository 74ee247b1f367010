"""Two columns the question names and five agreeing samples never read (outside tryout 40,
F-2, each shown at 1.00):

- w5 "What is the total revenue of line items shipped in 1996 after discount?" as
  ``sum(l_extendedprice)``: the discount, said as an adjustment, is never taken off
  (``_unasked_factor.factor_dropped``).
- w2 "What is the name of the stadium with the largest capacity?" as ``SELECT Location``: the
  question ties "name" to the stadium, whose ``Name`` the SQL never returns
  (``_returned_sibling``).

Each wrong answer is withheld (``signal.column_mismatch``), the right one beside it does not
draw the code; on the tester's records and on a schema and words of my own."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlglot import parse_one

from assay.catalog import Catalog, ColumnInfo, TableInfo
from assay.checks._returned_sibling import returned_sibling
from assay.checks._unasked_factor import factor_dropped
from tests.checks._helpers import wrong_withheld_right_clear

CODE = "signal.column_mismatch"


def _db(tmp_path: Path) -> Path:
    """Taxi trips with a fare and tolls; films with a title and a director."""
    db = tmp_path / "d.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE trip (trip_id INTEGER, yr INTEGER, fare REAL, tolls REAL)")
    con.executemany(
        "INSERT INTO trip VALUES (?, ?, ?, ?)",
        [(i, 2019 + i % 3, 10.0 + i, float(i % 4)) for i in range(30)],
    )
    con.execute("CREATE TABLE film (film_id INTEGER, title TEXT, director TEXT, runtime INTEGER)")
    con.executemany(
        "INSERT INTO film VALUES (?, ?, ?, ?)",
        [(i, f"Film {i}", f"Director {i % 4}", 80 + 7 * i) for i in range(10)],
    )
    con.commit()
    con.close()
    return db


MINE = [
    (
        "net_of_tolls",
        "What was the total fare of trips in 2020 net of tolls?",
        "SELECT sum(fare) FROM trip WHERE yr = 2020",
        "SELECT sum(fare - tolls) FROM trip WHERE yr = 2020",
    ),
    (
        "title_of_the_film",
        "What is the title of the film with the longest runtime?",
        "SELECT director FROM film ORDER BY runtime DESC LIMIT 1",
        "SELECT title FROM film ORDER BY runtime DESC LIMIT 1",
    ),
    (
        "films_title",
        "Give the film's title with the shortest runtime.",
        "SELECT director FROM film ORDER BY runtime LIMIT 1",
        "SELECT title FROM film ORDER BY runtime LIMIT 1",
    ),
]


@pytest.mark.parametrize(("name", "question", "wrong", "right"), MINE, ids=[c[0] for c in MINE])
def test_my_records(tmp_path: Path, name: str, question: str, wrong: str, right: str) -> None:
    wrong_withheld_right_clear(tmp_path, (name, _db(tmp_path), question, wrong, right, CODE))


def test_the_testers_discount_record(tmp_path: Path, tpch_duckdb: Path) -> None:
    question = "What is the total revenue of line items shipped in 1996 after discount?"
    wrong = "SELECT sum(l_extendedprice) FROM lineitem WHERE year(l_shipdate)=1996"
    right = (
        "SELECT sum(l_extendedprice * (1 - l_discount)) FROM lineitem WHERE year(l_shipdate)=1996"
    )
    wrong_withheld_right_clear(tmp_path, ("w5", tpch_duckdb, question, wrong, right, CODE))


def test_the_testers_stadium_record(tmp_path: Path) -> None:
    question = "What is the name of the stadium with the largest capacity?"
    wrong = "SELECT Location FROM stadium ORDER BY Capacity DESC LIMIT 1"
    right = "SELECT Name FROM stadium ORDER BY Capacity DESC LIMIT 1"
    wrong_withheld_right_clear(tmp_path, ("w2", "concert_singer", question, wrong, right, CODE))


CATALOG = Catalog(
    (
        TableInfo(
            "film",
            tuple(
                ColumnInfo(c, t)
                for c, t in (("title", "TEXT"), ("director", "TEXT"), ("runtime", "INTEGER"))
            ),
        ),
        TableInfo(
            "sale",
            tuple(
                ColumnInfo(c, "REAL")
                for c in ("price", "discount", "tax", "discount_rate", "discount_amt")
            ),
        ),
    )
)


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        # the returned column is said too
        ("The title and director of the film?", "SELECT director FROM film"),
        # "title" not tied to the film
        ("Which director has a title?", "SELECT director FROM film"),
    ],
)
def test_returned_silent(question: str, sql: str) -> None:
    assert returned_sibling(question, parse_one(sql), CATALOG) == []


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        ("Total price after tax?", "SELECT sum(price * (1 + tax)) FROM sale"),
        # "discount" names two columns: nothing tells which
        ("Total price after discount?", "SELECT sum(price) FROM sale"),
        ("Total price less than 100?", "SELECT sum(price) FROM sale WHERE price < 100"),
    ],
    ids=["read", "two_columns", "less_than"],
)
def test_dropped_silent(question: str, sql: str) -> None:
    assert factor_dropped(question, parse_one(sql), CATALOG) == []
