"""An average written out as a total divided by a count: ``aggregate_fit``'s and
``grouping_fit``'s reading of ``sum(x) / count(...)``.

"What's the average tax paid by customers with at least 50 orders?" is ``avg(tax)`` or, written
out, ``sum(tax) / count(*)``; "the average net profit per catalog order" is the total profit
divided by the number of orders, ``sum(cs_net_profit) / count(DISTINCT cs_order_number)``, with
no GROUP BY (agreed20: both right answers were withheld, as "no AVG", "adds up (SUM) but no
total asked", "counts distinct values" and "a value per group without GROUP BY").

- ``written_averages``: the divisions of the SQL whose numerator is a SUM and whose denominator
  a COUNT: each is an average, and its SUM is a side of it, not a total returned.
- A denominator may count a whole table in a scalar subquery: ``count(*) * 1.0 / (SELECT
  count(*) FROM customer)`` is the rows per customer, an average (outside tryout 40, F-10:
  "Average number of orders per customer" so was withheld as "no AVG" and "no GROUP BY").
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
# "on average, how many lines does a store ticket have": the thing counted per, said as the
# subject of "have" under an average's word
_HAS = re.compile(
    r"\b(?:does|do|did)\s+(?:a|an|one|the\s+typical|a\s+typical)\s+([a-z_]+)(?:\s+([a-z_]+))?"
)
_AVERAGE = re.compile(r"\b(?:average|avg|mean|typical|typically)\b")


def written_averages(tree: exp.Expr) -> list[exp.Div]:
    """The divisions ``SUM(...) / COUNT(...)`` of ``tree`` (a cast or a factor around either
    side is read through: ``sum(x) * 1.0 / count(*)``).

    Example:
        >>> from sqlglot import parse_one
        >>> len(written_averages(parse_one("SELECT sum(t) / count(*) FROM c")))
        1
        >>> len(written_averages(parse_one("SELECT sum(t) / sum(n) FROM c")))
        0
        >>> len(written_averages(parse_one("SELECT count(*) / count(DISTINCT o) FROM c")))
        1
    """
    return [
        div
        for div in tree.find_all(exp.Div)
        if (
            _top(div.expression, exp.Count) is not None
            and (_top(div.this, exp.Sum) is not None or _rows_per_value(div))
        )
        or (_table_counted(div.expression) is not None and _summed_or_counted(div.this))
    ]


def _summed_or_counted(node: exp.Expr) -> bool:
    """A SUM, or a COUNT of every row (no DISTINCT)."""
    count = _top(node, exp.Count)
    return _top(node, exp.Sum) is not None or (
        count is not None and not isinstance(count.this, exp.Distinct)
    )


def _table_counted(node: exp.Expr) -> str | None:
    """The table a scalar subquery counts every row of, ``(SELECT count(*) FROM customer)``
    with no WHERE, join or grouping, or None.

    Example:
        >>> from sqlglot import parse_one
        >>> _table_counted(parse_one("SELECT 1 / (SELECT count(*) FROM customer)").find(
        ...     exp.Subquery))
        'customer'
    """
    while isinstance(node, (exp.Cast, exp.TryCast, exp.Paren, exp.Nullif)):
        node = node.this
    select = node.this if isinstance(node, exp.Subquery) else None
    if not isinstance(select, exp.Select) or len(select.expressions) != 1:
        return None
    count = _top(select.expressions[0].unalias(), exp.Count)
    source = select.args.get("from_") or select.args.get("from")
    table = source.this if source is not None else None
    if (
        count is None
        or isinstance(count.this, exp.Distinct)
        or not isinstance(table, exp.Table)
        or any(select.args.get(k) for k in ("joins", "where", "group", "having"))
    ):
        return None
    return table.name


def _rows_per_value(div: exp.Div) -> bool:
    """``count(*) / count(DISTINCT x)``: the rows counted per value of x, an average number of
    rows each (agreed25 h25_d18: "on average, how many lines does a store ticket have" as
    ``count(*) * 1.0 / count(DISTINCT ss_ticket_number)`` was withheld as "no AVG")."""
    rows, values = _top(div.this, exp.Count), _top(div.expression, exp.Count)
    return (
        rows is not None
        and not isinstance(rows.this, exp.Distinct)
        and values is not None
        and isinstance(values.this, exp.Distinct)
    )


def sums_averaged(tree: exp.Expr) -> bool:
    """Whether every SUM of ``tree`` is the numerator of a written average."""
    sums = list(tree.find_all(exp.Sum))
    numerators = [_top(div.this, exp.Sum) for div in written_averages(tree)]
    return bool(sums) and all(any(s is n for n in numerators) for s in sums)


def counted_per(question: str, tree: exp.Expr) -> list[exp.Expr]:
    """The COUNT(DISTINCT column) denominators of written averages whose column names the noun
    said after "per" (the module docstring), or said as what "has" the things counted under an
    average's word ("on average, how many lines does a store ticket have"); empty when "each" or
    "every" is said.

    Example:
        >>> from sqlglot import parse_one
        >>> sql = "SELECT sum(cs_net_profit) / count(DISTINCT cs_order_number) FROM catalog_sales"
        >>> len(counted_per("Average net profit per catalog order?", parse_one(sql)))
        1
        >>> len(counted_per("Average net profit per catalog item?", parse_one(sql)))
        0
        >>> lines = "SELECT count(*) / count(DISTINCT ss_ticket_number) FROM store_sales"
        >>> len(counted_per("On average, how many lines does a ticket have?", parse_one(lines)))
        1
    """
    text = " ".join(question.lower().split())
    match = _PER.search(text) or (_HAS.search(text) if _AVERAGE.search(text) else None)
    if match is None or re.search(r"\b(each|every)\b", text):
        return []
    nouns = {w.rstrip("s") for w in match.groups() if w and len(w) > 3}
    found = []
    for div in written_averages(tree):
        counted = _table_counted(div.expression)
        if counted is not None and _names_noun(counted, nouns):
            found.append(div.expression)
            continue
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
    """Whether a word of ``column`` after its short prefix (``cs_``; none in ``driver_id``) is
    one of ``nouns``."""
    parts = [p for p in re.split(r"[^a-z0-9]+", column.lower()) if p]
    parts = parts[1:] if len(parts) > 1 and len(parts[0]) <= 3 else parts
    stems = [unglued(p)[0].rstrip("s") for p in parts if len(p) > 3]
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
