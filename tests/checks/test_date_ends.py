"""An inclusive end date is carried by the next day's exclusive bound (outside tryout 37:
"revenue from 2022-03-07 to 2022-03-31" as ``ds < '2022-04-01'``, right, was shown with
``literal_missing`` naming '2022-03-31')."""

from __future__ import annotations

import pytest

from assay.checks import QUESTION_CHECKS, CheckContext
from assay.types import Candidate

MISSING = "signal.literal_missing"


def _fired(question: str, sql: str) -> set[str]:
    ctx = CheckContext(question, Candidate(sql), "duckdb")
    return {f.code for check in QUESTION_CHECKS for f in check(ctx).findings}


def _range(start: str, end: str) -> str:
    return (
        f"SELECT SUM(amount) FROM transactions WHERE ds >= CAST('{start}' AS DATE) "
        f"AND ds < CAST('{end}' AS DATE)"
    )


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        ("revenue from 2022-03-07 to 2022-03-31", _range("2022-03-07", "2022-04-01")),
        ("revenue between 2022-03-07 and 2022-03-31", _range("2022-03-07", "2022-04-01")),
        ("sales from March 7, 2022 through March 31, 2022", _range("2022-03-07", "2022-04-01")),
        ("revenue from 2021-12-01 until 2021-12-31", _range("2021-12-01", "2022-01-01")),
        ("revenue from 2022-01 to 2022-03", _range("2022-01-01", "2022-04-01")),
    ],
    ids=["iso-to", "iso-between", "month-names", "year-end", "month-end"],
)
def test_an_inclusive_end_carried_by_the_next_day_is_no_missing_literal(
    question: str, sql: str
) -> None:
    assert MISSING not in _fired(question, sql)


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        # a day too many: the 31st is kept though the range ends on the 30th
        ("revenue from 2022-03-07 to 2022-03-30", _range("2022-03-07", "2022-04-01")),
        # said as a single day, not an end: a bound below its next day is no carrier
        ("revenue on 2022-03-31", "SELECT SUM(amount) FROM transactions WHERE ds < '2022-04-01'"),
        # "before" excludes the day: the next day's bound is a day too late
        ("revenue before 2022-03-31", _range("2022-03-01", "2022-04-01")),
    ],
    ids=["day-too-many", "single-day", "before"],
)
def test_a_date_not_carried_is_still_missing(question: str, sql: str) -> None:
    assert MISSING in _fired(question, sql)


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        ("visits from Sept 12 to Sept 18", _range("2023-09-12", "2023-09-19")),
        ("visits Sep 12-18 2023", _range("2023-09-12", "2023-09-19")),
        ("number of orders from March 3 to March 9", _range("2024-03-03", "2024-03-10")),
    ],
    ids=["yearless-to", "dash-with-year", "recheck-40b"],
)
def test_the_last_day_of_a_range_of_days_in_a_month_is_carried(question: str, sql: str) -> None:
    """ "from March 3 to March 9" as ``< '2024-03-10'`` (right) was noted as missing 9."""
    assert MISSING not in _fired(question, sql)


@pytest.mark.parametrize(
    ("question", "sql"),
    [
        ("visits from Sept 12 to Sept 18", _range("2023-09-12", "2023-09-20")),
        ("visits on Sept 18", "SELECT SUM(amount) FROM transactions WHERE ds < '2023-09-19'"),
    ],
    ids=["a-day-too-many", "single-day"],
)
def test_a_day_of_a_month_not_ending_a_range_is_still_missing(question: str, sql: str) -> None:
    assert MISSING in _fired(question, sql)
