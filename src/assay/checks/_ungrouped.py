"""Two questions that say "per" or "every" and ask for one number, not one per group.

``grouping_fit`` says ``signal.grouping_missing`` when a question says each, per or every and
the SQL aggregates without GROUP BY. Two readings of those words ask for no groups, and right
answers written for them were withheld (agreed19):

- a rate over days: "On average, how many clicks did the campaign get per day?" as
  ``AVG(clicks)`` over a table whose rows are one per day. ``per_day_average`` says so when the
  question asks an average "per day", the SQL averages columns of one base table with no join
  and no GROUP BY, and the rows it averages are measured in the engine to be one per date of a
  DATE column of that table (the answer's own FROM and WHERE counted again: rows = distinct
  dates). Several rows a day (per region, per product) average rows, not days: still judged.
- a set less one member: "total sales for every category except Footwear" as one SUM with
  ``category <> 'Footwear'``: "every ... except" names the categories summed, not a breakdown.
  ``every_except`` says so when "every <noun> except (but, other than, apart from) ..." is said
  and the SQL's WHERE excludes a value (``<>``, ``NOT IN``, ``NOT LIKE``). "each" is never read
  so: "each category except Footwear" stays a breakdown.

Anything unmeasured (no profiles, a probe that fails) keeps the signal: silence here is never
evidence of a right answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._context import CheckContext
from assay.errors import ExecutionError

__all__ = ["every_except", "per_day_average"]

TIME_LIMIT_MS = 5_000
_PER_DAY = re.compile(r"\b(?:per|a) day\b")
_AVERAGE = re.compile(r"\b(?:average|avg|mean)\b")
_EVERY_EXCEPT = re.compile(r"\bevery [a-z_]+ (?:except|but|other than|apart from|excluding|save)\b")
# "per" or "each" said elsewhere groups: "every category except Footwear, per region"
_OTHER_GROUPING = re.compile(r"\b(?:each|per|by)\b")


def every_except(question: str, tree: exp.Expr) -> bool:
    """Whether "every <noun> except ..." names the set the SQL sums, one value of it excluded
    by a negated condition (the module docstring)."""
    text = " ".join(question.lower().split())
    if not _EVERY_EXCEPT.search(text) or _OTHER_GROUPING.search(text):
        return False
    where = tree.args.get("where") if isinstance(tree, exp.Select) else None
    if where is None:
        return False
    negated = (exp.NEQ, exp.Not)
    return any(isinstance(node, negated) for node in where.find_all(*negated))


def _dates(ctx: CheckContext, table: str) -> list[str]:
    """The DATE (not timestamp) columns of ``table``: each value names one day."""
    assert ctx.catalog is not None
    info = ctx.catalog.table(table)
    if info is None:
        return []
    return [c.name for c in info.columns if c.type.upper() == "DATE"]


def _one_table(tree: exp.Expr) -> exp.Table | None:
    """The one base table an ungrouped, unjoined outer SELECT reads."""
    if not isinstance(tree, exp.Select) or tree.args.get("joins") or tree.args.get("group"):
        return None
    source = tree.args.get("from_") or tree.args.get("from")
    table = source.this if source is not None else None
    return table if isinstance(table, exp.Table) else None


def per_day_average(ctx: CheckContext, tree: exp.Expr) -> bool:
    """Whether "average ... per day" is answered by AVG over rows that are one per day (the
    module docstring), measured in the engine."""
    text = ctx.question.lower()
    if not (_PER_DAY.search(text) and _AVERAGE.search(text)) or tree.find(exp.Avg) is None:
        return False
    table = _one_table(tree)
    if table is None or ctx.catalog is None or ctx.profiles is None:
        return False
    for column in _dates(ctx, table.name):
        probe = tree.copy()
        for arg in ("order", "limit", "offset", "having"):
            probe.set(arg, None)
        day = exp.column(column, table=table.alias_or_name, quoted=True)
        probe.set(
            "expressions",
            [exp.Count(this=exp.Star()), exp.Count(this=exp.Distinct(expressions=[day]))],
        )
        try:
            rows = ctx.profiles.runner.execute(
                probe.sql(dialect=ctx.dialect), time_limit_ms=TIME_LIMIT_MS, max_rows=1
            ).rows
        except ExecutionError:
            return False
        if rows and rows[0][0] and rows[0][0] == rows[0][1]:
            return True
    return False
