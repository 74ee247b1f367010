"""An average written out as a total divided by a count: ``aggregate_fit``'s and
``grouping_fit``'s reading of ``sum(x) / count(...)``.

"What's the average tax paid by customers with at least 50 orders?" is ``avg(tax)`` or, written
out, ``sum(tax) / count(*)``; "the average net profit per catalog order" is the total profit
divided by the number of orders, ``sum(cs_net_profit) / count(DISTINCT cs_order_number)``, with
no GROUP BY (agreed20: both right answers were withheld, as "no AVG", "adds up (SUM) but no
total asked", "counts distinct values" and "a value per group without GROUP BY").

- ``written_averages``: the divisions of the SQL whose numerator is a SUM and whose denominator
  a COUNT: each is an average, and its SUM is a side of it, not a total returned.
- ``counted_per``: "per <noun>" answered by such a division whose COUNT(DISTINCT) counts a
  column named after the noun (``cs_order_number`` for "per catalog order"): the division is
  the average per that thing, so the DISTINCT is asked and no group is missing. "per" only,
  never "each" or "every" (those ask for one value per group).
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.checks._key_names import says_noun, unglued

__all__ = ["counted_per", "sums_averaged", "written_averages"]

_PER = re.compile(r"\bper\s+([a-z_]+)(?:\s+([a-z_]+))?")


def written_averages(tree: exp.Expr) -> list[exp.Div]:
    """The divisions ``SUM(...) / COUNT(...)`` of ``tree`` (a cast or a factor around either
    side is read through: ``sum(x) * 1.0 / count(*)``).

    Example:
        >>> from sqlglot import parse_one
        >>> len(written_averages(parse_one("SELECT sum(t) / count(*) FROM c")))
        1
        >>> len(written_averages(parse_one("SELECT sum(t) / sum(n) FROM c")))
        0
    """
    return [
        div
        for div in tree.find_all(exp.Div)
        if _top(div.this, exp.Sum) is not None and _top(div.expression, exp.Count) is not None
    ]


def sums_averaged(tree: exp.Expr) -> bool:
    """Whether every SUM of ``tree`` is the numerator of a written average."""
    sums = list(tree.find_all(exp.Sum))
    numerators = [_top(div.this, exp.Sum) for div in written_averages(tree)]
    return bool(sums) and all(any(s is n for n in numerators) for s in sums)


def counted_per(question: str, tree: exp.Expr) -> list[exp.Expr]:
    """The COUNT(DISTINCT column) denominators of written averages whose column names the noun
    said after "per" (the module docstring); empty when "each" or "every" is said.

    Example:
        >>> from sqlglot import parse_one
        >>> sql = "SELECT sum(cs_net_profit) / count(DISTINCT cs_order_number) FROM catalog_sales"
        >>> len(counted_per("Average net profit per catalog order?", parse_one(sql)))
        1
        >>> len(counted_per("Average net profit per catalog item?", parse_one(sql)))
        0
    """
    text = " ".join(question.lower().split())
    match = _PER.search(text)
    if match is None or re.search(r"\b(each|every)\b", text):
        return []
    nouns = {w.rstrip("s") for w in match.groups() if w and len(w) > 3}
    found = []
    for div in written_averages(tree):
        count = _top(div.expression, exp.Count)
        distinct = count.this if count is not None else None
        if count is None or not isinstance(distinct, exp.Distinct):
            continue
        columns = distinct.expressions
        if len(columns) == 1 and isinstance(columns[0], exp.Column):
            if _names_noun(columns[0].name, nouns):
                found.append(count)
    return found


def _names_noun(column: str, nouns: set[str]) -> bool:
    """Whether a word of ``column`` after its short prefix is one of ``nouns``."""
    parts = [p for p in re.split(r"[^a-z0-9]+", column.lower()) if p]
    stems = [unglued(p)[0].rstrip("s") for p in parts[1:] if len(p) > 3]
    return any(says_noun(stem, noun) for stem in stems for noun in nouns)


def _top(node: exp.Expr, kind: type[exp.Expr]) -> exp.Expr | None:
    """``node`` itself when it is a ``kind``, read through casts, parentheses, NULLIF and
    multiplication by a constant; else None."""
    while True:
        if isinstance(node, kind):
            return node
        if isinstance(node, (exp.Cast, exp.TryCast, exp.Paren, exp.Nullif)):
            node = node.this
        elif isinstance(node, exp.Mul) and isinstance(node.expression, exp.Literal):
            node = node.this
        elif isinstance(node, exp.Mul) and isinstance(node.this, exp.Literal):
            node = node.expression
        else:
            return None
