"""Written answers: years and dates are labels, month keys read 2024-01, and the list's own
"(and N more)" is never an uncited number."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from assay.answer import column_grain, format_label, format_value, write_answer, write_governed
from assay.checks import CheckContext, extract_numbers, numeric_cells, run_checks
from assay.types import Candidate, Result


def _uncited(text: str, result: Result, question: str = "q") -> list[str]:
    ctx = CheckContext(question, Candidate("SELECT 1", (), text, result), "duckdb")
    return [
        f.evidence["number"] for f in run_checks(ctx).findings if f.code == "cap.uncited_number"
    ]


def test_year_keys_are_not_formatted_as_numbers() -> None:
    result = Result(("year", "value"), ((2022, 1281859.81), (2023, Decimal("1530888.69"))), 2)
    text = write_governed(result, label="gross revenue", period="", group="year", definition="")
    assert text.text == "Gross revenue by year: 2022: 1,281,859.81; 2023: 1,530,888.69."
    assert "2,022" not in text.text and "2,023" not in text.text
    assert [c.text for c in text.citations] == ["2022", "1,281,859.81", "2023", "1,530,888.69"]
    assert _uncited(text.text, result) == []


def test_month_keys_read_year_dash_month() -> None:
    rows = tuple((dt.datetime(2024, m, 1), 100.0 * m) for m in range(1, 4))
    result = Result(("month", "value"), rows, 3)
    text = write_governed(result, label="revenue", period="2024", group="month", definition="")
    assert text.text == "Revenue by month in 2024: 2024-01: 100; 2024-02: 200; 2024-03: 300."
    assert "T00:00:00" not in text.text
    assert _uncited(text.text, result) == []


def test_explicit_grain_wins_over_the_group_name() -> None:
    rows = ((dt.date(2023, 1, 1), 5.5), (dt.date(2023, 4, 1), 6.5))
    result = Result(("period_start", "value"), rows, 2)
    text = write_governed(
        result, label="losses", period="", group="period_start", definition="", grain="quarter"
    )
    assert "2023-Q1: 5.50; 2023-Q2: 6.50" in text.text


def test_and_n_more_is_not_an_uncited_number() -> None:
    rows = tuple((dt.datetime(2023 + m // 12, m % 12 + 1, 1), 1000.0 + m) for m in range(36))
    result = Result(("month", "value"), rows, 36)
    text = write_governed(result, label="revenue", period="", group="month", definition="")
    assert text.text.endswith("(and 26 more).")
    assert _uncited(text.text, result) == []
    # The check still fires for a number no cell supports.
    assert _uncited(text.text.replace("1,000", "1,999"), result) == ["1,999"]


def test_year_label_from_a_truncated_date_is_cited() -> None:
    result = Result(("year", "n"), ((dt.date(2022, 1, 1), 17), (dt.date(2023, 1, 1), 19)), 2)
    text = write_governed(result, label="orders", period="", group="year", definition="")
    assert text.text == "Orders by year: 2022: 17; 2023: 19."
    assert _uncited(text.text, result) == []
    assert numeric_cells([(dt.date(2022, 1, 1),)]) == [2022.0]


@pytest.mark.parametrize(
    ("value", "grain", "label"),
    [
        (2023, None, "2023"),
        (12345, None, "12345"),
        (2023.0, None, "2023"),
        (dt.datetime(2024, 1, 1), "month", "2024-01"),
        (dt.datetime(2024, 1, 1), None, "2024-01-01"),
        (dt.datetime(2024, 1, 1, 13, 5), None, "2024-01-01 13:05:00"),
        (dt.date(2024, 11, 1), "quarter", "2024-Q4"),
        (dt.date(2024, 11, 1), "year", "2024"),
        (None, None, "no value"),
        ("DE", "month", "DE"),
    ],
)
def test_format_label(value: object, grain: str | None, label: str) -> None:
    assert format_label(value, grain) == label


def test_plain_writer_dates_and_months() -> None:
    assert format_value(dt.datetime(2024, 3, 1)) == "2024-03-01"
    months = Result(("m", "v"), ((dt.datetime(2024, 1, 1), 1), (dt.datetime(2024, 2, 1), 2)), 2)
    assert write_answer(months) == "The query returned 2 rows: 2024-01, 1; 2024-02, 2."
    assert column_grain([dt.date(2024, 1, 15), dt.date(2024, 2, 1)]) is None
    assert column_grain([dt.date(2024, 1, 1)]) is None  # one date: keep the day
    assert column_grain([dt.date(2022, 1, 1), dt.date(2023, 1, 1)]) == "year"


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("2024-01: 5,000; 2024-12: 7 (and 14 more).", ["5,000", "7"]),
        ("2024-Q3 was 12.5", ["12.5"]),
        ("and 14 more people", ["14"]),  # only the list tail is exempt
        ("2024-13 is not a month", ["2024", "13"]),
    ],
)
def test_extract_numbers_skips_labels_and_list_tail(text: str, numbers: list[str]) -> None:
    assert [n.text for n in extract_numbers(text)] == numbers


def test_a_bucket_the_period_covers_in_part_says_which_days() -> None:
    """ "costs by month for the last 3 months" read on 2024-11-07: August holds Aug 7-31 and
    November Nov 1-7; neither is written as the whole month, September is."""
    result = Result(
        ("month", "value"),
        (
            (dt.datetime(2024, 8, 1), 38086.04),
            (dt.datetime(2024, 9, 1), 46370.39),
            (dt.datetime(2024, 11, 1), 8445.42),
        ),
        3,
    )
    window = (dt.date(2024, 8, 7), dt.date(2024, 11, 8))
    text = write_governed(
        result,
        label="cogs",
        period="the past 3 months",
        group="month",
        definition="",
        grain="month",
        window=window,
    ).text
    assert "2024-08 (from 2024-08-07): 38,086.04" in text
    assert "2024-09: 46,370.39" in text
    assert "2024-11 (to 2024-11-07): 8,445.42" in text
    assert _uncited(text, result) == []
    whole = write_governed(
        result,
        label="cogs",
        period="",
        group="month",
        definition="",
        grain="month",
        window=(dt.date(2024, 8, 1), dt.date(2024, 12, 1)),
    ).text
    assert "(from" not in whole and "(to" not in whole


def test_a_ranking_apart_in_each_period_counts_ties_in_each() -> None:
    rows = ((2023, "US", 9.0), (2022, "US", 8.0), (2023, "DE", 7.0), (2022, "DE", 6.0))
    result = Result(("year", "country", "value"), rows, 4)
    common: dict[str, Any] = {"label": "revenue", "period": "2023 and 2022", "group": "country"}
    apart = write_governed(result, definition="", top_n=2, ranked_apart=True, **common)
    assert "tie" not in apart.text
    assert apart.text.startswith("Top 2 country by revenue in each of 2023 and 2022: ")
    pooled = write_governed(result, definition="", top_n=2, **common)
    assert "(4 rows: a tie for 4th)" in pooled.text  # read as one ranking: a (false) tie
    tied = Result(result.columns, (*rows[:2], (2023, "FR", 7.0), *rows[2:]), 5)
    text = write_governed(tied, definition="", top_n=2, ranked_apart=True, **common).text
    assert "(2023: 3 rows, a tie for 2nd)" in text


def test_a_null_value_is_said_as_not_recorded_never_as_no_value() -> None:
    """F9 (outside tryout 39): "Total sales by state this year" read "TN: 94,454.87; (no
    store): no value." -- the words a NULL group label had before, for a sum of no recorded
    amount. A NULL value now says that nothing was recorded; a NULL key stays its group."""
    result = Result(("s_state", "value"), (("TN", 94454.87), (None, None)), 2)
    text = write_governed(
        result, label="total sales", period="2003", group="s state", definition=""
    ).text
    assert "TN: 94,454.87" in text and "(s state unknown): not recorded" in text, text
    assert "no value" not in text, text
    total = write_governed(
        Result(("value",), ((None,),), 1),
        label="total sales",
        period="2003",
        group=None,
        definition="",
    ).text
    assert total == "Total sales in 2003 was not recorded.", total


def test_a_verified_querys_numbers_are_written_as_quantities() -> None:
    """fix41a: a verified query's floats were written raw ("660128.8400000001")."""
    from assay.answer import write_answer
    from assay.types import Result

    rows = (("east", 660128.8400000001, 0.0516034), ("west", 12.5, 0.0515855))
    result = Result(("region", "cost", "rate"), rows, 2)
    assert write_answer(result) == (
        "The query returned 2 rows: east, 660128.8400000001, 0.0516034; west, 12.5, 0.0515855."
    )
    assert write_answer(result, as_quantities=True) == (
        "The query returned 2 rows: east, 660,128.84, 0.05160; west, 12.50, 0.05159."
    )
