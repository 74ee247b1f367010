"""Agreed wrong answers outside tryout 22 saw shown at 1.00 (the Spider slice; tuned on, not held
out): a superlative answered by the opposite aggregate or rank window, numbers stored as text
compared or ordered as text, and "oldest first" sorted the other way on an age the question does
not name. Each right answer beside them is shown."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from sqlglot import parse_one

from assay.checks._text_order import _read_as_text
from tests.checks._helpers import codes, scored

RANKED_OLDEST = (
    "SELECT Name FROM (SELECT Name, {f}() OVER (ORDER BY Age{d}) AS r FROM singer) WHERE r = 1"
)
RANKED_ALL = "SELECT Name, rank() OVER (ORDER BY Age{d}) AS r FROM singer ORDER BY r"

CASES = [
    # (database, question, wrong SQL, right SQL, the signal)
    (
        "car_1",
        "What is the weight of the heaviest car?",
        "SELECT min(Weight) FROM cars_data",
        "SELECT max(Weight) FROM cars_data",
        "signal.ranking_mismatch",
    ),
    (
        "concert_singer",
        "How old is the youngest singer?",
        "SELECT max(Age) FROM singer",
        "SELECT min(Age) FROM singer",
        "signal.ranking_mismatch",
    ),
    (
        "concert_singer",
        "What is the name of the singer who is the oldest?",
        "SELECT Name FROM singer WHERE Age = (SELECT min(Age) FROM singer)",
        "SELECT Name FROM singer WHERE Age = (SELECT max(Age) FROM singer)",
        "signal.ranking_mismatch",
    ),
    (
        "concert_singer",
        "Who is the oldest singer?",
        RANKED_OLDEST.format(f="rank", d=""),
        RANKED_OLDEST.format(f="rank", d=" DESC"),
        "signal.ranking_mismatch",
    ),
    (
        "concert_singer",
        "Who is the oldest singer?",
        RANKED_OLDEST.format(f="row_number", d=" ASC"),
        RANKED_OLDEST.format(f="dense_rank", d=" DESC"),
        "signal.ranking_mismatch",
    ),
    (
        "concert_singer",
        "Rank the singers from oldest to youngest.",
        RANKED_ALL.format(d=" ASC"),
        RANKED_ALL.format(d=" DESC"),
        "signal.ranking_mismatch",
    ),
    (
        "car_1",
        "What is the maximum horsepower of the cars?",
        "SELECT max(Horsepower) FROM cars_data",
        "SELECT max(CAST(Horsepower AS INTEGER)) FROM cars_data",
        "signal.numbers_as_text",
    ),
    (
        "car_1",
        "How many cars have a horsepower over 150?",
        "SELECT count(*) FROM cars_data WHERE Horsepower > 150",
        "SELECT count(*) FROM cars_data WHERE CAST(Horsepower AS INTEGER) > 150",
        "signal.numbers_as_text",
    ),
    (
        "car_1",
        "What is the id of the car with the best mpg?",
        "SELECT Id FROM cars_data ORDER BY MPG DESC LIMIT 1",
        "SELECT Id FROM cars_data ORDER BY CAST(MPG AS REAL) DESC LIMIT 1",
        "signal.numbers_as_text",
    ),
    (
        "pets_1",
        "List the first names of the students sorted oldest first.",
        "SELECT Fname FROM Student ORDER BY Age ASC",
        "SELECT Fname FROM Student ORDER BY Age DESC",
        "signal.ranking_mismatch",
    ),
    (
        "pets_1",
        "Show the last name of every student, youngest first.",
        "SELECT LName FROM Student ORDER BY Age DESC",
        "SELECT LName FROM Student ORDER BY Age",
        "signal.ranking_mismatch",
    ),
]
IDS = [
    "heaviest-as-min",
    "youngest-as-max",
    "oldest-as-min-subquery",
    "oldest-rank-ascending",
    "oldest-row-number-ascending",
    "rank-oldest-to-youngest",
    "max-of-text",
    "text-over-150",
    "order-by-text-limit",
    "oldest-first-unnamed-age",
    "youngest-first-unnamed-age",
]


@pytest.mark.parametrize(("db", "question", "wrong", "right", "code"), CASES, ids=IDS)
def test_the_agreed_wrong_answer_is_withheld(
    tmp_path: Path, db: str, question: str, wrong: str, right: str, code: str
) -> None:
    verdict = scored(tmp_path, db, question, *[wrong] * 5)
    assert code in verdict["reasons"], codes(verdict)
    assert verdict["action"] == "withhold"


@pytest.mark.parametrize(("db", "question", "wrong", "right", "code"), CASES, ids=IDS)
def test_the_right_answer_is_shown(
    tmp_path: Path, db: str, question: str, wrong: str, right: str, code: str
) -> None:
    verdict = scored(tmp_path, db, question, *[right] * 5)
    assert verdict["action"] == "show", codes(verdict)


def test_the_message_names_the_column_and_both_answers(tmp_path: Path) -> None:
    sql = "SELECT max(Horsepower) FROM cars_data"
    verdict = scored(tmp_path, "car_1", "What is the largest horsepower?", *[sql] * 5)
    (finding,) = [f for f in verdict["findings"] if f["code"] == "signal.numbers_as_text"]
    assert finding["evidence"]["columns"] == ["cars_data.Horsepower"]
    assert finding["evidence"]["answer"] == [["null"]]
    assert finding["evidence"]["as_numbers"] == [[230.0]]


@pytest.mark.parametrize(
    "sql",
    [
        # four-digit years stored as text compare alike as text and as numbers
        "SELECT count(*) FROM concert WHERE Year >= '2014'",
        "SELECT concert_Name FROM concert ORDER BY Year DESC LIMIT 1",
        # text of words: never read as numbers
        "SELECT max(Name) FROM singer",
    ],
    ids=["quoted-year", "ordered-year", "words"],
)
def test_text_that_reads_alike_is_silent(tmp_path: Path, sql: str) -> None:
    verdict = scored(tmp_path, "concert_singer", "Which concerts?", *[sql] * 5)
    assert "signal.numbers_as_text" not in codes(verdict)


def test_duckdb_orders_text_as_text_but_refuses_a_bare_number(tmp_path: Path) -> None:
    """DuckDB reads MAX of text and a comparison with a quoted number as text, as SQLite does,
    but refuses ``text > 150`` (the sample fails): only what it ran is judged."""
    path = tmp_path / "scores.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE scores AS SELECT i AS id, CAST(i * 7 AS VARCHAR) AS points "
        "FROM range(1, 40) t(i)"
    )
    con.close()
    question = "What is the highest score?"
    for sql, fires in (
        ("SELECT max(points) FROM scores", True),
        ("SELECT count(*) FROM scores WHERE points > '150'", True),
        ("SELECT max(CAST(points AS INTEGER)) FROM scores", False),
    ):
        verdict = scored(tmp_path, path, question, *[sql] * 5)
        assert ("signal.numbers_as_text" in codes(verdict)) is fires, (sql, codes(verdict))
    tree = parse_one("SELECT count(*) FROM scores WHERE points > 150", read="duckdb")
    assert _read_as_text(tree, "duckdb") == []
    assert [c.name for c in _read_as_text(tree, "sqlite")] == ["points"]
