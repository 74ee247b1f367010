"""A part of a date compared with a number that part never takes.

"What was the total sales amount on weekends in July 2025?" as ``dayofweek(date) IN (6, 7)``
keeps Saturdays only: DuckDB numbers the days of the week 0 (Sunday) to 6 (Saturday), so 7 is
no day, and the author counted from 1 (agreed23, a development set: shown at 1.00, five samples
agreeing). A number a date part can never be is the mark of a convention misremembered: the
rows meant by it are silently missing, never an error.

``date_part_impossible`` reads each ``=``, ``<>``, ``IN`` and ``BETWEEN`` of a date part against
numbers: ``month``, ``quarter``, ``day``/``dayofmonth``, ``dayofyear``, ``hour``, ``minute``,
``week``, and the day of the week as the engine numbers it (``dayofweek``, ``weekday``, ``dow``
0 to 6 and ``isodow`` 1 to 7 on DuckDB and PostgreSQL; SQLite's ``strftime('%w', d)`` 0 to 6),
whether written as a function, ``EXTRACT(part FROM d)`` or ``date_part('part', d)``. A number
outside the part's range: ``signal.date_part_impossible``, naming the part, the number and its
range. Silent on a day of the week in another engine (MySQL counts 1 to 7), on a comparison
with anything but number constants, and when the SQL does not parse: never evidence of a right
answer.
"""

from __future__ import annotations

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._where import finding, tree_of

__all__ = ["date_part_impossible"]

# part -> (lowest, highest) it takes in every engine Assay reads
_RANGES: dict[str, tuple[int, int]] = {
    "month": (1, 12),
    "quarter": (1, 4),
    "day": (1, 31),
    "dayofyear": (1, 366),
    "hour": (0, 23),
    "minute": (0, 59),
    "week": (1, 53),
}
# the day of the week, as DuckDB and PostgreSQL number it (Sunday 0; ISO Monday 1 to Sunday 7)
_WEEKDAYS: dict[str, tuple[int, int]] = {"dayofweek": (0, 6), "isodow": (1, 7)}
_ZERO_BASED_WEEK = frozenset({"duckdb", "postgres", "sqlite"})
_FUNCTIONS: dict[type[exp.Expr], str] = {
    exp.Month: "month",
    exp.Quarter: "quarter",
    exp.Day: "day",
    exp.DayOfMonth: "day",
    exp.DayOfYear: "dayofyear",
    exp.Hour: "hour",
    exp.Minute: "minute",
    exp.Week: "week",
    exp.DayOfWeek: "dayofweek",
    exp.DayOfWeekIso: "isodow",
}
_NAMES: dict[str, str] = {
    "month": "month",
    "mon": "month",
    "quarter": "quarter",
    "day": "day",
    "dayofmonth": "day",
    "doy": "dayofyear",
    "dayofyear": "dayofyear",
    "hour": "hour",
    "minute": "minute",
    "week": "week",
    "dow": "dayofweek",
    "dayofweek": "dayofweek",
    "weekday": "dayofweek",
    "isodow": "isodow",
}
# how a message says each part, and what its numbers mean where that is easy to misremember
_SAID: dict[str, str] = {
    "dayofweek": "the day of the week (0 is Sunday, 6 is Saturday)",
    "isodow": "the ISO day of the week (1 is Monday, 7 is Sunday)",
    "dayofyear": "the day of the year",
    "day": "the day of the month",
}
# SQLite's strftime formats of a number part
_FORMATS: dict[str, str] = {
    "%m": "month",
    "%d": "day",
    "%H": "hour",
    "%M": "minute",
    "%w": "dayofweek",
}


def _part(node: exp.Expr, dialect: str) -> str | None:
    """The date part a node computes, when its numbering is known in this engine."""
    name: str | None = None
    if type(node) in _FUNCTIONS:
        name = _FUNCTIONS[type(node)]
    elif isinstance(node, exp.Extract) and isinstance(node.this, exp.Var | exp.Column):
        name = _NAMES.get(node.this.name.lower())
    elif isinstance(node, exp.Anonymous) and node.expressions:
        first = node.expressions[0]
        if node.name.lower() in {"date_part", "datepart"} and isinstance(first, exp.Literal):
            name = _NAMES.get(first.name.lower())
        elif len(node.expressions) == 1:
            name = _NAMES.get(node.name.lower())
    elif isinstance(node, exp.TimeToStr) and isinstance(node.args.get("format"), exp.Literal):
        name = _FORMATS.get(node.args["format"].name)
    elif isinstance(node, exp.Cast):
        return _part(node.this, dialect)
    if name in _WEEKDAYS and dialect not in _ZERO_BASED_WEEK:
        return None
    return name


def _number(node: exp.Expr) -> int | None:
    """A whole number constant, written as a number or a string of digits ('07')."""
    if isinstance(node, exp.Neg):
        inner = _number(node.this)
        return None if inner is None else -inner
    if isinstance(node, exp.Literal) and node.name.strip().isdigit():
        return int(node.name)
    return None


def _compared(tree: exp.Expr) -> list[tuple[exp.Expr, list[exp.Expr]]]:
    """(expression, the constants it is compared with) for each =, <>, IN and BETWEEN."""
    pairs: list[tuple[exp.Expr, list[exp.Expr]]] = []
    for node in tree.find_all(exp.EQ, exp.NEQ, exp.In, exp.Between):
        if isinstance(node, exp.In):
            pairs.append((node.this, list(node.expressions)))
        elif isinstance(node, exp.Between):
            pairs.append((node.this, [node.args["low"], node.args["high"]]))
        else:
            pairs.append((node.this, [node.expression]))
            pairs.append((node.expression, [node.this]))
    return pairs


def date_part_impossible(ctx: CheckContext) -> CheckOutcome:
    """``signal.date_part_impossible``: a date part compared with a number it never takes (the
    module docstring)."""
    tree = tree_of(ctx)
    if tree is None:
        return CheckOutcome()
    dialect = ctx.dialect
    for computed, constants in _compared(tree):
        part = _part(computed, dialect)
        if part is None:
            continue
        low, high = {**_RANGES, **_WEEKDAYS}[part]
        written = computed.sql(dialect=dialect if dialect in _ZERO_BASED_WEEK else None)
        for constant in constants:
            value = _number(constant)
            if value is None or low <= value <= high:
                continue
            return CheckOutcome(
                (
                    finding(
                        "signal.date_part_impossible",
                        f"The SQL compares {written} with {value}, but "
                        f"{_SAID.get(part, 'the ' + part)} only runs from {low} to {high} in "
                        f"this database: no row has {value}, so the rows meant by it are never "
                        f"kept. Compare with the number this database gives them.",
                        part=part,
                        compared=written,
                        value=value,
                        range=[low, high],
                    ),
                )
            )
    return CheckOutcome()
