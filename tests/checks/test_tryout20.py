"""Agreed wrong answers outside tryout 20 saw shown at 1.00 (tuned on, not held out): the
oldest or youngest sorted the wrong way on an age or a year, and a bound said with the
column's name after the number ("more than 4 cylinders") or as a verb ("weigh more than 4000")
put on another column. Each right answer beside them is not withheld."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.checks._helpers import scored

CASES = [
    # (database, question, wrong SQL, right SQL, the signal)
    (
        "concert_singer",
        "Who is the oldest singer?",
        "SELECT Name FROM singer ORDER BY Age LIMIT 1",
        "SELECT Name FROM singer ORDER BY Age DESC LIMIT 1",
        "signal.ranking_mismatch",
    ),
    (
        "concert_singer",
        "What is the name of the youngest singer?",
        "SELECT Name FROM singer ORDER BY Age DESC LIMIT 1",
        "SELECT Name FROM singer ORDER BY Age LIMIT 1",
        "signal.ranking_mismatch",
    ),
    (
        "car_1",
        "Which is the oldest car?",
        "SELECT Id FROM cars_data ORDER BY Year DESC LIMIT 1",
        "SELECT Id FROM cars_data ORDER BY Year LIMIT 1",
        "signal.ranking_mismatch",
    ),
    (
        "car_1",
        "How many cars weigh more than 4000?",
        "SELECT count(*) FROM cars_data WHERE Horsepower > 4000",
        "SELECT count(*) FROM cars_data WHERE Weight > 4000",
        "signal.bound_on_other_column",
    ),
    (
        "car_1",
        "How many cars have more than 4 cylinders?",
        "SELECT count(*) FROM cars_data WHERE Horsepower > 4",
        "SELECT count(*) FROM cars_data WHERE Cylinders > 4",
        "signal.bound_on_other_column",
    ),
]


@pytest.mark.parametrize(("db", "question", "wrong", "right", "code"), CASES)
def test_the_wrong_answer_is_withheld_and_the_right_one_shown(
    tmp_path: Path, db: str, question: str, wrong: str, right: str, code: str
) -> None:
    verdict = scored(tmp_path, db, question, *[wrong] * 5)
    assert verdict["action"] == "withhold" and code in verdict["reasons"], verdict["reasons"]
    verdict = scored(tmp_path, db, question, *[right] * 5)
    # shown, or warned for a tie its LIMIT cuts (many cars of the earliest year)
    assert code not in verdict["reasons"], verdict["reasons"]
    assert verdict["action"] == "show" or verdict["reasons"] == ["cap.limit_cuts_tie"]


@pytest.mark.parametrize(
    ("sql", "action", "code"),
    [
        ("SELECT count(*) FROM cars_data WHERE NOT (Year <= 1975)", "show", None),
        (
            "SELECT count(*) FROM cars_data WHERE NOT (Year < 1975)",
            "withhold",
            "signal.bound_strictness",
        ),
        (
            "SELECT count(*) FROM cars_data WHERE NOT (Year > 1975)",
            "withhold",
            "signal.comparison_flipped",
        ),
    ],
)
def test_a_comparison_under_not_is_read_the_other_way(
    tmp_path: Path, sql: str, action: str, code: str | None
) -> None:
    """ "after 1975" as ``NOT (Year <= 1975)`` is right; it was withheld as flipped (the
    message said every comparison was '<', ignoring the NOT)."""
    verdict = scored(tmp_path, "car_1", "How many cars were made after 1975?", *[sql] * 5)
    assert verdict["action"] == action, verdict["reasons"]
    assert code is None or code in verdict["reasons"]


@pytest.mark.parametrize(
    ("question", "wrong", "right"),
    [
        (
            "What is the average weight of pets excluding dogs?",
            "SELECT avg(weight) FROM Pets",
            "SELECT avg(weight) FROM Pets WHERE PetType <> 'dog'",
        ),
        (
            "Which students own neither a cat nor a dog?",
            "SELECT Fname FROM Student WHERE StuID IN (SELECT StuID FROM Has_Pet JOIN Pets "
            "ON Has_Pet.PetID = Pets.PetID WHERE PetType IN ('cat', 'dog'))",
            "SELECT Fname FROM Student WHERE StuID NOT IN (SELECT StuID FROM Has_Pet JOIN Pets "
            "ON Has_Pet.PetID = Pets.PetID WHERE PetType IN ('cat', 'dog'))",
        ),
    ],
)
def test_excluding_and_neither_need_a_negation(
    tmp_path: Path, question: str, wrong: str, right: str
) -> None:
    verdict = scored(tmp_path, "pets_1", question, *[wrong] * 5)
    assert verdict["action"] == "withhold", verdict["reasons"]
    assert "signal.negation_missing" in verdict["reasons"]
    assert scored(tmp_path, "pets_1", question, *[right] * 5)["action"] == "show"


@pytest.mark.parametrize(
    ("db", "question", "wrong", "right"),
    [
        (
            "concert_singer",
            "List the names and ages of singers, sorted by age, oldest first",
            "SELECT Name, Age FROM singer ORDER BY Age ASC",
            "SELECT Name, Age FROM singer ORDER BY Age DESC",
        ),
        (
            "car_1",
            "ids of cars sorted by weight from largest to smallest",
            "SELECT Id FROM cars_data ORDER BY Weight ASC",
            "SELECT Id FROM cars_data ORDER BY Weight DESC",
        ),
    ],
)
def test_an_order_said_without_the_or_as_x_first_is_checked(
    tmp_path: Path, db: str, question: str, wrong: str, right: str
) -> None:
    """Outside tryout 21: "sorted oldest first" and "from largest to smallest" (no "the")
    sorted the other way were shown at 1.00."""
    verdict = scored(tmp_path, db, question, *[wrong] * 5)
    assert "signal.ranking_mismatch" in verdict["reasons"], verdict["reasons"]
    assert scored(tmp_path, db, question, *[right] * 5)["action"] == "show"
