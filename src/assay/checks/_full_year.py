"""The last full year asked, the latest year in the data taken, its completeness never tested.

"What was our total in-store sales revenue (extended sales price) in the last full calendar
year we have data for?" as ``WHERE d_year = (SELECT MAX(d_year) FROM store_sales JOIN
date_dim ...)``: TPC-DS's sales end on 2003-01-02, so the latest year holds two days and the
last full one is 2002 (agreed16, h16_d13, withheld before only by a false ``column_mismatch``
that outside tryout 28 removed; h16_h16, "the last complete calendar year" as ``EXTRACT(YEAR
FROM o_orderdate) = (SELECT MAX(EXTRACT(YEAR ...)))``, was shown).

``full_year_unchecked`` says so (``signal.full_year_unchecked``) when the question asks for the
last full, complete or whole year, the SQL compares a year (a column named year, ``YEAR(d)``,
``EXTRACT(YEAR FROM d)``) with a subquery's ``MAX`` of a year, and nothing in the SQL tests a
year's completeness: no HAVING, no 31 December, no 12 months or 365 days. The latest year may
be complete; the SQL does not know it, so the answer is withheld, named.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._where import finding, tree_of

__all__ = ["full_year_unchecked"]

_FULL_YEAR = re.compile(
    r"\b(?:last|latest|most recent|final)\s+(?:full|complete|completed|whole|entire)\s+"
    r"(?:calendar\s+|fiscal\s+)?year\b"
)
# what an SQL that tests a year's completeness writes: a count of months or days, the last day
_COMPLETE = frozenset({"12", "365", "366"})


def _is_year(node: exp.Expr) -> bool:
    if isinstance(node, exp.Year):
        return True
    if isinstance(node, exp.Extract):
        return node.this.name.lower() in {"year", "years", "yyyy", "y"}
    if isinstance(node, exp.Column):
        return "year" in re.split(r"[^a-z0-9]+", node.name.lower())
    return False


def _latest_year(node: exp.Expr) -> bool:
    """``(SELECT MAX(year) ...)``."""
    select = node.this if isinstance(node, exp.Subquery) else None
    if not isinstance(select, exp.Select) or len(select.expressions) != 1:
        return False
    top = select.expressions[0].unalias()
    return isinstance(top, exp.Max) and _is_year(top.this)


def _completeness_tested(tree: exp.Expr) -> bool:
    if tree.find(exp.Having) is not None:
        return True
    for literal in tree.find_all(exp.Literal):
        if literal.name.strip() in _COMPLETE or "12-31" in literal.name:
            return True
    return False


def full_year_unchecked(ctx: CheckContext) -> CheckOutcome:
    """``signal.full_year_unchecked``: "the last full calendar year" as ``year = (SELECT
    MAX(year) ...)`` (the module docstring)."""
    tree = tree_of(ctx) if _FULL_YEAR.search(ctx.question.lower()) else None
    if tree is None or _completeness_tested(tree):
        return CheckOutcome()
    for node in tree.find_all(exp.EQ):
        for side, other in ((node.this, node.expression), (node.expression, node.this)):
            if _is_year(side) and _latest_year(other):
                return CheckOutcome(
                    (
                        finding(
                            "signal.full_year_unchecked",
                            "The question asks for the last full year, but the SQL takes the "
                            f"latest year in the data ({node.sql()}), which may hold only a "
                            "few days: nothing in it tests that the year is complete.",
                            condition=node.sql(),
                        ),
                    )
                )
    return CheckOutcome()
