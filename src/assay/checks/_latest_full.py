"""The latest period with data taken as the last full one, never checked to be complete.

"What was our total in-store sales revenue in the last full calendar year we have data for?"
answered with ``d_year = (SELECT MAX(d_year) FROM store_sales JOIN date_dim ...)`` sums 2003,
of which the data holds two days; the last full year is 2002 (agreed16, h16_d13 and h16_h16:
both shown at 1.00, five samples agreeing). A question that says "full" or "complete" asks the
SQL to tell a whole period from a partial one; the latest period with data is the one most
likely to be partial, and a bare ``MAX`` never looks.

``latest_taken_as_full``: the question says "the last (latest, most recent) full (complete,
whole) year, quarter or month", and the SQL compares a column, or a year or month taken from
one, with a scalar subquery whose one value is a bare ``MAX`` (not ``MAX(..) - 1``), and that
subquery tests nothing about completeness (no HAVING, no 12, no 31 December):
``signal.period_bound``. ``period_end_included`` reads it.

Silent when the question does not say "full" or "complete", or when the SQL does not parse: its
silence is never evidence of a right answer.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._context import CheckContext
from assay.checks._where import finding, tree_of
from assay.types import Finding

__all__ = ["latest_taken_as_full"]

_ASKED = re.compile(
    r"\b(?:last|latest|most recent)\s+(?:full|complete|completed|whole|entire)\s+"
    r"(?:calendar\s+|fiscal\s+)?(year|quarter|month)\b"
)


def _bare_max(node: exp.Expr) -> exp.Select | None:
    """The subquery's SELECT when ``node`` is ``(SELECT MAX(..) ...)`` with one value."""
    query = node.this if isinstance(node, exp.Subquery) else None
    if not isinstance(query, exp.Select) or len(query.expressions) != 1:
        return None
    value = query.expressions[0]
    value = value.this if isinstance(value, exp.Alias) else value
    return query if isinstance(value, exp.Max) else None


def _checks_completeness(query: exp.Select) -> bool:
    if query.find(exp.Having) is not None:
        return True
    # a month count or 31 December: the subquery looks at how much of the period it holds
    return any(lit.name == "12" or "12-31" in lit.name for lit in query.find_all(exp.Literal))


def latest_taken_as_full(ctx: CheckContext) -> list[Finding]:
    """``signal.period_bound`` for "the last full calendar year" as ``= (SELECT MAX(year)
    ...)`` (see the module docstring)."""
    asked = _ASKED.search(ctx.question.lower())
    tree = tree_of(ctx) if asked is not None else None
    if tree is None or asked is None:
        return []
    for eq in tree.find_all(exp.EQ):
        for side in (eq.left, eq.right):
            query = _bare_max(side)
            if query is None or _checks_completeness(query):
                continue
            return [
                finding(
                    "signal.period_bound",
                    f"The question asks for the last full {asked.group(1)}, but the SQL takes "
                    f"the latest {asked.group(1)} with data ({query.sql()}), never checking that "
                    "it is complete.",
                    said=asked.group(0),
                    sql=query.sql(),
                )
            ]
    return []
