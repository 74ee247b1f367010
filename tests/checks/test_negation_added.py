"""A value asked for and excluded by the SQL (outside tryout 25: "How many customers are in the
AUTOMOBILE segment?" answered with ``c_mktsegment <> 'AUTOMOBILE'`` came back warned, not
withheld). The wrong answer draws ``signal.negation_added`` and is withheld at full agreement;
the right one beside it does not; a question that excludes says so and stays silent."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.checks import QUESTION_SIGNALS, CheckContext
from assay.checks._negation_added import negation_added
from assay.types import Candidate, FindingCode
from tests.checks._helpers import wrong_withheld_right_clear


def _fired(question: str, sql: str) -> list[str]:
    ctx = CheckContext(question, Candidate(sql), "sqlite")
    return [f.code for f in negation_added(ctx).findings]


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT count(*) FROM customer WHERE c_mktsegment <> 'AUTOMOBILE'",
        "SELECT count(*) FROM customer WHERE c_mktsegment != 'AUTOMOBILE'",
        "SELECT count(*) FROM customer WHERE NOT c_mktsegment = 'AUTOMOBILE'",
        "SELECT count(*) FROM customer WHERE c_mktsegment NOT IN ('AUTOMOBILE', 'BUILDING')",
        "SELECT count(*) FROM customer WHERE c_nationkey = 3 "
        "AND c_mktsegment NOT LIKE 'automobile'",
    ],
)
def test_a_value_asked_for_and_excluded(sql: str) -> None:
    assert _fired("How many customers are in the AUTOMOBILE segment?", sql) == [
        "signal.negation_added"
    ]


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        # the right answer
        (
            "How many customers are in the AUTOMOBILE segment?",
            "SELECT count(*) FROM customer WHERE c_mktsegment = 'AUTOMOBILE'",
        ),
        # the question excludes: negation_dropped's side
        (
            "How many customers are not in the AUTOMOBILE segment?",
            "SELECT count(*) FROM customer WHERE c_mktsegment <> 'AUTOMOBILE'",
        ),
        (
            "Which cars other than the fiat were made in 1970?",
            "SELECT Model FROM car_names WHERE Model <> 'fiat'",
        ),
        # an excluded value the question does not say
        (
            "How many customers are in the AUTOMOBILE segment?",
            "SELECT count(*) FROM customer WHERE c_mktsegment = 'AUTOMOBILE' "
            "AND c_name <> 'unknown'",
        ),
        # a number excluded is not read
        ("How many cars have 4 cylinders?", "SELECT count(*) FROM cars_data WHERE Cylinders <> 4"),
    ],
)
def test_silent(question: str, sql: str) -> None:
    assert _fired(question, sql) == []


def test_registered_as_a_question_signal() -> None:
    assert "signal.negation_added" in QUESTION_SIGNALS
    assert FindingCode("signal.negation_added")


def test_withheld_at_full_agreement(tmp_path: Path) -> None:
    case = (
        "dogs",
        "pets_1",
        "How many pets are dogs?",
        "SELECT count(*) FROM Pets WHERE PetType <> 'dog'",
        "SELECT count(*) FROM Pets WHERE PetType = 'dog'",
        "signal.negation_added",
    )
    wrong_withheld_right_clear(tmp_path, case, right_shown=True)
