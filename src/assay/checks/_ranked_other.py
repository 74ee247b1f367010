"""A ranking that shows one measure and orders by another the question never names.

"Which 3 products sold the most units?" as ``SELECT p.product_name, SUM(s.units_sold) AS units
... ORDER BY SUM(s.sales_amount) DESC LIMIT 3`` returns the three best sellers by money, each
beside its units (agreed19, a development set: shown at 1.00, five samples agreeing). The SQL
keeps the first rows of an order (a LIMIT) by an aggregate it does not return, over columns
none of whose words the question says, while it returns an aggregate over a column the
question names ("units" in ``units_sold``), by a column's words or by the measure's alias:
``signal.ranked_by_other_measure``.

Silent when the ORDER BY is a returned column or its alias, when the question names a word of
the ordering column ("the 3 products with the highest sales, with their units") unless the words
after its ranking word name more of the returned measure ("the highest store sales net profit"
ranked by ``ss_ext_sales_price``: outside tryout 28, w11), and without a LIMIT (an order alone
changes no row).
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._qualified import stem
from assay.checks._sql import referenced_tables
from assay.checks._where import finding, tree_of

__all__ = ["ranked_by_other_measure"]


def _stem(word: str) -> str:
    """A word less a plural "s", three letters left at the least ("units": "unit")."""
    return stem(word, ("s",), 3)


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


def _named_by(projection: exp.Expr) -> frozenset[str]:
    """The names a returned measure goes by: its columns', and its alias ("top 3 categories by
    units sold" says ``sum(ws_quantity) AS units_sold`` by its alias alone: agreed22, ranked by
    ``sum(ws_net_paid)`` and shown)."""
    alias = projection.alias if isinstance(projection, exp.Alias) else ""
    return _columns(projection.unalias()) | ({alias} if alias else frozenset())


def _said(question: str, columns: frozenset[str]) -> bool:
    asked = {_stem(w) for w in re.findall(r"[a-z0-9]+", question.lower())}
    return any(name_words(c) & asked for c in columns)


# The words after a ranking word name the measure ranked by: "the highest store sales net
# profit", "sold the most units", up to the next preposition or punctuation.
_RANKING = re.compile(
    r"\b(?:highest|most|top|largest|biggest|greatest|best|lowest|least|fewest|smallest|worst)"
    r"((?:\s+(?!in\b|of\b|for\b|during\b|by\b|with\b|from\b|per\b|and\b|at\b|on\b)"
    r"[a-z0-9]+){1,6})"
)


def _ranked_by_shown(question: str, shown: exp.Expr, ordered: exp.Expr) -> bool:
    """The words after the question's ranking word name more of the returned measure's column
    than of the ordering one: "the highest store sales net profit" says net and profit of
    ``ss_net_profit`` and only "sales" of ``ss_ext_sales_price``, a word of their table shared
    by every store measure (outside tryout 28, w11: ranked by sales, shown at 1.00).

    Example:
        >>> from sqlglot import parse_one
        >>> q = "Which 5 items earned the highest store sales net profit in 2000?"
        >>> shown = parse_one("sum(ss_net_profit)")
        >>> _ranked_by_shown(q, shown, parse_one("sum(ss_ext_sales_price)"))
        True
        >>> _ranked_by_shown("the 3 products with the highest sales, with their units",
        ...     parse_one("sum(units_sold)"), parse_one("sum(sales_amount)"))
        False
    """
    ranked = {_stem(w) for m in _RANKING.finditer(question.lower()) for w in m.group(1).split()}

    def said(node: exp.Expr) -> int:
        return len(frozenset().union(*(name_words(c) for c in _columns(node))) & ranked)

    return said(shown) > said(ordered)


_NUMBER_TYPES = ("INT", "DEC", "NUM", "REAL", "FLOAT", "DOUBLE")
# a key, a code or a number that names a row is never a measure ranked by
_KEY = re.compile(r"(?:sk|id|key|code|number|nbr|num|no)$")


def _ranked_column(ctx: CheckContext, tree: exp.Select, first: exp.Expr) -> str | None:
    """The one numeric column of the tables read that the words after the question's ranking
    word name in full ("the most impressions": ``impressions``), when the SQL orders by
    columns none of whose words the question says (``ORDER BY clicks``); else None. A key or
    a code is never a measure ranked by."""
    if ctx.catalog is None:
        return None
    ordered = _columns(first)
    if isinstance(first, exp.Column) and not first.table:  # ORDER BY an output's alias
        aliased = [p.unalias() for p in tree.expressions if p.alias_or_name == first.name]
        ordered |= _columns(aliased[0]) if aliased else frozenset()
    if not ordered or _said(ctx.question, ordered):
        return None
    ranked = {_stem(w) for m in _RANKING.finditer(ctx.question.lower()) for w in m.group(1).split()}
    lowered = {c.lower() for c in ordered}
    named = sorted(
        {
            column.name
            for table in referenced_tables(tree)
            if (info := ctx.catalog.table(table)) is not None
            for column in info.columns
            if column.name.lower() not in lowered
            and any(k in column.type.upper() for k in _NUMBER_TYPES)
            and not _KEY.search(column.name.lower())
            and name_words(column.name) - name_words(table)  # not the table's own name
            and name_words(column.name) <= ranked
        }
    )
    return named[0] if len(named) == 1 else None


def ranked_by_other_measure(ctx: CheckContext) -> CheckOutcome:
    """``signal.ranked_by_other_measure``: "sold the most units" ranked by
    ``SUM(sales_amount)``, or "the day with the most impressions" ranked by ``clicks`` (the
    module docstring)."""
    tree = tree_of(ctx)
    order = tree.args.get("order") if isinstance(tree, exp.Select) else None
    if not isinstance(tree, exp.Select) or order is None or tree.args.get("limit") is None:
        return CheckOutcome()
    first = order.expressions[0].this
    other = _ranked_column(ctx, tree, first)
    if other is not None:
        return CheckOutcome(
            (
                finding(
                    "signal.ranked_by_other_measure",
                    f"The question ranks by {other} but the SQL orders the rows by "
                    f"{first.sql()}, which it never names: the rows kept are the top ones by "
                    f"another measure. Order by {other}.",
                    shown=other,
                    ordered=first.sql(),
                ),
            )
        )
    projections = [p for p in tree.expressions if p.find(exp.AggFunc) is not None]
    shown = [p.unalias() for p in projections]
    if not isinstance(first, exp.AggFunc) or any(first == p for p in shown):
        return CheckOutcome()
    ordered = _columns(first)
    named = [p.unalias() for p in projections if _said(ctx.question, _named_by(p))]
    if not ordered or not named:
        return CheckOutcome()
    if _said(ctx.question, ordered) and not _ranked_by_shown(ctx.question, named[0], first):
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
