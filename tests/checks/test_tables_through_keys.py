"""A table named by the question and read through another table's foreign key to it.

EHRSQL's gold reads "patient 10020944" through ``admissions.subject_id`` (a foreign key to
``patients``) and never reads ``patients``: ``signal.table_mismatch`` fired on 4,348 of its
5,605 answerable questions' gold SQL, on a catalogue with the schema's declared keys. Counting
the named table's rows over the other table is still judged.
"""

from __future__ import annotations

import pytest

from assay.catalog import Catalog, ColumnInfo, ForeignKey, TableInfo
from assay.checks import CheckContext
from assay.checks._consistency import table_fit
from assay.types import Candidate


def _table(name: str, *columns: str) -> TableInfo:
    return TableInfo(name, tuple(ColumnInfo(c, "INTEGER") for c in columns))


CATALOG = Catalog(
    (
        _table("patients", "row_id", "subject_id", "gender"),
        _table("admissions", "row_id", "subject_id", "hadm_id", "admittime"),
        _table("cost", "row_id", "event_id", "cost"),
        _table("diagnoses_icd", "row_id", "hadm_id", "icd_code"),
    ),
    dialect="sqlite",
    foreign_keys=(
        ForeignKey("admissions", ("subject_id",), "patients", ("subject_id",)),
        ForeignKey("diagnoses_icd", ("hadm_id",), "admissions", ("hadm_id",)),
    ),
)


def _codes(question: str, sql: str, catalog: Catalog = CATALOG) -> list[str]:
    return [
        f.code
        for f in table_fit(CheckContext(question, Candidate(sql), "sqlite", catalog)).findings
    ]


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        (
            "When was patient 10000032 first admitted to the hospital?",
            "SELECT admittime FROM admissions WHERE subject_id = 10000032 "
            "ORDER BY admittime LIMIT 1",
        ),
        (  # two keys away: diagnoses_icd -> admissions -> patients
            "How many patients had diagnosis 4019?",
            "SELECT COUNT(DISTINCT hadm_id) FROM diagnoses_icd WHERE icd_code = '4019'",
        ),
        (
            "How many patients were admitted?",
            "SELECT COUNT(DISTINCT admissions.subject_id) FROM admissions",
        ),
    ],
)
def test_a_named_table_read_through_a_foreign_key_is_silent(question: str, sql: str) -> None:
    assert _codes(question, sql) == []


def test_counting_the_named_rows_over_the_other_table_is_still_judged() -> None:
    assert _codes("How many patients are there?", "SELECT count(*) FROM admissions") == [
        "signal.table_mismatch"
    ]


def test_without_a_key_the_other_table_is_still_a_mismatch() -> None:
    # cost has no key to patients: reading it answers about other rows.
    assert _codes("What is the gender of patient 5?", "SELECT cost FROM cost WHERE row_id = 5") == [
        "signal.table_mismatch"
    ]
