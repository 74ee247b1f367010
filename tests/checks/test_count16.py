"""Right answers that five agreeing samples saw withheld on the Spider slice (count16, tuned on):
a COUNT(DISTINCT) that only filters or ranks rows, or counts a key, read as an aggregate the
question did not ask for; and a year said as an age ("older than 1975") read as a number's
bound. Each wrong answer beside them stays withheld."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.checks._helpers import scored

_MAKERS = (
    "SELECT T1.Maker FROM car_makers AS T1 JOIN model_list AS T2 ON T1.Id = T2.Maker "
    "JOIN car_names AS T3 ON T2.Model = T3.Model JOIN cars_data AS T4 ON T3.MakeId = T4.Id "
)

RIGHT_DISTINCT = [
    (
        "car_1",
        "Which makers produced cars in both 1970 and 1971?",
        _MAKERS + "WHERE T4.Year IN (1970, 1971) GROUP BY T1.Maker "
        "HAVING count(DISTINCT T4.Year) = 2",
    ),
    (
        "pets_1",
        "Find the first names of students who have a dog.",
        "SELECT Fname FROM Student WHERE StuID IN (SELECT H.StuID FROM Has_Pet AS H "
        "JOIN Pets AS P ON H.PetID = P.PetID WHERE P.PetType = 'dog' GROUP BY H.StuID "
        "HAVING count(DISTINCT P.PetID) >= 1)",
    ),
    (
        "car_1",
        "What is the name of the country with the most car makers?",
        "SELECT countries.CountryName FROM countries JOIN car_makers ON countries.CountryId = "
        "car_makers.Country GROUP BY countries.CountryId "
        "ORDER BY COUNT(DISTINCT car_makers.Id) DESC LIMIT 1",
    ),
    (
        "car_1",
        "How many car makers are there in france?",
        "SELECT COUNT(DISTINCT car_makers.id) FROM car_makers JOIN countries "
        "ON car_makers.country = countries.countryid WHERE countries.countryname = 'france'",
    ),
]


@pytest.mark.parametrize(("db", "question", "sql"), RIGHT_DISTINCT)
def test_a_count_distinct_that_filters_ranks_or_counts_a_key_is_shown(
    tmp_path: Path, db: str, question: str, sql: str
) -> None:
    """Withheld as aggregate_mismatch before: the COUNT(DISTINCT) is in a HAVING, a subquery's
    HAVING or an ORDER BY (not returned), or counts a key (the DISTINCT undoes a join)."""
    verdict = scored(tmp_path, db, question, *[sql] * 5)
    assert verdict["action"] == "show", verdict["reasons"]


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        # the distinct fuel economies, not the cars
        ("How many cars were made in 1970?", "SELECT count(DISTINCT MPG) FROM cars_data"),
        # a returned count of a non-key, beside a HAVING count
        (
            "How many cars were made each year?",
            "SELECT Year, count(DISTINCT Cylinders) FROM cars_data GROUP BY Year "
            "HAVING count(*) > 0",
        ),
    ],
)
def test_a_returned_count_distinct_of_values_is_still_withheld(
    tmp_path: Path, question: str, sql: str
) -> None:
    verdict = scored(tmp_path, "car_1", question, *[sql] * 5)
    assert "signal.aggregate_mismatch" in verdict["reasons"], verdict["reasons"]


YEARS = [
    # (database, question, wrong SQL, right SQL)
    (
        "concert_singer",
        "List the singers whose songs are not older than 2010.",
        "SELECT Name FROM singer WHERE Song_release_year <= 2010",
        "SELECT Name FROM singer WHERE Song_release_year >= 2010",
    ),
    (
        "car_1",
        "How many cars are older than 1975?",
        "SELECT count(*) FROM cars_data WHERE Year > 1975",
        "SELECT count(*) FROM cars_data WHERE Year < 1975",
    ),
    (
        "car_1",
        "How many cars are newer than 1980?",
        "SELECT count(*) FROM cars_data WHERE Year < 1980",
        "SELECT count(*) FROM cars_data WHERE Year > 1980",
    ),
    (
        "car_1",
        "How many cars are from 1975 or older?",
        "SELECT count(*) FROM cars_data WHERE Year < 1975",
        "SELECT count(*) FROM cars_data WHERE Year <= 1975",
    ),
]


@pytest.mark.parametrize(("db", "question", "wrong", "right"), YEARS)
def test_older_and_newer_than_a_year_are_earlier_and_later(
    tmp_path: Path, db: str, question: str, wrong: str, right: str
) -> None:
    """ "older than 1975" was read as a number's bound from above: the right ``Year < 1975``
    withheld as flipped and the wrong ``Year > 1975`` shown."""
    verdict = scored(tmp_path, db, question, *[wrong] * 5)
    assert verdict["action"] == "withhold", verdict["reasons"]
    verdict = scored(tmp_path, db, question, *[right] * 5)
    assert verdict["action"] == "show", verdict["reasons"]


def test_older_than_an_age_is_still_above_it(tmp_path: Path) -> None:
    question = "Which singers are older than 30?"
    wrong = scored(
        tmp_path, "concert_singer", question, *["SELECT Name FROM singer WHERE Age < 30"] * 5
    )
    assert "signal.comparison_flipped" in wrong["reasons"], wrong["reasons"]
    right = scored(
        tmp_path, "concert_singer", question, *["SELECT Name FROM singer WHERE Age > 30"] * 5
    )
    assert right["action"] == "show", right["reasons"]


def test_a_count_distinct_of_a_key_of_the_counted_table_is_shown(tmp_path: Path) -> None:
    """ "How many students have a dog?" as count(DISTINCT Has_Pet.StuID) (agreed14 p01) was
    withheld; the same count for "How many pets do students have?" is still flagged."""
    sql = (
        "SELECT count(DISTINCT T1.StuID) FROM Has_Pet AS T1 JOIN Pets AS T2 "
        "ON T1.PetID = T2.PetID WHERE T2.PetType = 'dog'"
    )
    verdict = scored(tmp_path, "pets_1", "How many students have a dog?", *[sql] * 5)
    assert verdict["action"] == "show", verdict["reasons"]
    verdict = scored(tmp_path, "pets_1", "How many pets do students have?", *[sql] * 5)
    assert "signal.aggregate_mismatch" in verdict["reasons"], verdict["reasons"]
