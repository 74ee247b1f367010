"""The written answer for a planned question: a sentence or two from the rows, every number
cited to the cell it came from, and the definitions used."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from assay.types import Result

__all__ = ["Citation", "GovernedAnswer", "write_governed"]

MAX_ITEMS = 10


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


def _number(value: Any) -> str:
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, (float, Decimal)):
        rounded = round(float(value), 2)
        return f"{int(rounded):,}" if rounded.is_integer() else f"{rounded:,.2f}"
    if isinstance(value, (dt.datetime, dt.date)):
        return value.isoformat()[:10]
    return "no value" if value is None else str(value)


def write_governed(
    result: Result,
    *,
    label: str,
    period: str,
    group: str | None,
    definition: str,
    top_n: int | None = None,
) -> GovernedAnswer:
    """Text from rows: a single value, or up to ten keyed values, each cited to its cell."""
    citations: list[Citation] = []

    def cite(row: int, col: int) -> str:
        text = _number(result.rows[row][col])
        citations.append(Citation(text, row, col))
        return text

    when = f" in {period}" if period else ""
    if not result.rows:
        text = f"No rows match: there is no {label}{when} to report."
    elif len(result.columns) == 1:
        text = f"{label.capitalize()}{when} was {cite(0, 0)}."
    else:
        items = [
            f"{cite(i, 0)}: {cite(i, len(result.columns) - 1)}"
            for i in range(min(len(result.rows), MAX_ITEMS))
        ]
        more = f" (and {len(result.rows) - MAX_ITEMS} more)" if len(result.rows) > MAX_ITEMS else ""
        head = f"Top {top_n} {group} by {label}" if top_n else f"{label.capitalize()} by {group}"
        text = f"{head}{when}: " + "; ".join(items) + more + "."
    return GovernedAnswer(text, tuple(citations), definition)
