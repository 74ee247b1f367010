"""Sex codes that mean the opposite of the question's word, five samples agreeing on them (task
gen16): "female students" as ``Sex = 'M'``, "singers not male" as ``Is_male = 'T'``. The wrong
answer is not shown at full agreement; the right answer beside it does not carry the code. Real
data: Spider pets_1 and concert_singer, skipped when the shared slice is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from assay.checks import QUESTION_SIGNALS
from assay.checks._coded import asked_sex
from tests.checks._helpers import codes, scored, wrong_withheld_right_clear

FEMALE_STUDENTS = "How many female students are there?"
NOT_FEMALE = "How many students are not female?"
NOT_MALE = "How many singers are not male?"
WOMEN_SINGERS = "list the women singers"

# (name, db, question, the wrong SQL all five samples agree on, the right SQL, code)
WRONG_AND_RIGHT = [
    (
        "female_as_m",
        "pets_1",
        FEMALE_STUDENTS,
        "SELECT count(*) FROM Student WHERE Sex = 'M'",
        "SELECT count(*) FROM Student WHERE Sex = 'F'",
        "signal.code_flipped",
    ),
    (
        "not_female_as_f",
        "pets_1",
        NOT_FEMALE,
        "SELECT count(*) FROM Student WHERE Sex = 'F'",
        "SELECT count(*) FROM Student WHERE Sex != 'F'",
        "signal.code_flipped",
    ),
    (
        "not_male_as_t",
        "concert_singer",
        NOT_MALE,
        "SELECT count(*) FROM singer WHERE Is_male = 'T'",
        "SELECT count(*) FROM singer WHERE Is_male = 'F'",
        "signal.code_flipped",
    ),
    (
        "women_as_t",
        "concert_singer",
        WOMEN_SINGERS,
        "SELECT Name FROM singer WHERE Is_male = 'T'",
        "SELECT Name FROM singer WHERE Is_male = 'F'",
        "signal.code_flipped",
    ),
]


def test_the_code_is_a_question_signal() -> None:
    assert "signal.code_flipped" in QUESTION_SIGNALS


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
    ("question", "sex"),
    [
        ("How many female students are there?", "female"),
        ("How many students are not female?", "male"),
        ("Which singers are non-male?", "female"),
        ("Is she not a woman?", "male"),
        ("Find the students other than girls.", "male"),
        ("List the singers that aren't men.", "female"),
        ("How many male and female students are there?", None),
        ("How many students are there?", None),
        ("How many female students do not have a pet?", "female"),
        ("Which students don't have a pet and aren't female?", "male"),
        # a negation a few words before, or one of existence, may not reach the word
        ("Which students do not identify as female?", None),
        ("Which teams have no women?", None),
        ("Which students are not older than 20 and male?", None),
    ],
)
def test_the_sex_asked_for(question: str, sex: str | None) -> None:
    assert asked_sex(question) == sex


# (name, db, question, SQL the check must stay silent on)
SILENT = [
    # a subquery excluded by NOT IN turns what its comparison selects
    (
        "not_in",
        "pets_1",
        NOT_FEMALE,
        "SELECT count(*) FROM Student WHERE StuID NOT IN "
        "(SELECT StuID FROM Student WHERE Sex = 'F')",
    ),
    (
        "except",
        "pets_1",
        "List the first names of students who are not female.",
        "SELECT Fname FROM Student EXCEPT SELECT Fname FROM Student WHERE Sex = 'F'",
    ),
    # both sexes asked for: a breakdown, no one sex to check
    (
        "both",
        "pets_1",
        "How many male and female students are there?",
        "SELECT count(*) FROM Student WHERE Sex = 'M'",
    ),
]


@pytest.mark.parametrize(("name", "db", "question", "sql"), SILENT, ids=[c[0] for c in SILENT])
def test_silent_where_the_reading_is_not_certain(
    tmp_path: Path, name: str, db: str, question: str, sql: str
) -> None:
    assert "signal.code_flipped" not in codes(scored(tmp_path, db, question, sql)), name
