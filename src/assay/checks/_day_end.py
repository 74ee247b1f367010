"""A range closed on a day, over timestamps: the rows of that day after midnight are left out.

"What was total revenue in the first quarter of 2024?" as ``DATE BETWEEN '2024-01-01' AND
'2024-03-31'`` on a column of timestamps (15:07 each day) stops at midnight on 31 March and
leaves out the whole of that day (agreed19, a development set: shown at 1.00, five samples
agreeing). ``BETWEEN`` reads as "up to and including 31 March", and on dates it is right; on
timestamps it is not. Whether the column holds times is measured in the engine, never guessed
from its name or type: the rows of the table after midnight on the bound's day and before the
next day. Any such row: ``signal.day_end_dropped``.

Silent on an exclusive bound (``< '2024-04-01'``), on a bound with a time (``'2024-03-31
23:59:59'``), on a column of dates (no row after midnight), and without the engine's profiles.
"""

from __future__ import annotations

import datetime as dt
import re

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._sql import column_reads
from assay.checks._where import finding, tree_of
from assay.errors import ExecutionError

__all__ = ["day_end_dropped"]

TIME_LIMIT_MS = 5_000
_DAY = re.compile(r"((?:19|20)\d\d)-(\d\d)-(\d\d)")


def _day(node: exp.Expr | None) -> dt.date | None:
    """A bound written as a day alone: ``'2024-03-31'``, ``DATE '2024-03-31'``."""
    if isinstance(node, exp.Cast):
        node = node.this
    if not isinstance(node, exp.Literal) or not node.is_string:
        return None
    match = _DAY.fullmatch(node.name.strip())
    try:
        return dt.date(*map(int, match.groups())) if match else None
    except ValueError:
        return None


def _upper_bounds(tree: exp.Expr) -> list[tuple[exp.Column, dt.date]]:
    """Each column closed inclusively on a day: ``BETWEEN .. AND day`` or ``<= day``."""
    found: list[tuple[exp.Column, dt.date]] = []
    for between in tree.find_all(exp.Between):
        day = _day(between.args.get("high"))
        if isinstance(between.this, exp.Column) and day is not None:
            found.append((between.this, day))
    for le in tree.find_all(exp.LTE):
        day = _day(le.expression)
        if isinstance(le.this, exp.Column) and day is not None:
            found.append((le.this, day))
    return found


def _rows_after_midnight(ctx: CheckContext, table: str, column: str, day: dt.date) -> int:
    """How many rows of ``table`` fall on ``day`` after its midnight."""
    assert ctx.profiles is not None
    col = exp.column(column, quoted=True)
    probe = (
        exp.select(exp.Count(this=exp.Star()))
        .from_(exp.table_(table, quoted=True))
        .where(col > exp.Literal.string(day.isoformat()))
        .where(col < exp.Literal.string((day + dt.timedelta(days=1)).isoformat()))
    )
    rows = ctx.profiles.runner.execute(
        probe.sql(dialect=ctx.dialect), time_limit_ms=TIME_LIMIT_MS, max_rows=1
    ).rows
    count = rows[0][0] if rows else 0
    return count if isinstance(count, int) else 0


def day_end_dropped(ctx: CheckContext) -> CheckOutcome:
    """``signal.day_end_dropped``: ``BETWEEN '2024-01-01' AND '2024-03-31'`` over timestamps
    (the module docstring)."""
    tree = tree_of(ctx) if ctx.catalog is not None and ctx.profiles is not None else None
    if tree is None or ctx.catalog is None:
        return CheckOutcome()
    for column, day in _upper_bounds(tree):
        reads = column_reads(tree, ctx.catalog, column)
        if len(reads) != 1:
            continue
        table, name = reads[0]
        try:
            dropped = _rows_after_midnight(ctx, table, name, day)
        except ExecutionError:  # not measured: no evidence
            continue
        if dropped:
            return CheckOutcome(
                (
                    finding(
                        "signal.day_end_dropped",
                        f"The SQL closes {column.sql()} on {day} included, but {table}.{name} "
                        f"holds times of day: {dropped:,} rows on {day} after midnight are left "
                        f"out. Bound it by the next day, exclusive (< '{day + dt.timedelta(1)}').",
                        sql=column.sql(),
                        day=day.isoformat(),
                        dropped=dropped,
                    ),
                )
            )
    return CheckOutcome()
