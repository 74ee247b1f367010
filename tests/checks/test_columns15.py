"""Five samples agreeing on the same wrong SQL were shown at 1.00 on the Spider slice when no
question-vs-SQL check fired (task col15). Each wrong answer here must carry its signal and not
be shown; the right answer beside it must stay silent on that signal.

- "average weight" as ``avg(Horsepower)``; "average capacity" as ``avg(Average)``: a one-word
  column named right after its aggregate word, the aggregate taken of another column.
- ``Is_male = 1`` where ``singer.Is_male`` stores 'T' and 'F': a number against a text column
  that stores no number.
- "the heaviest car" as ``ORDER BY Weight ASC LIMIT 1``; "from the oldest to the youngest" as
  ``ORDER BY Age`` (ascending).
- "How many singers performed in concerts held in 2015?" as ``count(*) FROM concert``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
from sqlglot import parse_one

from assay.checks._named_fit import direction_problems
from assay.generators import SampleRecord
from assay.pipeline import Scorer
from tests.semantic._helpers import spider_db


@pytest.fixture(scope="module")
def scorer() -> Iterator[Scorer]:
    with Scorer.named("assay") as scorer:
        yield scorer


def _verdict(scorer: Scorer, db: str | Path, question: str, sql: str) -> dict[str, Any]:
    record = SampleRecord.model_validate(
        {
            "id": "q",
            "db": str(spider_db(db) if isinstance(db, str) else db),
            "question": question,
            "samples": [{"final_sql": sql}] * 5,  # unanimous: agreement cannot tell
        }
    )
    verdict: dict[str, Any] = scorer.score_line(record).to_dict()
    return verdict


CASES = [
    # (db, question, wrong SQL, right SQL, signal)
    (
        "car_1",
        "What is the average weight of all cars?",
        "SELECT avg(Horsepower) FROM cars_data",
        "SELECT avg(Weight) FROM cars_data",
        "signal.column_mismatch",
    ),
    (
        "concert_singer",
        "What is the average capacity of the stadiums?",
        "SELECT avg(Average) FROM stadium",
        "SELECT avg(Capacity) FROM stadium",
        "signal.column_mismatch",
    ),
    (
        "concert_singer",
        "How many male singers are there?",
        "SELECT count(*) FROM singer WHERE Is_male = 1",
        "SELECT count(*) FROM singer WHERE Is_male = 'T'",
        "signal.literal_not_in_data",
    ),
    (
        "car_1",
        "What is the weight of the heaviest car?",
        "SELECT Weight FROM cars_data ORDER BY Weight ASC LIMIT 1",
        "SELECT Weight FROM cars_data ORDER BY Weight DESC LIMIT 1",
        "signal.ranking_mismatch",
    ),
    (
        "concert_singer",
        "Show name, country, age for all singers ordered by age from the oldest to the youngest.",
        "SELECT name, country, age FROM singer ORDER BY age",
        "SELECT name, country, age FROM singer ORDER BY age DESC",
        "signal.ranking_mismatch",
    ),
    (
        "concert_singer",
        "How many singers performed in concerts held in 2015?",
        "SELECT count(*) FROM concert WHERE Year = '2015'",
        "SELECT count(DISTINCT T1.Singer_ID) FROM singer_in_concert AS T1 JOIN concert AS T2 "
        "ON T1.concert_ID = T2.concert_ID WHERE T2.Year = '2015'",
        "signal.table_mismatch",
    ),
]
IDS = ["avg_weight", "avg_capacity", "is_male_1", "heaviest", "oldest_first", "count_concerts"]


def _codes(verdict: dict[str, Any]) -> list[str]:
    return [f["code"] for f in verdict["findings"]]


@pytest.mark.parametrize(("db", "question", "wrong", "right", "code"), CASES, ids=IDS)
def test_the_agreed_wrong_answer_is_not_shown(
    scorer: Scorer, db: str, question: str, wrong: str, right: str, code: str
) -> None:
    verdict = _verdict(scorer, db, question, wrong)
    assert code in _codes(verdict), _codes(verdict)
    assert verdict["action"] != "show"


@pytest.mark.parametrize(("db", "question", "wrong", "right", "code"), CASES, ids=IDS)
def test_the_right_answer_is_silent(
    scorer: Scorer, db: str, question: str, wrong: str, right: str, code: str
) -> None:
    verdict = _verdict(scorer, db, question, right)
    assert code not in _codes(verdict), _codes(verdict)


@pytest.mark.parametrize(
    ("question", "sql", "fires"),
    [
        # a year: the oldest first is the earliest, ascending (outside tryout 22)
        (
            "List concerts by year from the oldest to the youngest.",
            "SELECT * FROM c ORDER BY Year",
            False,
        ),
        (
            "List concerts by year from the oldest to the youngest.",
            "SELECT * FROM c ORDER BY Year DESC",
            True,
        ),
        # plain words need no age
        (
            "List cars by weight from the heaviest to the lightest.",
            "SELECT * FROM c ORDER BY Weight",
            True,
        ),
        (
            "List cars by weight from the lightest to the heaviest.",
            "SELECT * FROM c ORDER BY Weight",
            False,
        ),
        # the ordered column is not named in the question: plain words are unsure (a rank or
        # a score may run the other way), and so is "oldest" on a column that is no age or date
        ("List singers from the largest to the smallest.", "SELECT * FROM s ORDER BY Age", False),
        ("List singers from the oldest to the youngest.", "SELECT * FROM s ORDER BY Name", False),
        # ... but the one age ordered is what "oldest" reads (outside tryout 22)
        ("List singers from the oldest to the youngest.", "SELECT * FROM s ORDER BY Age", True),
        (
            "List singers from the oldest to the youngest.",
            "SELECT * FROM s ORDER BY Age DESC",
            False,
        ),
        # both directions said: no plain superlative
        (
            "Which car is the heaviest and the slowest?",
            "SELECT * FROM c ORDER BY Weight LIMIT 1",
            False,
        ),
        ("Which car is the lightest?", "SELECT * FROM c ORDER BY Weight DESC LIMIT 1", True),
        ("Which car is the lightest?", "SELECT * FROM c ORDER BY Weight LIMIT 1", False),
        # a year or a duration ordered: the longest-serving, the fastest first is ascending
        (
            "Who is the longest serving member?",
            "SELECT * FROM m ORDER BY start_year LIMIT 1",
            False,
        ),
        (
            "Which driver set the fastest lap?",
            "SELECT * FROM l ORDER BY milliseconds LIMIT 1",
            False,
        ),
    ],
)
def test_direction_words(question: str, sql: str, fires: bool) -> None:
    assert bool(direction_problems(question, parse_one(sql), (False, False))) is fires


def test_a_link_table_or_a_count_of_its_ids_is_silent(scorer: Scorer) -> None:
    question = "How many singers performed in concerts held in 2015?"
    for sql in (
        "SELECT count(*) FROM singer_in_concert AS T1 JOIN concert AS T2 ON T1.concert_ID = "
        "T2.concert_ID WHERE T2.Year = '2015'",
        "SELECT count(DISTINCT Singer_ID) FROM concert JOIN singer_in_concert USING (concert_ID) "
        "WHERE Year = '2015'",
    ):
        assert "signal.table_mismatch" not in _codes(
            _verdict(scorer, "concert_singer", question, sql)
        )


def test_a_real_boolean_or_a_text_of_numbers_is_silent(scorer: Scorer, tmp_path: Path) -> None:
    """A DuckDB BOOLEAN compares with 1 and finds rows; text storing '1' and '0' does too."""
    path = tmp_path / "flags.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE member AS SELECT i AS id, i % 2 = 0 AS is_active, "
        "CAST(i % 2 AS VARCHAR) AS flag, CASE WHEN i % 2 = 0 THEN 'Y' ELSE 'N' END AS yn "
        "FROM range(1, 21) t(i)"
    )
    con.close()
    question = "How many members are active?"
    for column, fires in (("is_active", False), ("flag", False), ("yn", True)):
        sql = f"SELECT count(*) FROM member WHERE {column} = 1"
        codes = _codes(_verdict(scorer, path, question, sql))
        assert ("signal.literal_not_in_data" in codes) is fires, (column, codes)
