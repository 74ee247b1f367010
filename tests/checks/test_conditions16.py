"""Conditions every value passes, five samples agreeing on them (task gen16): "pets that are
neither cats nor dogs" as ``PetType <> 'cat' OR PetType <> 'dog'``, a range written ``x > 5 OR
x < 10``. The wrong answer is not shown at full agreement; the right answer beside it does not
carry the code. Real data: Spider pets_1 and car_1, skipped when the shared slice is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.checks import QUESTION_SIGNALS, CheckContext
from assay.checks._conditions import always_true_filter
from assay.types import Candidate
from tests.checks._helpers import wrong_withheld_right_clear

NEITHER = "Which students live neither in PIT nor in HKG? Give their first names."
WEIGHT = "Which cars weigh under 2000 or over 4000? Give their ids."

# (name, db, question, the wrong SQL all five samples agree on, the right SQL, code)
WRONG_AND_RIGHT = [
    (
        "neither_as_or",
        "pets_1",
        NEITHER,
        "SELECT Fname FROM Student WHERE city_code <> 'PIT' OR city_code <> 'HKG'",
        "SELECT Fname FROM Student WHERE city_code NOT IN ('PIT', 'HKG')",
        "signal.always_true_filter",
    ),
    (
        "range_swapped",
        "car_1",
        WEIGHT,
        "SELECT Id FROM cars_data WHERE Weight > 2000 OR Weight < 4000",
        "SELECT Id FROM cars_data WHERE Weight < 2000 OR Weight > 4000",
        "signal.always_true_filter",
    ),
]


def test_the_code_is_a_question_signal() -> None:
    assert "signal.always_true_filter" in QUESTION_SIGNALS


@pytest.mark.parametrize(
    ("name", "db", "question", "wrong", "right", "code"),
    WRONG_AND_RIGHT,
    ids=[c[0] for c in WRONG_AND_RIGHT],
)
def test_a_unanimous_wrong_condition_is_not_shown(
    tmp_path: Path, name: str, db: str, question: str, wrong: str, right: str, code: str
) -> None:
    wrong_withheld_right_clear(tmp_path, (name, db, question, wrong, right, code))


@pytest.mark.parametrize(
    ("sql", "fires"),
    [
        ("SELECT 1 FROM t WHERE x <> 'cat' OR x <> 'dog'", True),
        ("SELECT 1 FROM t WHERE y = 1 AND (x != 'cat' OR x != 'dog' OR z > 3)", True),
        ("SELECT 1 FROM t WHERE x > 5 OR x < 10", True),
        ("SELECT 1 FROM t WHERE x >= 5 OR x < 5", True),
        ("SELECT 1 FROM t WHERE x > 5 OR x < 5", False),  # 5 passes neither
        ("SELECT 1 FROM t WHERE x < 3 OR x > 10", False),
        ("SELECT 1 FROM t WHERE x <> 'cat' AND x <> 'dog'", False),
        ("SELECT 1 FROM t WHERE x <> 'cat' OR y <> 'dog'", False),
        ("SELECT 1 FROM t WHERE x <> 'cat' OR x <> 'Cat'", False),  # one value without case
        ("SELECT 1 FROM t WHERE NOT (x <> 'cat' OR x <> 'dog')", False),
        ("SELECT 1 FROM t WHERE x <> 3 OR x > 4", False),
        ("SELECT 1 FROM t WHERE x <> 1 OR x <> '2'", False),  # a number and a text
    ],
)
def test_an_or_every_value_passes(sql: str, fires: bool) -> None:
    found = always_true_filter(CheckContext("q", Candidate(sql), "sqlite")).findings
    assert bool(found) is fires
