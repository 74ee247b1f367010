"""EHRSQL's gold SQL against the question-vs-SQL checks: a table named by the question and read
through another table's foreign key to it, and totals, rates and measure names that are no
unasked aggregate.

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


def _aggregate(question: str, sql: str) -> list[str]:
    from assay.checks._consistency import aggregate_fit

    return [
        f.message
        for f in aggregate_fit(CheckContext(question, Candidate(sql), "sqlite", CATALOG)).findings
    ]


@pytest.mark.parametrize(
    ("question", "sql"),
    [  # EHRSQL's gold, each withheld as aggregate_mismatch before
        (
            "How much heparin has patient 5 been prescribed?",
            "SELECT SUM(dose) FROM prescriptions WHERE subject_id = 5 AND drug = 'heparin'",
        ),
        (  # outside tryout 23: revenue is a total by nature
            "What was store sales revenue in 2001?",
            "SELECT SUM(ss_ext_sales_price) FROM store_sales WHERE year = 2001",
        ),
        (
            "What was the accumulated output for patient 5?",
            "SELECT SUM(value) FROM outputevents WHERE subject_id = 5",
        ),
        (
            "What is the maximum cost of a hospital stay that involves drug X?",
            "SELECT MAX(t.c) FROM (SELECT SUM(cost) AS c FROM cost GROUP BY hadm_id) AS t",
        ),
        (
            "Which three diagnoses have the highest 3-month mortality rate?",
            "SELECT icd_code FROM (SELECT icd_code, AVG(died) AS r FROM d GROUP BY icd_code) "
            "ORDER BY r DESC LIMIT 3",
        ),
        (
            "What was the last arterial blood pressure mean of patient 5?",
            "SELECT valuenum FROM chartevents WHERE subject_id = 5 AND "
            "label = 'arterial blood pressure mean' ORDER BY charttime DESC LIMIT 1",
        ),
    ],
)
def test_asked_totals_rates_and_named_means_are_no_aggregate_mismatch(
    question: str, sql: str
) -> None:
    assert _aggregate(question, sql) == []


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        ("What is the highest cost?", "SELECT SUM(cost) FROM cost"),
        ("What is the average cost?", "SELECT cost FROM cost WHERE event_id = 3"),
        ("What is the name of patient 5?", "SELECT AVG(gender) FROM patients"),
    ],
)
def test_unasked_sums_and_averages_still_fire(question: str, sql: str) -> None:
    assert _aggregate(question, sql) != []


def test_keys_guessed_from_names_are_not_chained() -> None:
    # No declared keys: orders.o_shop_sk names shop's key (one hop, read as the shop's orders),
    # shop.s_region_sk region's; "regions" answered from orders alone is still a mismatch.
    guessed = Catalog(
        (
            _table("orders", "o_order_sk", "o_shop_sk"),
            _table("shop", "s_shop_sk", "s_region_sk"),
            _table("region", "r_region_sk", "r_name"),
        ),
        dialect="sqlite",
    )
    assert _codes("List the orders of each shop", "SELECT o_order_sk FROM orders", guessed) == []
    assert _codes("List every region", "SELECT o_shop_sk FROM orders", guessed) == [
        "signal.table_mismatch"
    ]
