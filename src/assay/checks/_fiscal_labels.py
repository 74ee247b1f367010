"""A year said in a fiscal label, carried by the dates that fiscal period resolves to.

"net revenue in fiscal Q1 2024", with a fiscal year starting in July and named by the calendar
year it ends in, is July to September 2023: a right answer filters ``order_date >= '2023-07-01'
AND order_date < '2023-10-01'`` and never writes 2024. ``literal_missing`` reported "The
question names 2024, which no literal in the SQL carries" on that shown right answer (outside
tester, dist36). FY2024 and fiscal H1 2024 escaped it only by luck: their bounds
('2024-07-01', '2024-01-01') happen to contain the digits.

The fiscal period is read with the layer's fiscal start month (``find_periods``, the reader the
planner uses). Without a layer the fiscal calendar is unknown; the label is then carried when
the SQL's dates are the whole of that period under some start month, both its first day and
its end (a calendar year's dates beside "fiscal 2024" are one such reading, start month 1). A
year said anywhere outside a fiscal label ("fiscal Q1 2024 against calendar 2024") is not
carried by these dates and is still reported.
"""

from __future__ import annotations

import datetime as dt
import re

from assay.semantic import NO_CLOCK, Period, SemanticLayer, find_periods

__all__ = ["fiscal_label_carried"]

# The words that make a period a fiscal one ("fiscal Q1 2024", "FY2024", "Q1 of fiscal 2024")
_FISCAL = re.compile(r"\b(?:fiscal|fy)")


def fiscal_label_carried(
    value: float, question: str, strings: tuple[str, ...], layer: SemanticLayer | None
) -> bool:
    """Whether every place the question says ``value`` is inside a fiscal label whose period's
    first day and end are among the SQL's string literals ``strings``.

    Example:
        >>> q = "net revenue in fiscal Q1 2024"
        >>> fiscal_label_carried(2024.0, q, ("2023-07-01", "2023-10-01"), None)
        True
        >>> fiscal_label_carried(2024.0, q, ("2022-07-01", "2022-10-01"), None)
        False
    """
    if not value.is_integer():
        return False
    text = question.lower()
    said = [m.span() for m in re.finditer(rf"(?<![\w.]){int(value)}(?![\w]|\.\w)", text)]
    if not said:
        return False
    months = (layer.fiscal_year_start_month,) if layer is not None else tuple(range(1, 13))
    clock = (layer.clock if layer is not None else None) or NO_CLOCK
    for month in months:
        carried = [p.span for p in _fiscal_periods(question, clock, month) if _dated(p, strings)]
        if all(any(a <= lo and hi <= b for a, b in carried) for lo, hi in said):
            return True
    return False


def _fiscal_periods(question: str, clock: dt.date, month: int) -> list[Period]:
    return [p for p in find_periods(question, clock, month) if _FISCAL.search(p.text)]


def _dated(period: Period, strings: tuple[str, ...]) -> bool:
    """Whether the literals hold the period's first day and its end, exclusive ('2023-10-01')
    or inclusive ('2023-09-30', '2023-09-30 23:59:59')."""
    last = period.end - dt.timedelta(days=1)
    starts = any(s.startswith(period.start.isoformat()) for s in strings)
    ends = any(s.startswith((period.end.isoformat(), last.isoformat())) for s in strings)
    return starts and ends
