"""An overall rate asked for, answered as the average of each row's rate.

"What was the overall click-through rate across all campaign days?" as
``AVG(clicks * 1.0 / impressions)`` weighs a day of 10 impressions like a day of 10,000; the
overall rate is ``SUM(clicks) / SUM(impressions)`` (agreed19, a development set: shown at 1.00,
five samples agreeing). The question says "overall" and asks for no average; the SQL returns
the AVG of a division of two columns: ``signal.average_of_ratios``.

Silent when the question says "average", "mean", "typical" or "median" (an average of rates is
then what is asked), when the division's denominator is a constant (a percentage of one column
is no ratio of two), or when the SQL divides sums.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._where import finding, tree_of

__all__ = ["average_of_ratios"]

_OVERALL = re.compile(r"\boverall\b")
_AVERAGE_ASKED = re.compile(r"\b(?:average|averages|avg|mean|typical|median)\b")


def _ratio_averaged(tree: exp.Expr) -> exp.Avg | None:
    """The outer query's first AVG over a division whose two sides each read a column."""
    if not isinstance(tree, exp.Select):
        return None
    for projection in tree.expressions:
        for avg in projection.find_all(exp.Avg):
            argument: exp.Expr = avg.this
            for div in argument.find_all(exp.Div):
                sides = (div.this, div.expression)
                if all(side.find(exp.Column) is not None for side in sides):
                    return avg if isinstance(avg, exp.Avg) else None
    return None


def average_of_ratios(ctx: CheckContext) -> CheckOutcome:
    """``signal.average_of_ratios``: "the overall rate" as ``AVG(a / b)`` (the module
    docstring)."""
    text = ctx.question.lower()
    if not _OVERALL.search(text) or _AVERAGE_ASKED.search(text):
        return CheckOutcome()
    tree = tree_of(ctx)
    avg = _ratio_averaged(tree) if tree is not None else None
    if avg is None:
        return CheckOutcome()
    return CheckOutcome(
        (
            finding(
                "signal.average_of_ratios",
                f"The question asks for an overall rate, but the SQL averages each row's rate "
                f"({avg.sql()}): every row weighs the same, whatever its size. The overall rate "
                "divides the totals (SUM of the numerator over SUM of the denominator).",
                sql=avg.sql(),
            ),
        )
    )
