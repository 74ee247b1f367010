"""``period_shift``: a follow-up that moves the conversation's one period by a year, a quarter
or a month ("a year earlier", "the year after", "the quarter before", "the following month",
"last year", "next quarter"), as the period it names.

The rule: the period moved is the previous question's, never the clock's. A part of one
calendar year said with its year (a quarter, a month, a half) moved by years is the same part of
the other year, like for like ("a year earlier" after Q1 2024: Q1 2023); a whole year is the
year before or after it; a quarter (month) moved by quarters (months) is the one before or after
it; a window counted back from the clock ("the past 90 days") moved by years is the same days a
year before. "last" and "next" also name a period by the clock (the last full year of the
data's calendar): where that one and the conversation's differ it is asked back, both offered
as choices, except a part of a year moved by "last year", which is like for like as "vs last
year" is (docs/api.md). A unit the previous period is not made of ("the previous quarter" after
a whole year, "a year earlier" after "since March 2024") is asked back, never read by the clock
("last month" after a whole year, with no month of the conversation to move, is the clock's).

Outside re-checks of tryout 39: "the year before" after 1996 was the clock's 1997 (N1), "the
previous quarter" after Q1 2024 the clock's Q3 2024 (W1), "what about last year?" after "the
last 90 days" the whole of the clock's last year (F7), and "a year earlier" / "the year after" /
"the quarter after" after a quarter or a month were asked back as words not understood.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass

from assay.semantic._periods import Period

__all__ = ["Shift", "period_shift", "written"]

_MONTHS = (
    "January February March April May June July August September October November December"
).split()
# Words after the unit that name the period it counts from ("the year before 2023", "the
# month before March"), read by ``find_periods`` as they always were.
_NOT_FROM = (
    r"(?!\s*(?:\d|'\d|q[1-4]\b|h[12]\b|of\b|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))"
)
_SHIFT = re.compile(
    r"\b(?:(?:the|a|one)\s+)?(?P<unit>year|yr|quarter|month)\s+"
    r"(?P<dir>before\s+last|before|earlier|prior|after|later)\b" + _NOT_FROM + r"|"
    r"\b(?:the\s+)?(?P<rel>previous|prior|preceding|following|next|last)\s+"
    r"(?P<unit2>year|yr|quarter|month)\b" + _NOT_FROM,
    re.IGNORECASE,
)
_STEP = {
    "before last": -2,
    "before": -1,
    "earlier": -1,
    "prior": -1,
    "previous": -1,
    "preceding": -1,
    "last": -1,
    "after": 1,
    "later": 1,
    "following": 1,
    "next": 1,
}
_REL = {-2: "two before", -1: "before", 1: "after"}
_BY_CLOCK = frozenset({"last", "next", "before last"})  # words that also name a clock period
_YEAR = re.compile(r"\b(?:19|20|21)\d\d\b")


@dataclass(frozen=True)
class Shift:
    """What a follow-up's moving words come to: the period written out (``words``) in place
    of ``span`` of the follow-up, with a ``note`` for ``replaced``; or, when it cannot be told,
    ``why`` (asked back) and the ``choices``, each (label, the period written out)."""

    span: tuple[int, int]
    words: str = ""
    note: str = ""
    why: str = ""
    choices: tuple[tuple[str, str], ...] = ()


def _add_months(day: dt.date, months: int) -> dt.date:
    index = day.year * 12 + day.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, 1)


def _in_year(day: dt.date, years: int) -> dt.date:
    """``day`` ``years`` on, 29 February on the 28th in a year without one."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return day.replace(year=day.year + years, day=28)


def written(start: dt.date, end: dt.date) -> str:
    """``[start, end)`` as a question says it ("2023", "Q1 2023", "March 2023", "H1 2023",
    else "from 2023-08-18 to 2023-11-15")."""
    months = (end.year - start.year) * 12 + end.month - start.month
    if start.day == 1 and end.day == 1:
        if months == 12 and start.month == 1:
            return str(start.year)
        if months == 6 and start.month in (1, 7):
            return f"H{1 if start.month == 1 else 2} {start.year}"
        if months == 3 and start.month % 3 == 1:
            return f"Q{start.month // 3 + 1} {start.year}"
        if months == 1:
            return f"{_MONTHS[start.month - 1]} {start.year}"
    return f"from {start} to {end - dt.timedelta(days=1)}"


