"""Conditions the SQL gets wrong while every sample agrees (outside tryout 18, items 57, 59-61,
75, 76): a WHERE that can never be true, a negation the SQL drops, a strict bound made
inclusive (or the reverse), a bound said of one column put on another. Each wrong answer is
not shown; the right answer beside it is. Real data: Spider car_1 and concert_singer, skipped
when the shared slice is absent; the TPC-DS item rows are three rows in DuckDB."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from assay.agreement import Agreement
from assay.catalog import Catalog, ColumnInfo, TableInfo
from assay.checks import QUESTION_SIGNALS, CheckContext
from assay.checks._conditions import (
    CONDITION_CHECKS,
    CONDITION_SIGNALS,
    bound_on_other_column,
    bound_strictness,
    negation_dropped,
    unsatisfiable_filter,
)
from assay.scoring import RULES
from assay.scoring._rules import ScoreInputs
from assay.types import Candidate, Finding
from tests.checks._helpers import codes, scored


def _fired(question: str, sql: str) -> set[str]:
    ctx = CheckContext(question, Candidate(sql), "sqlite")
    return {f.code for check in CONDITION_CHECKS for f in check(ctx).findings}


# (tryout item, db, question, the wrong SQL all five samples agreed on, the right SQL, code)
WRONG_AND_RIGHT = [
    (
        "or_and",
        "car_1",
        "How many cars were made in 1972 or 1973?",
        "SELECT count(*) FROM cars_data WHERE Year = 1972 AND Year = 1973",
        "SELECT count(*) FROM cars_data WHERE Year = 1972 OR Year = 1973",
        "signal.unsatisfiable_filter",
    ),
    (
        "negdrop",
        "car_1",
        "How many cars were not made in 1972?",
        "SELECT count(*) FROM cars_data WHERE Year = 1972",
        "SELECT count(*) FROM cars_data WHERE Year != 1972",
        "signal.negation_dropped",
    ),
    (
        "after",
        "car_1",
        "How many cars were made after 1975?",
        "SELECT count(*) FROM cars_data WHERE Year >= 1975",
        "SELECT count(*) FROM cars_data WHERE Year > 1975",
        "signal.bound_strictness",
    ),
    (
        "textyear_int",
        "concert_singer",
        "How many concerts were held after 2014?",
        "SELECT count(*) FROM concert WHERE Year >= 2014",
        "SELECT count(*) FROM concert WHERE Year > 2014",
        "signal.bound_strictness",
    ),
    (
        "yearweight",
        "car_1",
        "How many cars have weight over 2000?",
        "SELECT count(*) FROM cars_data WHERE Year > 2000",
        "SELECT count(*) FROM cars_data WHERE Weight > 2000",
        "signal.bound_on_other_column",
    ),
]


@pytest.mark.parametrize(
    ("item", "db", "question", "wrong", "right", "code"),
    WRONG_AND_RIGHT,
    ids=[c[0] for c in WRONG_AND_RIGHT],
)
def test_a_unanimous_wrong_condition_is_not_shown(
    tmp_path: Path, item: str, db: str, question: str, wrong: str, right: str, code: str
) -> None:
    verdict = scored(tmp_path, db, question, *[wrong] * 5)
    assert code in codes(verdict), (item, codes(verdict))
    assert verdict["action"] == "withhold"
    fine = scored(tmp_path, db, question, *[right] * 5)
    assert code not in codes(fine), (item, codes(fine))
    assert fine["action"] == "show", (item, fine["reasons"])


def test_items_not_large_said_as_large_is_not_shown(tmp_path: Path) -> None:
    # tryout 18 item 76 on TPC-DS's item table (i_size): three rows stand in for it
    db = tmp_path / "items.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute("CREATE TABLE item (i_item_sk INTEGER, i_size VARCHAR)")
        con.execute("INSERT INTO item VALUES (1, 'large'), (2, 'small'), (3, 'medium')")
    question = "How many items are not large?"
    wrong = scored(
        tmp_path, db, question, *["SELECT count(*) FROM item WHERE i_size = 'large'"] * 5
    )
    assert "signal.negation_dropped" in codes(wrong)
    assert wrong["action"] == "withhold"
    right = scored(
        tmp_path, db, question, *["SELECT count(*) FROM item WHERE i_size <> 'large'"] * 5
    )
    assert "signal.negation_dropped" not in codes(right)
    assert right["action"] == "show"


@pytest.mark.parametrize(
    "where",
    [
        "x = 1972 AND x = 1973",
        "x > 5 AND x < 3",
        "x >= 10 AND x < 10",
        "x = 'a' AND x = 'b'",
        "x IN (1, 2) AND x = 3",
        "x BETWEEN 1 AND 5 AND x > 7",
        "y = 2 AND (x = 1 AND x = 2)",
        "1972 = x AND x = 1973",
        "t.x = 1 AND t.x = 2",
        "x = NULL",
    ],
)
def test_a_where_that_can_never_be_true(where: str) -> None:
    question = "How many rows?"
    assert "signal.unsatisfiable_filter" in _fired(
        question, f"SELECT count(*) FROM t WHERE {where}"
    )
    found = unsatisfiable_filter(
        CheckContext(question, Candidate(f"SELECT * FROM t WHERE {where}"), "sqlite")
    ).findings
    assert found and found[0].evidence["column"]


@pytest.mark.parametrize(
    "where",
    [
        "x = 1972 OR x = 1973",
        "x = 1 AND y = 2",
        "x >= 10 AND x <= 10",
        "x > 5 AND x < 30",
        "t.x = 1 AND u.x = 2",  # two tables' columns
        "x = 1972 AND x = 1972.0",
        "x = 'a' AND x = 'A'",  # a case-insensitive collation makes them equal
        "x = '1972' AND x = 1973",  # text and number: the engine's casts decide, not said
        "x > 10 AND x < 9",  # as text, '10' < '5' < '9': not impossible on a text column
        "x IN (1, 2) AND x = 2",
    ],
)
def test_a_where_that_can_be_true_is_silent(where: str) -> None:
    assert "signal.unsatisfiable_filter" not in _fired(
        "How many rows?", f"SELECT count(*) FROM t WHERE {where}"
    )


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        (
            "How many cars were not made in 1972?",
            "SELECT count(*) FROM cars_data WHERE year = 1972",
        ),
        (
            "How many singers are not from France?",
            "SELECT count(*) FROM singer WHERE country = 'France'",
        ),
        ("Which pets aren't dogs?", "SELECT petid FROM pets WHERE pettype = 'dog'"),
        ("How many items are not large?", "SELECT count(*) FROM item WHERE i_size = 'large'"),
        (
            "List the singers other than those from France.",
            "SELECT name FROM singer WHERE country = 'france'",
        ),
        (
            "Count the cars excluding those made in 1972.",
            "SELECT count(*) FROM cars_data WHERE year = 1972",
        ),
        ("Which pets except dogs are there?", "SELECT petid FROM pets WHERE pettype IN ('dog')"),
        ("Which singer isn't French?", "SELECT name FROM singer WHERE country = 'French'"),
    ],
)
def test_a_negation_the_sql_drops(question: str, sql: str) -> None:
    assert "signal.negation_dropped" in _fired(question, sql)
    ctx = CheckContext(question, Candidate(sql), "sqlite")
    assert negation_dropped(ctx).findings[0].evidence["value"]


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        (
            "How many cars were not made in 1972?",
            "SELECT count(*) FROM cars_data WHERE year <> 1972",
        ),
        (
            "How many cars were not made in 1972?",
            "SELECT count(*) FROM cars_data WHERE NOT year = 1972",
        ),
        (
            "How many cars were not made in 1972?",
            "SELECT count(*) FROM cars_data "
            "EXCEPT SELECT count(*) FROM cars_data WHERE year = 1972",
        ),
        (
            "Which airlines do not have flights from APG?",
            "SELECT a.name FROM airlines a LEFT JOIN flights f ON f.airline = a.id "
            "AND f.source = 'APG' WHERE f.id IS NULL",
        ),
        (
            "Which airlines do not have flights from APG?",
            "SELECT name FROM airlines WHERE (SELECT count(*) FROM flights WHERE source = 'APG' "
            "AND airline = airlines.id) = 0",
        ),
        (
            "Which cars made in 1972 are not heavy?",
            "SELECT id FROM cars WHERE year = 1972 AND weight < 3000",
        ),
        (
            "How many singers are from France?",
            "SELECT count(*) FROM singer WHERE country = 'France'",
        ),
        (
            "Which models were not built by the Ford Motor Company?",
            "SELECT model FROM car_names WHERE make NOT LIKE '%Ford%'",
        ),
        # "except" ends where the next condition begins
        (
            "Show all information except the id for pets of type dog.",
            "SELECT pettype, pet_age, weight FROM pets WHERE pettype = 'dog'",
        ),
        # the negation bounds a comparison, which comparison_fit reads
        ("How many singers are not older than 30?", "SELECT count(*) FROM singer WHERE age <= 30"),
    ],
)
def test_a_negation_the_sql_keeps_is_silent(question: str, sql: str) -> None:
    assert "signal.negation_dropped" not in _fired(question, sql)


@pytest.mark.parametrize(
    ("question", "sql", "fires"),
    [
        (
            "How many cars were made after 1975?",
            "SELECT count(*) FROM cars_data WHERE year >= 1975",
            True,
        ),
        (
            "How many cars were made after 1975?",
            "SELECT count(*) FROM cars_data WHERE 1975 <= year",
            True,
        ),
        (
            "How many cars were made after 1975?",
            "SELECT count(*) FROM cars_data WHERE year > 1975",
            False,
        ),
        (
            "How many cars were made after 1975?",
            "SELECT count(*) FROM cars_data WHERE year >= 1976",
            False,
        ),
        (
            "How many cars were made before 1975?",
            "SELECT count(*) FROM cars_data WHERE year <= 1975",
            True,
        ),
        (
            "How many singers are older than 30?",
            "SELECT count(*) FROM singer WHERE age >= 30",
            True,
        ),
        (
            "How many stadiums hold more than 5000?",
            "SELECT count(*) FROM stadium WHERE capacity >= 5000",
            True,
        ),
        ("Which cars weigh under 3000?", "SELECT id FROM cars WHERE weight <= 3000", True),
        ("How many singers are at least 30?", "SELECT count(*) FROM singer WHERE age > 30", True),
        ("How many singers are at least 30?", "SELECT count(*) FROM singer WHERE age >= 30", False),
        (
            "How many cars were made in 1975 or later?",
            "SELECT count(*) FROM cars_data WHERE year >= 1975",
            False,
        ),
        (
            "How many cars were made since 1975?",
            "SELECT count(*) FROM cars_data WHERE year >= 1975",
            False,
        ),
        ("Which singers are 30 or older?", "SELECT name FROM singer WHERE age >= 30", False),
        ("Which singers are 30 or older?", "SELECT name FROM singer WHERE age > 30", True),
        (
            "How many concerts were after 2014?",
            "SELECT count(*) FROM concert WHERE year >= '2014'",
            True,
        ),
        (
            "Singers older than 30 and younger than 50?",
            "SELECT 1 FROM s WHERE age > 30 AND age < 50",
            False,
        ),
        (
            "Cars made after 1975 and before 1980?",
            "SELECT 1 FROM c WHERE year > 1975 AND year < 1980",
            False,
        ),
        ("Which singer isn't older than 30?", "SELECT name FROM singer WHERE age <= 30", False),
        (
            "How many singers are not older than 30?",
            "SELECT count(*) FROM singer WHERE age <= 30",
            False,
        ),
        (
            "How many cars were made between 1970 and 1975?",
            "SELECT count(*) FROM cars_data WHERE year BETWEEN 1970 AND 1975",
            False,
        ),
    ],
)
def test_a_bound_made_inclusive_or_strict(question: str, sql: str, fires: bool) -> None:
    found = bound_strictness(CheckContext(question, Candidate(sql), "sqlite")).findings
    assert bool(found) is fires, found


def test_the_condition_codes_are_question_signals_and_the_paper_rules_ignore_them() -> None:
    assert set(CONDITION_SIGNALS) <= set(QUESTION_SIGNALS)
    assert len(set(QUESTION_SIGNALS)) == len(QUESTION_SIGNALS)
    for code in CONDITION_SIGNALS:
        agreed = Agreement(1.0, 1.0, 1.0, 5, (0, 1, 2, 3, 4), (), (5,), "permuted")
        inputs = ScoreInputs((Finding(code, "signal", "m", {}),), {}, agreed)
        assert RULES["assay"](inputs).score <= 0.59
        assert RULES["v3"](inputs).score == RULES["agreement_first"](inputs).score


def test_a_bound_on_the_rows_a_table_names_is_not_another_column(tmp_path: Path) -> None:
    # spider-dev-24's gold: "a singer below 30" bounds the singers' age; the word 'singer'
    # named the key Singer_ID before keys and read tables were left out
    question = "Show countries where a singer above age 40 and a singer below 30 are from."
    sql = (
        "SELECT country FROM singer WHERE age > 40 "
        "INTERSECT SELECT country FROM singer WHERE age < 30"
    )
    verdict = scored(tmp_path, "concert_singer", question, *[sql] * 5)
    assert "signal.bound_on_other_column" not in codes(verdict)
    wrong = sql.replace("age < 30", "singer_id < 30")
    question = "Show countries where a singer above age 40 and a singer with age below 30 are from."
    verdict = scored(tmp_path, "concert_singer", question, *[wrong] * 5)
    assert "signal.bound_on_other_column" in codes(verdict)


def _catalog_context(question: str, sql: str) -> CheckContext:
    columns = ("id", "year", "weight", "maker")
    table = TableInfo("cars", tuple(ColumnInfo(c, "INTEGER") for c in columns))
    return CheckContext(question, Candidate(sql), "sqlite", Catalog((table,), dialect="sqlite"))


@pytest.mark.parametrize(
    ("question", "sql", "fires"),
    [
        (
            "How many cars have weight over 2000?",
            "SELECT count(*) FROM cars WHERE year > 2000",
            True,
        ),
        (
            "How many cars have weight over 2000?",
            "SELECT count(*) FROM cars WHERE weight > 2000",
            False,
        ),
        # a synonym names no column: nothing to say
        (
            "How many cars have mass over 2000?",
            "SELECT count(*) FROM cars WHERE weight > 2000",
            False,
        ),
        # an alias is no stored column
        (
            "Which makers have weight over 9000?",
            "SELECT maker, sum(weight) AS total FROM cars GROUP BY maker HAVING total > 9000",
            False,
        ),
        # the table's word picks the rows, a key is no quantity
        ("How many cars over 1975?", "SELECT count(*) FROM cars WHERE year > 1975", False),
    ],
)
def test_a_bound_on_another_column(question: str, sql: str, fires: bool) -> None:
    found = bound_on_other_column(_catalog_context(question, sql)).findings
    assert bool(found) is fires, found
