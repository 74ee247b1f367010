"""Periods written as ranges: the two ends read as one span."""

from __future__ import annotations

import datetime as dt

import pytest

from assay.semantic._periods import find_periods, parse_period


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        # found by the third blind held-out set (fresh3.insurance.014): read as comparing
        # February 2024 with April 2023 and shown
        ("premiums between Feb and Apr 2023", dt.date(2023, 2, 1), dt.date(2023, 5, 1)),
        ("revenue from Nov to Feb 2024", dt.date(2023, 11, 1), dt.date(2024, 3, 1)),
        ("revenue from March 2023 to May 2023", dt.date(2023, 3, 1), dt.date(2023, 6, 1)),
    ],
)
def test_a_yearless_month_opening_a_range_takes_the_year_of_its_end(
    question: str, start: dt.date, end: dt.date
) -> None:
    (period,) = find_periods(question, dt.date(2024, 11, 15))
    assert (period.start, period.end) == (start, end)


# The clock and fiscal year of the issue: fiscal years start in April, named by the year they
# end in (fiscal 2024 runs from 2023-04-01 to 2024-04-01).
_FISCAL_CLOCK = dt.date(2024, 11, 15)


@pytest.mark.parametrize(
    ("question", "start", "end", "label"),
    [
        # read as calendar H1 2024, though "fiscal H1 2024" is the label written for the
        # fiscal half: a user copying it back got another six months, silently
        ("net revenue in fiscal H1 2024", "2023-04-01", "2023-10-01", "fiscal H1 2024"),
        ("net revenue in fiscal H2 2024", "2023-10-01", "2024-04-01", "fiscal H2 2024"),
        (
            "net revenue in the fiscal second half of 2024",
            "2023-10-01",
            "2024-04-01",
            "fiscal H2 2024",
        ),
        # read as "Q1 2024 to fiscal year 2024" (2023-04-01..2024-04-01) or the whole year
        ("net revenue in Q1 of fiscal 2024", "2023-04-01", "2023-07-01", "fiscal Q1 2024"),
        ("net revenue in Q2 of fiscal year 2024", "2023-07-01", "2023-10-01", "fiscal Q2 2024"),
        ("net revenue in the first quarter of FY24", "2023-04-01", "2023-07-01", "fiscal Q1 2024"),
        (
            "net revenue in the third quarter of fiscal 2024",
            "2023-10-01",
            "2024-01-01",
            "fiscal Q3 2024",
        ),
        (
            "net revenue in the first fiscal quarter of 2024",
            "2023-04-01",
            "2023-07-01",
            "fiscal Q1 2024",
        ),
        ("net revenue in fiscal 2024 Q1", "2023-04-01", "2023-07-01", "fiscal Q1 2024"),
        # read right before; kept
        ("net revenue in Q3 of FY2024", "2023-10-01", "2024-01-01", "fiscal Q3 2024"),
        ("net revenue in H2 of fiscal 2024", "2023-10-01", "2024-04-01", "fiscal H2 2024"),
        (
            "net revenue in the second half of fiscal year 2024",
            "2023-10-01",
            "2024-04-01",
            "fiscal H2 2024",
        ),
        ("net revenue in H1 FY2024", "2023-04-01", "2023-10-01", "fiscal H1 2024"),
        ("net revenue in fiscal Q1 2024", "2023-04-01", "2023-07-01", "fiscal Q1 2024"),
        # no "fiscal": the calendar part, whatever the layer's fiscal year
        ("net revenue in H1 2024", "2024-01-01", "2024-07-01", "H1 2024"),
        ("net revenue in Q1 2024", "2024-01-01", "2024-04-01", "Q1 2024"),
        ("net revenue in the first half of 2024", "2024-01-01", "2024-07-01", "H1 2024"),
        ("net revenue in the first quarter of 2024", "2024-01-01", "2024-04-01", "Q1 2024"),
    ],
)
def test_a_part_of_a_fiscal_year_reads_the_fiscal_part(
    question: str, start: str, end: str, label: str
) -> None:
    period = parse_period(question, _FISCAL_CLOCK, 4)
    assert period is not None
    assert (str(period.start), str(period.end), period.label) == (start, end, label)
    # the label written back is read as the same period
    again = parse_period(f"net revenue in {period.label}", _FISCAL_CLOCK, 4)
    assert again is not None and (again.start, again.end) == (period.start, period.end)
