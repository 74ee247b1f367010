"""One overall average asked, answered as the average of per-group averages.

"What was the overall average net paid per store sale line in 2002?" as ``SELECT avg(cat_avg)
FROM (SELECT i_category, avg(ss_net_paid) AS cat_avg ... GROUP BY i_category) t`` weighs a
category of ten lines like one of a million (agreed22, a development set: shown, five samples
agreeing); the overall average is the AVG over the lines themselves. The outer query averages
a column that its one source (a derived table or a CTE) computes as an AVG per group:
``signal.average_of_averages``.

Silent when the question says "average" (or "mean") more than once or says "averages" (an
average of averages is then what is asked: "the average of the departments' average
salaries"), when the source has no GROUP BY (one average averaged is itself), and when the
outer AVG reads anything but one bare column of that source.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._where import finding, tree_of

__all__ = ["average_of_averages"]

_AVERAGE = re.compile(r"\b(?:average|avg|mean)\b")
_AVERAGES = re.compile(r"\b(?:averages|means)\b")


def _source(select: exp.Select, tree: exp.Expr) -> exp.Select | None:
    """The SELECT behind the outer query's one source: a derived table, or a CTE it names."""
    source = select.args.get("from_") or select.args.get("from")
    if source is None or select.args.get("joins"):
        return None
    this = source.this
    if isinstance(this, exp.Subquery) and isinstance(this.this, exp.Select):
        return this.this
    if isinstance(this, exp.Table) and not this.db:
        for cte in tree.find_all(exp.CTE):
            if cte.alias_or_name.lower() == this.name.lower() and isinstance(cte.this, exp.Select):
                return cte.this
    return None


def _group_average(source: exp.Select, name: str) -> exp.Avg | None:
    """The source's AVG per group that its column ``name`` holds, or ``None``."""
    if source.args.get("group") is None:
        return None
    for projection in source.expressions:
        if projection.alias_or_name.lower() == name.lower():
            inner = projection.unalias()
            return inner if isinstance(inner, exp.Avg) else None
    return None


def _averaged_average(tree: exp.Expr) -> tuple[exp.Avg, exp.Avg] | None:
    """The outer AVG and the per-group AVG it averages, or ``None``."""
    select = tree
    if not isinstance(select, exp.Select):
        return None
    source = _source(select, tree)
    if source is None:
        return None
    for projection in select.expressions:
        for outer in projection.find_all(exp.Avg):
            column = outer.this
            if isinstance(column, exp.Column):
                inner = _group_average(source, column.name)
                if inner is not None and isinstance(outer, exp.Avg):
                    return outer, inner
    return None


def average_of_averages(ctx: CheckContext) -> CheckOutcome:
    """``signal.average_of_averages``: "the overall average" as the AVG of per-group AVGs (the
    module docstring)."""
    text = ctx.question.lower()
    if len(_AVERAGE.findall(text)) > 1 or _AVERAGES.search(text):
        return CheckOutcome()
    tree = tree_of(ctx)
    found = _averaged_average(tree) if tree is not None else None
    if found is None:
        return CheckOutcome()
    outer, inner = found
    return CheckOutcome(
        (
            finding(
                "signal.average_of_averages",
                f"The question asks for one average, but the SQL averages per-group averages "
                f"({outer.sql()} over {inner.sql()} per group): every group weighs the same, "
                "whatever its number of rows. The overall average is the AVG over the rows "
                "themselves.",
                outer=outer.sql(),
                inner=inner.sql(),
            ),
        )
    )
