"""An inclusive end date, carried by the next day's exclusive bound.

"Revenue from 2022-03-07 to 2022-03-31" as ``ds >= '2022-03-07' AND ds < '2022-04-01'`` keeps
every day of the range, yet no literal writes 31 (outside tryout 37: the right answer was shown
with ``literal_missing``, "names '2022-03-31'"). A date said as a range's end ("to", "through",
"until", "and", a dash) is carried by a strict upper bound on its next day; a month said as
the end ("to 2022-03") by one on the first of the next month. A year is ``_year_ended``'s.
"""

from __future__ import annotations

import datetime as dt
import re

from sqlglot import exp

__all__ = ["end_date_carried"]

_MONTHS = (
    "january february march april may june july august september october november december"
).split()
_MONTH = r"(?P<name>" + "|".join(m[:3] + rf"(?:{m[3:]})?" for m in _MONTHS) + r")\.?"
# 2022-03-31 · 2022/03/31 · 2022-03 · March 31, 2022 · 31 March 2022
_DATES = re.compile(
    r"\b(?P<y>\d{4})[-/](?P<m>\d{1,2})(?:[-/](?P<d>\d{1,2}))?\b"
    rf"|\b{_MONTH}\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y2>\d{{4}})\b"
    rf"|\b(?P<d3>\d{{1,2}})(?:st|nd|rd|th)?\s+{_MONTH.replace('name', 'name3')}"
    r"\s+(?P<y3>\d{4})\b",
    re.IGNORECASE,
)
# Words that make the date after them the last day of a range, that day included.
_END_WORD = re.compile(r"(?:\b(?:to|through|thru|until|till|and)|[-\u2013\u2014])\s*$", re.I)


def end_date_carried(value: float, question: str, tree: exp.Expr) -> bool:
    """Whether ``value`` is a part of a date (or month) the question says as a range's end,
    and the SQL bounds that range strictly below the next day (or month's first day).

    Example:
        >>> from sqlglot import parse_one
        >>> sql = parse_one("SELECT 1 FROM t WHERE d >= '2022-03-07' AND d < '2022-04-01'")
        >>> q = "revenue from 2022-03-07 to 2022-03-31"
        >>> end_date_carried(31.0, q, sql), end_date_carried(31.0, "revenue on 2022-03-31", sql)
        (True, False)
        >>> end_date_carried(31.0, "sales from March 1 through March 31, 2022", sql)
        True
    """
    for match in _DATES.finditer(question):
        if not _END_WORD.search(question[: match.start()]):
            continue
        parts = _parts(match)
        if parts is None or value not in parts[0]:
            continue
        if _bounded_below(tree, parts[1].isoformat()):
            return True
    return _day_end_carried(value, question, tree)


# "March 3 to March 9" (no year), "March 3-9 2024", "Mar 3 through 9": the day that ends a range
# of days of a month, the month said before it
_SEPT = _MONTH.replace("sep(?:tember)?", "sep(?:t|tember)?")  # "Sept 12" too
_DAY_END = re.compile(
    rf"\b{_SEPT}\s+(?:\d{{1,2}}(?:st|nd|rd|th)?\s*(?:-|\u2013|to|through|thru|until|till)\s*)?"
    r"(?P<d>\d{1,2})(?:st|nd|rd|th)?\b(?!\s*[-/:])",
    re.IGNORECASE,
)


def _day_end_carried(value: float, question: str, tree: exp.Expr) -> bool:
    """Whether ``value`` is the day that ends a range of days said with its month ("from March
    3 to March 9", "March 3-9 2024") and the SQL bounds the range strictly below the next day
    of that month in some year (``< '2024-03-10'``; outside recheck 40b, "the question names
    9" noted on a right answer).

    Example:
        >>> from sqlglot import parse_one
        >>> sql = parse_one("SELECT 1 FROM t WHERE d >= '2024-03-03' AND d < '2024-03-10'")
        >>> _day_end_carried(9.0, "orders from March 3 to March 9", sql)
        True
        >>> _day_end_carried(9.0, "orders on March 9", sql), _day_end_carried(8.0, "March 3-8", sql)
        (False, False)
    """
    for match in _DAY_END.finditer(question):
        if float(match["d"]) != value:
            continue
        whole = match.group(0)
        if not (_END_WORD.search(question[: match.start()]) or re.search(r"\d\s*\S+\s*\d", whole)):
            continue  # "on March 9": one day said, not a range's end
        month = [m[:3] for m in _MONTHS].index(match["name"].lower()[:3]) + 1
        for year in (2023, 2024):  # a leap year and another: February's last day either way
            try:
                after = dt.date(year, month, int(match["d"])) + dt.timedelta(days=1)
            except ValueError:
                continue
            if _bounded_below_any_year(tree, after.strftime("-%m-%d")):
                return True
    return False


def _bounded_below_any_year(tree: exp.Expr, month_day: str) -> bool:
    """Whether some comparison keeps values strictly below a date literal of any year ending
    in ``month_day`` ("-03-10")."""
    pattern = re.compile(rf"^\d{{4}}{re.escape(month_day)}\b")

    def is_end(node: exp.Expr) -> bool:
        while isinstance(node, (exp.Cast, exp.TryCast, exp.Paren)):
            node = node.this
        return isinstance(node, exp.Literal) and node.is_string and bool(pattern.match(node.this))

    return any(is_end(c.expression) for c in tree.find_all(exp.LT)) or any(
        is_end(c.this) for c in tree.find_all(exp.GT)
    )


def _parts(match: re.Match[str]) -> tuple[frozenset[float], dt.date] | None:
    """The numbers a matched date is written with, and the day after it (after a month: the
    first of the next month); None for no real date."""
    groups = match.groupdict()
    year = groups["y"] or groups["y2"] or groups["y3"]
    name = (groups["name"] or groups["name3"] or "").lower()[:3]
    month = int(groups["m"]) if groups["m"] else [m[:3] for m in _MONTHS].index(name) + 1
    day = groups["d"] or groups["d2"] or groups["d3"]
    try:
        if day is None:
            first = dt.date(int(year), month, 1)
            after = dt.date(first.year + first.month // 12, first.month % 12 + 1, 1)
        else:
            after = dt.date(int(year), month, int(day)) + dt.timedelta(days=1)
    except ValueError:
        return None
    said = {float(year), float(month)} | ({float(day)} if day else set())
    return frozenset(said), after


def _bounded_below(tree: exp.Expr, end: str) -> bool:
    """Whether some comparison keeps values strictly below the literal ``end``."""

    def is_end(node: exp.Expr) -> bool:
        while isinstance(node, (exp.Cast, exp.TryCast, exp.Paren)):
            node = node.this
        return isinstance(node, exp.Literal) and node.is_string and node.this.startswith(end)

    return any(is_end(c.expression) for c in tree.find_all(exp.LT)) or any(
        is_end(c.this) for c in tree.find_all(exp.GT)
    )
