"""A ranking over a time grain that ranks a bucket the data covers only in part, or the rows
with no date, against whole buckets.

"Which year had the fewest orders?" on TPC-H, whose orders stop on 1998-08-02, named 1998
(7 months, 1,346 orders) beside whole years of about 2,300; "Which month had the fewest
orders?" named August 1998 (2 days, 12 orders); "Which year had the fewest catalog sales?"
named "no value: 81", the sales with no date, as if they were a year; each was shown at 1.00
(outside tryout 39, F1b/F1c). A bucket cut by the metric's own data span (its coverage, else
the layer's, else up to the layer's clock) or by the one period asked holds fewer days than
the others, and the undated rows are no period at all: neither is comparable with a whole
bucket. ``cap.partial_ranking`` names each such bucket among the rows ranked, with the days
it holds, and the answer is shown with a warning at most (as ``cap.partial_comparison`` does
for compared periods). A bucket no row ranks is not named: leaving it out of the ranking would
not change the rows shown.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from assay.checks._context import CheckContext, CheckOutcome
from assay.types import Finding

__all__ = ["bucket_span", "partial_ranking", "whole_buckets"]

_MONTHS = {"month": 1, "quarter": 3, "year": 12}


def bucket_span(value: Any, grain: str) -> tuple[dt.date, dt.date] | None:
    """The first and last day of the ``grain`` bucket a key cell names (a year as a number,
    a month or quarter as its first day, a date written as text by SQLite); ``None`` where the
    cell names no bucket this reads.

    Example:
        >>> bucket_span(1998, "year")
        (datetime.date(1998, 1, 1), datetime.date(1998, 12, 31))
        >>> bucket_span("1998-08-01", "month")
        (datetime.date(1998, 8, 1), datetime.date(1998, 8, 31))
    """
    months = _MONTHS.get(grain)
    if months is None:
        return None
    start: dt.date
    if grain == "year" and isinstance(value, int) and not isinstance(value, bool):
        start = dt.date(value, 1, 1)
    elif isinstance(value, dt.datetime):
        start = value.date()
    elif isinstance(value, dt.date):
        start = value
    elif isinstance(value, str):
        try:
            start = (
                dt.date(int(value), 1, 1)
                if grain == "year" and value.isdigit()
                else dt.date.fromisoformat(value[:10])
            )
        except ValueError:
            return None
    else:
        return None
    total = start.year * 12 + start.month - 1 + months
    return start, dt.date(total // 12, total % 12 + 1, 1) - dt.timedelta(days=1)


def _span(ctx: CheckContext) -> tuple[dt.date | None, dt.date | None]:
    """The days the ranked metric's own rows cover (its coverage, else the layer's, else up to
    the clock), narrowed to the one period asked."""
    first: dt.date | None = None
    last: dt.date | None = None
    if ctx.metric is not None and ctx.metric.coverage is not None:
        first, last = ctx.metric.coverage
    elif ctx.coverage is not None:
        first, last = ctx.coverage
    elif ctx.layer is not None:
        last = ctx.layer.clock
    if len(ctx.periods) <= 1 and ctx.period is not None:
        first = max(first, ctx.period.start) if first else ctx.period.start
        end = ctx.period.end - dt.timedelta(days=1)
        last = min(last, end) if last else end
    return first, last


def _cut(value: Any, grain: str, first: dt.date | None, last: dt.date | None) -> str:
    """How a ranked bucket is not whole ("1998 holds only 1998-01-01 to 1998-08-02"), or
    ``""`` where it is (or cannot be read as a bucket: said by no one, never guessed)."""
    if value is None:
        return f"the rows with no date are ranked as a {grain} of their own"
    span = bucket_span(value, grain)
    if span is None:
        return ""
    start, end = span
    low = max(start, first) if first is not None else start
    high = min(end, last) if last is not None else end
    if (low, high) == (start, end):
        return ""
    label = _said(start, grain)  # "Q4 2024", never its first month "2024-10" (N3)
    if low > high:
        return f"{label} holds no day of the data"
    return f"{label} holds only {low} to {high} of its days"


def _said(start: dt.date, grain: str) -> str:
    """A bucket as a question says it: ``1992``, ``Q3 1992``, ``November 1992``."""
    if grain == "year":
        return str(start.year)
    if grain == "quarter":
        return f"Q{(start.month - 1) // 3 + 1} {start.year}"
    return f"{start:%B %Y}"


def whole_buckets(first: dt.date | None, last: dt.date | None, grain: str) -> str:
    """The whole ``grain`` buckets between ``first`` and ``last`` as a period a question can
    ask for ("between 1992 and 1997"), or ``""`` where there are none (or no span is known).

    Example:
        >>> whole_buckets(dt.date(1992, 1, 1), dt.date(1998, 8, 2), "year")
        'between 1992 and 1997'
        >>> whole_buckets(dt.date(2022, 11, 9), dt.date(2024, 11, 7), "month")
        'between December 2022 and October 2024'
    """
    if first is None or last is None:
        return ""
    start = _start(first, grain)
    if start < first:  # the first bucket is cut: the next one is the first whole
        start = _end(start, grain) + dt.timedelta(days=1)
    final = _start(last, grain)
    if _end(final, grain) > last:  # the last bucket is cut: the one before is the last whole
        final = _start(final - dt.timedelta(days=1), grain)
    if final < start:
        return ""
    if final == start:
        return f"in {_said(start, grain)}"
    return f"between {_said(start, grain)} and {_said(final, grain)}"


def _start(day: dt.date, grain: str) -> dt.date:
    return dt.date(day.year, day.month - (day.month - 1) % _MONTHS[grain], 1)


def _end(start: dt.date, grain: str) -> dt.date:
    span = bucket_span(start, grain)
    assert span is not None  # a date of a month, quarter or year grain is always read
    return span[1]


def partial_ranking(ctx: CheckContext) -> CheckOutcome:
    """``cap.partial_ranking``: a ranking over a time grain that ranks a partial bucket or the
    undated rows against whole buckets (see the module docstring)."""
    reading, result = ctx.reading, ctx.candidate.result
    grain = reading.grain if reading is not None else None
    if reading is None or reading.ranking is None or result is None or grain not in _MONTHS:
        return CheckOutcome()
    if len(ctx.periods) > 1 or grain not in result.columns:
        return CheckOutcome()  # compared periods are ranked apart, and cut ones said apart
    column = list(result.columns).index(grain)
    first, last = _span(ctx)
    cut = [said for row in result.rows if (said := _cut(row[column], grain, first, last))]
    if not cut:
        return CheckOutcome()
    said = "; ".join(dict.fromkeys(cut))
    whole = whole_buckets(first, last, grain)
    ask = (
        f'ask for the whole {grain}s only ("{whole}")'
        if whole
        else f"ask for a period the data covers in whole {grain}s"
    )
    return CheckOutcome(
        (
            Finding(
                "cap.partial_ranking",
                "cap",
                f"The ranking is not of whole {grain}s: {said}, ranked against whole {grain}s. "
                f"A part of a {grain}, or rows with no date, is not comparable with a whole "
                f"one; {ask} before reading the ranking.",
                {"cut": cut, "grain": grain, "whole": whole},
            ),
        )
    )
