"""Set operations five samples agree on wrongly (task neg15): a negated verb answered with a plain
join, "strictly between" answered with BETWEEN, ``a AND b OR c`` binding AND first, "both"
answered with OR. Each wrong answer is not shown at full agreement; the right answer beside it
is. Real data: Spider car_1, concert_singer and pets_1, skipped when the shared slice is
absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.checks import QUESTION_SIGNALS, CheckContext
from assay.checks._conditions import CONDITION_CHECKS
from assay.types import Candidate, FindingCode
from tests.checks._helpers import wrong_withheld_right_clear

CODES = (
    "signal.negation_missing",
    "signal.between_strictness",
    "signal.or_precedence",
    "signal.both_as_either",
)


def _fired(question: str, sql: str) -> set[str]:
    ctx = CheckContext(question, Candidate(sql), "sqlite")
    return {f.code for check in CONDITION_CHECKS for f in check(ctx).findings}


COUNTRIES_NO_MAKER = "Which countries don't have any car makers?"
NEVER_HOSTED = "Which stadiums have never hosted a concert?"
NO_PET = "What are the first names of students who do not own a pet?"
STRICTLY = "Show the names of stadiums with a capacity strictly between 3100 and 4125."
PIT_OR_BAL = "List the first names of male students from PIT or BAL."
BOTH_YEARS = "Which stadiums had concerts in both 2014 and 2015?"

# (name, db, question, the wrong SQL all five samples agree on, the right SQL, code)
WRONG_AND_RIGHT = [
    (
        "countries_join",
        "car_1",
        COUNTRIES_NO_MAKER,
        "SELECT DISTINCT CountryName FROM countries JOIN car_makers "
        "ON countries.CountryId = car_makers.Country",
        "SELECT CountryName FROM countries WHERE CountryId NOT IN (SELECT Country FROM car_makers)",
        "signal.negation_missing",
    ),
    (
        "pets_in",
        "pets_1",
        NO_PET,
        "SELECT Fname FROM Student WHERE StuID IN (SELECT StuID FROM Has_Pet)",
        "SELECT Fname FROM Student WHERE StuID NOT IN (SELECT StuID FROM Has_Pet)",
        "signal.negation_missing",
    ),
    (
        "strictly_between",
        "concert_singer",
        STRICTLY,
        "SELECT Name FROM stadium WHERE Capacity BETWEEN 3100 AND 4125",
        "SELECT Name FROM stadium WHERE Capacity > 3100 AND Capacity < 4125",
        "signal.between_strictness",
    ),
    (
        "or_precedence",
        "pets_1",
        PIT_OR_BAL,
        "SELECT Fname FROM Student WHERE Sex = 'M' AND city_code = 'PIT' OR city_code = 'BAL'",
        "SELECT Fname FROM Student WHERE Sex = 'M' AND (city_code = 'PIT' OR city_code = 'BAL')",
        "signal.or_precedence",
    ),
    (
        "both_years",
        "concert_singer",
        BOTH_YEARS,
        "SELECT DISTINCT T2.Name FROM concert AS T1 JOIN stadium AS T2 "
        "ON T1.Stadium_ID = T2.Stadium_ID WHERE T1.Year = 2014 OR T1.Year = 2015",
        "SELECT T2.Name FROM concert AS T1 JOIN stadium AS T2 ON T1.Stadium_ID = T2.Stadium_ID "
        "WHERE T1.Year = 2014 INTERSECT SELECT T2.Name FROM concert AS T1 JOIN stadium AS T2 "
        "ON T1.Stadium_ID = T2.Stadium_ID WHERE T1.Year = 2015",
        "signal.both_as_either",
    ),
]


def test_the_codes_are_question_signals_in_one_run_of_the_signal_group() -> None:
    assert set(CODES) <= set(QUESTION_SIGNALS)
    signals = [c.value for c in FindingCode if c.value.startswith("signal.")]
    start = signals.index(CODES[0])
    assert tuple(signals[start : start + len(CODES)]) == CODES


@pytest.mark.parametrize(
    ("name", "db", "question", "wrong", "right", "code"),
    WRONG_AND_RIGHT,
    ids=[c[0] for c in WRONG_AND_RIGHT],
)
def test_a_unanimous_wrong_reading_is_not_shown(
    tmp_path: Path, name: str, db: str, question: str, wrong: str, right: str, code: str
) -> None:
    wrong_withheld_right_clear(tmp_path, (name, db, question, wrong, right, code), right_shown=True)


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        ("Which stadiums have never hosted a concert?", "SELECT Name FROM stadium"),
        (
            "Show the names of singers without any concert.",
            "SELECT Name FROM singer WHERE Singer_ID IN (SELECT Singer_ID FROM singer_in_concert)",
        ),
        (
            "What are the names of the countries with no car makers?",
            "SELECT T1.CountryName FROM countries AS T1 JOIN car_makers AS T2 "
            "ON T1.CountryId = T2.Country",
        ),
        ("Which stadiums have zero concerts?", "SELECT Name FROM stadium"),
        (
            "Which students didn't have a dog?",
            "SELECT Fname FROM Student WHERE StuID IN (SELECT StuID FROM Has_Pet)",
        ),
    ],
)
def test_a_negated_verb_without_negation_fires(question: str, sql: str) -> None:
    assert "signal.negation_missing" in _fired(question, sql)


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT Name FROM stadium WHERE Stadium_ID NOT IN (SELECT Stadium_ID FROM concert)",
        "SELECT Name FROM stadium EXCEPT SELECT T2.Name FROM concert AS T1 JOIN stadium AS T2 "
        "ON T1.Stadium_ID = T2.Stadium_ID",
        "SELECT T1.Name FROM stadium AS T1 LEFT JOIN concert AS T2 "
        "ON T1.Stadium_ID = T2.Stadium_ID WHERE T2.concert_ID IS NULL",
        "SELECT Name FROM stadium AS s WHERE NOT EXISTS "
        "(SELECT 1 FROM concert AS c WHERE c.Stadium_ID = s.Stadium_ID)",
        "SELECT T1.Name FROM stadium AS T1 LEFT JOIN concert AS T2 "
        "ON T1.Stadium_ID = T2.Stadium_ID GROUP BY T1.Name HAVING count(T2.concert_ID) = 0",
        "SELECT Name FROM stadium WHERE (SELECT count(*) FROM concert AS c "
        "WHERE c.Stadium_ID = stadium.Stadium_ID) == 0",
    ],
)
def test_each_negation_construct_silences_it(sql: str) -> None:
    assert "signal.negation_missing" not in _fired(NEVER_HOSTED, sql)


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        # negated comparisons are the comparison checks'
        (
            "Which cars do not have more than 3 cylinders?",
            "SELECT MakeId FROM cars_data WHERE Cylinders <= 3",
        ),
        ("Which singers are not older than 30?", "SELECT Name FROM singer WHERE Age <= 30"),
        (
            "Which concerts did not happen before 2014?",
            "SELECT concert_Name FROM concert WHERE Year >= 2014",
        ),
        # a superlative negated is said with a subquery (Spider car_1 gold)
        (
            "Among the cars that do not have the minimum horsepower, which have less than 4 "
            "cylinders?",
            "SELECT MakeId FROM cars_data WHERE Horsepower > (SELECT min(Horsepower) FROM "
            "cars_data) AND Cylinders < 4",
        ),
        ("List the countries, do not repeat any.", "SELECT DISTINCT CountryName FROM countries"),
        ("List the countries without duplicates.", "SELECT DISTINCT CountryName FROM countries"),
    ],
)
def test_negated_comparisons_and_instructions_are_not_negated_verbs(
    question: str, sql: str
) -> None:
    assert "signal.negation_missing" not in _fired(question, sql)


@pytest.mark.parametrize(
    ("question", "sql", "fires"),
    [
        (STRICTLY, "SELECT Name FROM stadium WHERE Capacity >= 3100 AND Capacity <= 4125", True),
        (
            "Stadiums with capacity between 5000 and 10000 (exclusive)?",
            "SELECT Name FROM stadium WHERE Capacity BETWEEN 5000 AND 10000",
            True,
        ),
        (
            "Stadiums with capacity between 5000 and 10000 inclusive?",
            "SELECT Name FROM stadium WHERE Capacity > 5000 AND Capacity <= 10000",
            True,
        ),
        (
            "Stadiums with capacity between 5000 and 10000 inclusive?",
            "SELECT Name FROM stadium WHERE Capacity BETWEEN 5000 AND 10000",
            False,
        ),
        # a plain "between" says neither: Spider's gold reads it as BETWEEN
        (
            "Show location and name for all stadiums with a capacity between 5000 and 10000.",
            "SELECT Location, Name FROM stadium WHERE Capacity BETWEEN 5000 AND 10000",
            False,
        ),
    ],
)
def test_between_strictness(question: str, sql: str, fires: bool) -> None:
    assert ("signal.between_strictness" in _fired(question, sql)) is fires


@pytest.mark.parametrize(
    ("sql", "fires"),
    [
        (
            "SELECT Fname FROM Student WHERE city_code = 'BAL' OR Sex = 'M' AND city_code = 'PIT'",
            True,
        ),
        (
            "SELECT Fname FROM Student WHERE Sex = 'M' AND city_code = 'PIT' "
            "OR Sex = 'M' AND city_code = 'BAL'",
            False,
        ),
        (
            "SELECT Fname FROM Student WHERE (Sex = 'M' AND city_code = 'PIT') "
            "OR city_code = 'BAL'",
            False,
        ),
        (
            "SELECT Fname FROM Student WHERE Age > 18 AND (Sex = 'M' AND city_code = 'PIT' "
            "OR city_code = 'BAL')",
            True,
        ),
        # Spider car_1 gold: two columns, no conjunct to misplace
        ("SELECT max(mpg) FROM cars_data WHERE cylinders = 8 OR year < 1980", False),
    ],
)
def test_or_precedence(sql: str, fires: bool) -> None:
    assert ("signal.or_precedence" in _fired(PIT_OR_BAL, sql)) is fires


@pytest.mark.parametrize(
    ("question", "sql", "fires"),
    [
        (
            "Find the first name of students who have both cat and dog pets.",
            "SELECT DISTINCT T1.Fname FROM Student AS T1 JOIN Has_Pet AS T2 ON T1.StuID = "
            "T2.StuID JOIN Pets AS T3 ON T3.PetID = T2.PetID WHERE T3.PetType IN ('cat', 'dog')",
            True,
        ),
        (
            BOTH_YEARS,
            "SELECT T2.Name FROM concert AS T1 JOIN stadium AS T2 ON T1.Stadium_ID = "
            "T2.Stadium_ID WHERE T1.Year IN (2014, 2015) GROUP BY T2.Name "
            "HAVING count(DISTINCT T1.Year) = 2",
            False,
        ),
        # "either" asked: OR is right (Spider pets_1 gold)
        (
            "Find the first name of students who have cat or dog pet.",
            "SELECT DISTINCT T1.Fname FROM Student AS T1 JOIN Has_Pet AS T2 ON T1.StuID = "
            "T2.StuID JOIN Pets AS T3 ON T3.PetID = T2.PetID WHERE T3.PetType = 'cat' "
            "OR T3.PetType = 'dog'",
            False,
        ),
    ],
)
def test_both_as_either(question: str, sql: str, fires: bool) -> None:
    assert ("signal.both_as_either" in _fired(question, sql)) is fires


def test_a_negation_inside_a_named_value_is_the_value() -> None:
    # EHRSQL gold: "without" is part of the diagnosis's title the SQL names
    question = "How many patients were diagnosed with dementia without behavioral disturbance?"
    sql = (
        "SELECT COUNT(DISTINCT subject_id) FROM diagnoses_icd WHERE icd_code = (SELECT icd_code "
        "FROM d_icd_diagnoses WHERE long_title = 'dementia without behavioral disturbance')"
    )
    assert "signal.negation_missing" not in _fired(question, sql)
    unnamed = "SELECT COUNT(DISTINCT subject_id) FROM diagnoses_icd WHERE icd_code = 'F03'"
    assert "signal.negation_missing" in _fired(question, unnamed)
