"""Numbers stored as text, compared or ordered as text.

car_1's ``cars_data.Horsepower`` and ``MPG`` are TEXT columns holding numbers (and the string
'null'). Read as text, ``max(Horsepower)`` is 'null', ``ORDER BY MPG DESC LIMIT 1`` finds '9.0'
and, on SQLite, ``Horsepower > 150`` holds for '98' (a TEXT column compared with a number
compares as text there): five samples agreeing on any of them were shown at 1.00 (outside
tryout 22). Each engine says something different:

- SQLite compares a TEXT column with a number as text, and MAX, MIN and ORDER BY read text;
- DuckDB refuses ``text > 150`` (a binder error: the sample fails, nothing to check) and
  PostgreSQL has no ``text > integer`` operator; on both MAX, MIN, ORDER BY and a comparison
  with a quoted number (``Horsepower > '150'``) read text as on SQLite.

So the check decides from the data and from the answer, never from the column's name: for each
column read bare (no CAST) by MAX or MIN, an ORDER BY (a rank window's too) or a comparison with
a number, or read by AVG or SUM, bare or cast (SQLite's ``CAST('null' AS REAL)`` is 0, so
"the average horsepower of cars made in 1971" as ``avg(Horsepower)`` is 101.31, not 104.93:
outside tryout 23), whose table declares it text and whose stored values are numbers (at least
``MIN_NUMERIC_SHARE`` of up to ``MAX_VALUES`` distinct ones), the query is run again with those
columns read as numbers. When its rows differ from the answer's, ``signal.numbers_as_text``
names the columns and both answers; when they are the same (four-digit years compare alike as
text and as numbers) it is silent. A query that reads no such column, or has no result, is
never evidence of a right answer.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from sqlglot import exp

from assay.catalog import Catalog
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._sql import parse_query
from assay.checks._values import _owner
from assay.types import Finding

__all__ = ["MAX_VALUES", "MIN_NUMERIC_SHARE", "numbers_as_text"]

Owner = Callable[[exp.Column, exp.Expr, Catalog], tuple[str, str] | None]

# Types that store text; not SQLite's ``bool`` (it stores 'T' and 'F', no number).
_TEXT_TYPES = re.compile(r"char|text|string|clob", re.IGNORECASE)
MAX_VALUES = 200
# Horsepower stores 'null' beside 93 numbers: a few non-numbers do not make a column of words.
MIN_NUMERIC_SHARE = 0.9
TIME_LIMIT_MS = 2_000
_DIALECTS = {"duckdb": "duckdb", "sqlite": "sqlite", "postgres": "postgres"}
# How each engine reads a text as a number, NULL when it is none ('null', ''): SQLite's CAST
# reads 'null' as 0.0, so a text that is not all number characters is left out first.
_AS_NUMBER = {
    "sqlite": "(CASE WHEN trim({c}) <> '' AND trim({c}) NOT GLOB '*[^0-9.eE+-]*' "
    "THEN CAST({c} AS REAL) END)",
    "duckdb": "TRY_CAST({c} AS DOUBLE)",
    "postgres": r"(CASE WHEN {c} ~ '^\s*[-+]?[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?\s*$' "
    "THEN CAST({c} AS DOUBLE PRECISION) END)",
}


def _number(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return None
        return number if math.isfinite(number) else None
    return None


def _numeric_literal(node: exp.Expr, dialect: str) -> bool:
    """A number the column is compared with: a quoted number on every engine; a bare one only
    on SQLite (DuckDB and PostgreSQL refuse to compare text with it, or cast the text)."""
    if isinstance(node, exp.Neg):
        node = node.this
    if not isinstance(node, exp.Literal):
        return False
    return _number(node.name) is not None and (node.is_string or dialect == "sqlite")


def _averaged(column: exp.Column) -> bool:
    """The column is the value of an AVG or SUM, bare or cast (``avg(CAST(MPG AS REAL))``):
    SQLite reads its 'null' strings as 0, so they pull an average down (outside tryout 23)."""
    node: exp.Expr = column
    if isinstance(node.parent, exp.Cast) and node.parent.this is node:
        node = node.parent
    parent = node.parent
    return isinstance(parent, (exp.Avg, exp.Sum)) and parent.this is node


def _read_as_text(tree: exp.Expr, dialect: str) -> list[exp.Column]:
    """Columns whose reading as text the answer depends on: MAX and MIN of them, ORDER BY them,
    ``<``, ``<=``, ``>``, ``>=``, BETWEEN against a number (all bare), and AVG and SUM of them
    (bare or cast: a 'null' string is 0 to both)."""
    found: list[exp.Column] = []
    for column in tree.find_all(exp.Column):
        parent = column.parent
        if isinstance(parent, (exp.Max, exp.Min, exp.Ordered)) and parent.this is column:
            found.append(column)
        elif _averaged(column):
            found.append(column)
        elif isinstance(parent, (exp.GT, exp.GTE, exp.LT, exp.LTE)):
            other = parent.expression if parent.this is column else parent.this
            if _numeric_literal(other, dialect):
                found.append(column)
        elif isinstance(parent, exp.Between) and parent.this is column:
            bounds = (parent.args.get("low"), parent.args.get("high"))
            if all(b is not None and _numeric_literal(b, dialect) for b in bounds):
                found.append(column)
    return found


def _stores_numbers(ctx: CheckContext, table: str, column: str) -> bool:
    """Whether the column's stored values are numbers: at least ``MIN_NUMERIC_SHARE`` of up to
    ``MAX_VALUES`` distinct non-null values, two of them at least, all stored as strings."""
    assert ctx.profiles is not None
    dialect = _DIALECTS.get(ctx.dialect, ctx.dialect)
    t = exp.to_identifier(table, quoted=True).sql(dialect=dialect)
    c = exp.to_identifier(column, quoted=True).sql(dialect=dialect)
    # A probe that fails or runs past its limit raises: the registry names it (fail closed).
    result = ctx.profiles.runner.execute(
        f"SELECT DISTINCT {c} FROM {t} WHERE {c} IS NOT NULL ORDER BY 1 LIMIT {MAX_VALUES}",
        time_limit_ms=TIME_LIMIT_MS,
        max_rows=MAX_VALUES,
    )
    values = [row[0] for row in result.rows]
    if not values or not all(isinstance(v, str) for v in values):
        return False
    numbers = [v for v in values if _number(v) is not None]
    return len(numbers) >= 2 and len(numbers) >= MIN_NUMERIC_SHARE * len(values)


def _text_columns(ctx: CheckContext, tree: exp.Expr, owner: Owner) -> dict[str, list[exp.Column]]:
    """The bare columns read as text that store numbers, by ``table.column``."""
    assert ctx.catalog is not None
    found: dict[str, list[exp.Column]] = {}
    verdicts: dict[tuple[str, str], bool] = {}
    for column in _read_as_text(tree, ctx.dialect):
        owned = owner(column, tree, ctx.catalog)
        if owned is None:
            continue
        if owned not in verdicts:
            info = ctx.catalog.table(owned[0])
            col = info.column(owned[1]) if info is not None else None
            text = col is not None and bool(_TEXT_TYPES.search(col.type))
            verdicts[owned] = text and _stores_numbers(ctx, *owned)
        if verdicts[owned]:
            found.setdefault(f"{owned[0]}.{owned[1]}", []).append(column)
    return found


def _as_numbers(tree: exp.Expr, columns: list[exp.Column], dialect: str) -> str:
    """``tree``'s SQL with each of ``columns`` read as a number."""
    template = _AS_NUMBER[dialect]
    ids = {id(c) for c in columns}
    quoted = {id(q) for q in tree.find_all(exp.Literal) if q.is_string and _compares_with(q, ids)}

    def swap(node: exp.Expr) -> exp.Expr:
        if isinstance(node, exp.Column) and id(node) in ids:
            return exp.maybe_parse(template.format(c=node.sql(dialect=dialect)), dialect=dialect)
        if id(node) in quoted:
            return exp.Literal.number(node.name.strip())  # '2014' read as 2014 beside it
        return node

    return tree.transform(swap, copy=False).sql(dialect=dialect)


