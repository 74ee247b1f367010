"""The written answer for a planned question: a sentence or two from the rows, every number
cited to the cell it came from, and the definitions used.

Values are written as quantities (``1,281,859.81``); the keys they are listed under are labels
(``2023``, ``2024-01``, ``2024-Q1``, ``DE``), never formatted as numbers.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from assay.semantic import spoken_name
from assay.types import Result

__all__ = [
    "GRAINS",
    "Citation",
    "GovernedAnswer",
    "format_label",
    "spoken_name",
    "write_governed",
]

MAX_ITEMS = 10
GRAINS = ("day", "week", "month", "quarter", "year")


@dataclass(frozen=True)
class Citation:
    text: str
    row: int
    column: int


@dataclass(frozen=True)
class GovernedAnswer:
    text: str
    citations: tuple[Citation, ...]
    definitions: str


# Decimals are added to a small value until it keeps this many significant digits.
_SIGNIFICANT = 3
# No value is written with more decimals than this (float noise is not told apart).
_MOST_DECIMALS = 8


def _upper_first(text: str) -> str:
    """``text`` with its first letter upper case and the rest as written ("Revenue (USD)",
    never ``str.capitalize``'s "Revenue (usd)")."""
    return text[:1].upper() + text[1:]


def _number(value: Any, least: int = 2) -> str:
    """A value as a quantity: money and counts as they are (``1,281,859.81``, ``42``), a small
    rate or ratio with three significant digits at least (``0.0524``, not ``0.05``: tryout 37
    read seven ship modes' discount rates, 0.0510 to 0.0524, all as 0.05). ``least``: the
    decimals kept when more are not needed (a list raises it to tell its values apart).

    Example:
        >>> _number(0.0523979), _number(0.3), _number(0.2986), _number(1234.5), _number(5.0)
        ('0.0524', '0.30', '0.299', '1,234.50', '5')
        >>> _number(0.0516034, least=5), _number(Decimal("0.97"))
        ('0.05160', '0.97')
    """
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, (float, Decimal)):
        number = float(value)
        places = max(least, _small_places(number))
        rounded = round(number, places)
        if rounded.is_integer():
            return f"{int(rounded):,}"
        text = f"{rounded:,.{places}f}"
        while places > least and text.endswith("0"):  # 0.300 is written 0.30, as before
            text, places = text[:-1], places - 1
        return text
    if isinstance(value, (dt.datetime, dt.date)):
        return format_label(value)
    return "no value" if value is None else str(value)


def format_quantity(value: Any) -> str:
    """A value written as the planner's answers write a quantity (``1,671,670.87``,
    ``16,123``, ``0.0432``), for messages that name numbers beside an answer."""
    return _number(value)


def _small_places(number: float) -> int:
    """Decimals that keep ``_SIGNIFICANT`` significant digits of a value under 1 (0.0524: 4);
    2 for any other (money keeps its cents)."""
    if number == 0 or abs(number) >= 1 or not math.isfinite(number):
        return 2
    return min(_MOST_DECIMALS, _SIGNIFICANT - 1 - math.floor(math.log10(abs(number))))


def _places_apart(values: Sequence[Any]) -> int:
    """The fewest decimals (2 or more) at which the listed values that differ are written
    differently: AIR's 0.05160 and MAIL's 0.05159 discount rates were both written 0.0516.
    Values equal to nine significant digits are the same (float noise is no difference).

    Example:
        >>> _places_apart([0.0516034, 0.0515855, 0.0523979]), _places_apart([12.5, 12.5, 3.0])
        (5, 2)
    """
    numbers = [float(v) for v in values if isinstance(v, (float, Decimal))]
    distinct = len({f"{n:.9g}" for n in numbers})
    for least in range(2, _MOST_DECIMALS + 1):
        if len({_number(n, least) for n in numbers}) >= distinct:
            return least
    return _MOST_DECIMALS


