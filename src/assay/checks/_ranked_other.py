"""A ranking that shows one measure and orders by another the question never names.

"Which 3 products sold the most units?" as ``SELECT p.product_name, SUM(s.units_sold) AS units
... ORDER BY SUM(s.sales_amount) DESC LIMIT 3`` returns the three best sellers by money, each
beside its units (agreed19, a development set: shown at 1.00, five samples agreeing). The SQL
keeps the first rows of an order (a LIMIT) by an aggregate it does not return, over columns
none of whose words the question says, while it returns an aggregate over a column the
question names ("units" in ``units_sold``): ``signal.ranked_by_other_measure``.

Silent when the ORDER BY is a returned column or its alias, when the question names a word of
the ordering column ("the 3 products with the highest sales, with their units"), and without a
LIMIT (an order alone changes no row).
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._where import finding, tree_of

__all__ = ["ranked_by_other_measure"]


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def name_words(name: str) -> frozenset[str]:
    """The words of a column's name, stemmed (``units_sold`` -> units, sold).

    Example:
        >>> sorted(name_words("units_sold")), sorted(name_words("salesAmount"))
        (['sold', 'unit'], ['amount', 'sale'])
    """
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", name)
    return frozenset(_stem(w) for w in re.split(r"[^a-z0-9]+", spaced.lower()) if len(w) > 2)


def _columns(node: exp.Expr) -> frozenset[str]:
    return frozenset(c.name for c in node.find_all(exp.Column))


def _said(question: str, columns: frozenset[str]) -> bool:
    asked = {_stem(w) for w in re.findall(r"[a-z0-9]+", question.lower())}
    return any(name_words(c) & asked for c in columns)


def ranked_by_other_measure(ctx: CheckContext) -> CheckOutcome:
    """``signal.ranked_by_other_measure``: "sold the most units" ranked by
    ``SUM(sales_amount)`` (the module docstring)."""
    tree = tree_of(ctx)
    order = tree.args.get("order") if isinstance(tree, exp.Select) else None
    if tree is None or order is None or tree.args.get("limit") is None:
        return CheckOutcome()
    first = order.expressions[0].this
    shown = [p.unalias() for p in tree.expressions if p.find(exp.AggFunc) is not None]
    if not isinstance(first, exp.AggFunc) or any(first == p for p in shown):
        return CheckOutcome()
    ordered = _columns(first)
    named = [p for p in shown if _said(ctx.question, _columns(p))]
    if not ordered or not named or _said(ctx.question, ordered):
        return CheckOutcome()
    return CheckOutcome(
        (
            finding(
                "signal.ranked_by_other_measure",
                f"The SQL returns {named[0].sql()}, the measure the question names, but ranks "
                f"the rows by {first.sql()}, which it never names: the rows kept are the top "
                "ones by another measure.",
                shown=named[0].sql(),
                ordered=first.sql(),
            ),
        )
    )
