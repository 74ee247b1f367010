"""A rate asked as a ratio of totals: ``aggregate_fit``'s reading of "rate", "share", "fraction".

"What was the click-through rate of the campaign?" is ``sum(clicks) * 1.0 / sum(impressions)``,
and "what fraction of line items were returned?" ``sum(CASE ...) * 1.0 / count(*)``: each SUM is
one side of the ratio the question asks, not a total it never asked (outside tryout 26, s_r3,
p1, p3: right answers withheld as "the SQL adds up (SUM) but the question asks for no total").
A SUM returned on its own beside the ratio is still judged.
"""

from __future__ import annotations

import re

from sqlglot import exp

__all__ = ["RATE", "rate_per_unit", "sums_in_ratio"]

# Words that ask for a ratio: an AVG of an indicator or a quotient of totals ("the 3-month
# mortality rate", "what share of line items", "the market share"). "share" only as a noun:
# "customers who share an address" asks no ratio.
RATE = re.compile(
    r"\b(rate|ratio|proportion|percentage|percent|fraction|(?:market )?share(?= of\b)|"
    r"market share)\b",
    re.IGNORECASE,
)


def sums_in_ratio(question: str, tree: exp.Expr) -> bool:
    """The question asks a rate and every SUM of the SQL is inside a division (a side of the
    asked ratio)."""
    if not RATE.search(question):
        return False
    sums = list(tree.find_all(exp.Sum))
    return bool(sums) and all(_divided(node) for node in sums)


def _divided(node: exp.Expr) -> bool:
    """Whether ``node`` sits inside a division within its own SELECT, or is projected under a
    name that a division elsewhere in the query reads (``WITH t AS (SELECT sum(tax) AS tax,
    sum(spend) AS total ...) SELECT 100.0 * tax / total FROM t``; agreed20: withheld as "adds
    up (SUM) but the question asks for no total"), or is the one column of a scalar subquery
    that does (``_scalar_value``)."""
    child, parent = node, node.parent
    while parent is not None:
        if isinstance(parent, exp.Div):
            return True
        if isinstance(parent, exp.Alias) and isinstance(parent.parent, exp.Select):
            return _read_divided(node.root(), parent.alias, parent.parent)
        if isinstance(parent, exp.Query):
            wrapper = _scalar_value(parent, child)
            if wrapper is None:
                return False
            child, parent = wrapper, wrapper.parent
            continue
        child, parent = parent, parent.parent
    return False


def _scalar_value(select: exp.Query, projected: exp.Expr) -> exp.Expr | None:
    """The subquery whose value is ``select``'s one column ``projected`` (``(SELECT sum(paid)
    FROM t)`` under a division: agreed22, a weekend share over a CTE's per-group totals, withheld
    as "adds up (SUM) but the question asks for no total"); ``None`` for any other SELECT."""
    wrapper = select.parent
    if not isinstance(select, exp.Select) or len(select.expressions) != 1:
        return None
    if select.expressions[0] is not projected:
        return None
    if not isinstance(wrapper, exp.Subquery) or isinstance(wrapper.parent, (exp.From, exp.Join)):
        return None
    return wrapper


def _read_divided(tree: exp.Expr, name: str, own: exp.Select) -> bool:
    """Whether a division outside ``own`` reads a column called ``name``."""
    return any(
        column.name.lower() == name.lower() and column.find_ancestor(exp.Select) is not own
        for div in tree.find_all(exp.Div)
        for column in div.find_all(exp.Column)
    )


_AGGREGATE = (exp.Sum, exp.Count, exp.Avg)


def rate_per_unit(question: str, tree: exp.Expr) -> bool:
    """ "The rate of clicks per impression" over ``sum(clicks) / sum(impressions)``: "per" names
    the ratio's denominator, not a group (outside tryout 26, p2: withheld as grouping_missing).
    Only with a rate word, no "each" or "every", and a division of two aggregates."""
    text = question.lower()
    if not RATE.search(text) or not re.search(r"\bper\b", text):
        return False
    if re.search(r"\b(each|every)\b", text):
        return False
    return any(
        div.this.find(*_AGGREGATE) is not None and div.expression.find(*_AGGREGATE) is not None
        for div in tree.find_all(exp.Div)
    )
