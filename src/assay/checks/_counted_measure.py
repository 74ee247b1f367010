"""A total of a measure asked, and the SQL counting that measure's rows.

"What total quantity did we ship by MAIL in 1997?" as ``SELECT count(l_quantity) FROM lineitem
WHERE ...`` counts the line items shipped (the rows whose quantity is not NULL), not the
quantity shipped, ``sum(l_quantity)`` (agreed22, a development set: shown at 1.00, five samples
agreeing). ``aggregate_fit`` never says that a count disagrees with "total": "the total number
of orders" is a count.

``measure_counted`` fires only when the words right after "total" (or "sum of", "combined")
spell the counted column's own name, less a short table prefix ("total quantity":
``l_quantity``; "total net profit": ``ss_net_profit``), the COUNT is not DISTINCT, the column
is a number in the catalogue, and the SQL sums it nowhere. "The total number of items" names
no column after "total" and is silent.
"""

from __future__ import annotations

import re

from sqlglot import exp

from assay.catalog import Catalog
from assay.checks._values import _owner

__all__ = ["measure_counted"]

_TOTAL = re.compile(r"\b(?:total|sum of(?: the)?|combined)\s+((?:[a-z]+\s*){1,3})", re.IGNORECASE)
_NUMBER_TYPES = re.compile(
    r"^(?:decimal|numeric|double|float|real|int|integer|bigint|smallint|tinyint|hugeint)",
    re.IGNORECASE,
)


def _spelled(column: str) -> str:
    """A column's name glued, less a short table prefix: ``l_quantity`` -> ``quantity``."""
    parts = [p for p in re.split(r"[^a-z0-9]+", column.lower()) if p]
    if len(parts) > 1 and len(parts[0]) <= 2:
        parts = parts[1:]
    return "".join(parts)


def _totals(question: str) -> set[str]:
    """Every run of one to three words right after a total's cue, glued.

    Example:
        >>> sorted(_totals("What total quantity did we ship?"))
        ['quantity', 'quantitydid', 'quantitydidwe']
    """
    out: set[str] = set()
    for match in _TOTAL.finditer(" ".join(question.split())):
        following = match.group(1).lower().split()
        out |= {"".join(following[:n]) for n in range(1, len(following) + 1)}
    return out


def measure_counted(question: str, tree: exp.Expr, catalog: Catalog) -> str | None:
    """What is wrong with "total quantity" as ``count(l_quantity)`` (the module docstring), or
    ``None``."""
    totals = _totals(question)
    if not totals:
        return None
    summed = {c.name.lower() for s in tree.find_all(exp.Sum) for c in s.find_all(exp.Column)}
    for count in tree.find_all(exp.Count):
        column = count.this
        if not isinstance(column, exp.Column) or column.name.lower() in summed:
            continue
        owner = _owner(column, tree, catalog)
        info = catalog.table(owner[0]) if owner is not None else None
        described = info.column(owner[1]) if info is not None and owner is not None else None
        if described is None or not _NUMBER_TYPES.match(described.type):
            continue
        if _spelled(column.name) in totals:
            return (
                f"the question asks for the total {column.name} but the SQL counts its rows "
                f"(COUNT({column.sql()})), not their sum (SUM({column.sql()}))"
            )
    return None
