"""A year the question asks for, carried in the SQL only by a number compared with a key or an
amount.

"What was the gross revenue in 2023?" answered with ``year(order_date) = 2022 AND order_id <>
2023`` was shown (outside re-check of tryout 38): the literal 2023 is in the SQL, so
``literal_missing`` was silent, but it is an order's id, not a year. A year asked is carried by
a date or a year compared with a date (``'2023-01-01'``, ``year(d) = 2023``, ``d_year =
2023``), never by a number compared with a column whose name says a key or an amount and no
time (``order_id``, ``c_custkey``, ``total_price``). ``year_only_on_keys`` names those columns
when every literal holding the year is one, so ``literal_fit`` reports the year as missing.
"""

from __future__ import annotations

import re

from sqlglot import exp

__all__ = ["year_only_on_keys"]

# A number said as a year: after a word of time ("in 2023", "the year 2023"); "of 2000",
# "between 2000 and 3000" and "from 2000" may say amounts.
_SAID_AS_YEAR = (
    r"\b(?:in|during|since|before|after|until|till|through|year)"
    r"\s+(?:the\s+)?(?:year\s+)?(?:of\s+)?{year}\b(?!\s*(?:units|items|dollars|points|%))"
)
# Words of a column's name that say it keys rows or measures an amount.
_KEY_OR_AMOUNT = frozenset(
    "id key sk no nr num number code amount price total qty quantity count cost revenue "
    "balance salary".split()
)
# Words of a column's name that say a time: a year compared with it may be one.
_TIME = frozenset(
    "date time year yr day month week quarter period season dt ts created updated born "
    "birth fiscal fy".split()
)
_COMPARISONS = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.In, exp.Between)


def _name_words(name: str) -> set[str]:
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", name)
    return {p for p in re.split(r"[^a-z0-9]+", spaced.lower()) if p}


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _keyed_column(literal: exp.Literal) -> str | None:
    """The column a numeric literal is compared with, when its name says a key or an amount
    and no time (through parentheses and casts)."""
    node: exp.Expr = literal
    while isinstance(node.parent, (exp.Paren, exp.Cast, exp.Neg)):
        node = node.parent
    parent = node.parent
    if isinstance(parent, exp.Tuple):  # x IN (2022, 2023) through sqlglot's tuple
        parent = parent.parent
    if not isinstance(parent, _COMPARISONS):
        return None
    column = parent.this if parent.this is not node else parent.args.get("expression")
    while isinstance(column, (exp.Paren, exp.Cast)):
        column = column.this
    if not isinstance(column, exp.Column):
        return None
    named = _name_words(column.name)
    if not named & _KEY_OR_AMOUNT or named & _TIME:
        return None
    return column.sql()


def year_only_on_keys(value: float, question: str, tree: exp.Expr) -> list[str]:
    """The key or amount columns the SQL compares the year ``value`` with, when the question
    says it as a year and no other literal of the SQL holds it; empty otherwise.

    Example:
        >>> from sqlglot import parse_one
        >>> q = "What was the gross revenue in 2023?"
        >>> year_only_on_keys(2023.0, q, parse_one("SELECT 1 FROM o WHERE o.order_id <> 2023"))
        ['o.order_id']
        >>> year_only_on_keys(2023.0, q, parse_one("SELECT 1 FROM o WHERE year(d) = 2023"))
        []
    """
    if not (value.is_integer() and 1900 <= value <= 2099):
        return []
    year = str(int(value))
    if not re.search(_SAID_AS_YEAR.format(year=year), question, re.IGNORECASE):
        return []
    literals = list(tree.find_all(exp.Literal))
    if any(lit.is_string and year in lit.name for lit in literals):
        return []  # a date, or a year written as text
    holding = [lit for lit in literals if not lit.is_string and _number(lit.name) == value]
    if not holding:
        return []
    columns = [_keyed_column(lit) for lit in holding]
    if any(c is None for c in columns):
        return []
    return sorted({c for c in columns if c is not None})
