"""A share of all rows divided by ``COUNT(column)``: the rows whose column is NULL left out.

"What percentage of our customers have the preferred customer flag set?" as ``SELECT 100.0 *
sum(CASE WHEN c_preferred_cust_flag = 'Y' THEN 1 ELSE 0 END) / count(c_preferred_cust_flag)
FROM customer`` answers 49.4%: ``COUNT(column)`` skips the 29 customers (of 1,000 at TPC-DS
scale 0.01) with no flag recorded, so the share is of the customers with a flag, not of "our
customers"; the right answer, over ``count(*)``, is 48.0% (agreed22, h22_d02: shown at 1.00,
five samples agreeing).

``share_of_non_null`` says so (``signal.share_of_non_null``) when the question asks a share
(``_rates.RATE``), a division's denominator is ``COUNT(c)`` of a plain column, its numerator
reads that same column (a share of the column's values), the column holds a NULL (measured in
the engine: the column's profile), and neither the SELECT's WHERE reads the column (a
comparison there drops its NULLs, so ``COUNT(c)`` counts every row kept) nor the question
restricts the base to rows with a value ("of those with a recorded flag", "where known").
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import Catalog
from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._rates import RATE
from assay.checks._sql import bare
from assay.checks._values import _owner
from assay.checks._where import finding, tree_of
from assay.types import Finding

__all__ = ["share_of_non_null"]

# Words that put only the rows with a value in the base: "of customers whose flag is known",
# "among those with a recorded answer", "non-null", "where reported".
_VALUED = re.compile(
    r"\b(known|recorded|reported|non[- ]?null|not null|non[- ]?missing|non[- ]?empty|"
    r"filled in|specified|stated|answered|among (?:those|them|the ones))\b",
    re.IGNORECASE,
)


def share_of_non_null(ctx: CheckContext) -> CheckOutcome:
    """``signal.share_of_non_null``: a share of all rows over ``COUNT(c)``, ``c`` holding NULLs
    (the module docstring)."""
    if not RATE.search(ctx.question) or _VALUED.search(ctx.question):
        return CheckOutcome()
    tree = tree_of(ctx) if ctx.catalog is not None and ctx.profiles is not None else None
    if tree is None or ctx.catalog is None or ctx.profiles is None:
        return CheckOutcome()
    for div in tree.find_all(exp.Div):
        column = _counted_column(div.expression)
        owner = _owner(column, tree, ctx.catalog) if column is not None else None
        if column is None or owner is None or not _reads(div.this, owner, tree, ctx.catalog):
            continue
        if _filtered(div, owner, tree, ctx.catalog):
            continue
        profile = ctx.profiles.profile(*owner)
        if profile is None or profile.n_null == 0:
            continue
        return CheckOutcome((_finding(column, profile.n_null, profile.n_rows),))
    return CheckOutcome()


def _counted_column(node: exp.Expr) -> exp.Column | None:
    """The column of a denominator ``COUNT(c)``, through parentheses, casts, ``NULLIF(_, 0)``
    and factors that are numbers (``100.0 * count(c)``); ``None`` for anything else.

    Example:
        >>> from sqlglot import parse_one
        >>> _counted_column(parse_one("CAST(count(flag) AS DOUBLE)")).name
        'flag'
        >>> _counted_column(parse_one("count(*)")) is None
        True
    """
    node = bare(node)
    if not isinstance(node, exp.Count) or isinstance(node.this, exp.Distinct):
        return None
    return node.this if isinstance(node.this, exp.Column) else None


def _reads(node: exp.Expr, owner: tuple[str, str], tree: exp.Expr, catalog: Catalog) -> bool:
    """Whether ``node`` reads the counted column ``owner`` (table, column)."""
    return any(_owner(c, tree, catalog) == owner for c in node.find_all(exp.Column))


def _filtered(div: exp.Div, owner: tuple[str, str], tree: exp.Expr, catalog: Catalog) -> bool:
    """Whether the WHERE of the division's SELECT reads the counted column (its NULLs dropped)."""
    select = div.find_ancestor(exp.Select)
    where = select.args.get("where") if select is not None else None
    return where is not None and _reads(where, owner, tree, catalog)


def _finding(column: exp.Column, n_null: int, n_rows: int) -> Finding:
    name = column.sql()
    return finding(
        "signal.share_of_non_null",
        f"The question asks a share of all the rows but the SQL divides by COUNT({name}), "
        f"which leaves out the {n_null} of {n_rows} rows whose {name} is NULL: the share is "
        f"of the rows with a {name}, not of all. Divide by COUNT(*), or say that only rows "
        f"with a {name} are meant.",
        column=name,
        n_null=n_null,
        n_rows=n_rows,
    )
