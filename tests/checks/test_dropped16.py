"""A stored value the question says and the SQL drops, five samples agreeing on it (task gen16):
"how many students have a cat" as ``SELECT count(DISTINCT StuID) FROM Has_Pet``, "how many dogs
are older than 1" with no ``PetType = 'dog'``. The wrong answer is not shown at full agreement;
the right answer beside it does not carry the code. Real data: Spider pets_1 and concert_singer,
skipped when the shared slice is absent."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from assay.checks import QUESTION_SIGNALS
from tests.checks._helpers import codes, scored, wrong_withheld_right_clear

CAT_OWNERS = "How many students have a cat?"
OLD_DOGS = "How many dogs are older than 1?"

# (name, db, question, the wrong SQL all five samples agree on, the right SQL, code)
WRONG_AND_RIGHT = [
    (
        "cat_dropped",
        "pets_1",
        CAT_OWNERS,
        "SELECT count(DISTINCT StuID) FROM Has_Pet",
        "SELECT count(*) FROM Student WHERE StuID IN (SELECT T1.StuID FROM Has_Pet AS T1 "
        "JOIN Pets AS T2 ON T1.PetID = T2.PetID WHERE T2.PetType = 'cat')",
        "signal.value_dropped",
    ),
    (
        "dog_dropped",
        "pets_1",
        OLD_DOGS,
        "SELECT count(*) FROM Pets WHERE pet_age > 1",
        "SELECT count(*) FROM Pets WHERE pet_age > 1 AND PetType = 'dog'",
        "signal.value_dropped",
    ),
]


def test_the_code_is_a_question_signal() -> None:
    assert "signal.value_dropped" in QUESTION_SIGNALS


@pytest.mark.parametrize(
    ("name", "db", "question", "wrong", "right", "code"),
    WRONG_AND_RIGHT,
    ids=[c[0] for c in WRONG_AND_RIGHT],
)
def test_a_unanimous_wrong_condition_is_not_shown(
    tmp_path: Path, name: str, db: str, question: str, wrong: str, right: str, code: str
) -> None:
    wrong_withheld_right_clear(tmp_path, (name, db, question, wrong, right, code))


# (name, db, question, SQL the check must stay silent on)
SILENT = [
    # "cats and dogs": two values of one column, a breakdown or either
    (
        "two_values",
        "pets_1",
        "How many cats and dogs are there?",
        "SELECT count(*) FROM Pets",
    ),
    # the column is named (grouped): the value is read from it
    (
        "grouped",
        "pets_1",
        "How many dogs are there, by type?",
        "SELECT PetType, count(*) FROM Pets GROUP BY PetType",
    ),
    # the words of a question are no values: singer.Song_Name stores 'You'
    (
        "you",
        "concert_singer",
        "Can you list the names of all singers?",
        "SELECT Name FROM singer",
    ),
    # a column of names, one a row, is no category: singer.Song_Name stores 'Sun', 'Love'
    (
        "song_names",
        "concert_singer",
        "List the names of singers whose ages are above the average, with love.",
        "SELECT Name FROM singer WHERE Age > (SELECT avg(Age) FROM singer)",
    ),
]


@pytest.mark.parametrize(("name", "db", "question", "sql"), SILENT, ids=[c[0] for c in SILENT])
def test_silent_where_the_reading_is_not_certain(
    tmp_path: Path, name: str, db: str, question: str, sql: str
) -> None:
    assert "signal.value_dropped" not in codes(scored(tmp_path, db, question, sql)), name


def test_a_value_that_is_a_word_of_the_schema_is_no_condition(tmp_path: Path) -> None:
    """student.role stores 'student' and 'assistant': "each student" names the table, not the
    value, and a plain average over it is right."""
    db = tmp_path / "school.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE student (id INTEGER, age INTEGER, role TEXT)")
    rows = [(1, 20, "student"), (2, 22, "student"), (3, 30, "assistant")]
    con.executemany("INSERT INTO student VALUES (?, ?, ?)", rows)
    con.commit()
    con.close()
    question = "What is the average age of each student?"
    assert "signal.value_dropped" not in codes(
        scored(tmp_path, db, question, "SELECT avg(age) FROM student")
    )
    # the same value, no word of the schema, is a condition
    fired = codes(
        scored(
            tmp_path, db, "What is the average age of assistants?", "SELECT avg(age) FROM student"
        )
    )
    assert "signal.value_dropped" in fired


def test_the_values_are_read_from_the_first_rows_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The probe runs on every question: it reads ``SAMPLE_ROWS`` rows, never a whole large
    table (a probe past its time limit would withhold every answer on it)."""
    from assay.checks import _dropped

    db = tmp_path / "zoo.sqlite"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE animal (id INTEGER, kind TEXT)")
    con.executemany("INSERT INTO animal VALUES (?, ?)", [(1, "cat"), (2, "cat"), (3, "dog")])
    con.commit()
    con.close()
    question, sql = "How many dogs are there?", "SELECT count(*) FROM animal"
    assert "signal.value_dropped" in codes(scored(tmp_path, db, question, sql))
    monkeypatch.setattr(_dropped, "SAMPLE_ROWS", 2)
    assert "signal.value_dropped" not in codes(scored(tmp_path, db, question, sql))