def _moved(period: Period, unit: str, step: int) -> tuple[dt.date, dt.date, str] | None:
    """``period`` moved ``step`` ``unit``s, and how ("" for a whole year, quarter or month moved
    by its own unit, "part" for a part of a year moved by years, "days" for a window counted
    back from the clock), or ``None`` where the period is not one that unit moves (a quarter
    moved by months, a fiscal year or "since March 2024" moved by years)."""
    start, end = period.start, period.end
    if unit == "year":
        if period.whole_year:
            return dt.date(start.year + step, 1, 1), dt.date(start.year + step + 1, 1, 1), ""
        said = _YEAR.findall(period.text)
        one_year = start.year == (end - dt.timedelta(days=1)).year
        whole_part = not written(start, end).startswith("from ")  # a quarter, month, half
        if one_year and whole_part and said in ([], [str(start.year)]):
            return _add_months(start, 12 * step), _add_months(end, 12 * step), "part"
        if not said and not period.open_start and period.kind is None:
            return _in_year(start, step), _in_year(end, step), "days"
        return None
    months = {"quarter": 3, "month": 1}[unit]
    if period.kind != unit:
        return None
    return _add_months(start, months * step), _add_months(end, months * step), ""


def period_shift(
    before: tuple[Period, ...],
    said: tuple[Period, ...],
    text: str,
    read_periods: Callable[[str], tuple[Period, ...]],
) -> Shift | None:
    """The one moving phrase of a follow-up ``text`` (the follow-up's ``said`` periods read
    from it, ``read_periods`` reads those of other words), moved from the previous question's
    one period (``before``); ``None`` where the follow-up has no such phrase, or more than one,
    or says another period beside it, or the previous question is not of one period."""
    found = list(_SHIFT.finditer(text))
    if len(before) != 1 or len(found) != 1:
        return None
    (match,) = found
    unit = (match.group("unit") or match.group("unit2")).lower().replace("yr", "year")
    word = " ".join((match.group("dir") or match.group("rel")).lower().split())
    step = _STEP[word]
    period = before[0]
    phrase = " ".join(match.group(0).split())
    clock = [p for p in said if not p.relative_previous]
    rest = text[: match.start()] + " " + text[match.end() :]
    if len(clock) > 1 or any(not p.relative_previous for p in read_periods(rest)):
        return None  # another period said beside it: read as before
    if word not in _BY_CLOCK:
        clock = []  # "the previous quarter" read alone is the clock's: here it is the one before
    moved = _moved(period, unit, step)
    if moved is None and clock:
        return None  # "last month" after a whole year: the clock's, as it always was
    if moved is None:
        return Shift(
            match.span(),
            why=f"'{phrase}' after {period.label} does not say which {unit} it means; "
            f"say the {unit}",
        )
    start, end, how = moved
    words = written(start, end)
    way = {-2: "two years before", -1: "a year before", 1: "a year after"}.get(step, "")
    name = period.kind or "period"
    note = {
        "part": f"the same {name} {way}, like for like",
        "days": f"the same days {way}, like for like",
    }.get(how, "")
    if not clock or (clock[0].start, clock[0].end) == (start, end) or how == "part":
        # a part of a year moved by "last year" is like for like, as "vs last year" is
        return Shift(match.span(), words=words, note=note)
    shown = words.removeprefix("from ")
    ours = (
        f"the same days as {period.label} {way}"
        if how == "days"
        else f"the {unit} {_REL[step]} {period.label}"
    )
    theirs = {"last": "the last full", "next": "the next", "before last": "the one before the last"}
    return Shift(
        match.span(),
        why=(
            f"'{phrase}' could be {ours} ({shown}) or {theirs[word]} {unit} of the data's "
            f"calendar ({clock[0].label}); say the {unit}"
        ),
        choices=((shown, words), (clock[0].label, written(clock[0].start, clock[0].end))),
    )
