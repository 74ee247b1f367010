"""A coded key compared with another row than the one the question names, the name said as its
adjective (agreed22, a development set, h22_s02): "How many European countries have no car
makers?" as ``Continent = 1`` counts American countries (``continents`` row 1 is 'america', 2 is
'europe'), five samples agreeing, shown at 1.00. ``key_meaning`` looked for 'europe' as a whole
word, plural allowed, and "European" is neither."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.checks._helpers import codes, scored, wrong_withheld_right_clear

CODE = "signal.key_misread"
EUROPEAN = "How many European countries have no car makers?"
NO_MAKERS = "CountryId NOT IN (SELECT CAST(Country AS INTEGER) FROM car_makers)"


def test_h22_s02_a_european_country_read_as_row_1_is_withheld(tmp_path: Path) -> None:
    wrong = f"SELECT count(*) FROM countries WHERE Continent = 1 AND {NO_MAKERS}"
    right = (
        "SELECT count(*) FROM countries c JOIN continents k ON c.Continent = k.ContId "
        f"WHERE k.Continent = 'europe' AND c.{NO_MAKERS}"
    )
    wrong_withheld_right_clear(tmp_path, ("h22_s02", "car_1", EUROPEAN, wrong, right, CODE))
    verdict = scored(tmp_path, "car_1", EUROPEAN, *[wrong] * 5)
    found = next(f for f in verdict["findings"] if f["code"] == CODE)
    assert (found["evidence"]["said"], found["evidence"]["selected"]) == ("europe", "america")


@pytest.mark.parametrize(
    ("question", "wrong", "right"),
    [
        ("How many Asian countries are there?", 1, 3),
        ("How many American countries are there?", 2, 1),
        ("How many African countries are there?", 1, 4),
    ],
    ids=["asian", "american", "african"],
)
def test_an_adjective_names_its_row(tmp_path: Path, question: str, wrong: int, right: int) -> None:
    sql = "SELECT count(*) FROM countries WHERE Continent = {}"
    case = (question, "car_1", question, sql.format(wrong), sql.format(right), CODE)
    wrong_withheld_right_clear(tmp_path, case)


@pytest.mark.parametrize(
    "question",
    ["How many European countries are there?", "How many countries are in Europe?"],
    ids=["adjective", "noun"],
)
def test_silent_on_the_named_row(tmp_path: Path, question: str) -> None:
    sql = "SELECT count(*) FROM countries WHERE Continent = 2"
    assert CODE not in codes(scored(tmp_path, "car_1", question, sql))
