"""Reading a period out of a question, against the warehouse's own clock.

Years (``2023``, ``2022 and 2023``), quarters (``Q2 2023``), months (``March 2024``), fiscal
years (``FY2024``, named by the calendar year they end in), and relative periods (``last year``,
``this quarter``, ``last month``, ``year to date``, ``next year``) read against the clock.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

__all__ = ["Period", "parse_period"]

MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4}


@dataclass(frozen=True)
class Period:
    """``[start, end)`` with the words it was read from."""

    start: dt.date
    end: dt.date
    label: str
    text: str

    def overlaps(self, start: dt.date, end_inclusive: dt.date) -> bool:
        return self.start <= end_inclusive and self.end > start


def _quarter(q: int, year: int) -> tuple[dt.date, dt.date]:
    start = dt.date(year, 3 * q - 2, 1)
    end = dt.date(year + 1, 1, 1) if q == 4 else dt.date(year, 3 * q + 1, 1)
    return start, end


def _month(m: int, year: int) -> tuple[dt.date, dt.date]:
    end = dt.date(year + 1, 1, 1) if m == 12 else dt.date(year, m + 1, 1)
    return dt.date(year, m, 1), end


def _relative(text: str, clock: dt.date) -> Period | None:
    q_now = (clock.month - 1) // 3 + 1
    rules: list[tuple[str, tuple[dt.date, dt.date], str]] = [
        (
            r"\b(last|previous|prior) year\b",
            (dt.date(clock.year - 1, 1, 1), dt.date(clock.year, 1, 1)),
            str(clock.year - 1),
        ),
        (
            r"\b(this|current) year\b|\byear to date\b|\bytd\b",
            (dt.date(clock.year, 1, 1), clock + dt.timedelta(days=1)),
            f"{clock.year} to date",
        ),
        (
            r"\bnext year\b",
            (dt.date(clock.year + 1, 1, 1), dt.date(clock.year + 2, 1, 1)),
            str(clock.year + 1),
        ),
        (
            r"\b(last|previous|prior) quarter\b",
            _quarter(q_now - 1 or 4, clock.year if q_now > 1 else clock.year - 1),
            f"Q{q_now - 1 or 4} {clock.year if q_now > 1 else clock.year - 1}",
        ),
        (
            r"\b(this|current) quarter\b",
            (_quarter(q_now, clock.year)[0], clock + dt.timedelta(days=1)),
            f"Q{q_now} {clock.year} to date",
        ),
        (
            r"\b(last|previous|prior) month\b",
            _month(clock.month - 1 or 12, clock.year if clock.month > 1 else clock.year - 1),
            "last month",
        ),
    ]
    for pattern, (start, end), label in rules:
        match = re.search(pattern, text)
        if match:
            return Period(start, end, label, match.group(0))
    return None


def parse_period(question: str, clock: dt.date, fiscal_start_month: int = 1) -> Period | None:
    """The period a question asks about, or ``None`` when it names none.

    Example:
        >>> parse_period("revenue in Q2 2023?", dt.date(2024, 11, 15)).label
        'Q2 2023'
        >>> parse_period("orders last quarter", dt.date(2024, 11, 15)).start
        datetime.date(2024, 7, 1)
    """
    text = question.lower()
    match = re.search(r"\bq([1-4])\s*(\d{4})\b", text) or re.search(
        r"\b(first|second|third|fourth) quarter of (\d{4})\b", text
    )
    if match:
        q = _ORDINALS.get(match.group(1)) or int(match.group(1))
        start, end = _quarter(q, int(match.group(2)))
        return Period(start, end, f"Q{q} {match.group(2)}", match.group(0))
    match = re.search(r"\b(" + "|".join(MONTHS) + r")\s+(\d{4})\b", text)
    if match:
        start, end = _month(MONTHS.index(match.group(1)) + 1, int(match.group(2)))
        return Period(start, end, f"{match.group(1).title()} {match.group(2)}", match.group(0))
    match = re.search(r"\b(?:fy|fiscal year)\s*(\d{4})\b", text)
    if match:
        year = int(match.group(1))
        start = dt.date(year - (1 if fiscal_start_month > 1 else 0), fiscal_start_month, 1)
        end = dt.date(start.year + 1, fiscal_start_month, 1)
        return Period(start, end, f"fiscal year {year}", match.group(0))
    relative = _relative(text, clock)
    if relative is not None:
        return relative
    years = [int(y) for y in re.findall(r"\b(19\d{2}|20\d{2})\b", text)]
    if len(years) >= 2:
        lo, hi = min(years), max(years)
        span = re.search(rf"\b{lo}\b.*\b{hi}\b|\b{hi}\b.*\b{lo}\b", text)
        return Period(
            dt.date(lo, 1, 1),
            dt.date(hi + 1, 1, 1),
            f"{lo} to {hi}",
            span.group(0) if span else str(lo),
        )
    if years:
        return Period(
            dt.date(years[0], 1, 1), dt.date(years[0] + 1, 1, 1), str(years[0]), str(years[0])
        )
    return None
