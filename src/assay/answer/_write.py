"""Written answers built from rows, every number a returned cell or the row count.

No model is involved: the text is a template over the result, so each number it states can be
traced to a cell (see ``checks.cited_by``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from assay.answer._governed import _number as number
from assay.answer._governed import _places_apart as places_apart
from assay.answer._governed import format_label
from assay.types import Result, jsonable

__all__ = ["column_grain", "format_value", "write_answer"]

MAX_LISTED = 5


def format_value(value: Any, grain: str | None = None) -> str:
    """A cell as text, numbers as written in the cell (never rounded differently), dates as
    dates (a midnight timestamp is its day; ``grain`` writes a month as ``2024-01``).

    Example:
        >>> format_value(1234.5), format_value(dt.datetime(2024, 1, 1))
        ('1234.5', '2024-01-01')
    """
    if isinstance(value, (dt.datetime, dt.date)):
        return format_label(value, grain)
    value = jsonable(value)
    if value is None:
        return "NULL"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def column_grain(values: Sequence[Any]) -> str | None:
    """``month`` (or ``year``) when a column holds two or more distinct midnight dates that all
    fall on the first of a month (of January): what ``DATE_TRUNC`` returns. None otherwise.

    Example:
        >>> column_grain([dt.datetime(2024, 1, 1), dt.datetime(2024, 2, 1)])
        'month'
    """
    days = []
    for value in values:
        if isinstance(value, dt.datetime) and value.time() == dt.time(0):
            value = value.date()
        if not isinstance(value, dt.date) or isinstance(value, dt.datetime) or value.day != 1:
            return None
        days.append(value)
    if len(set(days)) < 2:
        return None
    return "year" if all(d.month == 1 for d in days) else "month"


def write_answer(result: Result | None, *, as_quantities: bool = False) -> str:
    """One or two sentences stating the result. ``as_quantities``: numbers written as the
    planner's answers write them (``1,465,703.30``, not the float's ``1465703.299999998``;
    outside re-check of tryout 40 read a verified query's answer so), each column's values
    kept apart at the fewest decimals that tell them apart.

    Example:
        >>> write_answer(Result(("n",), ((42,),), 1))
        'The result is n = 42.'
        >>> write_answer(Result(("m", "s"), (("x", 1465703.299999998),), 1), as_quantities=True)
        'The result is m = x, s = 1,465,703.30.'
    """
    if result is None:
        return "No query returned a result, so there is no answer."
    count = result.row_count if result.row_count is not None else len(result.rows)
    if not result.rows:
        return "The query returned no rows."
    places = [
        places_apart([row[i] for row in result.rows[:MAX_LISTED]])
        for i in range(len(result.columns))
    ]

    def cell(value: Any, column: int, grain: str | None = None) -> str:
        if as_quantities and isinstance(value, (float, Decimal)) and not isinstance(value, bool):
            return number(value, places[column])
        return format_value(value, grain)

    if len(result.rows) == 1:
        pairs = ", ".join(
            f"{c} = {cell(v, i)}"
            for i, (c, v) in enumerate(zip(result.columns, result.rows[0], strict=False))
        )
        return f"The result is {pairs}."
    grains = [column_grain([row[i] for row in result.rows]) for i in range(len(result.columns))]
    listed = "; ".join(
        ", ".join(cell(v, i, g) for i, (v, g) in enumerate(zip(row, grains, strict=False)))
        for row in result.rows[:MAX_LISTED]
    )
    more = " and more" if len(result.rows) > MAX_LISTED or result.truncated else ""
    prefix = (
        f"The query returned {count} rows"
        if not result.truncated
        else (f"The query returned more than {len(result.rows)} rows")
    )
    return f"{prefix}: {listed}{more}."
