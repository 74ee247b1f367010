"""An average per day (week, month, quarter, year) taken over single rows.

"What is the average daily sales amount for each region?" as ``SELECT region, avg(sales_amount)
FROM sales GROUP BY region`` averages product-day rows, several to a region's day (agreed22, a
development set: shown, five samples agreeing); the daily average adds up each region's day
first, then averages the days. The question asks an average per period ("average daily",
"daily average", "mean monthly"); the SQL's outer AVG reads a column of the base tables it
reads directly, its GROUP BY holds nothing of one date column of those tables, and the engine
counts more than one row in some group and period of the answer's own FROM, WHERE and GROUP BY:
``signal.period_rows_averaged``.

Silent when the averaged column's name says the period ("average monthly income" as
``avg(MonthlyIncome)``: each row is a month's), when the AVG reads a derived table or a CTE
(the totals per period made first), when the tables read hold no date column or more than one,
when the GROUP BY already reads that date column (the average within a period), when every
period of every group holds one row (each row is then a period's total), and without the
engine's profiles.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._where import finding, tree_of

__all__ = ["period_rows_averaged"]

TIME_LIMIT_MS = 5_000

_PERIODS = {
    "daily": "day",
    "weekly": "week",
    "monthly": "month",
    "quarterly": "quarter",
    "yearly": "year",
    "annual": "year",
}
# A period's label, written portably (strftime in DuckDB and SQLite, to_char in PostgreSQL).
# A week and a quarter are labelled finer, by day and by month: the rows counted in a finer
# period are never more, so the check may miss a repeat there but never invents one.
_LABEL = {"day": "%Y-%m-%d", "week": "%Y-%m-%d", "month": "%Y-%m", "quarter": "%Y-%m", "year": "%Y"}
_ADVERB = "|".join(_PERIODS)
_ASKED = re.compile(
    rf"\b(?:average|mean)\s+({_ADVERB})\b|\b({_ADVERB})\s+(?:average|mean)\b",
)


def _asked_period(question: str) -> str | None:
    """The period an average is asked per ("average daily" -> day), or ``None``.

    Example:
        >>> _asked_period("What is the average daily sales amount for each region?")
        'day'
        >>> _asked_period("What was the average order total price per year?") is None
        True
    """
    match = _ASKED.search(question.lower())
    return _PERIODS[match.group(1) or match.group(2)] if match else None


def _names_period(column: str, grain: str) -> bool:
    """Whether the averaged column's name already says the period ("MonthlyIncome",
    "daily_rate"): each row is then a period's value, and the average of rows is asked.

    Example:
        >>> _names_period("MonthlyIncome", "month"), _names_period("sales_amount", "day")
        (True, False)
    """
    words = {grain, *(adverb for adverb, period in _PERIODS.items() if period == grain)}
    return any(word in column.lower() for word in words)


def _base_tables(select: exp.Select, ctes: frozenset[str]) -> list[exp.Table] | None:
    """The tables the SELECT reads, when every source is a base table (no CTE, no subquery)."""
    sources = [select.args.get("from_") or select.args.get("from")]
    sources += list(select.args.get("joins") or [])
    tables = [s.this for s in sources if s is not None and isinstance(s.this, exp.Table)]
    if len(tables) != len(sources) or any(t.name.lower() in ctes for t in tables):
        return None
    return tables


def _date_column(ctx: CheckContext, tables: list[exp.Table]) -> exp.Column | None:
    """The one DATE or TIMESTAMP column of the tables read, qualified by its alias."""
    assert ctx.catalog is not None
    found = []
    for table in tables:
        info = ctx.catalog.table(table.name)
        for column in info.columns if info is not None else ():
            if re.search(r"date|time", column.type.lower()):
                found.append(exp.column(column.name, table=table.alias_or_name, quoted=True))
    return found[0] if len(found) == 1 else None


def _most_rows(ctx: CheckContext, select: exp.Select, period: exp.Expr) -> int:
    """The most rows of one group of the answer within one period."""
    assert ctx.profiles is not None
    probe = select.copy()
    for arg in ("order", "limit", "offset", "having", "distinct"):
        probe.set(arg, None)
    group = probe.args.get("group")
    keys = [
        select.expressions[int(k.name) - 1].unalias() if k.is_int else k
        for k in (group.expressions if group is not None else [])
    ]
    probe.set("expressions", [exp.alias_(exp.Count(this=exp.Star()), "n")])
    probe.set("group", exp.Group(expressions=[*keys, period]))
    outer = exp.select("max(n)").from_(probe.subquery("periods"))
    rows = ctx.profiles.runner.execute(
        outer.sql(dialect=ctx.dialect), time_limit_ms=TIME_LIMIT_MS, max_rows=1
    ).rows
    value = rows[0][0] if rows else None
    return value if isinstance(value, int) else 0


def _row_average(select: exp.Select) -> exp.Avg | None:
    """The outer query's first AVG over a bare column."""
    for projection in select.expressions:
        for avg in projection.find_all(exp.Avg):
            if isinstance(avg.this, exp.Column) and isinstance(avg, exp.Avg):
                return avg
    return None


def period_rows_averaged(ctx: CheckContext) -> CheckOutcome:
    """``signal.period_rows_averaged``: "the average daily sales" as the AVG of single rows
    (the module docstring)."""
    grain = _asked_period(ctx.question)
    tree = tree_of(ctx) if grain and ctx.catalog and ctx.profiles else None
    if grain is None or not isinstance(tree, exp.Select):
        return CheckOutcome()
    average = _row_average(tree)
    if average is not None and _names_period(average.this.name, grain):
        return CheckOutcome()
    tables = _base_tables(tree, frozenset(c.alias_or_name.lower() for c in tree.find_all(exp.CTE)))
    date = _date_column(ctx, tables) if average is not None and tables else None
    group = tree.args.get("group")
    if date is None or (
        group is not None
        and any(c.name.lower() == date.name.lower() for c in group.find_all(exp.Column))
    ):
        return CheckOutcome()
    period = exp.TimeToStr(this=date.copy(), format=exp.Literal.string(_LABEL[grain]))
    most = _most_rows(ctx, tree, period)
    if most <= 1:
        return CheckOutcome()
    return CheckOutcome(
        (
            finding(
                "signal.period_rows_averaged",
                f"The question asks for an average per {grain}, but the SQL averages single "
                f"rows ({average.sql() if average else ''}) where one {grain} holds up to "
                f"{most} of them in a group: it is the average row, not the average {grain}. "
                f"Add up each {grain} first (SUM grouped by the {grain}), then average those "
                "totals.",
                sql=average.sql() if average else "",
                rows_in_one_period=most,
            ),
        )
    )
