"""A bound on a whole number written with its neighbour (agreed22, a development set, h22_s01):
"How many cars made after 1975 have more than 6 cylinders?" as ``Cylinders >= 7 AND NOT Year
<= 1975`` is right (``Cylinders`` is an INTEGER column), yet five samples agreeing on it were
withheld: ``literal_fit`` said "the question names 6, which no literal in the SQL carries". A
whole-number column's ``>= 7`` says "more than 6"; a real column's does not, nor does ``> 5``."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.checks._helpers import codes, scored

CODE = "signal.literal_missing"
COUNT = "SELECT count(*) FROM parts WHERE "
SIX = "How many cars made after 1975 have more than 6 cylinders?"


def test_h22_s01_more_than_6_as_at_least_7_is_shown(tmp_path: Path) -> None:
    sql = "SELECT count(*) FROM cars_data WHERE Cylinders >= 7 AND NOT Year <= 1975"
    verdict = scored(tmp_path, "car_1", SIX, *[sql] * 5)
    assert CODE not in codes(verdict)
    assert verdict["action"] == "show", verdict["reasons"]


def _parts(tmp_path: Path) -> Path:
    """Parts with a whole count of pieces and a real weight."""
    db = tmp_path / "parts.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE parts (id INTEGER, pieces INTEGER, weight REAL)")
    con.executemany("INSERT INTO parts VALUES (?, ?, ?)", [(i, i % 12, i * 0.7) for i in range(40)])
    con.commit()
    con.close()
    return db


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        ("How many parts have more than 6 pieces?", "pieces >= 7"),
        ("How many parts have at least 7 pieces?", "pieces > 6"),
        ("How many parts have fewer than 6 pieces?", "pieces <= 5"),
        ("How many parts have at most 5 pieces?", "NOT pieces >= 6"),
    ],
    ids=["more_than", "at_least", "fewer_than", "at_most_negated"],
)
def test_a_whole_bound_said_by_its_neighbour_is_carried(
    tmp_path: Path, question: str, sql: str
) -> None:
    verdict = scored(tmp_path, _parts(tmp_path), question, COUNT + sql)
    assert CODE not in codes(verdict)


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        ("How many parts weigh more than 6?", "weight >= 7"),  # a real column: 6.5 is lost
        ("How many parts have more than 6 pieces?", "pieces > 5"),  # the neighbour the wrong way
        ("How many parts have more than 6 pieces?", "pieces >= 8"),  # not the neighbour
    ],
    ids=["real_column", "wrong_way", "not_next"],
)
def test_still_missing_where_the_neighbour_says_another_bound(
    tmp_path: Path, question: str, sql: str
) -> None:
    verdict = scored(tmp_path, _parts(tmp_path), question, COUNT + sql)
    assert CODE in codes(verdict)
