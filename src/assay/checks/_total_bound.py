"""A threshold the question puts on a total, applied to single rows.

"How many customers spent more than 5,000 in total at our store in 1999?" as ``... WHERE d_year
= 1999 AND ss_net_paid > 5000`` counts the customers with one sale line over 5,000, not those
whose lines add up to more (agreed22, a development set: shown, five samples agreeing). The
question says the bound of a total beside its number ("more than 5,000 in total", "20 units
altogether", "a total of over 300"); the SQL compares that number with a bare column in the
WHERE of an ungrouped query that reads base tables only (one row at a time), and with nothing
else (no ``HAVING SUM(..) > 5000``, no total of a CTE compared):
``signal.total_bound_on_rows``.

Silent when no total cue stands beside the number ("the combined revenue of orders over 500"
bounds single orders), when the rows are bounded by another number, when the compared column
already holds a total by its name ("LIFETIME_SPEND", "total_orders"), and when the number is
also compared with an aggregate or with a column of a derived table or CTE (the total, made
first, then bounded).
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._unasked_bound import _number
from assay.checks._where import finding, tree_of

__all__ = ["total_bound_on_rows"]

_NUMBER = r"(\d[\d,]*(?:\.\d+)?)"
# The cue says the bound of a total only beside its number: "more than 5,000 in total", "a
# total of over 300"; "the combined revenue of orders over 500" bounds single orders.
_TIED = re.compile(
    rf"\b(?:a|in) total of\s+(?:(?:more|less|fewer) than|over|under|above|below|at least|"
    rf"at most)?\s*\$?{_NUMBER}"
    rf"|{_NUMBER}(?:\s+[a-z]+){{0,3}}?\s+(?:in total|altogether|combined|all told|in sum)\b"
)
# A column that already holds a total ("LIFETIME_SPEND", "total_orders"): its rows are totals.
_HOLDS_TOTAL = re.compile(r"total|sum|lifetime|cumulative|count|overall|accum|ytd", re.IGNORECASE)
_COMPARISONS = (exp.GT, exp.GTE, exp.LT, exp.LTE)


def _tied_numbers(question: str) -> set[float]:
    """The numbers the question bounds a total by ("more than 5,000 in total" -> 5000).

    Example:
        >>> _tied_numbers("How many customers spent more than 5,000 in total in 1999?")
        {5000.0}
        >>> _tied_numbers("What was the combined revenue of orders over 500?")
        set()
    """
    found = set()
    for match in _TIED.finditer(question.lower()):
        text = match.group(1) or match.group(2)
        found.add(float(text.replace(",", "")))
    return found


def _row_select(select: exp.Select, ctes: frozenset[str]) -> bool:
    """Whether the SELECT reads base tables only (no derived table, no CTE), ungrouped."""
    if select.args.get("group") is not None:
        return False
    sources = [select.args.get("from_") or select.args.get("from")]
    sources += list(select.args.get("joins") or [])
    return all(
        s is not None and isinstance(s.this, exp.Table) and s.this.name.lower() not in ctes
        for s in sources
    )


def _compared(tree: exp.Expr, said: set[float]) -> list[tuple[exp.Expr, exp.Expr, float]]:
    """(comparison, other side, number) for each comparison of a said number with anything."""
    found: list[tuple[exp.Expr, exp.Expr, float]] = []
    for node in tree.find_all(*_COMPARISONS):
        for side, other in ((node.this, node.expression), (node.expression, node.this)):
            number = _number(other)
            if number is not None and number in said and number not in (0.0, 1.0):
                found.append((node, side, number))
    return found


def _on_rows(node: exp.Expr, side: exp.Expr, ctes: frozenset[str]) -> bool:
    """A bare column compared in the WHERE of a SELECT that reads single rows."""
    select = node.parent_select
    where = node.find_ancestor(exp.Where)
    return (
        isinstance(side, exp.Column)
        and isinstance(select, exp.Select)
        and where is not None
        and where.parent is select
        and _row_select(select, ctes)
    )


def total_bound_on_rows(ctx: CheckContext) -> CheckOutcome:
    """``signal.total_bound_on_rows``: "spent more than 5,000 in total" as ``WHERE
    ss_net_paid > 5000`` (the module docstring)."""
    tied = _tied_numbers(ctx.question)
    tree = tree_of(ctx) if tied else None
    if tree is None:
        return CheckOutcome()
    ctes = frozenset(c.alias_or_name.lower() for c in tree.find_all(exp.CTE))
    compared = _compared(tree, tied)
    rows = [(n, s, v) for n, s, v in compared if _on_rows(n, s, ctes)]
    if any(_HOLDS_TOTAL.search(s.name) for _, s, _ in rows):
        return CheckOutcome()
    if not rows or len(rows) != len(compared):
        return CheckOutcome()
    node, side, number = rows[0]
    return CheckOutcome(
        (
            finding(
                "signal.total_bound_on_rows",
                f"The question bounds a total by {number:g}, but the SQL bounds single rows "
                f"({node.sql()}) and adds nothing up before comparing: it keeps each row over "
                "the bound, not each total over it. Compare the SUM per group (HAVING) instead.",
                condition=node.sql(),
                column=side.sql(),
            ),
        )
    )
