"""A change between two periods divided by the later period's value instead of the earlier's.

"By what percentage did catalog sales net paid grow from 1999 to 2000?" is ``(s2000 - s1999) /
s1999``: growth is measured against where it started. Written as ``100.0 * (sum(CASE WHEN
d_year = 2000 THEN cs_net_paid ELSE 0 END) - sum(CASE WHEN d_year = 1999 THEN cs_net_paid ELSE 0
END)) / sum(CASE WHEN d_year = 2000 THEN cs_net_paid ELSE 0 END)`` it divides by the 2000 total
and understates the growth (agreed22, h22_d16: shown at 1.00, five samples agreeing).

``growth_over_later`` says so (``signal.growth_over_later``) when the question asks a change
(grow, increase, decline, change, ...; not "as a percentage of" some total it names), a
division's numerator is the difference of two values of one measure at two periods, and its
denominator is the later one. Two values are one measure at two periods when they are the same
expression but for their numbers or ISO dates (``CASE WHEN d_year = 2000 ...`` and ``... =
1999``; two scalar subqueries ``WHERE y = 2000`` and ``= 1999``; columns a CTE defines so), every
differing literal earlier on one side than the other; or a value and its ``LAG`` (the row
before) or ``LEAD``. A decline written ``(old - new) / old`` divides by the earlier: silent.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._sql import bare
from assay.checks._where import finding, tree_of
from assay.types import Finding

__all__ = ["growth_over_later"]

_CHANGE = re.compile(
    r"\b(grow|grows|grew|grown|growth|increase[sd]?|increasing|rise|rises|rose|risen|"
    r"change[sd]?|decline[sd]?|declining|drop|dropped|fall|falls|fell|fallen|decrease[sd]?|"
    r"shrink|shrank|shrunk|jump|jumped)\b",
    re.IGNORECASE,
)
# "the increase as a percentage of 2000's total": the base is named, whatever it is
_BASE_NAMED = re.compile(r"\bas an? (percentage|percent|share|fraction|proportion) of\b", re.I)
_ISO_DATE = re.compile(r"^\d{4}(-\d{2}){0,2}$")


def growth_over_later(ctx: CheckContext) -> CheckOutcome:
    """``signal.growth_over_later``: a change divided by the later period's value (the module
    docstring)."""
    if not _CHANGE.search(ctx.question) or _BASE_NAMED.search(ctx.question):
        return CheckOutcome()
    tree = tree_of(ctx)
    if tree is None:
        return CheckOutcome()
    for div in tree.find_all(exp.Div):
        difference = bare(div.this)
        if not isinstance(difference, exp.Sub):
            continue
        sides = (bare(difference.this), bare(difference.expression), bare(div.expression))
        # as written (``s - lag(s)``), then each column read as what defines it
        for terms in (sides, tuple(_defined(side, tree) for side in sides)):
            later = _later(terms[0], terms[1])
            if later is not None and terms[2] == terms[later] != terms[1 - later]:
                return CheckOutcome((_finding(sides[2], sides[1 - later]),))
        later = _later_row(sides[0], sides[1], div)
        if later is not None and sides[2] == sides[later] != sides[1 - later]:
            return CheckOutcome((_finding(sides[2], sides[1 - later]),))
    return CheckOutcome()


def _later_row(a: exp.Expr, b: exp.Expr, div: exp.Div) -> int | None:
    """0 when ``a`` and ``b`` are one column of two rows of one table (a self-join: ``b.total
    - a.total``) and the SELECT picks ``a``'s row at a later period (``a.yr = 1996 AND b.yr =
    1995``), 1 when ``b``'s, else ``None`` (agreed25 h25_h02: growth from 1995 to 1996 over
    ``FROM y a, y b WHERE a.yr = 1995 AND b.yr = 1996`` divided by ``b.total``, shown).

    Example:
        >>> from sqlglot import parse_one
        >>> sql = "SELECT (b.t - a.t) / b.t FROM y a, y b WHERE a.yr = 1995 AND b.yr = 1996"
        >>> div = parse_one(sql).find(exp.Div)
        >>> _later_row(parse_one("b.t"), parse_one("a.t"), div)
        0
    """
    if not (isinstance(a, exp.Column) and isinstance(b, exp.Column)):
        return None
    if a.name.lower() != b.name.lower() or not a.table or a.table == b.table:
        return None
    select = div.find_ancestor(exp.Select)
    if select is None:
        return None
    periods: dict[str, dict[str, exp.Literal]] = {a.table: {}, b.table: {}}
    for eq in select.find_all(exp.EQ):
        column, value = bare(eq.this), bare(eq.expression)
        if isinstance(value, exp.Column) and isinstance(column, exp.Literal):
            column, value = value, column
        if isinstance(column, exp.Column) and isinstance(value, exp.Literal):
            if column.table in periods and eq.find_ancestor(exp.Select) is select:
                periods[column.table][column.name.lower()] = value
    shared = sorted(set(periods[a.table]) & set(periods[b.table]))
    pairs = [(periods[a.table][c], periods[b.table][c]) for c in shared]
    orders = {_order(x, y) for x, y in pairs if x != y}  # the same region on both: no period
    return orders.pop() if len(orders) == 1 and None not in orders else None


def _defined(node: exp.Expr, tree: exp.Expr) -> exp.Expr:
    """What a column stands for when another SELECT of the query defines it under that name,
    once (``WITH y AS (SELECT sum(CASE ...) AS s2000 ...) SELECT (s2000 - s1999) / s2000``)."""
    if not isinstance(node, exp.Column):
        return node
    own = node.find_ancestor(exp.Select)
    found = [
        a.this
        for a in tree.find_all(exp.Alias)
        if a.alias.lower() == node.name.lower() and a.find_ancestor(exp.Select) is not own
    ]
    return bare(found[0]) if len(found) == 1 else node


def _later(a: exp.Expr, b: exp.Expr) -> int | None:
    """0 when ``a`` is ``b`` at a later period, 1 when ``b`` is ``a`` at a later one, ``None``
    when they are not one measure at two periods (the module docstring).

    Example:
        >>> from sqlglot import parse_one
        >>> year = "sum(CASE WHEN y = {} THEN x END)"
        >>> _later(parse_one(year.format(2000)), parse_one(year.format(1999)))
        0
        >>> _later(parse_one("s"), parse_one("lag(s) OVER (ORDER BY y)"))
        0
    """
    for one, other, index in ((a, b, 0), (b, a, 1)):
        shifted = one.this if isinstance(one, exp.Window) else None
        if isinstance(shifted, exp.Lag) and shifted.this == other:
            return 1 - index  # one is the row before other: other is later
        if isinstance(shifted, exp.Lead) and shifted.this == other:
            return index
    literals_a, literals_b = list(a.find_all(exp.Literal)), list(b.find_all(exp.Literal))
    if len(literals_a) != len(literals_b) or _masked(a) != _masked(b):
        return None
    pairs = [(x, y) for x, y in zip(literals_a, literals_b, strict=True) if x != y]
    orders = {_order(x, y) for x, y in pairs}
    return orders.pop() if len(orders) == 1 and None not in orders else None


def _masked(node: exp.Expr) -> exp.Expr:
    """``node`` with every literal replaced by one placeholder."""
    return node.copy().transform(
        lambda n: exp.Literal.string("?") if isinstance(n, exp.Literal) else n
    )


def _order(x: exp.Literal, y: exp.Literal) -> int | None:
    """0 when ``x`` is a later number or ISO date than ``y``, 1 when earlier, else ``None``."""
    if x.is_string and y.is_string:
        if not (_ISO_DATE.match(x.name) and _ISO_DATE.match(y.name)):
            return None
        return 0 if x.name > y.name else 1
    if x.is_string or y.is_string:
        return None
    try:
        return 0 if float(x.name) > float(y.name) else 1
    except ValueError:
        return None


def _finding(base: exp.Expr, earlier: exp.Expr) -> Finding:
    return finding(
        "signal.growth_over_later",
        "The question asks how much a value changed from one period to another, but the SQL "
        f"divides the change by the later period's value ({base.sql()}); a change is measured "
        f"against the earlier period, where it started: divide by {earlier.sql()}.",
        base=base.sql(),
        earlier=earlier.sql(),
    )
