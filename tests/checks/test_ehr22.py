"""EHRSQL's gold withheld as flipped or as an unasked DISTINCT (ehr22): one event's time
against another's read as a bound, a rank's cut read as "less than", a procedure's title read as
the question's words, and a COUNT(DISTINCT) of a declared key to the counted table kept as
unasked when no data was read."""

from __future__ import annotations

import pytest

from assay.catalog import Catalog, ColumnInfo, ForeignKey, TableInfo
from assay.checks import CheckContext
from assay.checks._consistency import aggregate_fit, comparison_fit
from assay.types import Candidate

FLIPPED = "signal.comparison_flipped"
MISMATCH = "signal.aggregate_mismatch"

_PROCEDURE = (
    "SELECT procedures_icd.subject_id, procedures_icd.charttime FROM procedures_icd "
    "WHERE procedures_icd.icd_code = 'x'"
)
_DRUGS = (
    "SELECT prescriptions.subject_id, prescriptions.drug, prescriptions.starttime "
    "FROM prescriptions"
)


def _fired(question: str, sql: str, catalog: Catalog | None = None) -> set[str]:
    ctx = CheckContext(question, Candidate(sql), "sqlite", catalog)
    return {f.code for check in (comparison_fit, aggregate_fit) for f in check(ctx).findings}


def test_one_event_before_another_is_no_bound() -> None:
    """ "prescribed after receiving X" kept as the procedure's time before the prescription's
    (EHRSQL gold, 147 withheld as flipped): two rows' times compared have no direction."""
    sql = (
        f"SELECT T2.drug FROM ({_PROCEDURE}) AS T1 JOIN ({_DRUGS}) AS T2 "
        "ON T1.subject_id = T2.subject_id WHERE T1.charttime < T2.starttime"
    )
    question = "What drug was patient 1 prescribed after receiving a spinal tap?"
    assert FLIPPED not in _fired(question, sql)


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        ("Which singers are older than 30?", "SELECT name FROM singer WHERE age < 30"),
        (
            "Which products cost more than the average price?",
            "SELECT name FROM product WHERE price < (SELECT AVG(price) FROM product)",
        ),
        (
            "Which events happened after 1 year ago?",
            "SELECT e FROM t WHERE datetime(t.time) < datetime(current_time, '-1 year')",
        ),
        (
            "Which of patient 1's visits came after the first one was over 30 days?",
            "SELECT a.id FROM a, b WHERE a.t < b.t AND a.days < 30",
        ),
    ],
)
def test_a_value_against_a_bound_the_wrong_way_still_fires(question: str, sql: str) -> None:
    assert FLIPPED in _fired(question, sql)


def test_a_rank_s_cut_is_a_top_n_not_a_bound() -> None:
    """ "the top four diagnoses ... after receiving X" kept as ``T3.C1 <= 4`` (EHRSQL gold: 69
    withheld as flipped)."""
    sql = (
        "SELECT T3.icd_code FROM (SELECT icd_code, DENSE_RANK() OVER (ORDER BY COUNT(*) DESC) "
        "AS C1 FROM diagnoses_icd GROUP BY icd_code) AS T3 WHERE T3.C1 <= 4"
    )
    assert FLIPPED not in _fired("the top four diagnoses after a hemodialysis", sql)
    assert FLIPPED in _fired("the diagnoses after 2100", sql.replace("T3.C1 <= 4", "T3.yr < 2100"))


def test_a_compared_title_s_words_bound_nothing() -> None:
    """A procedure named "... for less than 96 consecutive hours" bounds no value (EHRSQL gold
    compares it as the title); the question's own "more than" outside the title still reads."""
    title = "ventilation for less than 96 consecutive hours"
    sql = f"SELECT p.id FROM p WHERE p.title = '{title}' AND p.age > 60"
    assert FLIPPED not in _fired(f"Did patient 1 receive {title} in 2100?", sql)
    flipped = sql.replace("p.age > 60", "p.age < 60")
    assert FLIPPED in _fired(f"Did a patient older than 60 receive {title}?", flipped)


def _hospital() -> Catalog:
    return Catalog(
        (
            TableInfo("patients", (ColumnInfo("subject_id", ""), ColumnInfo("gender", ""))),
            TableInfo(
                "admissions",
                (
                    ColumnInfo("subject_id", ""),
                    ColumnInfo("hadm_id", ""),
                    ColumnInfo("insurance", ""),
                ),
            ),
        ),
        foreign_keys=(ForeignKey("admissions", ("subject_id",), "patients", ("subject_id",)),),
        dialect="sqlite",
    )


def test_a_declared_key_to_the_counted_table_needs_no_data() -> None:
    """ "How many patients ..." as COUNT(DISTINCT admissions.subject_id): a declared key to
    patients counts each patient once. Without the database's profiles it was withheld (EHRSQL
    gold: 393 of 611 unasked-distinct firings)."""
    sql = "SELECT COUNT(DISTINCT admissions.subject_id) FROM admissions WHERE insurance = 'x'"
    assert MISMATCH not in _fired("How many patients were insured by x?", sql, _hospital())
    other = "SELECT COUNT(DISTINCT admissions.insurance) FROM admissions"
    assert MISMATCH in _fired("How many insurances were used by admissions?", other, _hospital())


def test_count_the_number_of_reads_the_noun_after_it() -> None:
    """ "Count the number of patients who were discharged." counts patients, not a "number of"
    (EHRSQL gold: 50 withheld as an unasked DISTINCT)."""
    sql = "SELECT COUNT(DISTINCT admissions.subject_id) FROM admissions WHERE insurance = 'x'"
    question = "Count the number of patients who were insured by x."
    assert MISMATCH not in _fired(question, sql, _hospital())
    assert MISMATCH not in _fired(
        question.replace("the number", "the total number"), sql, _hospital()
    )
