"""Periods written as ranges: the two ends read as one span."""

from __future__ import annotations

import datetime as dt

import pytest

from assay.semantic._periods import find_periods


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
