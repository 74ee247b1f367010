"""Written answers built from rows, every number a returned cell or the row count.

No model is involved: the text is a template over the result, so each number it states can be
traced to a cell (see ``checks.cited_by``).
"""

from __future__ import annotations

from typing import Any

from assay.types import Result, jsonable

__all__ = ["format_value", "write_answer"]

MAX_LISTED = 5


def format_value(value: Any) -> str:
    """A cell as text, numbers as written in the cell (never rounded differently).

    Example:
        >>> format_value(1234.5)
        '1234.5'
    """
    value = jsonable(value)
    if value is None:
        return "NULL"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def write_answer(result: Result | None) -> str:
    """One or two sentences stating the result.

    Example:
        >>> write_answer(Result(("n",), ((42,),), 1))
        'The result is n = 42.'
    """
    if result is None:
        return "No query returned a result, so there is no answer."
    count = result.row_count if result.row_count is not None else len(result.rows)
    if not result.rows:
        return "The query returned no rows."
    if len(result.rows) == 1:
        pairs = ", ".join(
            f"{c} = {format_value(v)}" for c, v in zip(result.columns, result.rows[0], strict=False)
        )
        return f"The result is {pairs}."
    listed = "; ".join(", ".join(format_value(v) for v in row) for row in result.rows[:MAX_LISTED])
    more = " and more" if len(result.rows) > MAX_LISTED or result.truncated else ""
    prefix = (
        f"The query returned {count} rows"
        if not result.truncated
        else (f"The query returned more than {len(result.rows)} rows")
    )
    return f"{prefix}: {listed}{more}."
