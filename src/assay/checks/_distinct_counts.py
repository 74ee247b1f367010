"""The COUNT(DISTINCT ...) an answer returns and whose DISTINCT changes what it counts.

``aggregate_fit`` says a COUNT(DISTINCT) disagrees with a question that does not say
"distinct". Two kinds of them are not the answer's quantity, and right answers written with
them were withheld on the Spider slice:

- one that only picks or ranks rows: in a WHERE, HAVING or ORDER BY, at any depth ("makers
  that produced cars in both 1970 and 1971" as ``HAVING count(DISTINCT Year) = 2``; "the
  country with the most car makers" as ``ORDER BY COUNT(DISTINCT Maker) DESC LIMIT 1``);
- one over a column whose values are all different and never null in its table (a key): its
  distinct values are the table's rows, so it counts the entities and the DISTINCT only undoes a
  join's repeats ("How many car makers are there in france?" as
  ``COUNT(DISTINCT car_makers.id)`` over a join).

Without the database's profiles a returned COUNT(DISTINCT) is kept: the check then fires, as
it did before (fail closed).
"""

from __future__ import annotations

from sqlglot import exp

from assay.checks._context import CheckContext
from assay.checks._sql import column_reads
from assay.errors import ExecutionError

__all__ = ["unasked_distinct_counts"]

# Clauses that pick or rank rows: an aggregate under them is never a returned value.
_FILTERS = (exp.Where, exp.Having, exp.Order)


def unasked_distinct_counts(ctx: CheckContext, tree: exp.Expr) -> list[exp.Count]:
    """The COUNT(DISTINCT) nodes whose DISTINCT can change the answer's value (docstring)."""
    return [
        count
        for count in tree.find_all(exp.Count)
        if isinstance(count.this, exp.Distinct)
        and count.find_ancestor(*_FILTERS) is None
        and not _counts_keys(ctx, tree, count.this)
    ]


def _counts_keys(ctx: CheckContext, tree: exp.Expr, distinct: exp.Distinct) -> bool:
    """Whether the one counted column is unique and never null in its one base table."""
    if ctx.catalog is None or ctx.profiles is None or len(distinct.expressions) != 1:
        return False
    column = distinct.expressions[0]
    if not isinstance(column, exp.Column):
        return False
    reads = column_reads(tree, ctx.catalog, column)
    if len(reads) != 1:
        return False
    try:
        profile = ctx.profiles.profile(*reads[0])
    except ExecutionError:  # not measured: not known to be a key
        return False
    return profile is not None and profile.n_null == 0 and profile.n_distinct == profile.n_rows
