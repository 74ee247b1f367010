"""Answers shown wrong on the Spider slice (outside tryout 17), each now caught, and the right
answer beside it still shown. Real data: Spider car_1, pets_1 and concert_singer, skipped when
the shared slice is absent.

- dev-114: ``countries.countryname = "France"``: on SQLite a double-quoted name that is no
  column is the string 'France'; the data stores 'france' (5 of 6 systems agreed on 0).
- dev-111/112: four of six systems agree on an empty result (dev-104 below: the same without a
  literal to probe); dev-159/160: different wrong queries agree on a count of 0 (gold 39).
- "How many students are there?" answered from ``pets``; "ordered by age from the oldest to the
  youngest" without ORDER BY; "the second oldest" as ``LIMIT 1 OFFSET 1`` cutting a tie.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.checks._helpers import codes, scored

FRANCE = "What is the number of makers of care in France?"
JOIN = (
    "SELECT count(*) FROM car_makers JOIN countries ON car_makers.country = "
    "countries.countryid WHERE countries.countryname = {}"
)


def test_a_double_quoted_string_not_in_the_data_is_withheld_on_sqlite(tmp_path: Path) -> None:
    sql = JOIN.format('"France"')  # graphix_t5's answer to spider-dev-114
    verdict = scored(tmp_path, "car_1", FRANCE, *[sql] * 5)
    found = [f for f in verdict["findings"] if f["code"] == "signal.literal_not_in_data"]
    assert found, codes(verdict)
    assert found[0]["evidence"]["literal"] == "France"
    assert found[0]["evidence"]["stored"] == "france"
    assert verdict["action"] == "withhold"


@pytest.mark.parametrize(
    "sql",
    [
        JOIN.format('"france"'),  # the stored value, double-quoted (codes_7b's answer)
        JOIN.format("'france'"),
        # a double-quoted name that is a column stays a column
        "SELECT count(*) FROM countries WHERE \"CountryName\" = 'france'",
        'SELECT count(*) FROM countries AS c WHERE c.CountryName = "CountryName"',
    ],
)
def test_stored_values_and_quoted_columns_are_not_flagged(tmp_path: Path, sql: str) -> None:
    verdict = scored(tmp_path, "car_1", FRANCE, *[sql] * 5)
    assert "signal.literal_not_in_data" not in codes(verdict)


MODELS = "What are the different models for the cards produced after 1980?"


def test_an_agreed_empty_result_is_warned(tmp_path: Path) -> None:
    # an agreed empty result with nothing else to tell: warned, never shown plainly
    sql = "SELECT Id FROM cars_data WHERE Weight > 10000"
    verdict = scored(tmp_path, "car_1", "Which cars weigh more than 10000?", *[sql] * 5)
    assert verdict["result"]["rows"] == []
    assert "signal.empty_result" in verdict["reasons"]
    assert verdict["action"] == "warn"


def test_an_agreed_join_of_unrelated_keys_is_withheld(tmp_path: Path) -> None:
    # spider-dev-104: dailsql_gpt4 and graphix_t5 join model_list.ModelId to cars_data.Id and
    # find nothing (gold: 61 models). It was warned for its empty result; car_1 declares its
    # keys, and the guard now refuses a join that equates two keys nothing relates
    # (guard.unrelated_join), so no sample runs and the answer is withheld.
    sql = (
        "SELECT DISTINCT T1.Model FROM model_list AS T1 JOIN cars_data AS T2 "
        "ON T1.ModelId = T2.Id WHERE T2.Year > 1980"
    )
    verdict = scored(tmp_path, "car_1", MODELS, *[sql] * 5)
    assert verdict["action"] == "withhold"
    assert any("guard.unrelated_join" in f["message"] for f in verdict["failures"])


LARGER = "How many cars have a larger accelerate than the car with the largest horsepower?"


def test_a_zero_count_another_sample_disputes_is_not_shown(tmp_path: Path) -> None:
    # spider-dev-159: wrong queries of four systems agree on 0 (gold: 39, dailsql_gpt4's)
    sqls = (
        "select count(*) from cars_data where accelerate > (select max(accelerate) from cars_data)",
        "SELECT COUNT(*) FROM cars_data WHERE Accelerate > (SELECT MAX(Horsepower) FROM cars_data)",
        "SELECT count(*) FROM cars_data WHERE Accelerate > (SELECT max(Horsepower) FROM cars_data)",
        "SELECT count(*) FROM cars_data WHERE accelerate > (SELECT max(accelerate) FROM cars_data)",
        "SELECT COUNT(*) FROM cars_data WHERE Accelerate > (SELECT Accelerate FROM cars_data "
        "ORDER BY Horsepower DESC LIMIT 1)",
    )
    verdict = scored(tmp_path, "car_1", LARGER, *sqls)
    assert verdict["result"]["rows"] == [[0]]
    assert "signal.zero_count" in verdict["reasons"]
    assert verdict["action"] == "warn"


def test_a_zero_count_every_sample_agrees_on_is_shown(tmp_path: Path) -> None:
    # spider-dev-51: no student older than 20 has a pet; all six systems count 0, as the gold
    sql = (
        "SELECT count(*) FROM Has_Pet AS T1 JOIN Student AS T2 ON T1.StuID = T2.StuID "
        "WHERE T2.Age > 20"
    )
    question = "Find number of pets owned by students who are older than 20."
    verdict = scored(tmp_path, "pets_1", question, *[sql] * 5)
    assert verdict["result"]["rows"] == [[0]]
    assert "signal.zero_count" in codes(verdict)
    assert verdict["action"] == "show"


def test_the_count_of_dev_159_is_no_zero_count(tmp_path: Path) -> None:
    """Its gold orders Horsepower, numbers stored as text, as text: the car with the largest
    horsepower read so is the one storing 'null' (outside tryout 22, ``_text_order``). Read
    as numbers, the count is not zero either, and shown."""
    gold = (
        "SELECT COUNT(*) FROM cars_data WHERE Accelerate > (SELECT Accelerate FROM cars_data "
        "ORDER BY Horsepower DESC LIMIT 1)"
    )
    verdict = scored(tmp_path, "car_1", LARGER, *[gold] * 5)
    assert verdict["result"]["rows"] == [[39]]
    assert "signal.zero_count" not in codes(verdict)
    assert verdict["reasons"] == ["signal.numbers_as_text"]
    cast = gold.replace("BY Horsepower", "BY CAST(Horsepower AS REAL)")
    verdict = scored(tmp_path, "car_1", LARGER, *[cast] * 5)
    assert verdict["result"]["rows"] == [[399]]
    assert "signal.zero_count" not in codes(verdict)
    assert verdict["action"] == "show"


STUDENTS = "How many students are there?"


def test_a_count_read_from_a_table_the_question_does_not_name(tmp_path: Path) -> None:
    verdict = scored(tmp_path, "pets_1", STUDENTS, *["SELECT count(*) FROM pets"] * 3)
    assert "signal.table_mismatch" in codes(verdict)
    assert verdict["action"] != "show"
    mixed = scored(
        tmp_path,
        "pets_1",
        STUDENTS,
        "SELECT count(*) FROM pets",
        "SELECT count(*) FROM student",
        "SELECT count(*) FROM has_pet",
    )
    assert mixed["action"] != "show"


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        (STUDENTS, "SELECT count(*) FROM student"),
        # spider-dev-79, codes_7b's right answer: pets and student named, has_pet read
        (
            "Find the number of pets for each student who has any pet and student id.",
            "SELECT count(*), stuid FROM has_pet GROUP BY stuid",
        ),
        # pets named and not read: the count goes through has_pet
        (
            "How many pets are owned by students that are older than 20?",
            "SELECT count(*) FROM student AS T1 JOIN has_pet AS T2 ON T1.stuid = T2.stuid "
            "WHERE T1.age > 20",
        ),
    ],
)
def test_a_table_the_question_names_is_silent(tmp_path: Path, question: str, sql: str) -> None:
    verdict = scored(tmp_path, "pets_1", question, *[sql] * 3)
    assert "signal.table_mismatch" not in codes(verdict)


ORDERED = "Show name, country, age for all singers ordered by age from the oldest to the youngest."


def test_a_requested_order_missing_is_not_shown(tmp_path: Path) -> None:
    sql = "SELECT name, country, age FROM singer"
    verdict = scored(tmp_path, "concert_singer", ORDERED, *[sql] * 5)
    assert "signal.order_missing" in codes(verdict)
    assert verdict["action"] != "show"


def test_the_requested_order_present_is_shown(tmp_path: Path) -> None:
    sql = "SELECT name, country, age FROM singer ORDER BY age DESC"  # spider-dev-2's gold
    verdict = scored(tmp_path, "concert_singer", ORDERED, *[sql] * 5)
    assert "signal.order_missing" not in codes(verdict)
    assert verdict["action"] == "show"


SECOND = "What is the first name of the second oldest student?"


def test_an_offset_that_cuts_a_tie_is_not_shown(tmp_path: Path) -> None:
    # Student: Bruce 27, then Paul and Sarah both 26
    sql = "SELECT Fname FROM Student ORDER BY age DESC LIMIT 1 OFFSET 1"
    verdict = scored(tmp_path, "pets_1", SECOND, *[sql] * 5)
    assert "cap.limit_cuts_tie" in codes(verdict)
    assert verdict["action"] != "show"


def test_an_offset_without_a_tie_is_shown(tmp_path: Path) -> None:
    # singer: Joe Sharp 52, John Nizinik 43, Rose White 41
    sql = "SELECT name FROM singer ORDER BY age DESC LIMIT 1 OFFSET 1"
    verdict = scored(tmp_path, "concert_singer", "Who is the second oldest singer?", *[sql] * 5)
    assert "cap.limit_cuts_tie" not in codes(verdict)
    assert verdict["action"] == "show"


TOP = "What are the top 3 countries by number of car makers?"


def test_a_top_n_kept_in_no_order_is_not_shown(tmp_path: Path) -> None:
    """Outside tryout 18: a top-N as GROUP BY ... LIMIT with no ORDER BY was shown."""
    unordered = "SELECT country, count(*) FROM car_makers GROUP BY country LIMIT 3"
    verdict = scored(tmp_path, "car_1", TOP, *[unordered] * 5)
    assert "signal.ranking_mismatch" in codes(verdict)
    assert verdict["action"] != "show"
    ordered = (
        "SELECT country, count(*) FROM car_makers GROUP BY country ORDER BY count(*) DESC LIMIT 3"
    )
    verdict = scored(tmp_path, "car_1", TOP, *[ordered] * 5)
    assert "signal.ranking_mismatch" not in codes(verdict)


NOT_OLDER = "How many singers are not older than 30?"


def test_a_negated_bound_is_read_the_other_way(tmp_path: Path) -> None:
    """Outside tryout 18: right answers to "not older than 30" were flagged as flipped, and
    the flipped SQL (age > 30) was not."""
    right = "SELECT count(*) FROM singer WHERE age <= 30"
    verdict = scored(tmp_path, "concert_singer", NOT_OLDER, *[right] * 5)
    assert "signal.comparison_flipped" not in codes(verdict)
    flipped = "SELECT count(*) FROM singer WHERE age > 30"
    verdict = scored(tmp_path, "concert_singer", NOT_OLDER, *[flipped] * 5)
    assert "signal.comparison_flipped" in codes(verdict)
    assert verdict["action"] != "show"