def format_label(value: Any, grain: str | None = None) -> str:
    """A key cell as a label: years and ids without thousands separators, dates to the grain.

    Example:
        >>> format_label(2023), format_label(dt.datetime(2024, 1, 1), "month")
        ('2023', '2024-01')
        >>> format_label(dt.date(2024, 5, 1), "quarter"), format_label(dt.datetime(2024, 5, 3))
        ('2024-Q2', '2024-05-03')
    """
    if value is None:
        return "no value"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (dt.datetime, dt.date)):
        day = value.date() if isinstance(value, dt.datetime) else value
        if grain == "year":
            return f"{day.year}"
        if grain == "quarter":
            return f"{day.year}-Q{(day.month - 1) // 3 + 1}"
        if grain == "month":
            return f"{day.year}-{day.month:02d}"
        if isinstance(value, dt.datetime) and value.time() != dt.time(0):
            return value.isoformat(sep=" ", timespec="seconds")
        return day.isoformat()
    if isinstance(value, (float, Decimal)) and float(value).is_integer():
        return str(int(value))
    return str(value)


def _as_day(value: Any) -> Any:
    """A date or midnight timestamp as its day (a key to look a period up by); else as is."""
    return value.date() if isinstance(value, dt.datetime) else value


def _bucket_end(start: dt.date, grain: str) -> dt.date | None:
    months = {"month": 1, "quarter": 3, "year": 12}.get(grain)
    if months is None:
        return start + dt.timedelta(days={"day": 1, "week": 7}[grain]) if grain in GRAINS else None
    total = start.year * 12 + start.month - 1 + months
    return dt.date(total // 12, total % 12 + 1, 1)


def _bucket_part(value: Any, grain: str, window: tuple[dt.date, dt.date]) -> str:
    """`` (from 2024-08-07)`` / `` (to 2024-11-07)`` when the ``grain`` bucket starting at
    ``value`` reaches outside ``window`` (``[start, end)``): the bucket holds only those days.

    Example:
        >>> w = (dt.date(2024, 8, 7), dt.date(2024, 11, 8))
        >>> _bucket_part(dt.date(2024, 8, 1), "month", w)
        ' (from 2024-08-07)'
        >>> _bucket_part(dt.date(2024, 9, 1), "month", w)
        ''
        >>> _bucket_part(dt.datetime(2024, 11, 1), "month", w)
        ' (to 2024-11-07)'
    """
    if not isinstance(value, (dt.datetime, dt.date)):
        return ""
    start = value.date() if isinstance(value, dt.datetime) else value
    end = _bucket_end(start, grain)
    if end is None:
        return ""
    first, stop = max(start, window[0]), min(end, window[1])
    if first >= stop or (first, stop) == (start, end):
        return ""
    last = stop - dt.timedelta(days=1)
    if first > start and stop < end:
        return f" ({first.isoformat()} to {last.isoformat()})"
    if first > start:
        return f" (from {first.isoformat()})"
    return f" (to {last.isoformat()})"


def write_governed(
    result: Result,
    *,
    label: str,
    labels: tuple[str, ...] = (),
    period: str,
    group: str | None,
    definition: str,
    top_n: int | None = None,
    grain: str | None = None,
    where: str = "",
    descending: bool = True,
    partial: str = "",
    heading: str = "",
    window: tuple[dt.date, dt.date] | None = None,
    ranked_apart: bool = False,
    periods: Mapping[dt.date, str] | None = None,
    row_cap: int | None = None,
) -> GovernedAnswer:
    """Text from rows: a single value, or up to ten keyed values, each cited to its cell.

    The sentence states the whole reading: ``where`` the filters as phrased (``"excluding
    country DE"``), ``period`` and, when the data covers it only in part, ``partial`` (``"to
    2024-11-15"``), ``group`` every grouping (``"country and category"``; every column before
    the value is a key), and a ranking ("Top 3" or, ``descending`` false, "Bottom 3");
    ``heading``, when given, is the caller's head for the list (a ranked change). ``labels``
    names each value column (``value``, ``value_<metric>``) when the question asked for two
    or more metrics: each value is written with its metric's label. ``grain``
    (day, week, month, quarter or year) writes date keys to that grain; when it is None and
    ``group`` names a grain, that grain is used. ``window`` is the period asked for
    (``[start, end)``): a date key whose bucket the window covers only in part says which
    days it holds (``2024-08 (from 2024-08-07)``, ``2024-11 (to 2024-11-07)``), never
    written as the whole month. ``ranked_apart``: the ranking is of each value of the first
    key column apart (each compared period's top n): a tie is counted within each.
    ``periods``: compared periods by their first day, the first key column written with the
    label each was said with ("Q2 2023", not "2023-04-01" or "2023-Q2"; tryout 26).
    ``row_cap``: the rows a result keeps (``max_rows``); a result cut short says it was cut,
    at which cap, how many rows there are in all, and how to get them all (``_cut_words``).
    The values listed get the decimals that tell them apart (``_places_apart``).

    Example:
        >>> write_governed(Result(("value",), ((12.5,),), 1), label="revenue", period="2024",
        ...     group=None, definition="", where="excluding country DE",
        ...     partial="to 2024-11-15").text
        'Revenue excluding country DE in 2024 (to 2024-11-15) was 12.50.'
    """
    citations: list[Citation] = []
    grain = grain or (group if group in GRAINS else None)

    listed = min(len(result.rows), MAX_ITEMS)
    places = {
        col: _places_apart([row[col] for row in result.rows[:listed]])
        for col in range(len(result.columns))
    }

    def cite(row: int, col: int, *, key: bool = False) -> str:
        value = result.rows[row][col]
        text = format_label(value, grain) if key else _number(value, places[col])
        if not key and value is None:
            # a NULL sum or average: no amount recorded in its rows, said so (outside tryout
            # 39, F9: "(no store): no value" read as a group label's words)
            text = "not recorded"
        if key and value is None:
            # A NULL key is a group, never "no value" (a NULL sum's words): the rows with no
            # date in a time grain, else the rows whose value is not recorded (outside
            # tryout 39, F1c and F9: "no value: 81" read as a year and as an empty sum)
            column = str(result.columns[col])
            text = "(no date)" if column == grain else f"({spoken_name(column)} unknown)"
        if key and col == 0 and periods:
            text = periods.get(_as_day(value), text)
        citations.append(Citation(text, row, col))
        if key and window is not None and grain is not None:
            text += _bucket_part(value, grain, window)
        return text

    scope = f" {where}" if where else ""
    # "since March 2024", "after 2023": an open period says its own preposition
    when = (
        (f" {period}" if period.startswith(("since ", "after ", "before ")) else f" in {period}")
        if period
        else ""
    )
    if partial:
        when += f" ({partial})"
    last = len(result.columns) - 1
    values = [k for k, c in enumerate(result.columns) if str(c).startswith("value")]
    keys = range(min(values) if values else max(last, 1))
    named = list(zip(values, labels, strict=False)) if len(labels) > 1 and values else []
    if named and not keys and len(result.rows) == 1:
        text = "; ".join(f"{name}{scope}{when} was {cite(0, k)}" for k, name in named) + "."
        text = text[0].upper() + text[1:]
    elif not result.rows:
        text = f"No rows match: there is no {label}{scope}{when} to report."
    elif len(result.columns) == 1:
        text = f"{_upper_first(label)}{scope}{when} was {cite(0, 0)}."
    else:

        def value(i: int) -> str:
            if named:
                return ", ".join(f"{name} {cite(i, k)}" for k, name in named)
            return cite(i, last)

        items = [
            ", ".join(cite(i, k, key=True) for k in keys) + f": {value(i)}" for i in range(listed)
        ]
        more = _cut_words(result, listed, row_cap)
        end = "Top" if descending else "Bottom"
        said = " and ".join(name for _, name in named) if named else label
        by = f" by {group}" if group else ""
        head = (
            f"{end} {top_n} {group or 'rows'} by {said}{scope}"
            if top_n
            else f"{_upper_first(said)}{scope}{by}"
        )
        if heading:  # a head that says it all ("The 1 city with the largest fall ...")
            head, when = heading, f" ({partial})" if partial else ""
        elif ranked_apart and top_n and when.startswith(" in "):  # the top n of each period
            when = " in each of " + when.removeprefix(" in ")
        text = (
            f"{head}{when}{_tie(result, top_n, last, ranked_apart)}: "
            + "; ".join(items)
            + more
            + "."
        )
    return GovernedAnswer(text, tuple(citations), definition)


def _cut_words(result: Result, listed: int, row_cap: int | None) -> str:
    """ " (and 25 more)" after a list of ``listed`` rows; for a result cut at a cap, what was
    cut, how many rows there are in all (the engine's count when it could be had) and the
    setting that keeps them all: tryout 37's 1,499 balances were written "(and 990 more)".

    Example:
        >>> rows = tuple((i, 1) for i in range(1000))
        >>> _cut_words(Result(("k", "value"), rows, 1499, True), 10, 1000)
        ' (and 990 more of the first 1,000 rows: the result was cut at the row cap, 1,499 rows \
in all; raise --max-rows or ASSAY_MAX_ROWS to get them all)'
        >>> _cut_words(Result(("k", "value"), rows[:20], None, False), 10, 1000)
        ' (and 10 more)'
    """
    more = len(result.rows) - listed
    if not result.truncated:
        return f" (and {more:,} more)" if more > 0 else ""
    kept = len(result.rows)
    head = f"and {more:,} more of the first" if more > 0 else "the first"
    total = (
        f"{result.row_count:,} rows in all"
        if result.row_count is not None
        else f"more than {kept:,} rows in all (not counted)"
    )
    # Cut short of the row cap: the byte cap (max_result_bytes) cut it.
    if row_cap is not None and kept < row_cap:
        cap, setting = "the result size cap", "--max-result-bytes or ASSAY_MAX_RESULT_BYTES"
    else:
        cap, setting = "the row cap", "--max-rows or ASSAY_MAX_ROWS"
    return (
        f" ({head} {kept:,} rows: the result was cut at {cap}, {total}; raise {setting} to get "
        "them all)"
    )


def _tie(result: Result, top_n: int | None, column: int, apart: bool = False) -> str:
    """ " (4 rows: a tie for 3rd)" when a ranking kept more rows than asked because the last
    places are tied (rows in ranked order); empty otherwise. ``apart``: ranked within each
    value of the first column, each counted alone (" (2023: 3 rows, a tie for 2nd)")."""
    if not top_n:
        return ""
    if not apart:
        tie = _tie_in(result.rows, top_n, column)
        return f" ({tie.replace(',', ':', 1)})" if tie else ""
    parts: dict[Any, list[tuple[Any, ...]]] = {}
    for row in result.rows:
        parts.setdefault(row[0], []).append(row)
    ties = [f"{format_label(key)}: {_tie_in(rows, top_n, column)}" for key, rows in parts.items()]
    said = [t for t in ties if not t.endswith(": ")]
    return f" ({'; '.join(said)})" if said else ""


def _tie_in(rows: Sequence[tuple[Any, ...]], top_n: int, column: int) -> str:
    """ "4 rows, a tie for 3rd" when ``rows`` (in ranked order) are more than ``top_n``."""
    if len(rows) <= top_n:
        return ""
    last = rows[-1][column]
    place = next(i for i, row in enumerate(rows) if row[column] == last) + 1
    return f"{len(rows)} rows, a tie for {_ordinal(place)}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
