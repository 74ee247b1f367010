"""A share of things a link table repeats, counted DISTINCT (outside tester, dist36).

"What share of pet-owning students own a dog?" as the dog owners of ``Has_Pet`` over its pet
owners, both ``count(DISTINCT StuID)``, is 0.5 and right: ``Has_Pet`` repeats a student per
pet, so counting the students the question names needs the DISTINCT. It was withheld as
``aggregate_mismatch`` ("counts distinct values but the question does not say distinct"): the
rule read the counted noun only after "how many" or "number of". The same numerator over every
student (1/34) is wrong for its whole, and is withheld for that, not for the DISTINCT. Data:
Spider pets_1, skipped when the shared slice is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.checks._helpers import codes, scored

SHARE = "What share of pet-owning students own a dog?"
DOG_OWNERS = (
    "(SELECT count(DISTINCT h.StuID) FROM Has_Pet h JOIN Pets p ON h.PetID = p.PetID "
    "WHERE p.PetType = 'dog')"
)
PET_OWNERS = "(SELECT count(DISTINCT StuID) FROM Has_Pet)"
STUDENTS = "(SELECT count(*) FROM Student)"


def test_a_share_of_the_students_a_link_table_repeats_is_shown(tmp_path: Path) -> None:
    verdict = scored(tmp_path, "pets_1", SHARE, *[f"SELECT {DOG_OWNERS} * 1.0 / {PET_OWNERS}"] * 5)
    assert verdict["action"] == "show", verdict["reasons"]


def test_the_same_share_over_every_student_is_withheld_for_its_whole(tmp_path: Path) -> None:
    verdict = scored(tmp_path, "pets_1", SHARE, *[f"SELECT {DOG_OWNERS} * 1.0 / {STUDENTS}"] * 5)
    assert verdict["action"] == "withhold"
    assert "signal.share_whole_dropped" in verdict["reasons"], verdict["reasons"]
    assert "signal.aggregate_mismatch" not in codes(verdict), verdict["reasons"]


def test_a_share_of_every_student_may_divide_by_every_student(tmp_path: Path) -> None:
    """ "What share of students own a dog?" names no pet in its whole: every student is it."""
    question = "What share of students own a dog?"
    verdict = scored(tmp_path, "pets_1", question, *[f"SELECT {DOG_OWNERS} * 1.0 / {STUDENTS}"] * 5)
    assert verdict["action"] == "show", verdict["reasons"]


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        ("How many pet-owning students are there?", "SELECT count(DISTINCT StuID) FROM Has_Pet"),
        ("What fraction of the students own a pet?", f"SELECT {PET_OWNERS} * 1.0 / {STUDENTS}"),
    ],
    ids=["hyphened-modifier", "fraction-of-the"],
)
def test_the_counted_noun_is_read_past_a_modifier_or_an_article(
    tmp_path: Path, question: str, sql: str
) -> None:
    """ "pet-owning" was read as the thing counted ("pet": a key to ``Pets``, not ``Student``)."""
    verdict = scored(tmp_path, "pets_1", question, *[sql] * 5)
    assert "signal.aggregate_mismatch" not in codes(verdict), verdict["reasons"]


def test_a_share_counted_as_distinct_values_is_still_flagged(tmp_path: Path) -> None:
    """The share of students counted as their distinct ages: DISTINCT changes the question."""
    ages = "SELECT count(DISTINCT Age) FROM Student"
    sql = f"SELECT ({ages} WHERE Sex = 'F') * 1.0 / ({ages})"
    verdict = scored(tmp_path, "pets_1", "What share of students are female?", *[sql] * 5)
    assert "signal.aggregate_mismatch" in codes(verdict), verdict["reasons"]