def _compares_with(literal: exp.Literal, ids: set[int]) -> bool:
    """Whether ``literal`` is a quoted number compared with one of the columns ``ids``."""
    parent = literal.parent
    if _number(literal.name) is None or parent is None:
        return False
    if isinstance(parent, (exp.GT, exp.GTE, exp.LT, exp.LTE, exp.Between)):
        return any(id(c) in ids for c in parent.iter_expressions() if isinstance(c, exp.Column))
    return False


def _rows(rows: tuple[tuple[object, ...], ...], ordered: bool) -> list[tuple[object, ...]]:
    """Rows compared as numbers where a cell reads as one ('9.0' and 9.0 alike), in order when
    the query orders them, else sorted."""
    keyed = [
        tuple((0, n, "") if (n := _number(v)) is not None else (1, 0.0, repr(v)) for v in row)
        for row in rows
    ]
    return keyed if ordered else sorted(keyed)  # type: ignore[return-value]


def numbers_as_text(ctx: CheckContext) -> CheckOutcome:
    """``signal.numbers_as_text`` for ``max(Horsepower)`` when Horsepower stores numbers as
    text and the answer changes when they are read as numbers."""
    sql, result = ctx.candidate.final_sql, ctx.candidate.result
    dialect = _DIALECTS.get(ctx.dialect)
    if ctx.catalog is None or ctx.profiles is None or not sql or result is None or not dialect:
        return CheckOutcome()
    tree = parse_query(sql, ctx.dialect)
    if tree is None:
        return CheckOutcome()
    tree = tree.copy()
    found = _text_columns(ctx, tree, _owner)  # the resolver literal_in_data uses
    if not found:
        return CheckOutcome()
    shown = result.rows
    again = ctx.profiles.runner.execute(
        _as_numbers(tree, [c for cs in found.values() for c in cs], dialect),
        time_limit_ms=TIME_LIMIT_MS,
        max_rows=len(shown) + 1,
    )
    ordered = tree.args.get("order") is not None
    read = again.rows[: len(shown)] if result.truncated else again.rows
    if _rows(read, ordered) == _rows(shown, ordered):
        return CheckOutcome()
    names = sorted(found)
    message = (
        f"{', '.join(names)} {'stores' if len(names) == 1 else 'store'} numbers as text, and "
        f"the SQL compares, orders or averages {'it' if len(names) == 1 else 'them'} as text "
        f"(a text that is no number, such as 'null', counts as 0): read as numbers the answer "
        f"is {_first(again.rows)} instead of {_first(shown)}. Read them as numbers and leave "
        "out the texts that are none."
    )
    evidence = {
        "columns": names,
        "answer": [list(r) for r in shown[:3]],
        "as_numbers": [list(r) for r in again.rows[:3]],
    }
    return CheckOutcome((Finding("signal.numbers_as_text", "signal", message, evidence),))


def _first(rows: tuple[tuple[object, ...], ...]) -> str:
    if not rows:
        return "no rows"
    first = ", ".join(repr(v) for v in rows[0])
    return f"({first}){' ...' if len(rows) > 1 else ''}"
