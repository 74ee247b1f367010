"""A join that pairs a key with another key, while the table carries the matching one.

"Break down total revenue by product line" as ``daily_revenue d JOIN product p ON d.Region_id =
p.Product_id`` pairs each region's number with a product's (agreed19, a development set: shown
at 1.00, five samples agreeing): the numbers overlap, so the join runs and the key-overlap
check passes, though ``daily_revenue`` has a ``Product_id`` of its own. A join ``a.x = b.y``
between two tables, both columns named as keys (``..._id``, ``..._key``, ``id``), whose names
differ while ``a`` also has a column named ``y`` that the query never equates with ``b.y``:
``signal.join_on_other_key``.

Silent on a self-join (one table), on columns not named as keys, and when the same-named column
is joined too; a key of another name (``orders.customer = customers.id``) is no evidence.
"""

from __future__ import annotations

import re

from assay.checks._context import CheckContext, CheckOutcome
from assay.checks._sql import equi_join_pairs
from assay.checks._where import finding, tree_of

__all__ = ["join_on_other_key"]

_KEY_NAME = re.compile(r"(?:^|_)(?:id|key)$|[a-z](?:Id|ID|Key)$")


def _looks_like_key(column: str) -> bool:
    """A column named as a key: ``id``, ``product_id``, ``ProductID``, ``p_key``.

    Example:
        >>> [_looks_like_key(c) for c in ("Region_id", "ProductID", "category", "paid")]
        [True, True, False, False]
    """
    return bool(_KEY_NAME.search(column)) or bool(_KEY_NAME.search(column.lower()))


def join_on_other_key(ctx: CheckContext) -> CheckOutcome:
    """``signal.join_on_other_key``: ``d.Region_id = p.Product_id`` while ``d`` has a
    ``Product_id`` (the module docstring)."""
    tree = tree_of(ctx) if ctx.catalog is not None else None
    if tree is None or ctx.catalog is None:
        return CheckOutcome()
    pairs = equi_join_pairs(tree, ctx.catalog)
    joined = {(t.lower(), c.lower()) for pair in pairs for t, c in pair}
    for pair in pairs:
        for (table, column), (other, other_column) in (pair, pair[::-1]):
            if column.lower() == other_column.lower():
                continue
            if not (_looks_like_key(column) and _looks_like_key(other_column)):
                continue
            info = ctx.catalog.table(table)
            own = info.column(other_column) if info is not None else None
            if own is None or (table.lower(), own.name.lower()) in joined:
                continue
            return CheckOutcome(
                (
                    finding(
                        "signal.join_on_other_key",
                        f"The SQL joins {table}.{column} to {other}.{other_column}, but {table} "
                        f"has a column {own.name} of its own: the join pairs one key with "
                        f"another. Join on {table}.{own.name} = {other}.{other_column}.",
                        join=f"{table}.{column} = {other}.{other_column}",
                        own=f"{table}.{own.name}",
                    ),
                )
            )
    return CheckOutcome()
