"""A sum of one table's column over a join that repeats that table's rows.

"What is the total revenue for each region?" as ``SUM(d.REVENUE) FROM daily_revenue d JOIN
region r ON d.Region_id = r.Region_id GROUP BY r.Region`` adds each day's revenue once per
state of its region (region has one row per state); "mentions on the days the campaign ran"
joined on ``m.category = c.category`` adds each mention once per campaign day (agreed19, a
development set: both shown at 1.00, five samples agreeing). The sum reads one table; whether
the join repeats that table's rows within a group is measured in the engine, never guessed from
names: the answer's own FROM, WHERE and GROUP BY counted again as ``count(t.rowid)`` against
``count(DISTINCT t.rowid)``. More rows than distinct rows in any group:
``signal.sum_fanned_out``, the total counts some rows twice or more. The rowid is counted, not
``count(*)``: the one empty row a LEFT JOIN gives a group with none of the summed table is no
repeat (outside tryout 36: "mentions for each product category" as a LEFT JOIN from the
categories, the right answer, was withheld as one repeated row).

A row of the summed table in two groups (a product in two categories) is no repeat: each group
is counted apart. Silent on ``SUM(DISTINCT ..)``, a table read twice, a sum over columns of two
tables, an engine without ``rowid`` (the probe fails), and without the engine's profiles.
An indicator summed (``SUM(CASE WHEN d.d_holiday = 'Y' THEN 1 ELSE 0 END)``) counts the join's
rows: silent too when the question counts the rows of a table read once that the join repeats
in no group (``_counts_rows_once``), or leaves its counted noun unsaid ("how many are owned by
female students") while a table other than the summed one is repeated in no group.

An average of one table's column over such a join weighs each row by its repeats: "What is the
average capacity of the stadiums that have hosted at least one concert?" as ``avg(s.Capacity)
FROM concert c JOIN stadium s ...`` counts a stadium once per concert (agreed23, a development
set: shown at 1.00, five samples agreeing). The question must average over that table's own
rows, naming it right after "average ... of (the)" ("the average capacity of the stadiums"):
"the average price of the items sold" over sales lines may mean each sale, and stays silent.
The same measure then says ``signal.average_fanned_out``.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._cues import named_tables, words
from assay.checks._named_fit import counts_table
from assay.checks._sql import column_reads, indicator_sum
from assay.checks._where import finding, tree_of
from assay.errors import ExecutionError

__all__ = ["average_fanned_out", "sum_fanned_out"]

TIME_LIMIT_MS = 5_000
# "the average capacity of the stadiums", "the mean age of all students": the rows averaged
_AVERAGE_OF = re.compile(
    r"\b(?:average|mean)\s+(?:[a-z]+\s+){0,3}?of\s+(?:the\s+|all\s+|all\s+the\s+)?([a-z]+)"
)


# "how many are owned", "how many were sold": the counted noun left unsaid
_ELIDED = re.compile(
    r"\bhow many\s+(?:of (?:them|these|those)\s+)?(?:are|were|is|was|did|do|does|have|has|had|"
    r"got|get|went|came)\b",
    re.IGNORECASE,
)


def _alias_of(select: exp.Select, table: str) -> str | None:
    """The one name the FROM and JOINs read ``table`` under, or ``None`` (absent or twice)."""
    sources = [select.args.get("from_") or select.args.get("from")]
    sources += list(select.args.get("joins") or [])
    names = [
        s.this.alias_or_name
        for s in sources
        if s is not None and isinstance(s.this, exp.Table) and s.this.name.lower() == table.lower()
    ]
    return names[0] if len(names) == 1 else None


def _summed_table(
    ctx: CheckContext, select: exp.Select, kind: type[exp.AggFunc] = exp.Sum
) -> tuple[exp.AggFunc, str, str] | None:
    """The first plain SUM (or ``kind``) the outer SELECT returns over columns of one base
    table, with that table and the name the query reads it under."""
    assert ctx.catalog is not None
    for projection in select.expressions:
        for total in projection.find_all(kind):
            if isinstance(total.this, exp.Distinct):
                continue
            columns = list(total.find_all(exp.Column))
            reads = {r for c in columns for r in column_reads(select, ctx.catalog, c)}
            tables = {table.lower(): table for table, _ in reads}
            if len(columns) == 0 or len(reads) < 1 or len(tables) != 1:
                continue
            table = next(iter(tables.values()))
            alias = _alias_of(select, table)
            if alias is not None:
                return total, table, alias
    return None


def _most_repeated(ctx: CheckContext, select: exp.Select, alias: str) -> int:
    """The most rows of ``alias`` the join repeats within one group of the answer."""
    assert ctx.profiles is not None
    probe = select.copy()
    for arg in ("order", "limit", "offset", "having", "distinct"):
        probe.set(arg, None)
    rowid = exp.column("rowid", table=alias)
    probe.set(
        "expressions",
        [
            exp.alias_(exp.Count(this=rowid.copy()), "n"),
            exp.alias_(exp.Count(this=exp.Distinct(expressions=[rowid])), "k"),
        ],
    )
    outer = exp.select("max(n - k)").from_(probe.subquery("groups"))
    rows = ctx.profiles.runner.execute(
        outer.sql(dialect=ctx.dialect), time_limit_ms=TIME_LIMIT_MS, max_rows=1
    ).rows
    value = rows[0][0] if rows else None
    return value if isinstance(value, int) else 0


def _counts_rows_once(
    ctx: CheckContext, select: exp.Select, total: exp.AggFunc, summed: str
) -> bool:
    """ "How many web sales lines in 2002 were sold on a holiday?" as ``SUM(CASE WHEN
    d.d_holiday = 'Y' THEN 1 ELSE 0 END)`` over web_sales joined to date_dim: an indicator
    summed counts the join's rows, and when the question counts the rows of a table read once
    that the join repeats in no group, each is counted once, however often the date's row
    repeats (agreed20: withheld as a sum of date_dim's column counted twice)."""
    if not indicator_sum(total):
        return False
    assert ctx.catalog is not None
    read = [t for t in ctx.catalog.table_names if _alias_of(select, t) is not None]
    counted = [t for t in read if counts_table(ctx.question, t)]
    # "For each pet type, how many are owned by female students?" names nothing it counts (a
    # verb right after "how many"): the indicator then counts the rows of a table the join
    # repeats in no group (each pet once, its owner's row repeated per pet: agreed26 h26_s10,
    # the right answer withheld); "how many holidays" names its noun and is still judged
    if not counted and _ELIDED.search(ctx.question):
        counted = [t for t in read if t.lower() != summed.lower()]
    for table in counted:
        alias = _alias_of(select, table)
        if alias is not None and _most_repeated(ctx, select, alias) <= 0:
            return True
    return False


def sum_fanned_out(ctx: CheckContext) -> CheckOutcome:
    """``signal.sum_fanned_out``: a region's revenue added once per state (the module
    docstring)."""
    tree = tree_of(ctx) if ctx.catalog is not None and ctx.profiles is not None else None
    if not isinstance(tree, exp.Select) or not tree.args.get("joins"):
        return CheckOutcome()
    summed = _summed_table(ctx, tree)
    if summed is None:
        return CheckOutcome()
    total, table, alias = summed
    try:
        repeated = _most_repeated(ctx, tree, alias)
        if repeated > 0 and _counts_rows_once(ctx, tree, total, table):
            return CheckOutcome()
    except ExecutionError:  # no rowid in this engine, or not measured: no evidence
        return CheckOutcome()
    if repeated <= 0:
        return CheckOutcome()
    return CheckOutcome(
        (
            finding(
                "signal.sum_fanned_out",
                f"The SQL adds {total.sql()}, a column of {table}, over a join that repeats "
                f"{table}'s rows: one group takes {repeated:,} repeated rows of {table}, so "
                f"the total counts some rows twice or more. Join on {table}'s key, or sum "
                f"{table} first and join the totals.",
                sql=total.sql(),
                table=table,
                repeated=repeated,
            ),
        )
    )


def average_fanned_out(ctx: CheckContext) -> CheckOutcome:
    """``signal.average_fanned_out``: "the average capacity of the stadiums" averaged over a
    join that repeats each stadium once per concert (the module docstring)."""
    tree = tree_of(ctx) if ctx.catalog is not None and ctx.profiles is not None else None
    if not isinstance(tree, exp.Select) or not tree.args.get("joins"):
        return CheckOutcome()
    asked = _AVERAGE_OF.search(" ".join(words(ctx.question)))
    averaged = _summed_table(ctx, tree, exp.Avg) if asked is not None else None
    if asked is None or averaged is None:
        return CheckOutcome()
    mean, table, alias = averaged
    if not named_tables(asked.group(1), (table,)):
        return CheckOutcome()
    try:
        repeated = _most_repeated(ctx, tree, alias)
    except ExecutionError:  # no rowid in this engine, or not measured: no evidence
        return CheckOutcome()
    if repeated <= 0:
        return CheckOutcome()
    return CheckOutcome(
        (
            finding(
                "signal.average_fanned_out",
                f"The question averages over {table}'s rows, but the SQL takes {mean.sql()} "
                f"over a join that repeats them: one group takes {repeated:,} repeated rows of "
                f"{table}, so a row counts once per match and weighs the average. Keep each "
                f"row of {table} once (filter it with EXISTS or IN) and average that.",
                sql=mean.sql(),
                table=table,
                repeated=repeated,
            ),
        )
    )
