"""``composed``: a column the question names, read through the columns that add up to it.

"What percentage of all lifetime spend went to tax?" is answered by
``sum(LIFETIME_SPEND_PRETAX + LIFETIME_TAX_PAID)`` as well as by ``sum(LIFETIME_SPEND)`` when
the table's with-tax column is its pretax column plus its tax column on every row (agreed20:
the right answer was withheld as column_mismatch, "names LIFETIME_SPEND but aggregates
LIFETIME_TAX_PAID, LIFETIME_SPEND_PRETAX instead"). ``column_fit`` stays silent when the SQL
aggregates a sum of the table's columns that the engine measures equal to the named column on
every row of the table (none null, none off by a cent or more); no row measured, a probe that
fails, or a single row that differs keeps the signal (fail closed).
"""

from __future__ import annotations

from sqlglot import exp

from assay.checks._context import CheckContext
from assay.errors import ExecutionError

__all__ = ["composed"]

TIME_LIMIT_MS = 5_000
_AGGREGATES = (exp.Sum, exp.Avg, exp.Min, exp.Max)


def composed(ctx: CheckContext, tree: exp.Expr, table: str, named: str) -> bool:
    """Whether an aggregate of ``tree`` takes a sum of columns equal, row by row, to
    ``table.named`` (the module docstring)."""
    if ctx.profiles is None or ctx.catalog is None:
        return False
    info = ctx.catalog.table(table)
    if info is None:
        return False
    own = {c.lower() for c in info.column_names}
    for total in _column_sums(tree):
        names = [c.name for c in total.find_all(exp.Column)]
        if named.lower() in {n.lower() for n in names} or not all(n.lower() in own for n in names):
            continue
        if _equal_everywhere(ctx, info.name, named, total):
            return True
    return False


def _column_sums(tree: exp.Expr) -> list[exp.Add]:
    """The outermost ``a + b (+ ...)`` of plain columns inside an aggregate."""
    found = []
    for agg in tree.find_all(*_AGGREGATES):
        for add in agg.find_all(exp.Add):
            if isinstance(add.parent, exp.Add):
                continue
            leaves = [n for n in add.flatten() if not isinstance(n, exp.Add)]
            if all(isinstance(n, exp.Column) for n in leaves):
                found.append(add)
    return found


def _equal_everywhere(ctx: CheckContext, table: str, named: str, total: exp.Add) -> bool:
    """Whether ``named`` equals ``total`` within a cent on every row of ``table``, measured."""
    assert ctx.profiles is not None
    parts = total.copy()
    for column in parts.find_all(exp.Column):
        column.set("table", None)
    gap = exp.Abs(this=exp.Sub(this=exp.column(named, quoted=True), expression=exp.paren(parts)))
    near = exp.LT(this=gap, expression=exp.Literal.number(0.01))
    equal = exp.Case().when(near, exp.Literal.number(1))
    probe = (
        exp.select(exp.Count(this=exp.Star()))
        .select(exp.Sum(this=equal.else_(exp.Literal.number(0))))
        .from_(exp.to_table(table, quoted=True))
    )
    try:
        rows = ctx.profiles.runner.execute(
            probe.sql(dialect=ctx.dialect), time_limit_ms=TIME_LIMIT_MS, max_rows=1
        ).rows
    except ExecutionError:
        return False
    return bool(rows) and bool(rows[0][0]) and rows[0][0] == rows[0][1]
