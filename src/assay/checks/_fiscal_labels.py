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

A fiscal period may be held by columns instead ("fiscal Q1 2024" as ``fiscal_year = 'FY24' AND
fiscal_quarter = 'Q1'``): a column whose name says fiscal (or FY) carries the year ('FY24',
'FY2024', 24, 2024) and the quarter or half ('Q1', 1 on a quarter's column, 'FY24-Q1'). Such
columns carrying another year or part, or no part where one is asked, do not carry the period:
``fiscal_labels_missed`` names it, as it names a period whose dates, under the layer's fiscal
calendar, are the whole of another period of the same length ("fiscal Q2 2024" with October's
calendar as fiscal Q1's '2023-10-01' to '2024-01-01', which writes 2024 all the same; outside
tryout 38: both shown).
"""

from __future__ import annotations

import datetime as dt
import re

from sqlglot import exp

from assay.semantic import NO_CLOCK, Period, SemanticLayer, find_periods

__all__ = ["fiscal_label_carried", "fiscal_labels_missed"]

# The words that make a period a fiscal one ("fiscal Q1 2024", "FY2024", "Q1 of fiscal 2024")
_FISCAL = re.compile(r"\b(?:fiscal|fy)")


def fiscal_label_carried(
    value: float,
    question: str,
    strings: tuple[str, ...],
    layer: SemanticLayer | None,
    tree: exp.Expr | None = None,
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
    judged = [] if tree is None else [span for span, _ in _judged(question, tree, strings, layer)]
    for month in months:
        carried = [p.span for p in _fiscal_periods(question, clock, month) if _dated(p, strings)]
        carried += judged  # carried by fiscal columns, or named by ``fiscal_labels_missed``
        if all(any(a <= lo and hi <= b for a, b in carried) for lo, hi in said):
            return True
    return False


def fiscal_labels_missed(
    question: str, tree: exp.Expr, strings: tuple[str, ...], layer: SemanticLayer | None
) -> list[str]:
    """The fiscal periods the question names that the SQL's fiscal columns, or its dates of
    another period, do not carry, each with what the SQL holds instead (module docstring).

    Example:
        >>> from sqlglot import parse_one
        >>> sql = parse_one("SELECT 1 FROM t WHERE fiscal_year = 2024 AND fiscal_quarter = 2")
        >>> fiscal_labels_missed("revenue in fiscal Q1 2024", sql, (), None)
        ['fiscal Q1 2024 (the SQL compares fiscal_year = 2024, fiscal_quarter = 2)']
    """
    return [message for _, message in _judged(question, tree, strings, layer) if message]


# A fiscal column's name: "fiscal_year", "FiscalQuarter", "fy", "fy_qtr"
_FISCAL_COLUMN = re.compile(r"fiscal|^fy(?![a-z])|_fy(?![a-z])")
_LABEL = re.compile(r"(?:(?P<part>[QH][1-4]) )?(?P<y>\d{4})$")


def _judged(
    question: str, tree: exp.Expr, strings: tuple[str, ...], layer: SemanticLayer | None
) -> list[tuple[tuple[int, int], str | None]]:
    """Each fiscal period said whose carrying the SQL settles: its span, and None when fiscal
    columns carry it, or what the SQL holds instead; periods left to the dates are left out."""
    month = layer.fiscal_year_start_month if layer is not None else 1
    clock = (layer.clock if layer is not None else None) or NO_CLOCK
    compared = _fiscal_compared(tree)
    found: list[tuple[tuple[int, int], str | None]] = []
    for period in _fiscal_periods(question, clock, month):
        label = _LABEL.search(period.label)
        if label is None:
            continue
        if any(_dated(period, strings) for period in _periods_of(period, question, clock, layer)):
            found.append((period.span, None))  # its dates carry it, whatever columns say
        elif compared:
            year, part = int(label["y"]), (label["part"] or "").lower() or None
            years = {y for _, ys, _ in compared for y in ys}
            parts = {p for _, _, ps in compared for p in ps}
            carried = year in years and (part is None or part in parts)
            sql = ", ".join(node.sql() for node, _, _ in compared)
            missed = None if carried else f"{period.label} (the SQL compares {sql})"
            found.append((period.span, missed))
        elif layer is not None and not _dated(period, strings):
            other = _shifted(period, strings)
            if other is not None:
                last = period.end - dt.timedelta(days=1)
                found.append(
                    (
                        period.span,
                        f"{period.label} ({period.start} to {last} in this warehouse's fiscal "
                        f"calendar, whose year starts in month {month}; the SQL's dates bound "
                        f"{other[0]} to {other[1]}, another fiscal period)",
                    )
                )
    return found


def _periods_of(
    period: Period, question: str, clock: dt.date, layer: SemanticLayer | None
) -> list[Period]:
    """The period under the layer's fiscal calendar, or under each start month without one."""
    if layer is not None:
        return [period]
    return [
        p
        for month in range(1, 13)
        for p in _fiscal_periods(question, clock, month)
        if p.span == period.span
    ]


def _fiscal_compared(tree: exp.Expr) -> list[tuple[exp.Expr, set[int], set[str]]]:
    """Each comparison of a fiscal column with literals (``=``, ``IN``), with the years and the
    parts ('q1', 'h2') its values say."""
    found: list[tuple[exp.Expr, set[int], set[str]]] = []
    for node in tree.find_all(exp.EQ, exp.In):
        if isinstance(node, exp.In):
            column, values = node.this, list(node.expressions)
        elif isinstance(node.this, exp.Column):
            column, values = node.this, [node.expression]
        else:  # '2024' = fiscal_year
            column, values = node.expression, [node.this]
        if not isinstance(column, exp.Column) or not _FISCAL_COLUMN.search(column.name.lower()):
            continue
        literals = [v for v in values if isinstance(v, exp.Literal)]
        if not literals:
            continue
        years: set[int] = set()
        parts: set[str] = set()
        if "month" in column.name.lower():  # fiscal months 1 to 3 are its first quarter
            found.append((node, years, _months_parts(literals)))
            continue
        for literal in literals:
            said = _said(column.name.lower(), literal.name.strip().lower())
            years |= said[0]
            parts |= said[1]
        found.append((node, years, parts))
    return found


def _months_parts(literals: list[exp.Literal]) -> set[str]:
    """The quarters and halves whose every fiscal month the literals hold."""
    months = {int(v.name) for v in literals if v.name.strip().isdigit()}
    quarters = {f"q{q}" for q in range(1, 5) if set(range(3 * q - 2, 3 * q + 1)) <= months}
    return quarters | {f"h{h}" for h in (1, 2) if set(range(6 * h - 5, 6 * h + 1)) <= months}


def _said(name: str, value: str) -> tuple[set[int], set[str]]:
    """The years and parts one value of a fiscal column says: a number by what the column
    holds (a quarter, a half, else a year: 24 is 2024), a text by its own words."""
    if re.fullmatch(r"\d+(?:\.0*)?", value):
        number = int(float(value))
        if "quarter" in name or "qtr" in name:
            return set(), {f"q{number}"}
        if "half" in name:
            return set(), {f"h{number}"}
        if "year" in name or "yr" in name or re.fullmatch(r"(?:\w+_)?fy", name):
            return {number if number >= 1000 else 2000 + number}, set()
        return set(), set()  # a fiscal month or week: no year, no part
    years = {int(y) for y in re.findall(r"(?<!\d)((?:19|20)\d\d)(?!\d)", value)}
    years |= {2000 + int(y) for y in re.findall(r"(?:fy|fiscal)\s*'?(\d\d)(?!\d)", value)}
    parts = {f"{k}{n}" for k, n in re.findall(r"(?<![a-z])([qh])\s*([1-4])(?!\d)", value)}
    return years, parts


def _shifted(period: Period, strings: tuple[str, ...]) -> tuple[dt.date, dt.date] | None:
    """The first and last day of another period of the same months, up to two years either
    side, whose first day and end the SQL's literals hold."""
    months = (period.end.year - period.start.year) * 12 + period.end.month - period.start.month
    if period.start.day != 1 or period.end.day != 1 or months not in (3, 6, 12):
        return None
    for step in sorted(range(-24 // months, 24 // months + 1), key=abs):
        if step == 0:
            continue
        start = _months_later(period.start, step * months)
        end = _months_later(period.end, step * months)
        other = Period(start, end, "", "")
        if _dated(other, strings):
            return start, end - dt.timedelta(days=1)
    return None


def _months_later(day: dt.date, months: int) -> dt.date:
    index = day.year * 12 + day.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, day.day)


def _fiscal_periods(question: str, clock: dt.date, month: int) -> list[Period]:
    return [p for p in find_periods(question, clock, month) if _FISCAL.search(p.text)]


def _dated(period: Period, strings: tuple[str, ...]) -> bool:
    """Whether the literals hold the period's first day and its end, exclusive ('2023-10-01')
    or inclusive ('2023-09-30', '2023-09-30 23:59:59')."""
    last = period.end - dt.timedelta(days=1)
    starts = any(s.startswith(period.start.isoformat()) for s in strings)
    ends = any(s.startswith((period.end.isoformat(), last.isoformat())) for s in strings)
    return starts and ends
