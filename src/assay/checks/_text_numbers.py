"""A number compared with a text column that stores no number.

``singer.Is_male`` (concert_singer) is declared ``bool`` and stores 'T' and 'F': ``WHERE Is_male =
1`` finds nothing, and five samples agreeing on it were shown at 1.00. For each number compared by
``=``, ``!=`` or ``IN`` with a column of a base table declared as text (or SQLite's ``bool``),
one bounded query reads up to ``MAX_VALUES`` distinct stored values; when there are that few and
none reads as a number, ``signal.literal_not_in_data`` names the column and what it stores. More
values than that, none, a value that is no string (a real BOOLEAN compares with 1 and finds
rows) or another type: silent, never evidence of a right answer. ``literal_in_data``
(``_values``) reads it, passing its resolver of a column's base table.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from sqlglot import exp

from assay.catalog import Catalog
from assay.checks._context import CheckContext
from assay.types import Finding

__all__ = ["MAX_VALUES", "numbers_in_text"]

Owner = Callable[[exp.Column, exp.Expr, Catalog], "tuple[str, str] | None"]

# Types that store text (SQLite keeps Spider's ``bool`` columns as text: 'T', 'F').
_TEXT_TYPES = re.compile(r"char|text|string|clob|bool", re.IGNORECASE)
MAX_VALUES = 100
TIME_LIMIT_MS = 2_000


def _is_number(value: str) -> bool:
    try:
        float(value.strip())
    except ValueError:
        return False
    return True


def _numbers_compared(tree: exp.Expr) -> list[tuple[exp.Column, str]]:
    """(column, number) pairs compared by ``=``, ``!=`` or ``IN``."""
    pairs: list[tuple[exp.Column, str]] = []
    for node in tree.find_all(exp.EQ, exp.NEQ, exp.In):
        if isinstance(node, exp.In):
            sides = [(node.this, v) for v in node.expressions]
        else:
            sides = [(node.this, node.expression), (node.expression, node.this)]
        for column, value in sides:
            if isinstance(value, exp.Neg):
                value = value.this
            if isinstance(column, exp.Column) and isinstance(value, exp.Literal):
                if not value.is_string:
                    pairs.append((column, value.name))
    return pairs


def numbers_in_text(ctx: CheckContext, tree: exp.Expr, owner: Owner) -> list[Finding]:
    """``signal.literal_not_in_data`` for ``Is_male = 1`` when Is_male stores 'T' and 'F'."""
    catalog, profiles = ctx.catalog, ctx.profiles
    if catalog is None or profiles is None:
        return []
    findings = []
    seen: set[tuple[str, str]] = set()
    for column, number in _numbers_compared(tree)[:8]:
        found = owner(column, tree, catalog)
        if found is None or found in seen:
            continue
        seen.add(found)
        info = catalog.table(found[0])
        col = info.column(found[1]) if info is not None else None
        if col is None or not _TEXT_TYPES.search(col.type):
            continue  # a number, a date or an undeclared type: no signal
        values = _text_values(ctx, found[0], found[1])
        stored = [v for v in values if isinstance(v, str)]
        if not stored or len(stored) < len(values) or any(_is_number(v) for v in stored):
            continue  # none, a number, or a BOOLEAN (True, False compares with 1 and finds rows)
        where = f"{found[0]}.{found[1]}"
        shown = ", ".join(repr(v) for v in stored[:5])
        findings.append(
            Finding(
                "signal.literal_not_in_data",
                "signal",
                f"{where} is compared with the number {number} but stores no number "
                f"(it stores {shown}{', ...' if len(stored) > 5 else ''}).",
                {"column": where, "literal": number, "stored": stored[:5]},
            )
        )
    return findings


def _text_values(ctx: CheckContext, table: str, column: str) -> list[object]:
    """Up to ``MAX_VALUES`` distinct non-null values; none when there are more (unread)."""
    assert ctx.profiles is not None
    dialect = {"duckdb": "duckdb", "sqlite": "sqlite", "postgres": "postgres"}.get(
        ctx.dialect, ctx.dialect
    )
    t = exp.to_identifier(table, quoted=True).sql(dialect=dialect)
    c = exp.to_identifier(column, quoted=True).sql(dialect=dialect)
    # A probe that fails or runs past its limit raises: the registry names it (fail closed).
    result = ctx.profiles.runner.execute(
        f"SELECT DISTINCT {c} FROM {t} WHERE {c} IS NOT NULL ORDER BY 1 LIMIT {MAX_VALUES + 1}",
        time_limit_ms=TIME_LIMIT_MS,
        max_rows=MAX_VALUES + 1,
    )
    values = [row[0] for row in result.rows]
    return values if len(values) <= MAX_VALUES else []
